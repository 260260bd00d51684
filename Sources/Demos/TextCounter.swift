import Flipbook

/// Text animating as apps do it: a title whose letters fade and rise in one after another (one
/// text layer per letter, each with its own delayed group), and a percentage counter that counts
/// up with a spring, driven by a display link that reads the same spring as the progress bar
/// under it (the usual `CADisplayLink` + `CASpringAnimation` pairing).
public enum TextCounter {
  /// The title whose letters fade in.
  public static let title = "Flipbook"
  /// The value the counter and the bar settle at, in percent.
  public static let target = 75.0
  /// When the counter's spring starts, in seconds.
  public static let springStart = 0.5
  /// The spring the counter and the bar share (damping ratio 0.6: one visible overshoot).
  public static let spring = Spring(mass: 1, stiffness: 100, damping: 12)
  /// Delay between one letter and the next, in seconds.
  public static let letterDelay = 0.08
  /// The scene's size, in points.
  public static let size = Size(240, 160)
  /// The width of the progress bar's track, in points.
  public static let trackWidth = 180.0

  /// The counter's text at `time` (seconds): the spring's value, rounded, with a percent sign.
  public static func counterText(at time: Double) -> String {
    let t = time - springStart
    let value = t <= 0 ? 0 : target * (1 - spring.displacement(at: t))
    return "\(Int(value.rounded()))%"
  }

  /// The title, counter, bar and caption: 2.4 s at 25 frames per second, at scale 2. Layers:
  /// `title` (with one sublayer per letter, `letter0`...), `counter`, `track` (with `bar`),
  /// `caption`.
  public static func makeScene() -> Scene {
    Scene(size: size, scale: 2, duration: 2.4, fps: 25, backgroundColor: Color(hex: "#1d2433")) {
      scene in
      addTitle(to: scene)

      let counter = TextLayer()
      counter.name = "counter"
      counter.frame = Rect(0, 58, size.width, 50)
      counter.font = "Helvetica-Bold"
      counter.fontSize = 40
      counter.alignmentMode = .center
      counter.string = counterText(at: 0)
      scene.addLayer(counter)

      let track = Layer()
      track.name = "track"
      track.frame = Rect((size.width - trackWidth) / 2, 114, trackWidth, 8)
      track.cornerRadius = 4
      track.backgroundColor = Color(hex: "#ffffff26")
      let bar = Layer()
      bar.name = "bar"
      bar.anchorPoint = Point(0, 0.5)
      bar.bounds = Rect(0, 0, trackWidth * target / 100, 8)
      bar.position = Point(0, 4)
      bar.cornerRadius = 4
      bar.backgroundColor = Color(hex: "#4fa3ff")
      var grow = SpringAnimation(keyPath: "bounds.size.width")
      grow.fromValue = 0
      grow.mass = spring.mass
      grow.stiffness = spring.stiffness
      grow.damping = spring.damping
      grow.beginTime = springStart
      grow.fillMode = .backwards
      bar.add(grow, forKey: "grow")
      track.addSublayer(bar)
      scene.addLayer(track)

      let caption = TextLayer()
      caption.name = "caption"
      caption.frame = Rect(0, 132, size.width, 20)
      caption.font = "DejaVu Sans"
      caption.fontSize = 11
      caption.foregroundColor = Color(hex: "#9aa5b8")
      caption.alignmentMode = .center
      caption.string = "Pango · HarfBuzz · fontconfig"
      var fade = BasicAnimation(keyPath: "opacity")
      fade.fromValue = 0
      fade.toValue = 1
      fade.beginTime = 1.2
      fade.duration = 0.4
      fade.fillMode = .backwards
      caption.add(fade, forKey: "fade")
      scene.addLayer(caption)

      // The display link sets the counter's string from the spring, as an app would.
      scene.onFrame { time in counter.string = counterText(at: time) }
    }
  }

  /// One text layer per letter, placed at the advance of the letters before it (measured with
  /// the text engine), each fading in and rising 10 points, `letterDelay` after the previous.
  static func addTitle(to scene: Scene) {
    let style = TextStyle(fontName: "Helvetica-Bold", fontSize: 32)
    func advance(_ s: Substring) -> Double {
      (try? TextLayout.make(String(s), style: style))?.lines.first?.frame.width ?? 0
    }
    let titleLayer = Layer()
    titleLayer.name = "title"
    let width = advance(Substring(title))
    titleLayer.frame = Rect((size.width - width) / 2, 12, width, 42)
    for (i, letter) in title.enumerated() {
      let index = title.index(title.startIndex, offsetBy: i)
      let x = advance(title[..<index])
      let layer = TextLayer()
      layer.name = "letter\(i)"
      layer.string = String(letter)
      layer.font = style.fontName
      layer.fontSize = style.fontSize
      layer.frame = Rect(x, 0, advance(Substring(String(letter))) + 4, 42)
      var fade = BasicAnimation(keyPath: "opacity")
      fade.fromValue = 0
      fade.toValue = 1
      var rise = BasicAnimation(keyPath: "transform.translation.y")
      rise.fromValue = 10
      rise.toValue = 0
      var group = AnimationGroup([fade, rise])
      group.beginTime = 0.1 + Double(i) * letterDelay
      group.duration = 0.35
      group.timingFunction = .easeOut
      group.fillMode = .backwards
      layer.add(group, forKey: "appear")
      titleLayer.addSublayer(layer)
    }
    scene.addLayer(titleLayer)
  }
}
