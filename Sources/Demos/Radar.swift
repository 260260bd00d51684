import Flipbook
import Glibc

/// Article 000's pulsing radar (`PulsingRadarView`): six rings that grow and fade one after
/// another, and every half second a new item (a flag badge) at a random free place inside the
/// circle, at most ten at a time, fading in when added and out when the oldest is replaced.
public enum Radar {
  /// The radar view's side, in points.
  public static let side = 320.0
  /// The number of rings.
  public static let pulsingCount = 6
  /// How long one ring takes to grow and fade, in seconds.
  public static let animationDuration = 4.0
  /// The items' size, in points.
  public static let itemSize = Size(44, 44)
  /// The most items shown at once.
  public static let maxCount = 10
  /// How often an item is added, in seconds (the article's `NSTimer`).
  public static let itemInterval = 0.5
  /// How many random places an item tries before it gives up for this tick (the article's
  /// guard against an endless search when the circle is full).
  public static let maxPlacementAttempts = 100

  /// The radar on a white 320 x 320 pt scene, 7.5 s at 15 frames per second (long enough to see
  /// the oldest items replaced from 5.5 s on). Items are named
  /// `item-0`, `item-1`, ... in the order they are added; `seed` picks their places.
  public static func makeScene(seed: UInt64 = 2016) -> Scene {
    return Scene(size: Size(side, side), scale: 1, duration: 7.5, fps: 15, backgroundColor: .white)
    { scene in
      let radar = Layer()
      radar.name = "radar"
      radar.frame = Rect(0, 0, side, side)
      scene.addLayer(radar)

      for i in 0..<pulsingCount {
        let pulsingLayer = Layer()
        pulsingLayer.name = "pulse-\(i)"
        pulsingLayer.frame = Rect(0, 0, side, side)
        pulsingLayer.borderColor = .gray
        pulsingLayer.borderWidth = 1
        pulsingLayer.cornerRadius = side / 2

        var scaleAnimation = BasicAnimation(keyPath: "transform.scale")
        scaleAnimation.fromValue = 0
        scaleAnimation.toValue = 1.5
        var opacityAnimation = KeyframeAnimation(keyPath: "opacity")
        opacityAnimation.values = [1, 0.7, 0]
        opacityAnimation.keyTimes = [0, 0.5, 1]
        var animationGroup = AnimationGroup([scaleAnimation, opacityAnimation])
        animationGroup.fillMode = .backwards
        animationGroup.beginTime = Double(i) * animationDuration / Double(pulsingCount)
        animationGroup.duration = animationDuration
        animationGroup.repeatCount = .infinity
        animationGroup.timingFunction = .default
        pulsingLayer.add(animationGroup, forKey: "pulsing")
        radar.addSublayer(pulsingLayer)
      }

      let flag = flagBadge()
      var generator = SeededGenerator(seed: seed)
      var items: [Layer] = []
      var added = 0
      scene.every(itemInterval) { [unowned scene] time in
        let item = Layer()
        item.name = "item-\(added)"
        item.bounds = Rect(origin: .zero, size: itemSize)
        item.contents = flag
        item.contentsScale = 2
        var placed = false
        for _ in 0..<maxPlacementAttempts {
          item.position = centerPointInRadar(using: &generator)
          if !items.contains(where: { $0.frame.intersects(item.frame) }) {
            placed = true
            break
          }
        }
        guard placed else { return }
        added += 1
        // PRButton: starts transparent and fades in over a second once on screen.
        item.opacity = 0
        radar.addSublayer(item)
        items.append(item)
        scene.animate(withDuration: 1, at: time) { item.opacity = 1 }

        if items.count > maxCount {
          // PRButton.removeFromSuperview: fade out over a second, then leave.
          let oldest = items.removeFirst()
          scene.animate(withDuration: 1, at: time) { oldest.opacity = 0 }
          scene.at(time + 1) { _ in oldest.removeFromSuperlayer() }
        }
      }
    }
  }

  /// A random point at most (side - item side) / 2 from the radar's center, with a whole
  /// number of degrees and of points, as the article's `generateCenterPointInRadar`.
  static func centerPointInRadar(using generator: inout SeededGenerator) -> Point {
    let angle = Double(generator.next() % 360) * .pi / 180
    let radius = Double(generator.next() % UInt64((side - itemSize.width) / 2))
    return Point(side / 2 + cos(angle) * radius, side / 2 + sin(angle) * radius)
  }

  /// The item's picture: a round Union Jack badge with a white rim, 44 x 44 pt at 2 pixels per
  /// point (the article's "UK" image).
  public static func flagBadge() -> Image {
    let s = itemSize.width
    // A 44 pt canvas is far inside the canvas limits.
    let canvas = try! Canvas(size: itemSize, scale: 2)
    let disc = Path(ellipseIn: Rect(2, 2, s - 4, s - 4))
    canvas.fill(Path(ellipseIn: Rect(0.5, 1.5, s - 1, s - 1)), with: Color(white: 0, alpha: 0.18))
    canvas.fill(Path(ellipseIn: Rect(0, 0, s, s - 1)), with: .white)
    canvas.withSavedState {
      canvas.clip(to: disc)
      canvas.fill(Rect(0, 0, s, s), with: Color(red: 0.004, green: 0.129, blue: 0.412))
      let diagonals: Path = {
        var p = Path()
        p.move(to: Point(0, 0)); p.addLine(to: Point(s, s))
        p.move(to: Point(s, 0)); p.addLine(to: Point(0, s))
        return p
      }()
      canvas.stroke(diagonals, with: .white, style: StrokeStyle(lineWidth: 7))
      canvas.stroke(
        diagonals, with: Color(red: 0.784, green: 0.063, blue: 0.18),
        style: StrokeStyle(lineWidth: 2.5))
      canvas.fill(Rect(s / 2 - 6, 0, 12, s), with: .white)
      canvas.fill(Rect(0, s / 2 - 6, s, 12), with: .white)
      canvas.fill(Rect(s / 2 - 3.5, 0, 7, s), with: Color(red: 0.784, green: 0.063, blue: 0.18))
      canvas.fill(Rect(0, s / 2 - 3.5, s, 7), with: Color(red: 0.784, green: 0.063, blue: 0.18))
    }
    return canvas.makeImage(name: "UK")
  }
}
