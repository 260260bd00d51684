import CCairo
import Geometry
import Glibc

extension Canvas {
  /// Draws `source` (another canvas, taken whole) through the projective map `map` from its
  /// pixel coordinates to this canvas's device pixels, with `opacity` (0...1), inside the
  /// current clip: what a layer with perspective terms draws (docs/geometry.md).
  ///
  /// Each destination pixel centre is mapped back exactly through the inverse of `map` and
  /// sampled bilinearly from `source` (premultiplied; transparent outside it, so edges are
  /// anti-aliased over about a pixel). Destination pixels whose pre-image is at or behind the eye
  /// (`w ≤ 0` under `map`) are left alone. A map that collapses the plane draws nothing.
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
    sourceData.withMemoryRebound(to: UInt32.self, capacity: sourceStride * source.pixelHeight) {
      src in
      targetData.withMemoryRebound(to: UInt32.self, capacity: targetStride * height) { dst in
        for row in 0..<height {
          warp.fill(
            row: dst + row * targetStride, width: width, deviceX: x0, deviceY: y0 + row,
            from: src)
        }
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

/// The inverse-mapping warp of `Canvas.drawProjected`: one destination row at a time.
struct ProjectiveWarp {
  let inverse: Homography
  let sourceWidth: Int, sourceHeight: Int, sourceStride: Int

  /// `a + (b − a) × w / 256` for each 8-bit channel of two premultiplied ARGB pixels, rounded,
  /// two channels at a time in 16-bit lanes.
  @inline(__always) static func mix(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
    let v = 256 - w
    let rb = ((a & 0x00FF_00FF) &* v &+ (b & 0x00FF_00FF) &* w &+ 0x0080_0080) >> 8
    let ag = ((a >> 8) & 0x00FF_00FF) &* v &+ ((b >> 8) & 0x00FF_00FF) &* w &+ 0x0080_0080
    return (rb & 0x00FF_00FF) | (ag & 0xFF00_FF00)
  }

  /// Fills `width` pixels of `row` (device pixels `deviceX...`, row `deviceY`) with bilinear
  /// samples of `src`; pixels whose pre-image is behind the eye, or outside the source by a
  /// pixel or more, are transparent.
  func fill(
    row: UnsafeMutablePointer<UInt32>, width: Int, deviceX: Int, deviceY: Int,
    from src: UnsafeMutablePointer<UInt32>
  ) {
    let m = inverse
    let v = Double(deviceY) + 0.5
    // Homogeneous source coordinates at the first pixel centre, and their step per pixel.
    var hx = (Double(deviceX) + 0.5) * m.m11 + v * m.m21 + m.m31
    var hy = (Double(deviceX) + 0.5) * m.m12 + v * m.m22 + m.m32
    var hw = (Double(deviceX) + 0.5) * m.m13 + v * m.m23 + m.m33
    let maxX = Double(sourceWidth), maxY = Double(sourceHeight)
    let lastX = sourceWidth - 1, lastY = sourceHeight - 1
    for i in 0..<width {
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
      if p00 | p10 | p01 | p11 == 0 {
        row[i] = 0
        continue
      }
      row[i] = Self.mix(Self.mix(p00, p10, wx), Self.mix(p01, p11, wx), wy)
    }
  }
}
