import Flipbook

/// The README's "Animating in Swift": one animation for each kind of value (a point, a
/// rectangle, a transform, colors, a path and images), on Flipbook's public API only.
public enum Badge {
  /// The badge: 160 x 100 points, one second at 10 frames per second.
  public static func scene() -> Scene {
    let scene = Scene(size: Size(160, 100), duration: 1, fps: 10, backgroundColor: .white)

    let dot = Layer()
    dot.bounds = Rect(0, 0, 16, 16)
    dot.cornerRadius = 8
    dot.backgroundColor = .black
    dot.position = Point(20, 20)
    // position: a Point
    dot.add(
      BasicAnimation(keyPath: "position", from: Point(20, 20), to: Point(140, 20), duration: 1),
      forKey: "move")
    scene.addLayer(dot)

    let card = Layer()
    card.position = Point(40, 65)
    card.bounds = Rect(0, 0, 30, 30)
    card.backgroundColor = .blue
    // bounds: a Rect
    card.add(
      BasicAnimation(keyPath: "bounds", to: Rect(0, 0, 50, 20), duration: 1), forKey: "stretch")
    // transform: a Transform3D
    card.add(
      BasicAnimation(keyPath: "transform", to: Transform3D.rotation(.pi / 4), duration: 1),
      forKey: "turn")
    // backgroundColor: Colors
    card.add(
      KeyframeAnimation(
        keyPath: "backgroundColor", values: [Color.blue, .red, .blue], duration: 1), forKey: "tint")
    scene.addLayer(card)

    let blob = ShapeLayer()
    blob.position = Point(95, 65)
    blob.bounds = Rect(0, 0, 40, 40)
    blob.fillColor = .green
    blob.path = Path(ellipseIn: Rect(10, 10, 20, 20))
    // path: a Path (of the same shape, so it interpolates)
    blob.add(
      BasicAnimation(keyPath: "path", to: Path(ellipseIn: Rect(0, 5, 40, 30)), duration: 1),
      forKey: "morph")
    scene.addLayer(blob)

    let icon = Layer()
    icon.position = Point(140, 65)
    icon.bounds = Rect(0, 0, 20, 20)
    // contents: Images (they change discretely)
    let red = Image(Bitmap(width: 20, height: 20, fill: RGBA8(255, 0, 0, 255)))
    let black = Image(Bitmap(width: 20, height: 20, fill: RGBA8(0, 0, 0, 255)))
    icon.add(
      KeyframeAnimation(keyPath: "contents", values: [red, black], duration: 1), forKey: "flip")
    scene.addLayer(icon)
    return scene
  }
}
