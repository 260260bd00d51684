import CCairo
import Geometry

// Cairo keeps path coordinates in 24.8 fixed point: past about 8 million device pixels they
// wrap round, and its stroker goes wrong earlier, with lines over about half a million pixels
// wide. A path that reaches past `Canvas.safeMargin` beyond the canvas (a line to (1e7, 1e7), a
// circle of radius 1e308, a layer 1e308 points wide) is given to Cairo cut to a box that far
// round the canvas, and a stroke wider than `Canvas.maximumDeviceLineWidth` is drawn that wide:
// what shows on the canvas is the same. Paths within the box reach Cairo as they always have.

extension Canvas {
  /// How far past the canvas's edges, in device pixels, paths reach Cairo: 2^20 (1,048,576).
  static let safeMargin = 1_048_576.0
  /// The widest a stroke is drawn, in device pixels: 2^17 (131,072), eight times the longest
  /// canvas side and more than five times its diagonal. A wider stroke whose path passes within
  /// 40,000 pixels of the canvas covers all of it either way; one whose path keeps farther
  /// away is drawn reaching only 65,536 pixels from it.
  static let maximumDeviceLineWidth = 131_072.0

  /// Whether every point and control point of `path` lies within `safeMargin` of the canvas
  /// under the current transform (then Cairo is given the path as it is).
  func isWithinSafeRange(_ path: Path) -> Bool {
    let m = deviceTransform
    let limit = Canvas.safeMargin
    let maxX = Double(pixelWidth) + limit, maxY = Double(pixelHeight) + limit
    func inside(_ p: Point) -> Bool {
      let x = m.a * p.x + m.c * p.y + m.tx, y = m.b * p.x + m.d * p.y + m.ty
      return x >= -limit && x <= maxX && y >= -limit && y <= maxY
    }
    for element in path.elements {
      switch element {
      case .move(let p), .line(let p):
        if !inside(p) { return false }
      case .quadCurve(let p, let c):
        if !inside(p) || !inside(c) { return false }
      case .curve(let p, let c1, let c2):
        if !inside(p) || !inside(c1) || !inside(c2) { return false }
      case .closeSubpath: break
      }
    }
    return true
  }

  /// How far the current transform stretches a length at most, in device pixels a unit: the
  /// length of its linear part's columns together (a bound, exact for a uniform scale).
  var deviceStretch: Double {
    let m = deviceTransform
    return (m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d).squareRoot()
  }

  /// The line width `stroke` gives Cairo for `width` user units: at most
  /// `maximumDeviceLineWidth` device pixels under the current transform (`deviceStretch`).
  func safeLineWidth(_ width: Double) -> Double {
    let stretch = deviceStretch
    guard width * stretch > Canvas.maximumDeviceLineWidth, stretch > 0 else { return width }
    return Canvas.maximumDeviceLineWidth / stretch
  }

  /// The miter limit `stroke` gives Cairo for `limit` and a line `width` user units wide: at
  /// most what makes a miter reach `safeMargin` device pixels. Cairo bounds a mitered stroke
  /// by the width times the limit in its 24.8 fixed point, which wraps round past about 8
  /// million pixels: a stroke of width 10 vanished at a limit of 1e6, 1e9 and 1e20 but not 1e7
  /// (culled as off the canvas). A join sharp enough to need more is bevelled; its miter would
  /// reach a million pixels past the canvas.
  func safeMiterLimit(_ limit: Double, lineWidth width: Double) -> Double {
    let stretch = deviceStretch
    let deviceWidth = width * stretch
    guard deviceWidth > 0, limit * deviceWidth > Canvas.safeMargin else { return limit }
    return Swift.max(1, Canvas.safeMargin / deviceWidth)
  }

  /// Sets Cairo's path to `path` cut to the box `safeMargin` round the canvas, in device
  /// pixels: for a fill or clip (`stroke` nil) the parts outside are moved onto the box's
  /// edge (which keeps the winding number of every point inside it, so both fill rules give
  /// the same inside); for a stroke they are left out, each part that comes back starting a
  /// subpath, led in along its own line so that `stroke`'s dashes keep their place.
  func setSafePath(_ path: Path, stroke: StrokeStyle?) {
    cairo_new_path(cr)
    let m = deviceTransform
    guard let inverse = m.inverted else { return }
    // A power of two that keeps every device coordinate computed below finite: the binary
    // exponent of the largest, kept within 2^1000.
    func exponent(_ x: Double) -> Int { x == 0 ? Int.min / 2 : Swift.abs(x).exponent }
    // A transform off at infinity draws nothing (and its exponents would overflow below).
    guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite, m.tx.isFinite, m.ty.isFinite
    else { return }
    // The four linear terms' sum is at most four times the largest: two more than its exponent.
    let stretch =
      exponent(Swift.max(1, Swift.abs(m.a), Swift.abs(m.b), Swift.abs(m.c), Swift.abs(m.d))) + 2
    var largest = Swift.max(exponent(m.tx), exponent(m.ty)) + 1
    for element in path.elements {
      for p in element.points {
        guard p.x.isFinite, p.y.isFinite else { return }  // no finite outline to draw
        largest = Swift.max(largest, exponent(p.x) + stretch + 2, exponent(p.y) + stretch + 2)
      }
    }
    let excess = Swift.min(1060, Swift.max(0, largest - 1000))
    let scale = Double(sign: .plus, exponent: -excess, significand: 1)
    /// `v` scaled back up (by 2^excess, in two steps: it may be past the largest double).
    func unscaled(_ v: Double) -> Double {
      let half = excess / 2
      return v * Double(sign: .plus, exponent: half, significand: 1)
        * Double(sign: .plus, exponent: excess - half, significand: 1)
    }
    let margin = Canvas.safeMargin
    let box = SafeBox(
      minX: -margin * scale, minY: -margin * scale,
      maxX: (Double(pixelWidth) + margin) * scale, maxY: (Double(pixelHeight) + margin) * scale)
    func device(_ p: Point) -> Point {
      let x = p.x * scale, y = p.y * scale
      return Point(
        x: m.a * x + m.c * y + m.tx * scale, y: m.b * x + m.d * y + m.ty * scale)
    }
    var cutter = SafePathCutter(box: box)
    if let stroke, stroke.isDashed {
      // User lengths of device steps, for the dashes' places.
      let linear = AffineTransform(
        a: inverse.a, b: inverse.b, c: inverse.c, d: inverse.d, tx: 0, ty: 0)
      let period = stroke.dashPattern.reduce(0, +) * (stroke.dashPattern.count % 2 == 1 ? 2 : 1)
      cutter.dashes = SafePathCutter.Dashes(
        period: period,
        userLength: { v in
          let u = Point(x: v.x / scale, y: v.y / scale).applying(linear)
          return (u.x * u.x + u.y * u.y).squareRoot()
        },
        deviceStep: { u, length in
          // Device units (scaled) along the unit direction `u` that make `length` user units.
          let w = Point(x: u.x, y: u.y).applying(linear)
          let perUnit = (w.x * w.x + w.y * w.y).squareRoot()
          return perUnit > 0 ? length / perUnit * scale : .infinity
        }, maximumLeadIn: margin / 2 * scale)
    }
    let commands =
      stroke == nil
      ? cutter.clamped(path, device: device) : cutter.cut(path, device: device)
    var saved = cairo_matrix_t()
    cairo_get_matrix(cr, &saved)
    cairo_identity_matrix(cr)
    defer { cairo_set_matrix(cr, &saved) }
    func point(_ p: Point) -> (Double, Double) { (unscaled(p.x), unscaled(p.y)) }
    for command in commands {
      switch command {
      case .move(let p):
        let (x, y) = point(p)
        cairo_move_to(cr, x, y)
      case .line(let p):
        let (x, y) = point(p)
        cairo_line_to(cr, x, y)
      case .curve(let c1, let c2, let p):
        let (x1, y1) = point(c1), (x2, y2) = point(c2), (x, y) = point(p)
        cairo_curve_to(cr, x1, y1, x2, y2, x, y)
      case .close: cairo_close_path(cr)
      }
    }
  }
}

extension Canvas {
  /// Whether a gradient's points, and the ends of its radii, lie within `safeMargin` of the
  /// canvas under the current transform (then Cairo draws it).
  func isWithinSafeRange(_ geometry: GradientGeometry) -> Bool {
    var outline = Path()
    switch geometry {
    case .axial(let start, let end):
      outline.move(to: start)
      outline.addLine(to: end)
    case .radial(let center, let radii, let focus):
      outline.move(to: Point(x: center.x - radii.width, y: center.y - radii.height))
      outline.addLine(to: Point(x: center.x + radii.width, y: center.y + radii.height))
      if let focus { outline.addLine(to: focus) }
    case .conic(let center, _):
      outline.move(to: center)
    }
    return isWithinSafeRange(outline)
  }

  /// Fills `path` with a gradient whose geometry is past Cairo's range, pixel by pixel (as a
  /// plane in perspective is): the geometry and user space scaled together by a power of two
  /// first when its numbers are so large that the arithmetic would overflow.
  ///
  /// A point or radius overflowed to infinity (a layer's unit point of 10^308 times its size) is
  /// taken at the largest finite number, its limit: an infinite radius shows the first color
  /// everywhere, an axial gradient from a finite start to an infinite end its first color, one
  /// between opposite infinities its middle.
  func fillGradientByPixels(_ path: Path, _ original: GradientGeometry, _ stops: [GradientStop]) {
    guard let inverse = deviceTransform.inverted else { return }
    func finite(_ x: Double) -> Double {
      x.isInfinite ? (x > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude) : x
    }
    func finite(_ p: Point) -> Point { Point(x: finite(p.x), y: finite(p.y)) }
    let geometry: GradientGeometry
    switch original {
    case .axial(let start, let end): geometry = .axial(start: finite(start), end: finite(end))
    case .radial(let center, let radii, let focus):
      geometry = .radial(
        center: finite(center),
        radii: Size(width: finite(radii.width), height: finite(radii.height)),
        focus: focus.map(finite))
    case .conic(let center, let angle): geometry = .conic(center: finite(center), angle: angle)
    }
    var largest = 0.0
    func note(_ p: Point) { largest = Swift.max(largest, Swift.abs(p.x), Swift.abs(p.y)) }
    var scaled = geometry
    switch geometry {
    case .axial(let start, let end):
      note(start)
      note(end)
    case .radial(let center, let radii, let focus):
      note(center)
      note(Point(x: radii.width, y: radii.height))
      if let focus { note(focus) }
    case .conic(let center, _):
      note(center)
    }
    guard largest.isFinite else { return }
    let scale =
      largest > 0x1p500 ? Double(sign: .plus, exponent: 500 - largest.exponent, significand: 1) : 1
    func s(_ p: Point) -> Point { Point(x: p.x * scale, y: p.y * scale) }
    switch geometry {
    case .axial(let start, let end): scaled = .axial(start: s(start), end: s(end))
    case .radial(let center, let radii, let focus):
      scaled = .radial(
        center: s(center), radii: Size(width: radii.width * scale, height: radii.height * scale),
        focus: focus.map(s))
    case .conic(let center, let angle): scaled = .conic(center: s(center), angle: angle)
    }
    let fromDevice = Homography(inverse).concatenating(
      Homography(AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: 0)))
    fillGradient(scaled, stops, fromDevice: fromDevice) { setPath(path) }
  }
}

extension Path.Element {
  /// The element's end point and control points.
  var points: [Point] {
    switch self {
    case .move(let p), .line(let p): return [p]
    case .quadCurve(let p, let c): return [c, p]
    case .curve(let p, let c1, let c2): return [c1, c2, p]
    case .closeSubpath: return []
    }
  }
}

/// An axis-aligned box of device space.
struct SafeBox {
  var minX: Double, minY: Double, maxX: Double, maxY: Double

  func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
  }

  /// The nearest point of the box.
  func clamp(_ p: Point) -> Point {
    Point(x: Swift.min(maxX, Swift.max(minX, p.x)), y: Swift.min(maxY, Swift.max(minY, p.y)))
  }

  /// Whether the points all lie beyond one of the box's sides (then so does everything in
  /// their convex hull).
  func allOutsideOneSide(_ points: [Point]) -> Bool {
    points.allSatisfy { $0.x < minX } || points.allSatisfy { $0.x > maxX }
      || points.allSatisfy { $0.y < minY } || points.allSatisfy { $0.y > maxY }
  }

  /// The part of the segment `a`-`b` inside the box (Liang-Barsky), or `nil`: its parameters,
  /// and its ends, each on the side of the box it crosses, reckoned from the segment's nearer
  /// end. `a + (b - a) t` loses the crossing when one end is 10^17 times farther than the box
  /// is wide: from (50, 10^23) to (50, 0), t rounds to 1, the entry to `b`, and the stroke
  /// across the canvas vanished.
  func clip(_ a: Point, _ b: Point) -> (t0: Double, t1: Double, entry: Point, exit: Point)? {
    var t0 = 0.0, t1 = 1.0
    var entry = a, exit = b
    let d = Point(x: b.x - a.x, y: b.y - a.y)
    /// Where the segment meets the line `x = edge` (`vertical`) or `y = edge`.
    func crossing(_ edge: Double, vertical: Bool) -> Point {
      let (ak, bk, ao, bo) = vertical ? (a.x, b.x, a.y, b.y) : (a.y, b.y, a.x, b.x)
      let other =
        Swift.abs(edge - ak) <= Swift.abs(edge - bk)
        ? ao + (bo - ao) * ((edge - ak) / (bk - ak)) : bo + (ao - bo) * ((edge - bk) / (ak - bk))
      return vertical ? Point(x: edge, y: other) : Point(x: other, y: edge)
    }
    let sides: [(Double, Double, Double, Bool)] = [
      (-d.x, a.x - minX, minX, true), (d.x, maxX - a.x, maxX, true),
      (-d.y, a.y - minY, minY, false), (d.y, maxY - a.y, maxY, false),
    ]
    for (p, q, edge, vertical) in sides {
      if p == 0 {
        if q < 0 { return nil }
      } else {
        let r = q / p
        if p < 0 {
          if r > t0 { (t0, entry) = (r, crossing(edge, vertical: vertical)) }
        } else if r < t1 {
          (t1, exit) = (r, crossing(edge, vertical: vertical))
        }
      }
    }
    guard t0 <= t1 else { return nil }
    return (t0, t1, clamp(entry), clamp(exit))
  }
}

/// Cuts a path, in device space, to a box: curves are split until each piece is inside the
/// box, beyond one of its sides (then its chord, in the same region, replaces it), or small and
/// near the box's edge (its chord again: the difference lies far outside the canvas); lines
/// are cut where they cross the box.
struct SafePathCutter {
  enum Command {
    case move(Point)
    case line(Point)
    case curve(Point, Point, Point)
    case close
  }

  /// A piece of a subpath: a line, or a cubic inside the box.
  enum Piece {
    case line(Point, Point)
    case cubic(Point, Point, Point, Point)
  }

  /// How dashes are kept in place when a stroke comes back into the box.
  struct Dashes {
    /// The pattern's length, in user units (doubled for an odd count).
    var period: Double
    /// The user length of a device vector.
    var userLength: (Point) -> Double
    /// The device distance along a unit direction that is a user length.
    var deviceStep: (Point, Double) -> Double
    /// The longest lead-in drawn (past it the dashes restart where the stroke comes back).
    var maximumLeadIn: Double
  }

  let box: SafeBox
  var dashes: Dashes? = nil
  /// Curve splits left before every curve is taken as its chord (a path of 100,000 curves each
  /// reaching 10^300 away cannot take hours).
  var splitsLeft = 1_000_000

  init(box: SafeBox) { self.box = box }

  /// The pieces of the cubic `p0 c1 c2 p3`, in order.
  mutating func pieces(_ p0: Point, _ c1: Point, _ c2: Point, _ p3: Point) -> [Piece] {
    var out: [Piece] = []
    // Right halves wait on the stack while left halves are split further.
    var stack: [(Point, Point, Point, Point, Int)] = [(p0, c1, c2, p3, 0)]
    let small = (box.maxX - box.minX) / 8
    while let (a, b, c, d, depth) = stack.popLast() {
      let points = [a, b, c, d]
      if points.allSatisfy(box.contains) {
        out.append(.cubic(a, b, c, d))
        continue
      }
      let xs = points.map(\.x), ys = points.map(\.y)
      let size = Swift.max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
      if box.allOutsideOneSide(points) || size < small || depth >= 1100 || splitsLeft <= 0 {
        out.append(.line(a, d))
        continue
      }
      splitsLeft -= 1
      func mid(_ p: Point, _ q: Point) -> Point {
        Point(x: p.x * 0.5 + q.x * 0.5, y: p.y * 0.5 + q.y * 0.5)
      }
      let ab = mid(a, b), bc = mid(b, c), cd = mid(c, d)
      let abc = mid(ab, bc), bcd = mid(bc, cd)
      let m = mid(abc, bcd)
      stack.append((m, bcd, cd, d, depth + 1))
      stack.append((a, ab, abc, m, depth + 1))
    }
    return out
  }

  /// Each subpath's pieces, with whether it is closed.
  mutating func subpaths(
    _ path: Path, device: (Point) -> Point
  ) -> [(pieces: [Piece], start: Point, closed: Bool)] {
    var out: [(pieces: [Piece], start: Point, closed: Bool)] = []
    var pieces: [Piece] = []
    var start = Point.zero, current = Point.zero
    var open = false
    func finish(closed: Bool) {
      if open { out.append((pieces, start, closed)) }
      pieces = []
      open = false
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        finish(closed: false)
        start = device(p)
        current = start
        open = true
      case .line(let p):
        if !open { (start, open) = (current, true) }
        let q = device(p)
        pieces.append(.line(current, q))
        current = q
      case .quadCurve(let p, let c):
        if !open { (start, open) = (current, true) }
        let q = device(p), k = device(c)
        let c1 = Point(
          x: current.x + (k.x - current.x) * (2.0 / 3.0),
          y: current.y + (k.y - current.y) * (2.0 / 3.0))
        let c2 = Point(x: q.x + (k.x - q.x) * (2.0 / 3.0), y: q.y + (k.y - q.y) * (2.0 / 3.0))
        pieces += self.pieces(current, c1, c2, q)
        current = q
      case .curve(let p, let c1, let c2):
        if !open { (start, open) = (current, true) }
        let q = device(p)
        pieces += self.pieces(current, device(c1), device(c2), q)
        current = q
      case .closeSubpath:
        if open {
          if current != start { pieces.append(.line(current, start)) }
          finish(closed: true)
        }
        current = start
      }
    }
    finish(closed: false)
    return out
  }

  /// For a fill or clip: every subpath with its parts outside the box moved onto the box's
  /// edge (each line cut where it crosses the lines of the box's sides, so each part lies in
  /// one region round the box and moves as a whole).
  mutating func clamped(_ path: Path, device: (Point) -> Point) -> [Command] {
    var out: [Command] = []
    for subpath in subpaths(path, device: device) {
      var last = box.clamp(subpath.start)
      out.append(.move(last))
      func lineTo(_ p: Point) {
        if p != last { out.append(.line(p)) }
        last = p
      }
      for piece in subpath.pieces {
        switch piece {
        case .cubic(_, let c1, let c2, let p):
          out.append(.curve(c1, c2, p))
          last = p
        case .line(let a, let b):
          if box.contains(a) && box.contains(b) {
            lineTo(b)
            continue
          }
          var cuts: [Double] = []
          let d = Point(x: b.x - a.x, y: b.y - a.y)
          for (edge, along, from) in [
            (box.minX, d.x, a.x), (box.maxX, d.x, a.x), (box.minY, d.y, a.y), (box.maxY, d.y, a.y),
          ] where along != 0 {
            let t = (edge - from) / along
            if t > 0 && t < 1 { cuts.append(t) }
          }
          for t in cuts.sorted() {
            lineTo(box.clamp(Point(x: a.x + d.x * t, y: a.y + d.y * t)))
          }
          lineTo(box.clamp(b))
        }
      }
      if subpath.closed { out.append(.close) }
    }
    return out
  }

  /// For a stroke: the parts of each subpath inside the box, each part that follows a part
  /// outside starting a subpath of its own (led in for the dashes); a closed subpath that
  /// leaves the box starts where it last comes back, so the join at its start is kept.
  mutating func cut(_ path: Path, device: (Point) -> Point) -> [Command] {
    var out: [Command] = []
    for subpath in subpaths(path, device: device) {
      // Runs of pieces inside the box: their commands, and the user distance along the
      // subpath where each starts.
      var runs: [(commands: [Command], distance: Double, direction: Point)] = []
      var inRun = false
      var distance = 0.0
      var leftTheBox = false
      func length(_ a: Point, _ b: Point) -> Double {
        dashes?.userLength(Point(x: b.x - a.x, y: b.y - a.y)) ?? 0
      }
      func begin(at p: Point, toward q: Point, distance: Double) {
        runs.append(([.move(p)], distance, Point(x: q.x - p.x, y: q.y - p.y)))
        inRun = true
      }
      for piece in subpath.pieces {
        switch piece {
        case .cubic(let a, let c1, let c2, let b):
          if !inRun { begin(at: a, toward: c1 == a ? b : c1, distance: distance) }
          runs[runs.count - 1].commands.append(.curve(c1, c2, b))
          // The mean of the chord and the control polygon: close enough for the dashes of a
          // part that comes back after this one.
          distance += (length(a, b) + length(a, c1) + length(c1, c2) + length(c2, b)) / 2
        case .line(let a, let b):
          guard let (t0, t1, entry, exit) = box.clip(a, b) else {
            inRun = false
            leftTheBox = true
            distance += length(a, b)
            continue
          }
          if t0 > 0 {
            inRun = false
            leftTheBox = true
          }
          if !inRun { begin(at: entry, toward: b, distance: distance + length(a, entry)) }
          if exit != entry || t0 == 0 { runs[runs.count - 1].commands.append(.line(exit)) }
          if t1 < 1 {
            inRun = false
            leftTheBox = true
          }
          distance += length(a, b)
        }
      }
      guard !runs.isEmpty else { continue }
      if !leftTheBox {
        out += runs[0].commands
        if subpath.closed { out.append(.close) }
        continue
      }
      // A closed subpath that starts inside and comes back to its start: its last run goes
      // on into its first.
      if subpath.closed, runs.count > 1, runs[0].distance == 0, inRun {
        let first = runs.removeFirst()
        runs[runs.count - 1].commands += first.commands.dropFirst()
      }
      for run in runs { out += leadIn(run.commands, at: run.distance, direction: run.direction) }
    }
    return out
  }

  /// A run's commands, starting further back along its first direction by its distance along
  /// the subpath modulo the dash period, so its dashes fall where they would have.
  func leadIn(_ commands: [Command], at distance: Double, direction: Point) -> [Command] {
    guard let dashes, distance > 0, distance.isFinite, dashes.period > 0,
      case .move(let start) = commands.first
    else { return commands }
    let phase = distance.truncatingRemainder(dividingBy: dashes.period)
    let norm = (direction.x * direction.x + direction.y * direction.y).squareRoot()
    guard phase > 0, norm > 0, norm.isFinite else { return commands }
    let u = Point(x: direction.x / norm, y: direction.y / norm)
    let step = dashes.deviceStep(u, phase)
    guard step.isFinite, step <= dashes.maximumLeadIn else { return commands }
    let back = Point(x: start.x - u.x * step, y: start.y - u.y * step)
    return [.move(back), .line(start)] + commands.dropFirst()
  }
}
