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

  /// Through `Export` the error comes wrapped with the frame it was found in (seventeenth
  /// hostile pass: a render's drawing errors did not say which frame).
  @Test func anExportFailsWithTheSameMessage() {
    let error = #expect(throws: FrameDrawingError.self) {
      _ = try Export.gifData(SceneRecipe { Self.scene(keyPath: "opactiy") })
    }
    #expect(error?.underlying is SceneError)
    #expect(error?.frame == 0 && error?.description.hasPrefix("at 0 s (frame 0): ") == true)
    #expect(throws: Never.self) {
      _ = try Export.gifData(SceneRecipe { Self.scene(keyPath: "opacity") })
    }
  }
}
