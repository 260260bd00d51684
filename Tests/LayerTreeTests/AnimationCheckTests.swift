import Animations
import Geometry
import LayerTree
import Testing

/// Key paths and value kinds are checked against the property table where an animation is
/// added: a mistake is an error naming the key path, the kind it takes and the nearest name.
@Suite struct AnimationCheckTests {
  @Test func aTypoIsRefusedWithTheNearestKeyPathAndItsKind() {
    let layer = Layer()
    let error = #expect(throws: AnimationKeyPathError.self) {
      try layer.addChecked(BasicAnimation(keyPath: "opactiy", from: 1, to: 0), forKey: "fade")
    }
    #expect(error?.problem == .unknownKeyPath)
    #expect(error?.nearestKeyPath == "opacity")
    #expect(
      error?.description.hasPrefix(
        "animation \"fade\": unknown key path \"opactiy\" (did you mean \"opacity\"? It takes scalar values (Double))"
      ) == true)
    #expect(layer.animationKeys.isEmpty)
  }

  @Test func aValueOfTheWrongKindIsRefused() {
    let error = #expect(throws: AnimationKeyPathError.self) {
      try LayerKeyPath.check(BasicAnimation(keyPath: "opacity", to: Point(1, 2)), key: "fade")
    }
    #expect(error?.problem == .wrongValueKind(found: .point, role: "toValue"))
    #expect(
      error?.description
        == "animation \"fade\": key path \"opacity\" takes scalar values (Double), but toValue is a point value"
    )
  }

  @Test func componentsTakeTheirComponentsKind() throws {
    try LayerKeyPath.check(BasicAnimation(keyPath: "position.x", from: 0, to: 10))
    try LayerKeyPath.check(BasicAnimation(keyPath: "bounds.size", to: Size(10, 20)))
    #expect(throws: AnimationKeyPathError.self) {
      try LayerKeyPath.check(BasicAnimation(keyPath: "position.x", to: Point(1, 2)))
    }
  }

  @Test func keyframeValuesGroupsAndPathsAreChecked() {
    var keyframes = KeyframeAnimation(keyPath: "backgroundColor", values: [Color.red, .blue])
    keyframes.values.append(.scalar(3))
    let error = #expect(throws: AnimationKeyPathError.self) { try LayerKeyPath.check(keyframes) }
    #expect(error?.problem == .wrongValueKind(found: .scalar, role: "values[2]"))

    var along = KeyframeAnimation(keyPath: "opacity")
    along.path = Path(ellipseIn: Rect(0, 0, 10, 10))
    let pathError = #expect(throws: AnimationKeyPathError.self) { try LayerKeyPath.check(along) }
    #expect(pathError?.problem == .pathOnNonPointKeyPath)

    var group = AnimationGroup()
    group.animations = [
      BasicAnimation(keyPath: "position", to: Point(1, 1)),
      BasicAnimation(keyPath: "postion.y", to: 3),
    ]
    let groupError = #expect(throws: AnimationKeyPathError.self) { try LayerKeyPath.check(group) }
    #expect(groupError?.keyPath == "postion.y" && groupError?.nearestKeyPath == "position.y")
  }

  @Test func addNeverTrapsItKeepsTheErrorForTheSceneToReport() {
    let parent = Layer(), child = Layer()
    parent.addSublayer(child)
    child.add(BasicAnimation(keyPath: "opactiy", from: 1, to: 0), forKey: "fade")
    child.add(BasicAnimation(keyPath: "opacity", from: 1, to: 0), forKey: "ok")
    #expect(child.animationKeys == ["ok"])
    #expect(parent.firstAnimationErrorInTree?.keyPath == "opactiy")
    child.removeAnimation(forKey: "fade")
    #expect(parent.firstAnimationErrorInTree == nil)
  }

  @Test func typedValuesBecomeTheirKinds() {
    let move = BasicAnimation(keyPath: "position", from: Point(1, 2), to: Point(3, 4), duration: 2)
    #expect(move.fromValue == .point(Point(1, 2)) && move.toValue == .point(Point(3, 4)))
    #expect(move.byValue == nil && move.duration == 2)
    let fade = BasicAnimation(keyPath: "opacity", from: 1, to: 0.5)
    #expect(fade.fromValue == .scalar(1) && fade.toValue == .scalar(0.5))
    let tint = KeyframeAnimation(keyPath: "backgroundColor", values: [Color.red, .blue])
    #expect(tint.values == [.color(.red), .color(.blue)])
    let spin = SpringAnimation(keyPath: "transform", to: Transform3D.rotation(1))
    #expect(spin.toValue == .transform(Transform3D.rotation(1)))
  }
}
