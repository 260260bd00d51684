import Flipbook
import Glibc

/// Article 004's cat waiting HUD (`SCCatWaitingHUD`): on a translucent rounded panel, a cat's
/// face whose eyes follow a mouse running round it. Pupils turn about anchor points moved out to
/// (1.5, 1.5), the mouse turns with the same period, and the eyelids drop and rise with the
/// pupils' height through a timing curve fitted to it.
public enum CatWaitingHUD {
  /// How long half a turn takes, in seconds (`animationDuration`): one loop is twice this.
  public static let animationDuration = 1.0
  /// The side of the scene, in points.
  public static let side = 200.0
  /// The eyelids' timing curve, fitted by the article to the pupils' vertical motion.
  public static let eyelidTiming = try! TimingFunction(controlPoints: 0.2, 0, 0.8, 1)

  static let faceColor = Color(hex: "#f7efe2")!
  static let faceCenter = Point(100, 106)
  static let faceRadius = 30.0
  static let eyeSize = 20.0
  static let pupilSize = 5.0

  /// The HUD over a pale backdrop, 200 x 200 pt at scale 2: one full turn (2 s) at 25 frames per
  /// second, which loops without a jump.
  public static func makeScene(scale: Double = 2) -> Scene {
    return Scene(
      size: Size(side, side), scale: scale, duration: 2 * animationDuration, fps: 25,
      backgroundColor: Color(hex: "#dde4ec")
    ) { scene in

      let hud = Layer()
      hud.name = "hud"
      hud.frame = Rect(25, 25, 150, 150)
      hud.cornerRadius = 14
      hud.backgroundColor = Color(white: 0, alpha: 0.72)
      scene.addLayer(hud)

      let faceView = ShapeLayer()
      faceView.name = "face"
      faceView.frame = Rect(0, 0, side, side)
      faceView.path = catHead()
      faceView.fillColor = faceColor
      scene.addLayer(faceView)
      scene.addLayer(nose())

      for (name, dx) in [("leftEye", -13.5), ("rightEye", 13.5)] {
        scene.addLayer(eye(named: name, center: Point(faceCenter.x + dx, faceCenter.y - 4)))
      }
      scene.addLayer(mouse())
    }
  }

  /// The article's `rotationAnimation`: `transform` from no turn to half a turn, cumulative and
  /// repeating, so each half turn carries on from the last.
  public static func rotationAnimation() -> BasicAnimation {
    var rotationAnimation = BasicAnimation(keyPath: "transform")
    rotationAnimation.fromValue = .transform(.rotation(0))
    rotationAnimation.toValue = .transform(.rotation(.pi))
    rotationAnimation.duration = animationDuration
    rotationAnimation.isCumulative = true
    rotationAnimation.repeatCount = .infinity
    rotationAnimation.isRemovedOnCompletion = false
    rotationAnimation.fillMode = .forwards
    rotationAnimation.autoreverses = false
    rotationAnimation.timingFunction = .linear
    return rotationAnimation
  }

  /// The article's `scaleAnimation`: the eyelid stretched to three times its height and back,
  /// in a group that autoreverses.
  public static func scaleAnimation() -> AnimationGroup {
    var scaleAnimation = BasicAnimation(keyPath: "transform")
    scaleAnimation.fromValue = .transform(.identity)
    scaleAnimation.toValue = .transform(.scale(x: 1, y: 3))
    scaleAnimation.duration = animationDuration
    scaleAnimation.isCumulative = true
    scaleAnimation.repeatCount = 1
    scaleAnimation.isRemovedOnCompletion = false
    scaleAnimation.fillMode = .forwards
    scaleAnimation.autoreverses = false
    scaleAnimation.timingFunction = eyelidTiming
    scaleAnimation.beginTime = 0

    var group = AnimationGroup([scaleAnimation])
    group.duration = animationDuration
    group.repeatCount = .infinity
    group.isRemovedOnCompletion = false
    group.fillMode = .forwards
    group.autoreverses = true
    group.timingFunction = eyelidTiming
    return group
  }

  /// An eye: a white disc clipping a pupil that turns about the eye's center and an eyelid of
  /// the face's color hanging from its top edge.
  static func eye(named name: String, center: Point) -> Layer {
    let eye = Layer()
    eye.name = name
    eye.bounds = Rect(0, 0, eyeSize, eyeSize)
    eye.position = center
    eye.cornerRadius = eyeSize / 2
    eye.backgroundColor = .white
    eye.masksToBounds = true

    let pupil = Layer()
    pupil.name = name + "Pupil"
    pupil.bounds = Rect(0, 0, pupilSize, pupilSize)
    pupil.cornerRadius = pupilSize / 2
    pupil.backgroundColor = Color(hex: "#2b2622")
    // The article's trick: the anchor point moved outside the pupil, and the position moved
    // with it, so the pupil turns about the eye's center, starting at its top left.
    pupil.anchorPoint = Point(1.5, 1.5)
    pupil.position = Point(eyeSize / 2, eyeSize / 2)
    pupil.add(rotationAnimation(), forKey: "rotate")
    // (1.5, 1.5) puts the pupil at the eye's top left; an eighth of a turn brings it to the top,
    // where the eyelid's timing curve (the height of a point going round from the top) starts.
    let eyeball = Layer()
    eyeball.bounds = eye.bounds
    eyeball.position = Point(eyeSize / 2, eyeSize / 2)
    eyeball.transform = .rotation(.pi / 4)
    eyeball.addSublayer(pupil)
    eye.addSublayer(eyeball)

    let eyelid = Layer()
    eyelid.name = name + "Lid"
    eyelid.anchorPoint = Point(0.5, 0)
    eyelid.bounds = Rect(0, 0, eyeSize, eyeSize / 6)
    eyelid.position = Point(eyeSize / 2, 0)
    eyelid.backgroundColor = faceColor
    eyelid.add(scaleAnimation(), forKey: "blink")
    eye.addSublayer(eyelid)
    return eye
  }

  /// The mouse: a layer the size of its orbit, centered on the face, turning with the pupils'
  /// animation, with the mouse drawn where the pupils first look (the top), running clockwise.
  static func mouse() -> Layer {
    let orbitRadius = 50.0
    let orbit = Layer()
    orbit.name = "mouseOrbit"
    orbit.bounds = Rect(0, 0, 2 * orbitRadius, 2 * orbitRadius)
    orbit.position = faceCenter
    orbit.add(rotationAnimation(), forKey: "rotate")

    let start = 1.5 * Double.pi  // the top, where the pupils look at first
    let mouse = ShapeLayer()
    mouse.name = "mouse"
    mouse.bounds = Rect(-12, -8, 24, 16)
    mouse.position = Point(
      orbitRadius + orbitRadius * cos(start), orbitRadius + orbitRadius * sin(start))
    // Heading along the orbit in the direction of increasing angle (clockwise on screen).
    mouse.transform = Transform3D.rotation(start + .pi / 2).scaled(x: 1.3, y: 1.3)
    var body = Path(ellipseIn: Rect(-8, -5, 16, 10))
    body.addPath(Path(ellipseIn: Rect(2, -7.5, 6, 6)))
    body.addPath(Path(ellipseIn: Rect(2, 1.5, 6, 6)))
    mouse.path = body
    mouse.fillColor = Color(hex: "#a9a9b3")

    let tail = ShapeLayer()
    tail.bounds = mouse.bounds  // the mouse's own coordinates, centered on its body
    tail.position = .zero
    var tailPath = Path()
    tailPath.move(to: Point(-7.5, 0))
    tailPath.addCurve(to: Point(-12, 0), control1: Point(-10, -3), control2: Point(-10, 3))
    tail.path = tailPath
    tail.fillColor = nil
    tail.strokeColor = Color(hex: "#a9a9b3")
    tail.lineWidth = 1.2
    tail.lineCap = .round
    mouse.addSublayer(tail)

    let eye = ShapeLayer()
    eye.bounds = mouse.bounds
    eye.position = .zero
    eye.path = Path(ellipseIn: Rect(5, -1.2, 2.4, 2.4))
    eye.fillColor = Color(hex: "#2b2622")
    mouse.addSublayer(eye)
    orbit.addSublayer(mouse)
    return orbit
  }

  /// The face: a round head with two pointed ears, in scene coordinates.
  static func catHead() -> Path {
    let c = faceCenter, r = faceRadius
    var head = Path(ellipseIn: Rect(c.x - r, c.y - r * 0.9, 2 * r, r * 1.8))
    for side in [-1.0, 1.0] {
      // Both ears wound the same way round as the head, so the nonzero rule fills their overlap.
      var corners = [
        Point(c.x + side * r * 0.92, c.y - r * 0.28), Point(c.x + side * r * 0.86, c.y - r * 1.22),
        Point(c.x + side * r * 0.22, c.y - r * 0.82),
      ]
      if side > 0 { corners.reverse() }
      var ear = Path()
      ear.move(to: corners[0])
      ear.addLine(to: corners[1])
      ear.addLine(to: corners[2])
      ear.closeSubpath()
      head.addPath(ear)
    }
    return head
  }

  /// A pink nose and grey whiskers below the eyes.
  static func nose() -> Layer {
    let c = faceCenter
    let face = ShapeLayer()
    face.name = "whiskers"
    face.frame = Rect(0, 0, side, side)
    var whiskers = Path()
    for side in [-1.0, 1.0] {
      for dy in [-2.0, 2.0] {
        whiskers.move(to: Point(c.x + side * 9, c.y + 12 + dy / 2))
        whiskers.addLine(to: Point(c.x + side * 24, c.y + 12 + dy * 2))
      }
    }
    face.path = whiskers
    face.fillColor = nil
    face.strokeColor = Color(hex: "#b9ad9c")
    face.lineWidth = 0.8
    face.lineCap = .round

    let nose = ShapeLayer()
    nose.frame = face.bounds
    var n = Path()
    n.move(to: Point(c.x - 3, c.y + 8))
    n.addLine(to: Point(c.x + 3, c.y + 8))
    n.addLine(to: Point(c.x, c.y + 11))
    n.closeSubpath()
    nose.path = n
    nose.fillColor = Color(hex: "#f29ca3")
    nose.lineJoin = .round
    face.addSublayer(nose)
    return face
  }
}
