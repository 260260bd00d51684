import Animations
import Geometry
import LayerTree
import Testing

/// The property groups kept behind a shared reference (`SharedValue`: effects and the 3D extras):
/// copies never see each other's changes, equality is by value, and a plain layer's storage stays
/// small enough that presentation's per-layer copy is cheap.
@Suite struct SharedValueTests {
  @Test func aChangedCopyLeavesTheOriginalAlone() {
    var a = SharedValue([1, 2, 3])
    let b = a
    a.value.append(4)
    #expect(a.value == [1, 2, 3, 4])
    #expect(b.value == [1, 2, 3])
    #expect(a != b)
  }

  @Test func equalityAndHashingAreTheValues() {
    let a = SharedValue("shadow"), b = SharedValue("shadow")
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(Set([a, b]).count == 1)
    #expect(a != SharedValue("other"))
  }

  @Test func layersWithEqualEffectsHaveEqualStorage() {
    let a = Layer(), b = Layer()
    a.shadowOpacity = 0.5
    b.shadowOpacity = 0.5
    a.sublayerTransform = .rotation(0.3)
    b.sublayerTransform = .rotation(0.3)
    #expect(a.storage == b.storage)
    b.anchorPointZ = 2
    #expect(a.storage != b.storage)
    #expect(Layer().storage == Layer().storage)
  }

  @Test func aCopyOfALayerDoesNotShareChangesToItsEffects() {
    let model = Layer()
    model.shadowOpacity = 0.25
    model.isDoubleSided = false
    let copy = model.copyTree()
    copy.shadowOpacity = 0.75
    copy.shadowOffset = Size(width: 4, height: 5)
    copy.isDoubleSided = true
    copy.anchorPointZ = 7
    #expect(model.shadowOpacity == 0.25)
    #expect(model.shadowOffset == Size(width: 0, height: -3))
    #expect(model.isDoubleSided == false)
    #expect(model.anchorPointZ == 0)
    #expect(copy.shadowOpacity == 0.75)
    #expect(copy.shadowOffset == Size(width: 4, height: 5))
    #expect(copy.isDoubleSided == true)
    #expect(copy.anchorPointZ == 7)
  }

  @Test func animatingASharedPropertyLeavesTheModelAlone() {
    let layer = Layer()
    var fade = BasicAnimation(keyPath: "shadowOpacity")
    (fade.fromValue, fade.toValue, fade.duration) = (0, 1, 1)
    layer.add(fade, forKey: "shadow")
    var depth = BasicAnimation(keyPath: "anchorPointZ")
    (depth.fromValue, depth.toValue, depth.duration) = (0, 10, 1)
    layer.add(depth, forKey: "depth")
    let shown = layer.presentation(at: 0.5)
    #expect(shown.shadowOpacity == 0.5)
    #expect(shown.anchorPointZ == 5)
    #expect(layer.shadowOpacity == 0)
    #expect(layer.anchorPointZ == 0)
    #expect(layer.presentation(at: 0.25).shadowOpacity == 0.25)
  }

  @Test func aPlainLayersStorageIsSmall() {
    // Presentation copies this once per layer per frame; effects and the 3D extras are one
    // reference each (inline, they made it about 730 bytes), the layer's own transform is the
    // largest field left (128 bytes).
    #expect(MemoryLayout<LayerStorage>.size <= 448)
  }
}
