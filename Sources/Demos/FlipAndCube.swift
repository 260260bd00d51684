import Flipbook

/// Core Animation in 3D: a card that flips over to show its back and back again, and a cube of
/// six faces turning in a transform layer.
///
/// The card is the classic idiom: each face's model transform carries the perspective
/// (`t.m34 = -1/500`), both faces have `isDoubleSided = false`, and a spring animates
/// `transform.rotation.y` (the back face half a turn behind the front), so whichever face turns
/// away disappears past the quarter turn. The cube's faces are placed about its centre
/// (translated 40 points out, then turned) inside a `TransformLayer`, which keeps their depth:
/// they are drawn farthest first, in a plane with perspective from its superlayer's
/// `sublayerTransform`, and single-sided, so faces turned away are not drawn at all.
public enum FlipAndCube {
  /// The scene's size, in points.
  public static let size = Size(320, 180)
  /// One flip over and one back, in seconds; the cube turns once in the same time.
  public static let duration = 4.0
  /// The eye's distance from the card's plane, in points (`m34 = -1 / 500`).
  public static let eyeDistance = 500.0
  /// When the flips start, in seconds.
  public static let flipTimes = [0.3, 2.3]
  /// The flips' spring: damping ratio 0.5, one clear overshoot.
  public static let spring = Spring(mass: 1, stiffness: 100, damping: 10)

  /// The card on the left and the cube on the right of a 320 × 180 pt scene at scale 2, 20 fps.
  public static func makeScene(scale: Double = 2) -> Scene {
    Scene(
      size: size, scale: scale, duration: duration, fps: 20,
      backgroundColor: Color(hex: "#f4f1ea")!
    ) { scene in
      scene.addLayer(makeCard())
      scene.addLayer(makeCube())
    }
  }

  /// The two faces of the card, each turned by its own springs.
  static func makeCard() -> Layer {
    let card = Layer()
    card.name = "card"
    card.bounds = Rect(0, 0, 120, 160)
    card.position = Point(90, 90)
    let faces: [(String, Color, Color, String, Double)] = [
      ("front", Color(hex: "#3f51b5")!, Color(hex: "#7986cb")!, "Front", 0),
      ("back", Color(hex: "#e65100")!, Color(hex: "#ffb74d")!, "Back", -.pi),
    ]
    for (name, dark, light, label, start) in faces {
      let face = Layer()
      face.name = name
      face.frame = card.bounds
      face.cornerRadius = 14
      face.backgroundColor = dark
      face.borderColor = light
      face.borderWidth = 3
      face.isDoubleSided = false
      var perspective = Transform3D.identity
      perspective.m34 = -1 / eyeDistance
      face.transform = perspective
      let text = TextLayer()
      text.frame = Rect(0, 60, 120, 40)
      text.string = label
      text.font = "Helvetica-Bold"
      text.fontSize = 26
      text.foregroundColor = .white
      text.alignmentMode = .center
      face.addSublayer(text)
      let pip = ShapeLayer()
      pip.frame = Rect(12, 12, 24, 24)
      pip.path = Path(ellipseIn: Rect(0, 0, 24, 24))
      pip.fillColor = Color(white: 1, alpha: 0.85)
      face.addSublayer(pip)
      // Over and back: half a turn each, the back face half a turn behind the front.
      for (i, begin) in flipTimes.enumerated() {
        var flip = SpringAnimation(keyPath: "transform.rotation.y")
        flip.fromValue = .scalar(start + Double(i) * .pi)
        flip.toValue = .scalar(start + Double(i + 1) * .pi)
        (flip.mass, flip.stiffness, flip.damping) = (spring.mass, spring.stiffness, spring.damping)
        flip.beginTime = begin
        flip.fillMode = i == 0 ? .both : .forwards
        flip.isRemovedOnCompletion = false
        face.add(flip, forKey: "flip\(i)")
      }
      card.addSublayer(face)
    }
    return card
  }

  /// Six faces about the centre of a transform layer, tilted toward the viewer and turning once
  /// about the vertical.
  static func makeCube() -> Layer {
    let stage = Layer()
    stage.name = "stage"
    stage.bounds = Rect(0, 0, 140, 140)
    stage.position = Point(235, 90)
    stage.sublayerTransform = .perspective(distance: 400)
    let tilt = TransformLayer()
    tilt.name = "tilt"
    tilt.frame = stage.bounds
    tilt.transform = .rotation(-0.45, x: 1, y: 0, z: 0)
    let cube = TransformLayer()
    cube.name = "cube"
    cube.frame = tilt.bounds
    var spin = BasicAnimation(keyPath: "transform.rotation.y")
    spin.fromValue = 0
    spin.toValue = .scalar(2 * .pi)
    spin.duration = duration
    spin.repeatCount = .infinity
    spin.timingFunction = .linear
    cube.add(spin, forKey: "spin")
    let half = 40.0
    let turns: [(String, Transform3D, String)] = [
      ("front", .identity, "#ef5350"),
      ("right", .rotation(.pi / 2, x: 0, y: 1, z: 0), "#66bb6a"),
      ("back", .rotation(.pi, x: 0, y: 1, z: 0), "#42a5f5"),
      ("left", .rotation(-.pi / 2, x: 0, y: 1, z: 0), "#ffca28"),
      ("top", .rotation(.pi / 2, x: 1, y: 0, z: 0), "#ab47bc"),
      ("bottom", .rotation(-.pi / 2, x: 1, y: 0, z: 0), "#26a69a"),
    ]
    for (name, turn, hex) in turns {
      let face = Layer()
      face.name = "cube-" + name
      face.bounds = Rect(0, 0, 2 * half, 2 * half)
      face.position = Point(70, 70)
      face.backgroundColor = Color(hex: hex)!
      face.cornerRadius = 6
      face.borderColor = Color(white: 1, alpha: 0.9)
      face.borderWidth = 4
      face.isDoubleSided = false  // no inside showing through the seams
      // CATransform3DRotate(CATransform3DMakeTranslation(0, 0, half), ...): out, then turned.
      face.transform = Transform3D.translation(x: 0, y: 0, z: half).concatenating(turn)
      cube.addSublayer(face)
    }
    tilt.addSublayer(cube)
    stage.addSublayer(tilt)
    return stage
  }
}
