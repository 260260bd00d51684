import Flipbook
import Testing

/// An animation `Layer.add(_:forKey:)` refused makes the scene's frames fail with the reason,
/// on the calling thread and through `Export`'s workers alike, instead of trapping.
@Suite struct InvalidAnimationTests {
  static func scene(keyPath: String) -> Scene {
    let scene = Scene(size: Size(20, 20), duration: 0.2, fps: 10, backgroundColor: .white)
    let dot = Layer()
    dot.bounds = Rect(0, 0, 4, 4)
    dot.add(BasicAnimation(keyPath: keyPath, from: 1, to: 0), forKey: "fade")
    let holder = Layer()
    holder.addSublayer(dot)
    scene.addLayer(holder)
    return scene
  }

  @Test func aFrameFailsWithTheRefusedAnimation() {
    let error = #expect(throws: SceneError.self) {
      _ = try Self.scene(keyPath: "opactiy").makeFrame(at: 0.1)
    }
    guard case .invalidAnimation(let refused)? = error else {
      Issue.record("expected invalidAnimation, got \(String(describing: error))")
      return
    }
    #expect(refused.keyPath == "opactiy" && refused.nearestKeyPath == "opacity")
    #expect(refused.animationKey == "fade")
  }

  @Test func anExportFailsWithTheSameMessage() {
    #expect(throws: SceneError.self) {
      _ = try Export.gifData(SceneRecipe { Self.scene(keyPath: "opactiy") })
    }
    #expect(throws: Never.self) {
      _ = try Export.gifData(SceneRecipe { Self.scene(keyPath: "opacity") })
    }
  }
}
