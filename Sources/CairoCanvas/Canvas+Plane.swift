import CCairo
import Geometry
import Glibc
import Parallelism

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
    setDevicePath(projectedPolygons(of: path, through: map))
  }

  /// The closed polygons, in device pixels, that a fill of `path` (user space) through `map`
  /// covers: each subpath flattened and cut as `Homography.polygons(of:within:tolerance:)`
  /// says, then mapped point by point.
  func projectedPolygons(of path: Path, through map: Homography) -> [[Point]] {
    let m = Canvas.planeMargin
    let region = Rect(
      x: -m, y: -m, width: Double(pixelWidth) + 2 * m, height: Double(pixelHeight) + 2 * m)
    return map.polygons(of: path, within: region, tolerance: Canvas.planeTolerance).map {
      $0.compactMap { map.apply($0) }
    }
  }

  /// Sets Cairo's path to closed `polygons` in device pixels.
  private func setDevicePath(_ polygons: [[Point]]) {
    cairo_new_path(cr)
    var saved = cairo_matrix_t()
    cairo_get_matrix(cr, &saved)
    cairo_identity_matrix(cr)
    defer { cairo_set_matrix(cr, &saved) }
    for polygon in polygons where !polygon.isEmpty {
      cairo_move_to(cr, polygon[0].x, polygon[0].y)
      for p in polygon.dropFirst() { cairo_line_to(cr, p.x, p.y) }
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
    let polygons = projectedPolygons(of: path, through: map)
    fillGradient(geometry, stops, fromDevice: fromDevice, devicePolygons: polygons) {
      setDevicePath(polygons)
    }
  }

  /// Fills the outline `setOutline` sets (in the current user space) with `geometry`'s
  /// gradient, each device pixel's centre taken back into the gradient's space by
  /// `fromDevice`. When the outline is known as closed polygons in device pixels
  /// (`devicePolygons`), only the columns of each row they can touch are computed; otherwise
  /// every pixel of the outline's extents.
  func fillGradient(
    _ geometry: GradientGeometry, _ stops: [GradientStop], fromDevice: Homography,
    devicePolygons: [[Point]]? = nil, setOutline: () -> Void
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
    let columns =
      devicePolygons.map {
        Canvas.rowExtents(of: $0, minX: minX, minY: minY, width: w, height: h)
      } ?? Array(repeating: (from: 0, to: w), count: h)
    // Bands of rows, each computed into scratch memory small enough to stay in cache and
    // composited at once through the outline, clipped to the band. Only the pixels the outline
    // can touch are computed (the rest of a band is left as it was: the composite gives them
    // no coverage), so the memory needs no clearing.
    let bandRows = Swift.max(1, Swift.min(h, Canvas.gradientBandBytes / (w * 4)))
    guard let data = scratchPixels.memory(bytes: w * bandRows * 4) else { return }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    guard let outline = cairo_copy_path(cr) else { return }
    defer { cairo_path_destroy(outline) }
    let ramp = GradientRamp.cached(stops, conic: geometry.isConic)
    var top = 0
    while top < h {
      let rows = Swift.min(bandRows, h - top)
      let onlyEntries = data.withMemoryRebound(to: UInt32.self, capacity: w * rows) { pixels in
        ramp.fill(
          pixels, stride: w, columns: columns[top..<top + rows], x: minX, y: minY + top,
          geometry: geometry, fromDevice: fromDevice)
      }
      // Opaque pixels are given to Cairo as such (their alpha bytes are 255 either way): the
      // composite is then a copy where the outline covers a pixel whole, not a blend.
      let format = ramp.isOpaque && onlyEntries ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
      guard
        let image = cairo_image_surface_create_for_data(
          data, format, Int32(w), Int32(rows), Int32(w * 4))
      else { return }
      defer { cairo_surface_destroy(image) }
      guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { return }
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

  /// For each of `height` rows from device row `minY`, the columns (from `minX`, within
  /// `width`) that closed `polygons` can touch, `from..<to` (empty where they touch none):
  /// between the leftmost and the rightmost point of their edges inside the row, widened by a
  /// pixel. Any point inside a closed polygon has an edge on either side of it in its row.
  static func rowExtents(
    of polygons: [[Point]], minX: Int, minY: Int, width: Int, height: Int
  ) -> [(from: Int, to: Int)] {
    var left = [Double](repeating: .infinity, count: height)
    var right = [Double](repeating: -.infinity, count: height)
    let top = Double(minY), bottom = Double(minY + height)
    for polygon in polygons {
      for i in polygon.indices {
        let p = polygon[i], q = polygon[i == polygon.count - 1 ? 0 : i + 1]
        guard p.x.isFinite, p.y.isFinite, q.x.isFinite, q.y.isFinite else {
          return Array(repeating: (0, width), count: height)
        }
        let (y0, y1) = p.y < q.y ? (p.y, q.y) : (q.y, p.y)
        guard y1 >= top - 1, y0 <= bottom + 1 else { continue }
        // The rows from the one above y0's (an edge on a row's boundary) to y1's.
        let first = Swift.max(Int(Swift.max(y0, top - 1).rounded(.down)) - 1 - minY, 0)
        let last = Swift.min(Int(Swift.min(y1, bottom + 1).rounded(.down)) - minY, height - 1)
        guard first <= last else { continue }
        let slope = q.y != p.y ? (q.x - p.x) / (q.y - p.y) : 0
        for r in first...last {
          // The edge's part inside the row (its nearest end where it does not reach the row).
          let rowTop = Double(minY + r)
          let ya = Swift.min(Swift.max(rowTop, y0), y1)
          let yb = Swift.min(Swift.max(rowTop + 1, y0), y1)
          let (xa, xb) =
            q.y != p.y ? (p.x + (ya - p.y) * slope, p.x + (yb - p.y) * slope) : (p.x, q.x)
          left[r] = Swift.min(left[r], xa, xb)
          right[r] = Swift.max(right[r], xa, xb)
        }
      }
    }
    let leftmost = Double(minX - 2), rightmost = Double(minX + width + 2)
    return (0..<height).map { r in
      guard left[r] <= right[r] else { return (0, 0) }
      let from = Int(Swift.max(left[r], leftmost).rounded(.down)) - 1 - minX
      let to = Int(Swift.min(right[r], rightmost).rounded(.up)) + 1 - minX
      let clamped = (from: Swift.max(from, 0), to: Swift.min(to, width))
      return clamped.from < clamped.to ? clamped : (0, 0)
    }
  }

  /// Draws `layout`'s glyphs as outlines through the plane's map.
  func drawProjected(_ layout: TextLayout, at origin: Point, color: Color) {
    withGlyphOutlines(of: layout, at: origin) { fill($0, with: color) }
  }

  /// Cairo's current path, in user space, as a `Path`.
  func currentPath() -> Path { Canvas.path(of: cr) }

  /// The current path of the Cairo context `cr`, in its user space, as a `Path`.
  static func path(of cr: OpaquePointer) -> Path {
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
  /// Whether every entry is opaque (every stop's alpha is 1).
  let isOpaque: Bool
  let colors: [(Double, Double, Double, Double)]

  /// The table of `stops` (sorted by location); the unpacked colors too for a conic
  /// gradient, whose seam averages them.
  init(_ stops: [GradientStop], conic: Bool) {
    let n = GradientRamp.size
    // Only the packed table unless conic: the unpacked one is 128 KB, which malloc maps and
    // unmaps each time (page faults on every draw).
    var colors: [(Double, Double, Double, Double)] = []
    if conic { colors.reserveCapacity(n) }
    let packed = [UInt32](unsafeUninitializedCapacity: n) { table, initialized in
      // One walk through the stops: entry e is at location e / (n − 1), between stops i and
      // i + 1.
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
        let premultiplied = (c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        table[e] = GradientRamp.pack(premultiplied)
        if conic { colors.append(premultiplied) }
      }
      initialized = n
    }
    self.packed = packed
    self.isOpaque = packed.allSatisfy { $0 >> 24 == 255 }
    self.colors = colors
  }

  /// The tables of the stops drawn last, most recent first, shared by every canvas: a gradient
  /// drawn in every frame (each frame has a canvas of its own) has its table made once. A table
  /// depends only on its stops, so frames do not depend on what was drawn before.
  private static let recent = Locked<[(stops: [GradientStop], conic: Bool, ramp: GradientRamp)]>(
    [])
  /// How many tables `recent` keeps (a conic one is 144 KB, another 16 KB).
  static let recentLimit = 8

  /// The table of `stops`, from `recent` when it holds it.
  static func cached(_ stops: [GradientStop], conic: Bool) -> GradientRamp {
    let found = recent.withLock { entries -> GradientRamp? in
      guard let i = entries.firstIndex(where: { $0.conic == conic && $0.stops == stops }) else {
        return nil
      }
      let entry = entries.remove(at: i)
      entries.insert(entry, at: 0)
      return entry.ramp
    }
    if let found { return found }
    let ramp = GradientRamp(stops, conic: conic)
    recent.withLock { entries in
      entries.insert((stops, conic, ramp), at: 0)
      if entries.count > recentLimit { entries.removeLast() }
    }
    return ramp
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

  /// Colors a band of rows: row r is device row `y + r` and its pixels are device columns
  /// `x + from ..< x + to` for `(from, to) = columns[r]`, stored from `pixels + r × stride +
  /// from`; each pixel's color is the location of its centre's pre-image (`fromDevice` takes
  /// device points to user space). Returns whether only table entries were stored (no pixel
  /// at or behind the eye, no conic seam blended with one).
  func fill(
    _ pixels: UnsafeMutablePointer<UInt32>, stride: Int,
    columns: ArraySlice<(from: Int, to: Int)>, x: Int, y: Int, geometry: GradientGeometry,
    fromDevice f: Homography
  ) -> Bool {
    packed.withUnsafeBufferPointer { table in
      let table = table.baseAddress!
      let last = table[GradientRamp.size - 1]
      var onlyEntries = true
      for (r, (from, to)) in zip(0..., columns) where from < to {
        let row = pixels + r * stride + from, count = to - from
        let px = Double(x + from) + 0.5, py = Double(y + r) + 0.5
        switch geometry {
        case .axial(let start, let end):
          let dx = end.x - start.x, dy = end.y - start.y
          let length2 = dx * dx + dy * dy
          guard length2 > 0 else {
            row.update(repeating: last, count: count)
            continue
          }
          // t = ((u, v) − start)·d / |d|², with u, v and w affine in the device point: a ratio
          // of two affine functions along the row.
          let s = start.x * dx + start.y * dy
          let n0 =
            (px * (f.m11 * dx + f.m12 * dy - f.m13 * s) + py * (f.m21 * dx + f.m22 * dy - f.m23 * s)
              + (f.m31 * dx + f.m32 * dy - f.m33 * s)) / length2
          let n1 = (f.m11 * dx + f.m12 * dy - f.m13 * s) / length2
          let w0 = px * f.m13 + py * f.m23 + f.m33
          onlyEntries =
            fillRatio(row, count: count, n0: n0, n1: n1, w0: w0, dw: f.m13, table: table)
            && onlyEntries
        case .radial, .conic:
          onlyEntries =
            fillRow(
              row, count: count, x: px, y: py, geometry: geometry, fromDevice: f, table: table)
            && onlyEntries
        }
      }
      return onlyEntries
    }
  }

  /// Colors `count` pixels of a row of a radial or conic gradient, the first centred on device
  /// point `(x, y)`; whether only table entries were stored.
  private func fillRow(
    _ row: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double,
    geometry: GradientGeometry, fromDevice f: Homography, table: UnsafePointer<UInt32>
  ) -> Bool {
    // The user point of pixel k is (U + k dU, V + k dV) / (W + k dW).
    let u0 = x * f.m11 + y * f.m21 + f.m31, du = f.m11
    let v0 = x * f.m12 + y * f.m22 + f.m32, dv = f.m12
    let w0 = x * f.m13 + y * f.m23 + f.m33, dw = f.m13
    switch geometry {
    case .axial:
      preconditionFailure("axial rows are filled by fillRatio(_:count:n0:n1:w0:dw:table:)")
    case .radial(let center, let radii, let focus):
      guard radii.width > 0, radii.height > 0 else {
        row.update(repeating: table[GradientRamp.size - 1], count: count)
        return true
      }
      // In the unit circle's space, with focus f: location |p − f| / s, where
      // f + s (p − f) / |p − f| is on the circle.
      let (fx, fy) = GradientGeometry.unitFocus(center: center, radii: radii, focus: focus)
      let inside = 1 - (fx * fx + fy * fy)
      var onlyEntries = true
      for k in 0..<count {
        let w = w0 + Double(k) * dw
        guard w > 0 else {
          row[k] = 0
          onlyEntries = false
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
      return onlyEntries
    case .conic(let center, let angle):
      return fillConic(
        row, count: count, x: x, y: y, center: center, angle: angle, fromDevice: f)
    }
  }

  /// The most a location may move from its exact value between exact samples: half a table
  /// entry (an entry of a two-stop ramp is under a sixteenth of a level).
  static let maximumLocationError = 0.5 / Double(size - 1)
  /// The longest run of pixels between exact samples.
  static let maximumSpan = 256

  /// Colors pixel k by location t(k) = (n0 + k n1) / (w0 + k dw), clear where w ≤ 0.
  ///
  /// w is linear, so the pixels with w > 0 are one run; along it t′ = c / w² with
  /// c = n1 w0 − n0 dw constant, so t is monotonic: the pixels past either end of the ramp
  /// (where t − τ w, linear in k, changes sign) are filled with the end colors at once. In
  /// between, t follows its second-order Taylor polynomial from an exact sample at the start of
  /// each span (one division), stepped by forward differences in 32.32 fixed point. The
  /// remainder is at most |t‴| L³ / 6 = dw² |c| L³ / w_min⁴ over L pixels, so a span may be
  /// L pixels long while dw² |c| L³ ≤ E w_min⁴ (E = `maximumLocationError`; w_min at the span's
  /// start or last pixel, w being linear): checked with multiplications only, each span
  /// starting from the length of the one before. Returns whether no pixel was cleared.
  private func fillRatio(
    _ row: UnsafeMutablePointer<UInt32>, count: Int, n0: Double, n1: Double, w0: Double,
    dw: Double, table: UnsafePointer<UInt32>
  ) -> Bool {
    @inline(__always) func w(_ k: Int) -> Double { w0 + Double(k) * dw }
    @inline(__always) func t(_ k: Int) -> Double { (n0 + Double(k) * n1) / w(k) }
    // The pixel index at or after `x`, within start...end (`nan` for not a number).
    @inline(__always) func pixel(_ x: Double, _ start: Int, _ end: Int, nan: Int) -> Int {
      x.isNaN ? nan : !(x > Double(start)) ? start : !(x < Double(end)) ? end : Int(x)
    }
    // The pixels where w > 0. Not a number: none.
    var start = 0
    var end = count
    if dw > 0 {
      start = pixel(-w0 / dw, 0, count, nan: count)
      while start < count && !(w(start) > 0) { start += 1 }
      while start > 0 && w(start - 1) > 0 { start -= 1 }
    } else if dw < 0 {
      end = pixel(-w0 / dw + 1, 0, count, nan: 0)
      while end > 0 && !(w(end - 1) > 0) { end -= 1 }
      while end < count && w(end) > 0 { end += 1 }
    } else if !(w0 > 0) {
      end = 0
    }
    guard start < end else {
      row.update(repeating: 0, count: count)
      return count == 0
    }
    row.update(repeating: 0, count: start)
    (row + end).update(repeating: 0, count: count - end)
    let onlyEntries = start == 0 && end == count

    // Past the ends of the ramp: below τ = −0.001 every pixel shows the first entry, above
    // τ = 1.001 the last. t = τ where n − τ w = 0; the cut is two pixels on the safe side of it.
    var lo = start
    var hi = end
    let first = t(start), last = t(end - 1)
    // Whether pixels are left after filling those beyond `tau` with `entry`.
    func cut(beyond tau: Double, _ entry: UInt32) -> Bool {
      let beyondFirst = tau < 0 ? first < tau : first > tau
      let beyondLast = tau < 0 ? last < tau : last > tau
      guard beyondFirst || beyondLast else { return true }
      guard !(beyondFirst && beyondLast) else {
        (row + start).update(repeating: entry, count: end - start)
        return false
      }
      let crossing = -(n0 - tau * w0) / (n1 - tau * dw)
      if beyondFirst {
        let cut = pixel((crossing - 1).rounded(.down), lo, hi, nan: lo)
        (row + lo).update(repeating: entry, count: cut - lo)
        lo = cut
      } else {
        let cut = pixel((crossing + 2).rounded(.up), lo, hi, nan: hi)
        (row + cut).update(repeating: entry, count: hi - cut)
        hi = cut
      }
      return true
    }
    guard cut(beyond: -0.001, table[0]), cut(beyond: 1.001, table[GradientRamp.size - 1])
    else { return onlyEntries }

    // Spans of n pixels from k: within the tolerance while bound × n³ ≤ w_min⁴.
    let c = n1 * w0 - n0 * dw
    let bound = dw * dw * abs(c) / GradientRamp.maximumLocationError
    let maximumIndex = Int64(GradientRamp.size - 1)
    let scale = Double(GradientRamp.size - 1) * 4_294_967_296
    var length = GradientRamp.maximumSpan
    var k = lo
    while k < hi {
      let wk = w(k)
      let most = Swift.min(hi - k, GradientRamp.maximumSpan)
      @inline(__always) func fits(_ n: Int) -> Bool {
        let wMin = dw < 0 ? wk + Double(n - 1) * dw : wk
        let l = Double(n)
        return bound * l * l * l <= wMin * wMin * wMin * wMin
      }
      var n = Swift.min(length, most)
      if fits(n) {
        while n < most {
          let longer = Swift.min(n + n >> 2 + 1, most)
          guard fits(longer) else { break }
          n = longer
        }
      } else {
        repeat { n -= n >> 2 + 1 } while n > 1 && !fits(n)
        n = Swift.max(n, 1)
      }
      if k + n < hi { length = n }
      let r = 1 / wk
      let t0 = (n0 + Double(k) * n1) * r
      let t1 = c * r * r
      let t2 = -2 * dw * t1 * r
      // A span of one, or far from the ramp (near the horizon): exact, clamped.
      guard n > 1, abs(t0) <= 2, abs(t1) * Double(n) <= 4 else {
        row[k] = table[index(t0)]
        k += 1
        continue
      }
      // Entry round(t × last): f(j) = (t0 + t1 j + t2 j² / 2) × last + 1/2, in 32.32.
      var f = Int64(t0 * scale + 2_147_483_648)
      var d = Int64((t1 + t2 / 2) * scale)
      let d2 = Int64(t2 * scale)
      let j = Double(n - 1)
      let fEnd = Int64((t0 + t1 * j + t2 * j * j / 2) * scale + 2_147_483_648)
      let (fLo, fHi) = f < fEnd ? (f, fEnd) : (fEnd, f)
      var p = row + k
      // The polynomial is within half an entry of t, which is monotonic: ends an entry inside
      // the table keep every pixel inside it.
      if fLo >> 32 >= 1 && fHi >> 32 < maximumIndex {
        for _ in 0..<n {
          p.pointee = table[Int(truncatingIfNeeded: f >> 32)]
          p += 1
          f &+= d
          d &+= d2
        }
      } else {
        for _ in 0..<n {
          let i = f >> 32
          p.pointee =
            table[Int(truncatingIfNeeded: i < 0 ? 0 : i > maximumIndex ? maximumIndex : i)]
          p += 1
          f &+= d
          d &+= d2
        }
      }
      k += n
    }
    return onlyEntries
  }

  /// The conic case: the angle about `center` from `angle`, clockwise, as a fraction of a
  /// turn; pixels within 1.5 pixels of the seam or the centre averaged over 4 × 4 samples.
  /// Returns whether only table entries were stored.
  private func fillConic(
    _ row: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, center: Point,
    angle: Double, fromDevice f: Homography
  ) -> Bool {
    func location(_ p: Point) -> Double {
      GradientRamp.conicLocation(p, center: center, angle: angle)
    }
    var onlyEntries = true
    for k in 0..<count {
      let dx = x + Double(k), dy = y
      guard let u = f.apply(Point(x: dx, y: dy)) else {
        row[k] = 0
        onlyEntries = false
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
      onlyEntries = false
    }
    return onlyEntries
  }
}
