import Flipbook

/// The replicator activity indicator: one dot, a `ReplicatorLayer` making twelve of it round a
/// circle (`instanceTransform` a twelfth of a turn), and one fading animation that
/// `instanceDelay` staggers so the fade runs round the ring.
public enum ActivityDots {
  /// The indicator's side, in points.
  public static let side = 80.0
  /// How many dots.
  public static let count = 12
  /// One turn of the fade, in seconds (the GIF loops it).
  public static let period = 1.0

  /// The indicator on a white 80 x 80 pt scene at scale 2, one turn at 24 frames per second.
  public static func makeScene(scale: Double = 2) -> Scene {
    Scene(size: Size(side, side), scale: scale, duration: period, fps: 24, backgroundColor: .white)
    { scene in
      let replicator = ReplicatorLayer()
      replicator.name = "indicator"
      replicator.frame = Rect(0, 0, side, side)
      replicator.instanceCount = count
      replicator.instanceTransform = Transform3D.identity.rotated(2 * .pi / Double(count))
      replicator.instanceDelay = period / Double(count)
      // Start one turn in, so that every instance's fade is already running at time 0 and the
      // GIF loops without a jump.
      replicator.timing.timeOffset = period

      let dot = Layer()
      dot.name = "dot"
      dot.frame = Rect(side / 2 - 4, 6, 8, 8)
      dot.cornerRadius = 4
      dot.backgroundColor = Color(hex: "#37474f")!
      dot.opacity = 0.15

      var fade = BasicAnimation(keyPath: "opacity")
      fade.fromValue = 1
      fade.toValue = 0.15
      fade.duration = period
      fade.repeatCount = .infinity
      dot.add(fade, forKey: "fade")
      replicator.addSublayer(dot)
      scene.addLayer(replicator)
    }
  }
}
