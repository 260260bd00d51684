extension Path {
  /// The cubic-Bézier handle length for a quarter circle of radius 1 (4/3·tan(π/8)).
  static let quarterCircleHandle = 0.5522847498307936

  /// A closed rectangle that starts at (minX, minY) and runs clockwise on screen:
  /// (maxX, minY) next, then (maxX, maxY) and (minX, maxY).
  public init(rect: Rect) {
    self.init()
    elements.reserveCapacity(5)  // one allocation, not one per doubling (every layer's bounds)
    let r = rect.standardized
    move(to: Point(x: r.minX, y: r.minY))
    addLine(to: Point(x: r.maxX, y: r.minY))
    addLine(to: Point(x: r.maxX, y: r.maxY))
    addLine(to: Point(x: r.minX, y: r.maxY))
    closeSubpath()
  }

  /// A closed ellipse inscribed in `rect`, made of four cubic curves, that starts at
  /// (maxX, midY) and runs clockwise on screen: (midX, maxY) next.
  public init(ellipseIn rect: Rect) {
    self.init()
    elements.reserveCapacity(6)
    let r = rect.standardized
    let (cx, cy, rx, ry) = (r.midX, r.midY, r.width / 2, r.height / 2)
    let (kx, ky) = (rx * Path.quarterCircleHandle, ry * Path.quarterCircleHandle)
    move(to: Point(x: cx + rx, y: cy))
    addCurve(
      to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky),
      control2: Point(x: cx + kx, y: cy + ry))
    addCurve(
      to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry),
      control2: Point(x: cx - rx, y: cy + ky))
    addCurve(
      to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky),
      control2: Point(x: cx - kx, y: cy - ry))
    addCurve(
      to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry),
      control2: Point(x: cx + rx, y: cy - ky))
    closeSubpath()
  }

  /// A closed rectangle with circular corners of `cornerRadius` points (clamped to half the
  /// shorter side), as `CGPath(roundedRect:...)`: it starts at (minX + r, minY) and runs
  /// clockwise on screen. With a radius of 0 it is `Path(rect:)`.
  public init(roundedRect rect: Rect, cornerRadius: Double) {
    let r = rect.standardized
    let radius = Swift.min(Swift.max(0, cornerRadius), r.width / 2, r.height / 2)
    guard radius > 0 else {
      self.init(rect: rect)
      return
    }
    self.init()
    elements.reserveCapacity(10)
    let k = radius * Path.quarterCircleHandle
    let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
    move(to: Point(x: x0 + radius, y: y0))
    addLine(to: Point(x: x1 - radius, y: y0))
    addCurve(
      to: Point(x: x1, y: y0 + radius), control1: Point(x: x1 - radius + k, y: y0),
      control2: Point(x: x1, y: y0 + radius - k))
    addLine(to: Point(x: x1, y: y1 - radius))
    addCurve(
      to: Point(x: x1 - radius, y: y1), control1: Point(x: x1, y: y1 - radius + k),
      control2: Point(x: x1 - radius + k, y: y1))
    addLine(to: Point(x: x0 + radius, y: y1))
    addCurve(
      to: Point(x: x0, y: y1 - radius), control1: Point(x: x0 + radius - k, y: y1),
      control2: Point(x: x0, y: y1 - radius + k))
    addLine(to: Point(x: x0, y: y0 + radius))
    addCurve(
      to: Point(x: x0 + radius, y: y0), control1: Point(x: x0, y: y0 + radius - k),
      control2: Point(x: x0 + radius - k, y: y0))
    closeSubpath()
  }

  /// An open circular arc, as `UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:)`.
  public init(
    arcCenter center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool
  ) {
    self.init()
    addArc(
      center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
      clockwise: clockwise)
  }

  /// Adds a circular arc with UIKit's meaning of `clockwise` in y-down coordinates: angle 0
  /// points to +x and clockwise runs toward +y. Angles are in radians. A sweep of 2π or more in
  /// the chosen direction is one full circle; a shorter sweep the other way round wraps (from 0 to
  /// -π/2 clockwise is three quarters of a turn). When the path has a current point, a straight
  /// line joins it to the arc's start, as `addArc` does.
  public mutating func addArc(
    center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool
  ) {
    let twoPi = 2 * Double.pi
    var sweep = clockwise ? endAngle - startAngle : startAngle - endAngle
    // Angles so far apart that their difference overflows are more than a turn apart.
    if !sweep.isFinite { sweep = twoPi }
    if sweep >= twoPi {
      sweep = twoPi
    } else if sweep < 0 {
      sweep = sweep.truncatingRemainder(dividingBy: twoPi)
      if sweep < 0 { sweep += twoPi }
    }
    let direction: Double = clockwise ? 1 : -1
    let start = Point(
      x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
    if currentPoint == nil { move(to: start) } else { addLine(to: start) }
    appendArcCurves(
      center: center, rx: radius, ry: radius, rotation: 0, startAngle: startAngle,
      sweep: direction * sweep)
  }

  /// Appends cubic curves that follow an elliptical arc from `startAngle` over `sweep` radians
  /// (signed), in the ellipse's own frame turned by `rotation`; each curve covers at most π/2.
  mutating func appendArcCurves(
    center: Point, rx: Double, ry: Double, rotation: Double, startAngle: Double, sweep: Double
  ) {
    // Non-finite input (from overflowing arithmetic upstream) draws nothing rather than trap.
    guard sweep != 0, sweep.isFinite, abs(sweep) <= 4 * Double.pi else { return }
    let count = Swift.max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
    let step = sweep / Double(count)
    let k = 4.0 / 3.0 * tan(step / 4)
    let (cr, sr) = (cos(rotation), sin(rotation))
    func map(_ ux: Double, _ uy: Double) -> Point {
      let (x, y) = (rx * ux, ry * uy)
      return Point(x: center.x + x * cr - y * sr, y: center.y + x * sr + y * cr)
    }
    var a0 = startAngle
    for _ in 0..<count {
      let a1 = a0 + step
      let (c0, s0, c1, s1) = (cos(a0), sin(a0), cos(a1), sin(a1))
      append(
        .curve(
          to: map(c1, s1),
          control1: map(c0 - k * s0, s0 + k * c0),
          control2: map(c1 + k * s1, s1 - k * c1)))
      a0 = a1
    }
  }
}
