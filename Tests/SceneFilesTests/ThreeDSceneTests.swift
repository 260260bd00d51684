import Flipbook
import Glibc
import Testing

/// visual-effects.md §7 in scene files: 3D operations, key paths and transform layers.
@Suite struct ThreeDSceneTests {
  func scene(_ layers: String) throws -> Scene {
    let text = "{\"flipbook\": 1, \"size\": [200, 200], \"layers\": [\(layers)]}"
    return try SceneFormat.decode(Array(text.utf8), file: "3d.json")
  }

  func transform(_ operations: String) throws -> Transform3D {
    try scene("{\"name\": \"l\", \"transform\": \(operations)}").layer(named: "l")!.transform
  }

  @Test func operationsReadLikeCATransform3DCalls() throws {
    #expect(
      try transform("[{\"perspective\": 500}, {\"rotateY\": 0.8}]")
        == Transform3D.perspective(distance: 500).rotated(0.8, x: 0, y: 1, z: 0))
    #expect(
      try transform("[{\"translate\": [1, 2, 3]}, {\"scale\": [2, 3, 4]}, {\"rotateX\": 0.5}]")
        == Transform3D.identity.translated(x: 1, y: 2, z: 3).scaled(x: 2, y: 3, z: 4)
        .rotated(0.5, x: 1, y: 0, z: 0))
    #expect(
      try transform("[{\"rotate\": [0.7, 1, 1, 0]}, {\"rotate\": 0.2}]")
        == Transform3D.identity.rotated(0.7, x: 1, y: 1, z: 0).rotated(0.2))
    let entries = (1...16).map(Double.init)
    let list = entries.map { "\(Int($0))" }.joined(separator: ", ")
    #expect(try transform("[{\"matrix3d\": [\(list)]}]").entries == entries)
    // The new operation acts before what the list built so far.
    #expect(
      try transform("[{\"translate\": [10, 0]}, {\"matrix3d\": [\(list)]}]")
        == Transform3D(entries: entries)!.concatenating(.translation(x: 10, y: 0)))
  }

  @Test func transformLayersAndThreeDPropertiesAreRead() throws {
    let s = try scene(
      """
      {"type": "transform", "name": "cube", "sublayerTransform": [{"perspective": 400}],
       "sublayers": [{"name": "face", "isDoubleSided": false, "anchorPointZ": 5,
         "animations": [{"type": "basic", "keyPath": "transform.rotation.y", "fromValue": 0,
           "toValue": 3.14, "duration": 1},
           {"type": "basic", "keyPath": "transform.translation.z", "toValue": 50, "duration": 1},
           {"type": "basic", "keyPath": "transform.scale.z", "toValue": 2, "duration": 1},
           {"type": "basic", "keyPath": "transform.rotation.x", "toValue": 1, "duration": 1},
           {"type": "basic", "keyPath": "isDoubleSided", "toValue": true, "duration": 1}]}]}
      """)
    let cube = try #require(s.layer(named: "cube"))
    #expect(cube is TransformLayer)
    let face = try #require(s.layer(named: "face"))
    #expect(!face.isDoubleSided && face.anchorPointZ == 5)
    #expect(face.animationErrors.isEmpty)
  }
}
