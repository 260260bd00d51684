import Flipbook

/// A shimmer placeholder, the loading state of feeds and lists: a light band sweeps across gray
/// rows where a post will appear. Built the way iOS apps build it: a `GradientLayer` whose
/// `locations` animate from [−1, −0.5, 0] to [1, 1.5, 2], masked by a layer whose rounded
/// sublayers are the rows (an avatar and three lines of text).
public enum Shimmer {
  /// The scene's size, in points.
  public static let size = Size(260, 110)
  /// One sweep, in seconds (the GIF loops it).
  public static let duration = 1.5
  /// The placeholder's base gray and its highlight.
  public static let base = Color(hex: "#e3e6ea")!, highlight = Color(hex: "#f7f8fa")!

  /// The placeholder's rows, in the card's coordinates, with their corner radii.
  public static let rows: [(frame: Rect, cornerRadius: Double)] = [
    (Rect(16, 16, 48, 48), 24),
    (Rect(76, 20, 150, 12), 6),
    (Rect(76, 42, 110, 12), 6),
    (Rect(16, 78, 228, 12), 6),
  ]

  /// The placeholder on a white 260 x 110 pt scene at scale 2, one sweep at 20 frames per second.
  public static func makeScene(scale: Double = 2) -> Scene {
    Scene(size: size, scale: scale, duration: duration, fps: 20, backgroundColor: .white) { scene in
      let shimmer = GradientLayer()
      shimmer.name = "shimmer"
      shimmer.frame = Rect(origin: .zero, size: size)
      shimmer.colors = [base, highlight, base]
      shimmer.locations = [0, 0.5, 1]
      shimmer.startPoint = Point(0, 0.5)
      shimmer.endPoint = Point(1, 0.5)

      let rowsMask = Layer()
      rowsMask.frame = shimmer.bounds
      for row in rows {
        let r = Layer()
        r.frame = row.frame
        r.cornerRadius = row.cornerRadius
        r.backgroundColor = .black
        rowsMask.addSublayer(r)
      }
      shimmer.mask = rowsMask

      var sweep = BasicAnimation(keyPath: "locations")
      sweep.fromValue = .numbers([-1, -0.5, 0])
      sweep.toValue = .numbers([1, 1.5, 2])
      sweep.duration = duration
      sweep.repeatCount = .infinity
      shimmer.add(sweep, forKey: "shimmer")
      scene.addLayer(shimmer)
    }
  }
}
