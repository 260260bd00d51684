import Flipbook

/// Article 003's activity indicator (`CCActivityIndicatorView`): eight arcs round a ring, one
/// darker than the rest, drawn into eight images and played in turn by a keyframe animation on
/// `contents`, as a GIF spinner would be.
public enum Spinner {
  /// The view's side in points.
  public static let side = 40.0
  /// The number of frames, and of arcs.
  public static let frameCount = 8
  /// The gap between two arcs, in degrees.
  public static let padding = 3.0
  /// The length of each arc, in degrees: (360 - 8 x 3) / 8.
  public static let arcDegrees = 39.0
  /// The arcs' line width, in points.
  public static let lineWidth = 6.0
  /// The arcs' radius, in points.
  public static let radius = 10.0
  /// The arcs' shades of gray (0...255), by distance from the frame's dark arc.
  public static let shades: [Double] = [242, 230, 179, 128, 128, 128, 128, 128]
  /// How long one turn takes, in seconds.
  public static let duration = 0.8

  /// Draws frame `frame` (1...8) as the article does: arc `index` (1...8) is clockwise from
  /// 3 + (index - 1) x 45 degrees, 39 degrees long, in the shade `shades[|index - frame|]`.
  ///
  /// - Parameter scale: pixels per point (the screen scale the article draws at).
  public static func frameImage(_ frame: Int, scale: Double) throws -> Image {
    let canvas = try Canvas(size: Size(side, side), scale: scale)
    let center = Point(side / 2, side / 2)
    var startDegree = padding
    for index in 1...frameCount {
      let endDegree = startDegree + arcDegrees
      let arc = Path(
        arcCenter: center, radius: radius,
        startAngle: startDegree * .pi / 180, endAngle: endDegree * .pi / 180, clockwise: true)
      let shade = shades[abs(index - frame)] / 255
      canvas.stroke(arc, with: Color(white: shade), style: StrokeStyle(lineWidth: lineWidth))
      startDegree = endDegree + padding * 2
    }
    return canvas.makeImage(name: "spinner-\(frame)")
  }

  /// The spinner on a white 40 x 40 pt scene at `scale` 3, one turn (0.8 s) at 10 frames per
  /// second: each GIF frame is one of the eight images.
  public static func makeScene(scale: Double = 3) -> Scene {
    return Scene(
      size: Size(side, side), scale: scale, duration: duration, fps: 10, backgroundColor: .white
    ) { scene in
      let indicator = Layer()
      indicator.name = "indicator"
      indicator.frame = Rect(0, 0, side, side)
      indicator.contentsScale = scale

      var images: [AnimationValue] = []
      for frame in 1...frameCount {
        // Drawing a 40 pt canvas cannot fail: it is far inside the canvas limits.
        images.append(.image(try! frameImage(frame, scale: scale)))
      }
      var animation = KeyframeAnimation(keyPath: "contents")
      animation.values = images
      animation.calculationMode = .discrete
      animation.duration = duration
      animation.repeatCount = .infinity
      animation.isRemovedOnCompletion = false
      animation.fillMode = .both
      indicator.add(animation, forKey: "spin")
      scene.addLayer(indicator)
    }
  }
}
