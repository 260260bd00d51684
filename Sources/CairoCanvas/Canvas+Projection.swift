import CCairo
import Geometry
import Glibc
import Parallelism

extension Canvas {
  /// Warps of at least this many destination pixels run on every core.
  static let warpBandPixels = 65_536

  /// Draws `source` (another canvas, taken whole) through the projective map `map` from its
  /// pixel coordinates to this canvas's device pixels, with `opacity` (0...1), inside the
  /// current clip: what a layer with perspective terms draws (docs/geometry.md).
  ///
  /// Each destination pixel centre is mapped back through the inverse of `map` (to within
  /// 1/4096 of a source pixel: `ProjectiveWarp`) and sampled bilinearly from `source`
  /// (premultiplied; transparent outside it, so edges are anti-aliased over about a pixel).
  /// Destination pixels whose pre-image is at or behind the eye (`w ≤ 0` under `map`) are left
  /// alone. A map that collapses the plane draws nothing.
  public func drawProjected(_ source: Canvas, through map: Homography, opacity: Double = 1) {
    let alpha = Swift.min(1, Swift.max(0, opacity))
    guard alpha > 0, let inverse = map.inverted,
      let box = projectedBox(of: source, through: map)
    else { return }
    let (x0, y0, width, height) = box
    guard
      let target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else { return }
    defer { cairo_surface_destroy(target) }
    guard cairo_surface_status(target) == CAIRO_STATUS_SUCCESS else { return }
    cairo_surface_flush(source.surface)
    cairo_surface_flush(target)
    guard let sourceData = cairo_image_surface_get_data(source.surface),
      let targetData = cairo_image_surface_get_data(target)
    else { return }
    let sourceStride = Int(cairo_image_surface_get_stride(source.surface)) / 4
    let targetStride = Int(cairo_image_surface_get_stride(target)) / 4
    let warp = ProjectiveWarp(
      inverse: inverse, sourceWidth: source.pixelWidth, sourceHeight: source.pixelHeight,
      sourceStride: sourceStride)
    let bands = width * height < Canvas.warpBandPixels ? 1 : Swift.min(height, 8)
    let cores = bands == 1 ? 1 : Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    sourceData.withMemoryRebound(to: UInt32.self, capacity: sourceStride * source.pixelHeight) {
      src in
      targetData.withMemoryRebound(to: UInt32.self, capacity: targetStride * height) { dst in
        warp.fill(
          dst, stride: targetStride, x: x0, y: y0, width: width, height: height,
          from: UnsafePointer(src), bands: bands, threads: cores)
      }
    }
    cairo_surface_mark_dirty(target)
    recording?.add("projected", [Double(x0), Double(y0), Double(width), Double(height), alpha])
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_set_source_surface(cr, target, Double(x0), Double(y0))
    cairo_paint_with_alpha(cr, alpha)
    cairo_restore(cr)
  }

  /// The box around the current clip, in device pixels, within the canvas.
  public var deviceClipBounds: Rect {
    var clip = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
    cairo_save(cr)
    cairo_identity_matrix(cr)
    cairo_clip_extents(cr, &clip.x1, &clip.y1, &clip.x2, &clip.y2)
    cairo_restore(cr)
    let x1 = Swift.max(clip.x1, 0), y1 = Swift.max(clip.y1, 0)
    let x2 = Swift.min(clip.x2, Double(pixelWidth)), y2 = Swift.min(clip.y2, Double(pixelHeight))
    return Rect(x: x1, y: y1, width: Swift.max(0, x2 - x1), height: Swift.max(0, y2 - y1))
  }

  /// The device pixels `source`'s image covers under `map`: the box around its corners' images
  /// (its outline cut where `w` reaches 0 first), grown to whole pixels and cut to this
  /// canvas's clip; `nil` when empty.
  private func projectedBox(
    of source: Canvas, through map: Homography
  ) -> (x: Int, y: Int, width: Int, height: Int)? {
    let w = Double(source.pixelWidth), h = Double(source.pixelHeight)
    let outline = Homography.clipToFront(
      [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)], of: map)
    var (minX, minY) = (Double.infinity, Double.infinity)
    var (maxX, maxY) = (-Double.infinity, -Double.infinity)
    for p in outline {
      // Points on the horizon map to infinity: those are cut by the clip below.
      guard let q = map.apply(p) else { continue }
      (minX, minY) = (Swift.min(minX, q.x), Swift.min(minY, q.y))
      (maxX, maxY) = (Swift.max(maxX, q.x), Swift.max(maxY, q.y))
    }
    let clip = deviceClipBounds
    let left = Swift.max(minX.rounded(.down), clip.minX)
    let top = Swift.max(minY.rounded(.down), clip.minY)
    let right = Swift.min(maxX.rounded(.up), clip.maxX)
    let bottom = Swift.min(maxY.rounded(.up), clip.maxY)
    guard left.isFinite, top.isFinite, right.isFinite, bottom.isFinite, right > left,
      bottom > top
    else { return nil }
    return (Int(left), Int(top), Int(right - left), Int(bottom - top))
  }
}

/// The inverse-mapping warp of `Canvas.drawProjected`, one destination row at a time.
///
/// `fill` is the fast path: along a row only the columns whose pre-image can touch the source
/// are visited (the row's pre-image is a line, so each side of the source is one linear
/// inequality in the column), and between exact samples every `span` pixels the source position
/// follows a quadratic in fixed point, with the span shortened wherever the map's curvature
/// could move a sample by more than `maximumError` source pixels. Where all four
/// bilinear taps are inside the source the loop has no division, no bounds check and no
/// floating point. `fillExact` maps every pixel exactly: the reference the fast path is tested
/// against (within one level per channel).
struct ProjectiveWarp {
  let inverse: Homography
  let sourceWidth: Int, sourceHeight: Int, sourceStride: Int

  /// The longest run of pixels between exact samples.
  static let span = 32
  /// The most, in source pixels, the interpolation may move a sample from its exact place.
  static let maximumError = 1.0 / 4096

  /// `a + (b − a) × w / 256` for each 8-bit channel of two premultiplied ARGB pixels, rounded,
  /// two channels at a time in 16-bit lanes.
  @inline(__always) static func mix(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let v = 256 - w
    let rb = ((a & 0x00FF_00FF) &* v &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
    let ag = ((a >> 8) & 0x00FF_00FF) &* v &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080
    return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
  }

  /// The bilinear blend of four taps with weights in 256ths; equal neighbours are not blended
  /// (`mix(a, a, w)` is `a`, so the result is the same).
  @inline(__always) static func blend(
    _ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ wx: UInt32, _ wy: UInt32
  ) -> UInt32 {
    let top = p00 == p10 ? p00 : mix(p00, p10, wx)
    let bottom = p01 == p11 ? p01 : mix(p01, p11, wx)
    return top == bottom ? top : mix(top, bottom, wy)
  }

  /// The homogeneous source coordinates of the centre of pixel `deviceX` in row `deviceY`.
  @inline(__always) func homogeneous(_ deviceX: Int, _ deviceY: Int) -> (Double, Double, Double) {
    let m = inverse
    let u = Double(deviceX) + 0.5, v = Double(deviceY) + 0.5
    return (
      u * m.m11 + v * m.m21 + m.m31, u * m.m12 + v * m.m22 + m.m32, u * m.m13 + v * m.m23 + m.m33
    )
  }

  /// The columns `i` in `0..<width` where `f0 + i × df > 0` may hold, widened by a pixel each
  /// side against rounding (`tight` false), or where it surely holds (`tight` true).
  static func columns(_ f0: Double, _ df: Double, width: Int, tight: Bool) -> Range<Int> {
    guard df != 0 else { return f0 > 0 ? 0..<width : 0..<0 }
    let root = -f0 / df
    guard root.isFinite, abs(root) < 1e9 else {
      return (df > 0 ? root < 0 : root > 0) ? 0..<width : 0..<0
    }
    let slack = tight ? 1.0 : -1.0
    if df > 0 {
      // i > root + slack.
      let first = Swift.max(0, Swift.min(width, Int((root + slack).rounded(.down)) + 1))
      return first..<width
    }
    // i < root − slack.
    let end = Swift.max(0, Swift.min(width, Int((root - slack).rounded(.up))))
    return 0..<end
  }

  /// Fills `height` rows of `width` pixels at `dst` (`stride` pixels apart), device pixels
  /// from (`x`, `y`), as `fill(row:…)` does, in `bands` bands of rows on up to `threads`
  /// threads. Each band writes only its rows and each row is computed alone, so the pixels do
  /// not depend on `bands` or `threads`.
  func fill(
    _ dst: UnsafeMutablePointer<UInt32>, stride: Int, x: Int, y: Int, width: Int, height: Int,
    from src: UnsafePointer<UInt32>, bands: Int, threads: Int
  ) {
    guard bands > 1, threads > 1 else {
      for row in 0..<height {
        fill(row: dst + row * stride, width: width, deviceX: x, deviceY: y + row, from: src)
      }
      return
    }
    // The buffers outlive `Bands.map`, which returns when every band is done; the bands reach
    // them by address (pointers are not `Sendable`), reading `src` and writing disjoint rows.
    let from = UInt(bitPattern: src), into = UInt(bitPattern: dst)
    _ = Bands.map(count: bands, threads: threads) { k in
      guard let src = UnsafePointer<UInt32>(bitPattern: from),
        let dst = UnsafeMutablePointer<UInt32>(bitPattern: into)
      else { return }
      for row in (k * height / bands)..<((k + 1) * height / bands) {
        fill(row: dst + row * stride, width: width, deviceX: x, deviceY: y + row, from: src)
      }
    }
  }

  /// Fills `width` pixels of `row` (device pixels `deviceX...`, row `deviceY`) as `fillExact`
  /// does, to within `maximumError` source pixels in the sample positions; pixels that cannot
  /// touch the source are left alone (the row is expected to start transparent).
  func fill(
    row: UnsafeMutablePointer<UInt32>, width: Int, deviceX: Int, deviceY: Int,
    from src: UnsafePointer<UInt32>
  ) {
    let m = inverse
    let (hx, hy, hw) = homogeneous(deviceX, deviceY)
    let maxX = Double(sourceWidth), maxY = Double(sourceHeight)
    // Where the sample can be non-zero: w > 0 and −1 < s < size, s = h / w − 0.5 on each axis.
    func clamp(_ r: Range<Int>, _ f0: Double, _ df: Double, tight: Bool) -> Range<Int> {
      let c = ProjectiveWarp.columns(f0, df, width: width, tight: tight)
      let lower = Swift.max(r.lowerBound, c.lowerBound)
      return lower..<Swift.max(lower, Swift.min(r.upperBound, c.upperBound))
    }
    var reach = clamp(0..<width, hw, m.m13, tight: false)
    reach = clamp(reach, hx + 0.5 * hw, m.m11 + 0.5 * m.m13, tight: false)
    reach = clamp(reach, (maxX + 0.5) * hw - hx, (maxX + 0.5) * m.m13 - m.m11, tight: false)
    reach = clamp(reach, hy + 0.5 * hw, m.m12 + 0.5 * m.m13, tight: false)
    reach = clamp(reach, (maxY + 0.5) * hw - hy, (maxY + 0.5) * m.m13 - m.m12, tight: false)
    guard !reach.isEmpty else { return }
    // Where all four taps are surely inside: w > 0 and 0 ≤ s < size − 1 on each axis (strictly
    // inside, by a margin, so that rounding cannot step out).
    let margin = 1.0 / 64
    var inner = clamp(reach, hw, m.m13, tight: true)
    inner = clamp(inner, hx - (0.5 + margin) * hw, m.m11 - (0.5 + margin) * m.m13, tight: true)
    inner = clamp(
      inner, (maxX - 0.5 - margin) * hw - hx, (maxX - 0.5 - margin) * m.m13 - m.m11, tight: true)
    inner = clamp(inner, hy - (0.5 + margin) * hw, m.m12 - (0.5 + margin) * m.m13, tight: true)
    inner = clamp(
      inner, (maxY - 0.5 - margin) * hw - hy, (maxY - 0.5 - margin) * m.m13 - m.m12, tight: true)
    if inner.isEmpty { inner = reach.upperBound..<reach.upperBound }
    fillExact(
      row: row, columns: reach.lowerBound..<inner.lowerBound, deviceX: deviceX,
      deviceY: deviceY, from: src)
    fillInterpolated(
      row: row, columns: inner, deviceX: deviceX, deviceY: deviceY, start: (hx, hy, hw),
      from: src)
    fillExact(
      row: row, columns: inner.upperBound..<reach.upperBound, deviceX: deviceX,
      deviceY: deviceY, from: src)
  }

  /// The inner loop over `columns`, where every sample's four taps are inside the source and
  /// w > 0 (by a margin of 1/64 source pixel); `start` is the homogeneous pre-image of column 0
  /// (device pixel `deviceX` in row `deviceY`).
  ///
  /// Each span starts from an exact sample and follows the second-order Taylor polynomial of
  /// the source position by forward differences in 32.32 fixed point (two additions per axis
  /// per pixel). Along the row s(i) = h(i) / w(i) − 0.5, so s′ = K / w², s″ = −2 K m13 / w³
  /// and s‴ = 6 K m13² / w⁴ with K constant: over n pixels the polynomial is off by at most
  /// n³ |K| m13² / w⁴ at the span's smallest w, which the span length keeps within
  /// `maximumError` (well inside the margin, so the taps stay inside the source).
  private func fillInterpolated(
    row: UnsafeMutablePointer<UInt32>, columns: Range<Int>, deviceX: Int, deviceY: Int,
    start: (Double, Double, Double), from src: UnsafePointer<UInt32>
  ) {
    guard !columns.isEmpty else { return }
    let m = inverse
    let (hx0, hy0, hw0) = start
    let ku = abs(m.m11 * hw0 - hx0 * m.m13), kv = abs(m.m12 * hw0 - hy0 * m.m13)
    let wFirst = hw0 + Double(columns.lowerBound) * m.m13
    let wLast = hw0 + Double(columns.upperBound - 1) * m.m13
    let wMin = Swift.min(wFirst, wLast)
    let bend = Swift.max(ku, kv) * m.m13 * m.m13 / (wMin * wMin * wMin * wMin)
    var n = ProjectiveWarp.span
    while n > 1, Double(n * n * n) * bend > ProjectiveWarp.maximumError { n /= 2 }
    // Too curved, or so steep that a step would not fit the fixed point: exact samples.
    guard n > 1, Swift.max(ku, kv) < wMin * wMin * 1_048_576 else {
      fillExact(row: row, columns: columns, deviceX: deviceX, deviceY: deviceY, from: src)
      return
    }
    let stride = sourceStride
    let one = 4_294_967_296.0
    var i = columns.lowerBound
    while i < columns.upperBound {
      let count = Swift.min(n, columns.upperBound - i)
      // The exact sample at the span's first pixel, with its first and second derivatives.
      let d = Double(i)
      let r = 1 / (hw0 + d * m.m13)
      let hx = hx0 + d * m.m11, hy = hy0 + d * m.m12
      let du = (m.m11 - hx * r * m.m13) * r, dv = (m.m12 - hy * r * m.m13) * r
      let ddu = -2 * du * m.m13 * r, ddv = -2 * dv * m.m13 * r
      var su = Int((hx * r - 0.5) * one), sv = Int((hy * r - 0.5) * one)
      var eu = Int((du + ddu / 2) * one), ev = Int((dv + ddv / 2) * one)
      let fu = Int(ddu * one), fv = Int(ddv * one)
      let out = row + i
      for k in 0..<count {
        let at = src + ((sv >> 32) &* stride &+ (su >> 32))
        let wx = UInt32(truncatingIfNeeded: su >> 24) & 0xFF
        let wy = UInt32(truncatingIfNeeded: sv >> 24) & 0xFF
        out[k] = ProjectiveWarp.blend(at[0], at[1], at[stride], at[stride &+ 1], wx, wy)
        su &+= eu
        sv &+= ev
        eu &+= fu
        ev &+= fv
      }
      i += count
    }
  }

  /// Fills `columns` of `row` (device pixels `deviceX...`, row `deviceY`) with bilinear samples
  /// of `src`, each mapped back exactly; pixels whose pre-image is behind the eye, or outside
  /// the source by a pixel or more, are transparent.
  func fillExact(
    row: UnsafeMutablePointer<UInt32>, columns: Range<Int>, deviceX: Int, deviceY: Int,
    from src: UnsafePointer<UInt32>
  ) {
    guard !columns.isEmpty else { return }
    let m = inverse
    // Homogeneous source coordinates at the first pixel centre, and their step per pixel.
    var (hx, hy, hw) = homogeneous(deviceX + columns.lowerBound, deviceY)
    let maxX = Double(sourceWidth), maxY = Double(sourceHeight)
    let lastX = sourceWidth - 1, lastY = sourceHeight - 1
    for i in columns {
      defer { (hx, hy, hw) = (hx + m.m11, hy + m.m12, hw + m.m13) }
      guard hw > 0 else {
        row[i] = 0
        continue
      }
      // Sample positions relative to pixel centres.
      let sx = hx / hw - 0.5, sy = hy / hw - 0.5
      guard sx > -1, sy > -1, sx < maxX, sy < maxY else {
        row[i] = 0
        continue
      }
      // sx, sy > -1: truncating one more than them floors them (no libm call).
      let ix = Int(sx + 1) - 1, iy = Int(sy + 1) - 1
      // Weights in 256ths.
      let wx = UInt32((sx - Double(ix)) * 256), wy = UInt32((sy - Double(iy)) * 256)
      let p00: UInt32, p10: UInt32, p01: UInt32, p11: UInt32
      if ix >= 0, iy >= 0, ix < lastX, iy < lastY {
        let at = src + iy * sourceStride + ix
        (p00, p10, p01, p11) = (at[0], at[1], at[sourceStride], at[sourceStride + 1])
      } else {
        @inline(__always) func pixel(_ x: Int, _ y: Int) -> UInt32 {
          x >= 0 && y >= 0 && x < sourceWidth && y < sourceHeight ? src[y * sourceStride + x] : 0
        }
        (p00, p10) = (pixel(ix, iy), pixel(ix + 1, iy))
        (p01, p11) = (pixel(ix, iy + 1), pixel(ix + 1, iy + 1))
      }
      row[i] = ProjectiveWarp.blend(p00, p10, p01, p11, wx, wy)
    }
  }
}
