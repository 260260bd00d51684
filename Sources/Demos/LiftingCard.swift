import Flipbook

/// A card that lifts when touched, as Material and iOS cards do: its shadow grows softer and
/// falls further (`shadowRadius`, `shadowOffset`, `shadowOpacity`) while the card scales up a
/// little, then it settles back. The card casts its shadow from a `shadowPath` (the fast path
/// Core Animation recommends) and clips its content in a sublayer, since `masksToBounds` on the
/// card itself would clip the shadow away.
public enum LiftingCard {
  /// The scene's size, in points.
  public static let size = Size(220, 160)
  /// Lift and settle, in seconds.
  public static let duration = 2.0

  /// The card on a light gray 220 x 160 pt scene at scale 2, at 20 frames per second.
  public static func makeScene(scale: Double = 2) -> Scene {
    Scene(
      size: size, scale: scale, duration: duration, fps: 20, backgroundColor: Color(hex: "#eceff1")!
    ) { scene in
      let bounds = Rect(0, 0, 140, 90)
      let card = Layer()
      card.name = "card"
      card.bounds = bounds
      card.position = Point(size.width / 2, size.height / 2)
      card.cornerRadius = 12
      card.backgroundColor = .white
      card.shadowPath = Path(roundedRect: bounds, cornerRadius: 12)
      card.shadowOpacity = 0.25
      card.shadowRadius = 2
      card.shadowOffset = Size(0, 1)

      let content = Layer()
      content.frame = bounds
      content.cornerRadius = 12
      content.masksToBounds = true
      let header = GradientLayer()
      header.frame = Rect(0, 0, 140, 36)
      header.colors = [Color(hex: "#5c6bc0")!, Color(hex: "#26c6da")!]
      header.startPoint = Point(0, 0.5)
      header.endPoint = Point(1, 0.5)
      content.addSublayer(header)
      for (i, width) in [110.0, 80].enumerated() {
        let line = Layer()
        line.frame = Rect(14, 50 + Double(i) * 18, width, 8)
        line.cornerRadius = 4
        line.backgroundColor = Color(hex: "#cfd8dc")!
        content.addSublayer(line)
      }
      card.addSublayer(content)

      // Up in the first half, back down in the second.
      func lift(_ keyPath: String, _ from: AnimationValue, _ to: AnimationValue) -> BasicAnimation {
        var a = BasicAnimation(keyPath: keyPath)
        a.fromValue = from
        a.toValue = to
        a.duration = duration / 2
        a.autoreverses = true
        a.timingFunction = .easeInEaseOut
        return a
      }
      card.add(lift("transform.scale", 1, 1.06), forKey: "scale")
      card.add(lift("shadowRadius", 2, 12), forKey: "radius")
      card.add(lift("shadowOffset", .size(Size(0, 1)), .size(Size(0, 10))), forKey: "offset")
      card.add(lift("shadowOpacity", 0.25, 0.35), forKey: "opacity")
      scene.addLayer(card)
    }
  }
}
