import CCairo
import Geometry
import Glibc

// Drawing a plane in perspective straight onto the canvas: between `beginPlane(_:)` and
// `endPlane()` every fill, clip, gradient and text is mapped through a projective map to device
// pixels as it is drawn (its outline flattened, cut where `w ≤ 0`, and filled by Cairo with its
// usual anti-aliasing), instead of being drawn offscreen and warped. Strokes, images and the
// effects that work in device pixels (shadows, filters) are not drawn in this mode: the
// renderer draws planes that hold them offscreen (LayerRenderer+Projection.swift).

extension Canvas {
  /// How far, in device pixels, outlines may reach past the canvas before they are cut.
  static let planeMargin = 64.0
  /// How close, in device pixels, a flattened outline stays to the true one.
  static let planeTolerance = 0.1
  /// The bytes of gradient pixels computed per band before they are composited.
  static let gradientBandBytes = 128 << 10

  /// Starts drawing a plane straight onto this canvas: user space becomes the plane's own
  /// (the current transform is reset to the identity, and later transforms place things in
  /// the plane), and `map` takes the plane to device pixels. Ends with `endPlane()`; planes do
  /// not nest.
  package func beginPlane(_ map: Homography) {
    precondition(projection == nil, "Canvas.beginPlane(_:) inside another plane")
    save()
    cairo_identity_matrix(cr)
    projection = map
  }

  /// Ends what `beginPlane(_:)` started: the transform and clip from before it come back.
  package func endPlane() {
    projection = nil
    restore()
  }

  /// Sets Cairo's path, in device pixels, to `path` (user space) through `map`: each subpath
  /// flattened and cut as `Homography.polygons(of:within:tolerance:)` says.
  func setProjectedPath(_ path: Path, through map: Homography) {
    cairo_new_path(cr)
    var saved = cairo_matrix_t()
    cairo_get_matrix(cr, &saved)
    cairo_identity_matrix(cr)
    defer { cairo_set_matrix(cr, &saved) }
    let m = Canvas.planeMargin
    let region = Rect(
      x: -m, y: -m, width: Double(pixelWidth) + 2 * m, height: Double(pixelHeight) + 2 * m)
    for polygon in map.polygons(of: path, within: region, tolerance: Canvas.planeTolerance) {
      var first = true
      for p in polygon {
        guard let q = map.apply(p) else { continue }
        if first { cairo_move_to(cr, q.x, q.y) } else { cairo_line_to(cr, q.x, q.y) }
        first = false
      }
      cairo_close_path(cr)
    }
  }

  /// The current map from user space to device pixels inside a plane.
  var userToDevice: Homography? {
    projection.map { Homography(deviceTransform).concatenating($0) }
  }

  /// Fills `path` with a gradient computed pixel by pixel through the plane's map: each device
  /// pixel's centre is taken back into user space (a projective map, so the colors foreshorten
  /// as the plane does) and colored from a table of the stops (straight-alpha interpolation),
  /// conic seams sampled 4 × 4; pixels whose centre is at or behind the eye stay clear.
  func fillProjectedGradient(
    _ path: Path, _ geometry: GradientGeometry, _ stops: [GradientStop], through map: Homography
  ) {
    guard let fromDevice = map.inverted else { return }
    fillGradient(geometry, stops, fromDevice: fromDevice) { setProjectedPath(path, through: map) }
  }

  /// Fills the outline `setOutline` sets (in the current user space) with `geometry`'s
  /// gradient, each device pixel's centre taken back into the gradient's space by
  /// `fromDevice`.
  func fillGradient(
    _ geometry: GradientGeometry, _ stops: [GradientStop], fromDevice: Homography,
    setOutline: () -> Void
  ) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    setOutline()
    cairo_identity_matrix(cr)
    var p = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0), c = p
    cairo_path_extents(cr, &p.x1, &p.y1, &p.x2, &p.y2)
    cairo_clip_extents(cr, &c.x1, &c.y1, &c.x2, &c.y2)
    let minX = Int(Swift.max(p.x1, c.x1, 0).rounded(.down))
    let minY = Int(Swift.max(p.y1, c.y1, 0).rounded(.down))
    let maxX = Int(Swift.min(p.x2, c.x2, Double(pixelWidth)).rounded(.up))
    let maxY = Int(Swift.min(p.y2, c.y2, Double(pixelHeight)).rounded(.up))
    let w = maxX - minX, h = maxY - minY
    guard w > 0, h > 0 else { return }
    // Bands of rows, each computed into scratch memory small enough to stay in cache and
    // composited at once through the outline, clipped to the band; every pixel of a band is
    // written, so the memory needs no clearing.
    let bandRows = Swift.max(1, Swift.min(h, Canvas.gradientBandBytes / (w * 4)))
    guard let data = scratchPixels.memory(bytes: w * bandRows * 4) else { return }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    guard let outline = cairo_copy_path(cr) else { return }
    defer { cairo_path_destroy(outline) }
    let ramp = GradientRamp(stops, conic: geometry.isConic)
    var top = 0
    while top < h {
      let rows = Swift.min(bandRows, h - top)
      guard
        let image = cairo_image_surface_create_for_data(
          data, CAIRO_FORMAT_ARGB32, Int32(w), Int32(rows), Int32(w * 4))
      else { return }
      defer { cairo_surface_destroy(image) }
      guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return }
      data.withMemoryRebound(to: UInt32.self, capacity: w * rows) { pixels in
        for py in 0..<rows {
          ramp.fill(
            pixels + py * w, count: w, x: Double(minX) + 0.5, y: Double(minY + top + py) + 0.5,
            geometry: geometry, fromDevice: fromDevice)
        }
      }
      cairo_surface_mark_dirty(image)
      // A rectangular clip is a box to Cairo: the outline is scan-converted in the band only.
      cairo_save(cr)
      cairo_new_path(cr)
      cairo_rectangle(cr, Double(minX), Double(minY + top), Double(w), Double(rows))
      cairo_clip(cr)
      cairo_append_path(cr, outline)
      cairo_set_source_surface(cr, image, Double(minX), Double(minY + top))
      cairo_fill(cr)
      cairo_restore(cr)
      top += rows
    }
  }

  /// Draws `layout`'s glyphs as outlines through the plane's map.
  func drawProjected(_ layout: TextLayout, at origin: Point, color: Color) {
    cairo_save(cr)
    defer { cairo_restore(cr) }
    cairo_translate(cr, origin.x, origin.y)
    cairo_new_path(cr)
    for run in layout.runs {
      cairo_set_scaled_font(cr, OpaquePointer(bitPattern: run.font))
      run.glyphs.withUnsafeBufferPointer { cairo_glyph_path(cr, $0.baseAddress, Int32($0.count)) }
    }
    let outlines = currentPath()
    cairo_new_path(cr)
    fill(outlines, with: color)
  }

  /// Cairo's current path, in user space, as a `Path`.
  private func currentPath() -> Path {
    var path = Path()
    guard let copy = cairo_copy_path(cr) else { return path }
    defer { cairo_path_destroy(copy) }
    guard copy.pointee.status == CAIRO_STATUS_SUCCESS, let data = copy.pointee.data else {
      return path
    }
    var i = 0
    let count = Int(copy.pointee.num_data)
    while i < count {
      let header = data[i].header
      let length = Swift.max(1, Int(header.length))
      func point(_ k: Int) -> Point { Point(x: data[i + k].point.x, y: data[i + k].point.y) }
      switch header.type {
      case CAIRO_PATH_MOVE_TO where length >= 2: path.move(to: point(1))
      case CAIRO_PATH_LINE_TO where length >= 2: path.addLine(to: point(1))
      case CAIRO_PATH_CURVE_TO where length >= 4:
        path.addCurve(to: point(3), control1: point(1), control2: point(2))
      case CAIRO_PATH_CLOSE_PATH: path.closeSubpath()
      default: break
      }
      i += length
    }
    return path
  }
}

/// Memory for the pixels a canvas computes and then composites (a gradient in a plane), kept
/// between draws so that each draw neither allocates nor clears it; it only grows.
final class ScratchPixels {
  private var base: UnsafeMutableRawPointer? = nil
  private var capacity = 0

  /// At least `bytes` bytes (16-byte aligned, contents undefined), or `nil` past the canvas
  /// pixel limit.
  func memory(bytes: Int) -> UnsafeMutablePointer<UInt8>? {
    guard bytes > 0, bytes <= Canvas.maximumPixelCount * 4 else { return nil }
    if bytes > capacity {
      base?.deallocate()
      base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
      capacity = bytes
    }
    return base?.assumingMemoryBound(to: UInt8.self)
  }

  deinit { base?.deallocate() }
}

extension GradientGeometry {
  var isConic: Bool {
    if case .conic = self { return true }
    return false
  }
}

/// A gradient's colors by location, premultiplied and packed as Cairo's ARGB32, fine enough
/// that neighbouring entries differ by less than a level; and the row loops that color pixels
/// by location under a projective map.
struct GradientRamp {
  static let size = 4096
  let packed: [UInt32]
  let colors: [(Double, Double, Double, Double)]

  /// The table of `stops` (sorted by location); the unpacked colors too for a conic
  /// gradient, whose seam averages them.
  init(_ stops: [GradientStop], conic: Bool) {
    let n = GradientRamp.size
    var colors = [(Double, Double, Double, Double)](repeating: (0, 0, 0, 0), count: n)
    var packed = [UInt32](repeating: 0, count: n)
    // One walk through the stops: entry e is at location e / (n − 1), between stops i and i + 1.
    var i = 0
    for e in 0..<n {
      let location = Double(e) / Double(n - 1)
      while i + 1 < stops.count && stops[i + 1].location < location { i += 1 }
      let c: Color
      // As `Canvas.color(at:stops:)`: the end colors beyond the ends.
      if location <= stops[0].location {
        c = stops[0].color
      } else if location >= stops[stops.count - 1].location {
        c = stops[stops.count - 1].color
      } else {
        let a = stops[i], b = stops[i + 1]
        let span = b.location - a.location
        c = span > 0 ? Canvas.mix(a.color, b.color, (location - a.location) / span) : b.color
      }
      colors[e] = (c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
      packed[e] = GradientRamp.pack(colors[e])
    }
    self.packed = packed
    self.colors = conic ? colors : []
  }

  /// The premultiplied color of location `t` (clamped to 0...1; not a number: the first).
  func color(at t: Double) -> (Double, Double, Double, Double) { colors[index(t)] }

  /// A conic gradient's location at `p`: the angle about `center` from `angle`, clockwise on
  /// screen, as a fraction of a turn (0..<1).
  static func conicLocation(_ p: Point, center: Point, angle: Double) -> Double {
    var a = atan2(p.y - center.y, p.x - center.x) - angle
    a = a.truncatingRemainder(dividingBy: 2 * .pi)
    if a < 0 { a += 2 * .pi }
    return a / (2 * .pi)
  }

  /// A premultiplied color (components 0...1) as Cairo's ARGB32, each rounded to a level.
  static func pack(_ c: (Double, Double, Double, Double)) -> UInt32 {
    func level(_ v: Double) -> UInt32 {
      let l = v * 255 + 0.5
      return l <= 0 ? 0 : l >= 255 ? 255 : UInt32(l)
    }
    return level(c.3) << 24 | level(c.0) << 16 | level(c.1) << 8 | level(c.2)
  }

  /// The table index of location `t` (clamped to 0...1; not a number shows the first color).
  @inline(__always) func index(_ t: Double) -> Int {
    guard t.isFinite else { return 0 }
    let i = t * Double(GradientRamp.size - 1) + 0.5
    return i <= 0 ? 0 : i >= Double(GradientRamp.size - 1) ? GradientRamp.size - 1 : Int(i)
  }

  /// Colors `count` pixels of a row, the first centred on device point `(x, y)`.
  func fill(
    _ row: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double,
    geometry: GradientGeometry, fromDevice f: Homography
  ) {
    // The user point of pixel k is (U + k dU, V + k dV) / (W + k dW).
    let u0 = x * f.m11 + y * f.m21 + f.m31, du = f.m11
    let v0 = x * f.m12 + y * f.m22 + f.m32, dv = f.m12
    let w0 = x * f.m13 + y * f.m23 + f.m33, dw = f.m13
    packed.withUnsafeBufferPointer { table in
      switch geometry {
      case .axial(let start, let end):
        let dx = end.x - start.x, dy = end.y - start.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else {
          for k in 0..<count { row[k] = table[table.count - 1] }
          return
        }
        // t = ((u, v) − start)·d / |d|², a ratio of two affine functions of k.
        let n0 = (u0 * dx + v0 * dy - w0 * (start.x * dx + start.y * dy)) / length2
        let n1 = (du * dx + dv * dy - dw * (start.x * dx + start.y * dy)) / length2
        fillRatio(row, count: count, n0: n0, n1: n1, w0: w0, dw: dw, table: table)
      case .radial(let center, let radii, let focus):
        guard radii.width > 0, radii.height > 0 else {
          for k in 0..<count { row[k] = table[table.count - 1] }
          return
        }
        // In the unit circle's space, with focus f: location |p − f| / s, where
        // f + s (p − f) / |p − f| is on the circle.
        let (fx, fy) = GradientGeometry.unitFocus(center: center, radii: radii, focus: focus)
        let inside = 1 - (fx * fx + fy * fy)
        for k in 0..<count {
          let w = w0 + Double(k) * dw
          guard w > 0 else {
            row[k] = 0
            continue
          }
          let ex = ((u0 + Double(k) * du) / w - center.x) / radii.width - fx
          let ey = ((v0 + Double(k) * dv) / w - center.y) / radii.height - fy
          let distance = (ex * ex + ey * ey).squareRoot()
          guard distance > 0 else {
            row[k] = table[0]
            continue
          }
          let b = (fx * ex + fy * ey) / distance
          row[k] = table[index(distance / (-b + (b * b + inside).squareRoot()))]
        }
      case .conic(let center, let angle):
        fillConic(row, count: count, x: x, y: y, center: center, angle: angle, fromDevice: f)
      }
    }
  }

  /// The most a location may move from its exact value between exact samples: half a table
  /// entry (an entry of a two-stop ramp is under a sixteenth of a level).
  static let maximumLocationError = 0.5 / Double(size - 1)
  /// The longest run of pixels between exact samples.
  static let maximumSpan = 32

  /// Colors pixel k by location t(k) = (n0 + k n1) / (w0 + k dw), clear where w ≤ 0: exact at
  /// the ends of spans of up to `maximumSpan` pixels and linear in between (in 16.16 fixed
  /// point). A span is halved until the curvature of t, |t″| = 2 |dw| |t′| / w, cannot move a
  /// location by more than `maximumLocationError`: with the mean slope |b − a| / L doubled for
  /// safety, L² / 8 · |t″| ≤ L |dw| |b − a| / (2 min w).
  private func fillRatio(
    _ row: UnsafeMutablePointer<UInt32>, count: Int, n0: Double, n1: Double, w0: Double,
    dw: Double, table: UnsafeBufferPointer<UInt32>
  ) {
    let last = Double(GradientRamp.size - 1)
    let maximumIndex = GradientRamp.size - 1
    @inline(__always) func t(_ k: Int, _ w: Double) -> Double {
      let t = (n0 + Double(k) * n1) / w
      return t < -1e6 ? -1e6 : t > 1e6 ? 1e6 : t
    }
    var k = 0
    var w = w0
    var a = w > 0 ? t(0, w) : 0
    while k < count {
      guard w > 0 else {
        row[k] = 0
        k += 1
        w = w0 + Double(k) * dw
        if w > 0 { a = t(k, w) }
        continue
      }
      var span = count - k < GradientRamp.maximumSpan ? count - k : GradientRamp.maximumSpan
      var b = a
      var wEnd = w
      while span > 1 {
        wEnd = w0 + Double(k + span) * dw
        if wEnd > 0 {
          b = t(k + span, wEnd)
          let error = Double(span) * abs(dw) * abs(b - a) / (2 * (w < wEnd ? w : wEnd))
          if error <= GradientRamp.maximumLocationError { break }
        }
        span /= 2
      }
      if span == 1 {
        wEnd = w0 + Double(k + 1) * dw
        b = wEnd > 0 ? t(k + 1, wEnd) : a
      }
      // Entry round(t × last), as 16.16 fixed point stepping linearly from a toward b.
      var f = Int64(((a * last + 0.5) * 65536).rounded(.down))
      let step = span == 1 ? 0 : Int64((((b - a) / Double(span)) * last * 65536).rounded())
      let fLast = f &+ step &* Int64(span - 1)
      if f >= 0, fLast >= 0, f >> 16 <= maximumIndex, fLast >> 16 <= maximumIndex {
        // Linear, so both ends inside the table means every entry is.
        for j in 0..<span {
          row[k + j] = table[Int(truncatingIfNeeded: f >> 16)]
          f &+= step
        }
      } else {
        for j in 0..<span {
          let i = Int(truncatingIfNeeded: f >> 16)
          row[k + j] = table[i < 0 ? 0 : i > maximumIndex ? maximumIndex : i]
          f &+= step
        }
      }
      k += span
      (a, w) = (b, wEnd)
    }
  }

  /// The conic case: the angle about `center` from `angle`, clockwise, as a fraction of a
  /// turn; pixels within 1.5 pixels of the seam or the centre averaged over 4 × 4 samples.
  private func fillConic(
    _ row: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, center: Point,
    angle: Double, fromDevice f: Homography
  ) {
    func location(_ p: Point) -> Double {
      GradientRamp.conicLocation(p, center: center, angle: angle)
    }
    for k in 0..<count {
      let dx = x + Double(k), dy = y
      guard let u = f.apply(Point(x: dx, y: dy)) else {
        row[k] = 0
        continue
      }
      // User units per device pixel here, from the next pixel's pre-image.
      let next = f.apply(Point(x: dx + 1, y: dy)) ?? u
      let step = Swift.max(
        ((next.x - u.x) * (next.x - u.x) + (next.y - u.y) * (next.y - u.y))
          .squareRoot(), 1e-12)
      let r = ((u.x - center.x) * (u.x - center.x) + (u.y - center.y) * (u.y - center.y))
        .squareRoot()
      let t = location(u)
      let distanceToSeam = Swift.min(t, 1 - t) * 2 * .pi * r / step
      guard distanceToSeam < 1.5 || r / step < 1.5 else {
        row[k] = packed[index(t)]
        continue
      }
      var c = (0.0, 0.0, 0.0, 0.0)
      for sy in 0..<4 {
        for sx in 0..<4 {
          let q = Point(x: dx - 0.375 + Double(sx) * 0.25, y: dy - 0.375 + Double(sy) * 0.25)
          let s = f.apply(q).map { color(at: location($0)) } ?? (0, 0, 0, 0)
          c = (c.0 + s.0 / 16, c.1 + s.1 / 16, c.2 + s.2 / 16, c.3 + s.3 / 16)
        }
      }
      row[k] = GradientRamp.pack(c)
    }
  }
}
