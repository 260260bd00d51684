import CairoCanvas
import Geometry
import LayerTree

// The work of filling and stroking paths, counted before each is drawn.
//
// Cairo turns a path into edges and sweeps them down the rows they span: the time goes with the
// edges' lengths in device pixels (a random scribble of 100-pixel lines takes some 0.3 µs a pixel
// of length to stroke) and with the places they cross (some 20 ns each; a path's own edges can
// cross in every pair, so a 50,000-line scribble took 11 s to stroke alone).

extension LayerRenderer {
  /// The most path work one frame may do: 10,000,000 units (about three seconds of Cairo's
  /// filling and stroking at worst). Each fill and each stroke counts its elements, the length
  /// of its path's lines through every point and control point in device pixels (each line
  /// counted at most the canvas's width plus height: the rows it can sweep; a line wholly
  /// beyond the canvas grown by half its width and height on one side, none), and the places
  /// its lines can cross: its length squared over eight times the area its points span (cut to
  /// the canvas grown by half its width and height on each side), at most its elements squared
  /// over 32 (the pairs); a stroke wider than 4 pixels counts its width again for each line
  /// (`strokeSweep`) and its crossings over its outline (its length and those widths, in a box
  /// grown by half its width). Each replicator instance, shadow pass and path-operation operand is
  /// counted; so are the pixels a fill covers (`fillWork`). A smooth curve of 100,000 elements
  /// costs little more than its elements; 17,713 lines back and forth over one spot reach the
  /// limit.
  public static let maximumPathWorkPerFrame = 10_000_000

  /// The pixels one unit of path work stands for when a fill covers them: 512 (compositing a
  /// translucent fill over a pixel takes about half a nanosecond; 2,000 full-frame fills of an
  /// 8000 x 8000 frame took 68 s).
  static let pixelsPerUnit = 512.0

  /// The work of filling `rect` (in the canvas's user space: a layer's background, gradient or
  /// contents) on `canvas`: the device pixels of its box, cut to the canvas, over
  /// `pixelsPerUnit`.
  package static func fillWork(of rect: Rect, on canvas: Canvas) -> Double {
    let m = canvas.deviceTransform
    var walk = PathWalk(transform: m, cap: 0)
    walk.move(to: Point(x: rect.minX, y: rect.minY))
    walk.move(to: Point(x: rect.maxX, y: rect.minY))
    walk.move(to: Point(x: rect.minX, y: rect.maxY))
    walk.move(to: Point(x: rect.maxX, y: rect.maxY))
    return walk.coveredPixels(width: Double(canvas.pixelWidth), height: Double(canvas.pixelHeight))
      / pixelsPerUnit
  }

  /// The work of filling or stroking `path` on `canvas` (see `maximumPathWorkPerFrame`); a
  /// fill (`filled`) also counts the pixels its box covers in the canvas (`fillWork`).
  package static func pathWork(
    of path: Path, on canvas: Canvas, filled: Bool = false, stroke: StrokeStyle? = nil,
    sweeping: Bool = true
  ) -> Double {
    // A stroke drawn as the region it sweeps is that region's fill (its pieces overlap: 100
    // full-turn arcs of radius 1 stroked 1,000 wide took 10 s, counted as their arcs).
    if sweeping, let stroke, let sweep = canvas.sweptStroke(of: path, style: stroke) {
      // One too large to make (over two million points) is refused. The rest is Cairo's
      // stroke, counted as the whole path's (its crossings judged over the whole path's box,
      // as before), joined with the outline in a group the size of the stroke's box.
      guard let outline = sweep.outline else { return .infinity }
      var work = pathWork(of: outline, on: canvas, filled: true)
      if !sweep.rest.isEmpty {
        work += pathWork(of: path, on: canvas, stroke: stroke, sweeping: false)
        work += 2 * fillWork(of: sweep.box, on: canvas)
      }
      return work
    }
    let m = canvas.deviceTransform
    let width = Double(canvas.pixelWidth), height = Double(canvas.pixelHeight)
    let cap = width + height
    var walk = PathWalk(transform: m, cap: cap)
    // A stroke's lines reach the canvas from as far as its outline does (a line 100 pixels
    // beyond the region stroked 4,000 wide sweeps every row).
    let reach = stroke.map { strokeReach($0, on: canvas) } ?? 0
    if reach.isFinite {
      walk.region = (
        -width / 2 - reach, -height / 2 - reach, width * 1.5 + reach, height * 1.5 + reach
      )
    }
    if let stroke { walk.sweep = strokeSweep(stroke, on: canvas) }
    for element in path.elements {
      switch element {
      case .move(let p): walk.move(to: p)
      case .line(let p): walk.line(to: p)
      case .quadCurve(let p, let c):
        walk.line(to: c)
        walk.line(to: p)
      case .curve(let p, let c1, let c2):
        walk.line(to: c1)
        walk.line(to: c2)
        walk.line(to: p)
      case .closeSubpath: walk.close()
      }
    }
    var n = Double(path.elements.count)
    // A round cap is a half disc's outline, half the width times π long, that Cairo sweeps
    // with the stroke over half its width of rows, and whose edges can cross other outlines:
    // counted so, and as two more elements for the pairs that can cross (8,000 dots of one
    // segment stroked 1,000 wide with round caps, the dots' outlines crossing one another,
    // took 19 s, counted by their width and their segments only; 2,000 take 2 s).
    var capOutline = 0.0, capRows = 0.0
    // (A dashed stroke's caps are counted with its dashes.)
    if let stroke, stroke.lineCap == .round, !stroke.isDashed, walk.sweep > 0 {
      let caps = 2 * Double(Self.openSubpathCount(of: path))
      capOutline = caps * .pi / 2 * (walk.sweep + 4)
      capRows = caps * (walk.sweep + 4) / 2
      n += 2 * caps
    }
    // The box of the points (which holds every line and curve), cut to the rows and columns
    // where crossings cost Cairo work; a path whose box misses them crosses nothing there.
    // A wide stroke's outline is what Cairo sweeps: its lines and, at each join, edges its
    // width long (the inner side of a join goes back through the path's point), in a box
    // grown by half its width. A path wound 37 times round a circle of radius 8, stroked 50
    // wide, crossed itself that much: a second a path, 20 s a frame, counted as its length.
    var crossings = 0.0
    let grown = walk.sweep / 2
    if let spanX = walk.span(
      walk.minX - grown, walk.maxX + grown, from: -width / 2, to: width * 1.5),
      let spanY = walk.span(
        walk.minY - grown, walk.maxY + grown, from: -height / 2, to: height * 1.5)
    {
      let area = (spanX + 1) * (spanY + 1)
      let outline = walk.length + walk.swept + capOutline
      crossings = Swift.min(n * n / 32, outline * outline / (8 * area))
    }
    let covered = filled ? walk.coveredPixels(width: width, height: height) / pixelsPerUnit : 0
    return n + walk.length + crossings + covered + walk.swept + capRows
  }

  /// The sub-paths of `path` that are not closed (each has two caps when stroked).
  package static func openSubpathCount(of path: Path) -> Int {
    var count = 0, open = false
    for element in path.elements {
      switch element {
      case .move:
        if open { count += 1 }
        open = true
      case .closeSubpath: open = false
      // A line after a close starts a new sub-path at the closed one's start.
      default: open = true
      }
    }
    return open ? count + 1 : count
  }

  /// The rows each line (and each dash) of a stroke sweeps beside its length: its width in
  /// device pixels past 4 (a narrow stroke's rows are its length's), at most the canvas's
  /// width plus height. Cairo sweeps a stroke's outline, so a wide stroke costs its width for
  /// every line: a circle of 99,999 lines stroked 4,000 wide took 29 s for one frame, 20,000
  /// random lines in a 2-pixel spot 13 s, both counted as their lengths only (a few units
  /// each).
  package static func strokeSweep(_ stroke: StrokeStyle, on canvas: Canvas) -> Double {
    let m = canvas.deviceTransform
    let stretch = Swift.max(
      (m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
    let cap = Double(canvas.pixelWidth + canvas.pixelHeight)
    let width = stroke.lineWidth * stretch
    return width.isNaN ? cap : Swift.min(Swift.max(0, width - 4), cap)
  }

  /// How many times a plain fill's work (per pixel covered) a gradient of `type` through
  /// `stops` colors is: axial 25, radial 45, conic 170 (measured on a release build over an
  /// 8000 x 8000 frame against translucent backgrounds: Pixman computes each pixel's place
  /// along an axial gradient and its radius on a radial one, and a conic gradient is colored
  /// pixel by pixel with an arctangent each), plus one for every 20 stops (`stops`: those it
  /// is drawn with, `Canvas.drawnStopCount`, colors whose alpha changes adding stops between
  /// them: 1,000 colors tripled an axial gradient's time), and, on axial and radial gradients,
  /// half a unit for each stop past 64: Pixman searches the stops from the first again wherever
  /// a pixel passes one, so a diagonal gradient of 10,000 translucent colors (some 80,000
  /// stops) took 17 s over a 1000 x 1000 frame, where it was counted a tenth of the budget
  /// (a conic gradient looks its colors up in a table).
  public static func gradientWeight(_ type: GradientLayer.GradientType, stops: Int) -> Double {
    let base: Double
    switch type {
    case .axial: base = 25
    case .radial: base = 45
    case .conic: base = 170
    }
    let searched = type == .conic ? 0 : Double(Swift.max(0, stops - 64)) / 2
    return base + Double(stops) / 20 + searched
  }

  /// The work of giving Cairo a gradient of `stops` drawn stops, whatever its size: the stops
  /// squared over 1,000 (Cairo inserts each stop in order by going over those before it, and
  /// the gradient is made again at every draw: 10,000 colours alternating in alpha, some
  /// 160,000 stops, took 7 s in a 4 x 4 frame, and 10,000 replicated 2 x 2 gradients of 300
  /// such colours 55 s, counted by their pixels only).
  package static func gradientSetupWork(stops: Int) -> Double {
    Double(stops) * Double(stops) / 1_000
  }

  /// How many times a plain fill's work (per pixel covered) drawing a picture on `canvas` is:
  /// 4 where the canvas only scales and moves it (Pixman's scaled paths), 16 where it turns or
  /// shears it (Pixman's general sampler: a 512 x 512 picture stretched over an 8000 x 8000
  /// frame took 0.06 s unturned and 0.5 s turned 0.3 rad; 20 turned copies took 14 s within
  /// the weight 4 they were given).
  package static func imageWeight(on canvas: Canvas) -> Double {
    let m = canvas.deviceTransform
    return m.b == 0 && m.c == 0 ? 4 : 16
  }

  /// How many times a plain fill's work (per pixel of their boxes) filling glyphs as outlines
  /// is: 2 (a glyph's outline has many edges, some crossing: one CJK character at 3,000 points
  /// took some 9 ms over a 4000 x 4000 frame, a Latin letter about 6 ms).
  static let outlineWeight = 2.0

  /// How many times a plain fill's work (per pixel covered) warping a plane's offscreen group
  /// onto the canvas through its perspective map is: 20 (every pixel sampled through the map:
  /// a picture stretched over an 8000 x 8000 frame in perspective took 0.7 s, and 20 such
  /// planes 18 s of CPU, the warps counted by nothing).
  static let warpWeight = 20.0

  /// Counts the work of warping a plane onto `canvas`: the device pixels of the part that
  /// shows (`visible`, points of the plane, through `map`), `warpWeight` times a fill's.
  func chargeWarp(
    of visible: [Point], through map: Homography, for layer: Layer, in canvas: Canvas
  ) throws(RenderingError) {
    let device = visible.compactMap { map.apply($0) }
    var twiceArea = 0.0
    for (a, b) in zip(device, device.dropFirst() + device.prefix(1)) {
      twiceArea += a.x * b.y - b.x * a.y
    }
    let pixels = Swift.min(
      Swift.abs(twiceArea) / 2, Double(canvas.pixelWidth) * Double(canvas.pixelHeight))
    try chargePathWork(
      LayerRenderer.warpWeight * pixels / LayerRenderer.pixelsPerUnit, for: layer, in: canvas)
  }

  /// Counts the work of filling `rect` for `layer` (its background, gradient or contents;
  /// `weight` times a plain fill's, `imageWeight(on:)` for a picture) against the frame's
  /// budget, before it is drawn.
  func chargeFill(
    _ rect: Rect, weight: Double = 1, for layer: Layer, in canvas: Canvas
  ) throws(RenderingError) {
    let work = weight * LayerRenderer.fillWork(of: rect, on: canvas)
    try chargePathWork(work, for: layer, in: canvas)
  }

  /// Counts `work` units of path work about to be done for `layer` against the frame's budget;
  /// refused past it, before anything is drawn.
  func chargePathWork(_ work: Double, for layer: Layer, in canvas: Canvas) throws(RenderingError) {
    canvas.dashTally.pathWork += work
    guard canvas.dashTally.pathWork <= Double(LayerRenderer.maximumPathWorkPerFrame) else {
      throw .tooMuchPathWork(layer: LayerLabel(layer))
    }
  }
}

/// A path walked in device pixels: its lines' lengths, each at most `cap`, and its points' box.
private struct PathWalk {
  let transform: AffineTransform
  let cap: Double
  var length = 0.0
  var current = Point.zero, start = Point.zero
  var minX = Double.infinity, maxX = -Double.infinity
  var minY = Double.infinity, maxY = -Double.infinity

  init(transform: AffineTransform, cap: Double) {
    self.transform = transform
    self.cap = cap
  }

  mutating func move(to p: Point) {
    current = p
    start = p
    extend(p)
  }

  /// Where lines cost sweeping, in device pixels (minX, minY, maxX, maxY): a line wholly
  /// beyond one side counts no length (Cairo leaves it out before sweeping; its element is
  /// still counted). A chart line 40,000 points long scrolled through a 1000-pixel frame, 100
  /// of its segments on screen, was refused for the length of all of them.
  var region: (Double, Double, Double, Double)? = nil
  /// What each line counted adds beside its length (a stroke's width: `strokeSweep`), and the
  /// sum so far.
  var sweep = 0.0, swept = 0.0

  mutating func line(to p: Point) {
    let m = transform
    let dx = (p.x - current.x) * m.a + (p.y - current.y) * m.c
    let dy = (p.x - current.x) * m.b + (p.y - current.y) * m.d
    let step = (dx * dx + dy * dy).squareRoot()
    let from = device(current), to = device(p)
    let beyond =
      region.map { r in
        (from.x < r.0 && to.x < r.0) || (from.x > r.2 && to.x > r.2)
          || (from.y < r.1 && to.y < r.1) || (from.y > r.3 && to.y > r.3)
      } ?? false
    // A length that overflows or is not a number counts as the most a line can sweep.
    if !beyond {
      length += step.isNaN ? cap : Swift.min(step, cap)
      swept += sweep
    }
    current = p
    extend(p)
  }

  /// `p` in device pixels.
  private func device(_ p: Point) -> Point {
    let m = transform
    return Point(x: p.x * m.a + p.y * m.c + m.tx, y: p.x * m.b + p.y * m.d + m.ty)
  }

  mutating func close() { line(to: start) }

  private mutating func extend(_ p: Point) {
    let d = device(p)
    let (x, y) = (d.x, d.y)
    if x < minX { minX = x }
    if x > maxX { maxX = x }
    if y < minY { minY = y }
    if y > maxY { maxY = y }
  }

  /// The pixels of the points' box inside a canvas of `width` x `height` pixels.
  func coveredPixels(width: Double, height: Double) -> Double {
    guard let x = span(minX, maxX, from: 0, to: width),
      let y = span(minY, maxY, from: 0, to: height)
    else { return 0 }
    return x * y
  }

  /// The length of `low...high` within `lower...upper`, or nil when they miss (or no point
  /// was a number).
  func span(_ low: Double, _ high: Double, from lower: Double, to upper: Double) -> Double? {
    guard low <= upper, high >= lower else { return nil }
    return Swift.min(high, upper) - Swift.max(low, lower)
  }
}
