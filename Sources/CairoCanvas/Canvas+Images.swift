import CCairo
import Geometry
import Synchronization

extension Canvas {
  /// Draws `bitmap` stretched into `rect` (points), sampled bilinearly with its edge pixels
  /// extended, so a scaled image has no faded border.
  public func draw(_ bitmap: Bitmap, in rect: Rect) {
    guard bitmap.width > 0, bitmap.height > 0, !rect.isEmpty else { return }
    guard let image = imageSurfaces.surface(for: bitmap) else { return }
    recording?.add(image: bitmap, in: rect.standardized)
    paint(
      image, source: Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height)),
      in: rect)
  }

  /// Draws another canvas stretched into `rect` (points), sampled as `draw(_:in:)` samples a
  /// bitmap.
  public func draw(_ canvas: Canvas, in rect: Rect) {
    guard !rect.isEmpty else { return }
    cairo_surface_flush(canvas.surface)
    paint(
      canvas.surface,
      source: Rect(
        x: 0, y: 0, width: Double(canvas.pixelWidth), height: Double(canvas.pixelHeight)),
      in: rect)
  }

  /// Fills `rect` (points) with the `source` part (image pixels) of `image`, stretched, sampled
  /// bilinearly with the edge pixels extended.
  ///
  /// Pixman samples images through a transform in 16.16 fixed point, so a source reaching
  /// 32,768 pixels from the image (a `contentsRect` of `[8.1, 0, 1, 1]` on a 4,000-pixel-wide
  /// sprite sheet) drew nothing. A source reaching past `Canvas.padReach` is painted in up to
  /// three parts an axis: the part within a pixel of the image as it is, and each part beyond
  /// as a strip of edge pixels, sampled a pixel past the edge (where they repeat); the parts
  /// are added up in a group, so their shared edges leave no seam.
  ///
  /// Inside a plane in perspective (`beginPlane(_:)`) nothing is painted: the renderer draws
  /// planes with images offscreen.
  func paint(_ image: OpaquePointer, source: Rect, in rect: Rect) {
    guard projection == nil else { return }
    // A source far from the image keeps its size: standardizing 10^300 + 4 would lose it.
    let r = rect.standardized,
      s = source.width >= 0 && source.height >= 0 ? source : source.standardized
    let columns = Canvas.padParts(
      s.minX, s.maxX, onto: r.minX, r.maxX, extent: Double(cairo_image_surface_get_width(image)))
    let rows = Canvas.padParts(
      s.minY, s.maxY, onto: r.minY, r.maxY, extent: Double(cairo_image_surface_get_height(image)))
    func part(_ column: PadPart, _ row: PadPart) -> (source: Rect, dest: Rect) {
      (
        Rect(
          x: column.source.0, y: row.source.0, width: column.source.1 - column.source.0,
          height: row.source.1 - row.source.0),
        Rect(
          x: column.dest.0, y: row.dest.0, width: column.dest.1 - column.dest.0,
          height: row.dest.1 - row.dest.0)
      )
    }
    guard columns.count > 1 || rows.count > 1 else {
      if let column = columns.first, let row = rows.first {
        let (source, dest) = part(column, row)
        paintPart(image, source: source, in: dest)
      }
      return
    }
    cairo_save(cr)
    cairo_push_group(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
    for column in columns {
      for row in rows {
        let (source, dest) = part(column, row)
        paintPart(image, source: source, in: dest)
      }
    }
    cairo_pop_group_to_source(cr)
    cairo_paint(cr)
    cairo_restore(cr)
  }

  /// A part of an axis `paint(_:source:in:)` paints: its source span (image pixels) and where it
  /// is painted (points).
  typealias PadPart = (source: (Double, Double), dest: (Double, Double))

  /// How far past an image's edges a source may reach, in image pixels, before it is painted
  /// in parts: 8,192, so that every coordinate Pixman samples stays well inside its 16.16 fixed
  /// point (images are at most 16,384 pixels a side).
  static let padReach = 8_192.0

  /// The parts an axis of a source from `s0` to `s1` (image pixels of an image `extent` wide)
  /// painted from `d0` to `d1` is painted in: one, itself, while it stays within `padReach` of
  /// the image; otherwise the part from a pixel before the image to a pixel after it, and the
  /// parts beyond, each given a one-pixel source just past the edge it repeats.
  static func padParts(
    _ s0: Double, _ s1: Double, onto d0: Double, _ d1: Double, extent: Double
  ) -> [PadPart] {
    guard s0 < -padReach || s1 > extent + padReach else { return [((s0, s1), (d0, d1))] }
    let lo = -1.0, hi = extent + 1
    /// Where the source coordinate `x` is painted, reckoned from the nearer end.
    func dest(_ x: Double) -> Double {
      x - s0 <= s1 - x
        ? d0 + (d1 - d0) * ((x - s0) / (s1 - s0)) : d1 - (d1 - d0) * ((s1 - x) / (s1 - s0))
    }
    var parts: [PadPart] = []
    if s0 < lo { parts.append(((lo - 1, lo), (d0, s1 <= lo ? d1 : dest(lo)))) }
    if s1 > lo && s0 < hi {
      let a = Swift.max(s0, lo), b = Swift.min(s1, hi)
      parts.append(((a, b), (a == s0 ? d0 : dest(a), b == s1 ? d1 : dest(b))))
    }
    if s1 > hi { parts.append(((hi, hi + 1), (s0 >= hi ? d0 : dest(hi), d1))) }
    return parts.filter { $0.dest.1 > $0.dest.0 }
  }

  /// Fills `rect` with `source` of `image`, as `paint(_:source:in:)` says, in one transform.
  private func paintPart(_ image: OpaquePointer, source given: Rect, in whole: Rect) {
    // A part reaching past 32,768 device pixels (a natural-size picture of a contentsRect a
    // million images wide) is cut to the clip first, its source with it: Cairo's 24.8 fixed
    // point geometry and Pixman's 16.16 matrix overflowed, and the far end of such a part
    // showed the image's other edge, a blend, or nothing.
    guard let (r, cut) = visiblePart(of: whole, source: given) else { return }
    // A source narrower than a millionth of a pixel shows the colour at its place, as one a
    // millionth wide does: narrower, the pattern's matrix is singular and nothing was drawn.
    var s = cut
    s.size.width = Swift.max(s.width, 1e-6)
    s.size.height = Swift.max(s.height, 1e-6)
    // More than 16,384 image pixels to a device pixel overflow Pixman's 16.16 matrix (and
    // Cairo then drew nothing of the whole picture): such a part is under a pixel's
    // 1/16,384th wide on the canvas, and is left out.
    let stretch = deviceStretch
    guard s.width <= 16_384 * r.width * stretch, s.height <= 16_384 * r.height * stretch else {
      return
    }
    guard let pattern = cairo_pattern_create_for_surface(image) else { return }
    defer { cairo_pattern_destroy(pattern) }
    // Pattern space is image pixels: user (x, y) -> (s.minX + (x - r.minX) * s.w / r.w, ...).
    var m = cairo_matrix_t()
    cairo_matrix_init_translate(&m, s.minX, s.minY)
    cairo_matrix_scale(&m, s.width / r.width, s.height / r.height)
    cairo_matrix_translate(&m, -r.minX, -r.minY)
    cairo_pattern_set_matrix(pattern, &m)
    cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
    cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
    cairo_save(cr)
    cairo_set_source(cr, pattern)
    cairo_new_path(cr)
    cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
    cairo_fill(cr)
    cairo_restore(cr)
  }

  /// `rect` (user space) and its `source` as they are when `rect` stays within 32,768 device
  /// pixels of the origin; otherwise the part of `rect` inside the clip (in user space, a pixel
  /// to spare) and the part of `source` painted there, by the same map; `nil` when none of it
  /// is inside.
  private func visiblePart(of rect: Rect, source: Rect) -> (Rect, Rect)? {
    let box = rect.applying(deviceTransform)
    let limit = 32_768.0
    guard !(box.minX >= -limit && box.maxX <= limit && box.minY >= -limit && box.maxY <= limit)
    else { return (rect, source) }
    var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
    cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
    let m = deviceTransform
    let pixel = 1 / Swift.max(1e-300, abs(m.a * m.d - m.b * m.c).squareRoot())
    let lo = Point(x: Swift.max(rect.minX, x1 - pixel), y: Swift.max(rect.minY, y1 - pixel))
    let hi = Point(x: Swift.min(rect.maxX, x2 + pixel), y: Swift.min(rect.maxY, y2 + pixel))
    guard lo.x < hi.x, lo.y < hi.y else { return nil }
    let kx = source.width / rect.width, ky = source.height / rect.height
    let cut = Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    let part = Rect(
      x: source.minX + (lo.x - rect.minX) * kx, y: source.minY + (lo.y - rect.minY) * ky,
      width: cut.width * kx, height: cut.height * ky)
    return (cut, part)
  }

  /// A new Cairo image surface holding `bitmap`, premultiplied.
  static func makeSurface(_ bitmap: Bitmap) -> OpaquePointer? {
    guard
      let surface = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height)),
      cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
    else { return nil }
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let base = cairo_image_surface_get_data(surface) else {
      cairo_surface_destroy(surface)
      return nil
    }
    bitmap.pixels.withUnsafeBufferPointer { src in
      PixelConversion.premultiply(
        rgba: src.baseAddress!, width: bitmap.width, height: bitmap.height, into: base,
        stride: stride)
    }
    cairo_surface_mark_dirty(surface)
    return surface
  }

  /// The canvas's pixels as straight-alpha RGBA8 (`Bitmap`), un-premultiplied with rounding.
  public func makeBitmap() -> Bitmap {
    cairo_surface_flush(surface)
    return Canvas.readBitmap(surface, opaque: false)
  }

  /// Reads an ARGB32 (or RGB24 when `opaque`) image surface into a bitmap.
  static func readBitmap(_ surface: OpaquePointer, opaque: Bool) -> Bitmap {
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard width > 0, height > 0, let base = cairo_image_surface_get_data(surface) else {
      return Bitmap(width: Swift.max(0, width), height: Swift.max(0, height))
    }
    let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
      PixelConversion.unpremultiply(
        argb: UnsafePointer(base), stride: stride, width: width, height: height, opaque: opaque,
        into: out.baseAddress!)
      count = width * height * 4
    }
    return Bitmap(width: width, height: height, pixels: pixels)
  }
}

/// The premultiplied Cairo surfaces of the bitmaps a canvas drew lately, so an image shown on
/// every frame is converted once, not once per frame.
///
/// - Thread safety: each canvas has its own cache and a canvas is used by one thread at a time
///   (it is not `Sendable`), so the cache is never shared: the frame renderer's threads each
///   keep their own canvas, and so their own surfaces; no Cairo object crosses threads.
/// - Identity: an entry is found by the address of the bitmap's pixel storage (and its size).
///   The entry keeps the bitmap, so that storage stays alive and, being shared, can never be
///   changed in place (arrays copy on write): an equal address means equal pixels.
/// - Memory: at most `maxEntries` surfaces and `maxBytes` of pixels; the least recently drawn
///   goes first. A bitmap larger than `maxBytes` is drawn from its premultiplied copy in
///   `SharedPremultipliedPixels`, made once for every canvas of the process (it was converted
///   for each draw: 200 small layers showing one 8000 x 8000 picture took 35 s for a frame).
final class ImageSurfaceCache {
  static let maxEntries = 32
  static let maxBytes = 64 << 20

  private struct Entry {
    let bitmap: Bitmap
    let surface: OpaquePointer
    var lastUse: Int
    var bytes: Int { bitmap.width * bitmap.height * 4 }
  }
  private var entries: [UnsafeRawPointer: Entry] = [:]
  private var bytes = 0
  private var clock = 0
  /// Surfaces handed out uncached (too large), destroyed at the next call.
  private var transient: OpaquePointer? = nil
  /// The surface over a large bitmap's shared premultiplied pixels drawn last, and those
  /// pixels (held while the surface reads them).
  private var large: (surface: OpaquePointer, pixels: PremultipliedCopy)? = nil

  /// The surface for `bitmap`, made now or found; valid until the next call (or the cache's end).
  func surface(for bitmap: Bitmap) -> OpaquePointer? {
    if let transient { cairo_surface_destroy(transient) }
    transient = nil
    clock += 1
    if bitmap.width * bitmap.height * 4 > ImageSurfaceCache.maxBytes {
      if let large, large.pixels.holds(bitmap) { return large.surface }
      if let pixels = SharedPremultipliedPixels.pixels(for: bitmap),
        let surface = cairo_image_surface_create_for_data(
          pixels.data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
          Int32(bitmap.width), Int32(bitmap.height), Int32(pixels.stride)),
        cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
      {
        if let large { cairo_surface_destroy(large.surface) }
        large = (surface, pixels)
        return surface
      }
    }
    let key = bitmap.pixels.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    if let key, var entry = entries[key], entry.bitmap.width == bitmap.width,
      entry.bitmap.height == bitmap.height
    {
      entry.lastUse = clock
      entries[key] = entry
      return entry.surface
    }
    guard let surface = Canvas.makeSurface(bitmap) else { return nil }
    let size = bitmap.width * bitmap.height * 4
    guard let key, size <= ImageSurfaceCache.maxBytes else {
      transient = surface
      return surface
    }
    if let stale = entries.removeValue(forKey: key) {
      cairo_surface_destroy(stale.surface)
      bytes -= stale.bytes
    }
    while !entries.isEmpty
      && (entries.count >= ImageSurfaceCache.maxEntries
        || bytes + size > ImageSurfaceCache.maxBytes)
    {
      let oldest = entries.min { $0.value.lastUse < $1.value.lastUse }!
      cairo_surface_destroy(oldest.value.surface)
      bytes -= oldest.value.bytes
      entries.removeValue(forKey: oldest.key)
    }
    entries[key] = Entry(bitmap: bitmap, surface: surface, lastUse: clock)
    bytes += size
    return surface
  }

  deinit {
    for entry in entries.values { cairo_surface_destroy(entry.surface) }
    if let transient { cairo_surface_destroy(transient) }
    if let large { cairo_surface_destroy(large.surface) }
  }
}

/// A bitmap's pixels premultiplied as Cairo's ARGB32 (rows `stride` bytes apart), made once and
/// only read after: surfaces on several threads may read them at once.
final class PremultipliedCopy: @unchecked Sendable {
  /// The bitmap they were made from, kept so its storage (the identity they are found by) is
  /// never reused or changed.
  let bitmap: Bitmap
  let data: UnsafeMutableRawPointer
  let stride: Int
  var bytes: Int { stride * bitmap.height }

  init?(_ bitmap: Bitmap) {
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(bitmap.width)))
    guard stride > 0, bitmap.width > 0, bitmap.height > 0 else { return nil }
    self.bitmap = bitmap
    self.stride = stride
    data = UnsafeMutableRawPointer.allocate(byteCount: stride * bitmap.height, alignment: 16)
    bitmap.pixels.withUnsafeBufferPointer { src in
      PixelConversion.premultiply(
        rgba: src.baseAddress!, width: bitmap.width, height: bitmap.height,
        into: data.assumingMemoryBound(to: UInt8.self), stride: stride)
    }
  }

  deinit { data.deallocate() }

  /// Whether these are `bitmap`'s pixels (the same storage, the same size).
  func holds(_ bitmap: Bitmap) -> Bool {
    bitmap.width == self.bitmap.width && bitmap.height == self.bitmap.height
      && bitmap.pixels.withUnsafeBufferPointer { a in
        self.bitmap.pixels.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress }
      }
  }
}

/// The premultiplied copies of large bitmaps (over `ImageSurfaceCache.maxBytes`), shared by
/// every canvas of the process, so a picture is converted once however many layers, frames and
/// rendering threads draw it (four 8000 x 8000 pictures drawn small were converted for every
/// layer of every frame, 0.2 s each, and held once for each thread: 2.9 GB at `--jobs 8`).
///
/// At most `maxBytes` (1 GiB: the premultiplied copies of the 256 million pixels of pictures a
/// scene may decode); the least recently asked for goes first (those a canvas still draws stay
/// alive until it lets them go).
enum SharedPremultipliedPixels {
  static let maxBytes = 1 << 30

  private struct Entry: Sendable {
    let pixels: PremultipliedCopy
    var lastUse: Int
  }
  private struct Store: Sendable {
    /// By the address of the bitmap's pixel storage.
    var entries: [Int: Entry] = [:]
    var bytes = 0
    var clock = 0
  }
  private static let store = Mutex(Store())

  /// The premultiplied pixels of `bitmap`, made now (under the lock, so two threads never make
  /// the same ones) or found; `nil` when they cannot be allocated or exceed `maxBytes` alone.
  static func pixels(for bitmap: Bitmap) -> PremultipliedCopy? {
    guard
      let key = bitmap.pixels.withUnsafeBufferPointer({
        $0.baseAddress.map { Int(bitPattern: $0) }
      })
    else { return nil }
    return store.withLock { store -> PremultipliedCopy? in
      store.clock += 1
      if let found = store.entries[key], found.pixels.holds(bitmap) {
        store.entries[key]?.lastUse = store.clock
        return found.pixels
      }
      if let stale = store.entries.removeValue(forKey: key) { store.bytes -= stale.pixels.bytes }
      let size =
        Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(bitmap.width)))
        * bitmap.height
      guard size <= maxBytes else { return nil }
      while !store.entries.isEmpty && store.bytes + size > maxBytes {
        let oldest = store.entries.min { $0.value.lastUse < $1.value.lastUse }!
        store.bytes -= oldest.value.pixels.bytes
        store.entries.removeValue(forKey: oldest.key)
      }
      guard let pixels = PremultipliedCopy(bitmap) else { return nil }
      store.entries[key] = Entry(pixels: pixels, lastUse: store.clock)
      store.bytes += pixels.bytes
      return pixels
    }
  }
}

/// The two hot loops between Cairo's premultiplied native-endian ARGB32 and straight RGBA8.
enum PixelConversion {
  /// Straight RGBA8 rows to premultiplied ARGB32 rows of `stride` bytes.
  static func premultiply(
    rgba src: UnsafePointer<UInt8>, width: Int, height: Int, into dst: UnsafeMutablePointer<UInt8>,
    stride: Int
  ) {
    for y in 0..<height {
      let s = src + y * width * 4
      let row = UnsafeMutableRawPointer(dst + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<width {
        let r = UInt32(s[x * 4]), g = UInt32(s[x * 4 + 1]), b = UInt32(s[x * 4 + 2]),
          a = UInt32(s[x * 4 + 3])
        if a == 255 {
          row[x] = 0xFF00_0000 | r << 16 | g << 8 | b
        } else if a == 0 {
          row[x] = 0
        } else {
          row[x] = a << 24 | mul255(r, a) << 16 | mul255(g, a) << 8 | mul255(b, a)
        }
      }
    }
  }

  /// `round(c * a / 255)` exactly, without a division.
  @inline(__always) static func mul255(_ c: UInt32, _ a: UInt32) -> UInt32 {
    let t = c * a + 128
    return (t + (t >> 8)) >> 8
  }

  /// Premultiplied ARGB32 rows to straight RGBA8; `opaque` surfaces (RGB24) get alpha 255.
  static func unpremultiply(
    argb src: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, opaque: Bool,
    into dst: UnsafeMutablePointer<UInt8>
  ) {
    reciprocals.withUnsafeBufferPointer { reciprocal in
      unpremultiply(
        argb: src, stride: stride, width: width, height: height, opaque: opaque, into: dst,
        reciprocal)
    }
  }

  /// `ceil(2^32 / a)` for each alpha `a` (0 unused): `(x * reciprocals[a]) >> 32` is `x / a`
  /// exactly for every `x` below 2^16 (the error is under `x / 2^32 < 2^-16`, and the fractional
  /// part of `x / a` is at most `253 / 254`); `PixelConversionTests` checks every case.
  static let reciprocals: [UInt64] = (0..<256).map { a in
    a == 0 ? 0 : ((1 << 32) + UInt64(a) - 1) / UInt64(a)
  }

  /// `x / a` for `x < 2^16`, `a` in 1...255, by the reciprocal table.
  @inline(__always) static func divide(
    _ x: UInt32, by a: UInt32, _ reciprocal: UnsafeBufferPointer<UInt64>
  ) -> UInt32 {
    UInt32(truncatingIfNeeded: (UInt64(x) &* reciprocal[Int(a)]) >> 32)
  }

  private static func unpremultiply(
    argb src: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, opaque: Bool,
    into dst: UnsafeMutablePointer<UInt8>,
    _ reciprocal: UnsafeBufferPointer<UInt64>
  ) {
    // Pixels are written as whole little-endian words (R, G, B, A in memory): an opaque pixel is
    // its premultiplied word byte-swapped (0xAARRGGBB to 0xAABBGGRR, alpha kept), a clear one
    // zero; only partly transparent pixels are divided.
    for y in 0..<height {
      let row = UnsafeRawPointer(src + y * stride).assumingMemoryBound(to: UInt32.self)
      let out = UnsafeMutableRawPointer(dst + y * width * 4)
      for x in 0..<width {
        let p = opaque ? row[x] | 0xFF00_0000 : row[x]
        let a = p >> 24
        let word: UInt32
        if a == 255 {
          word = (p.byteSwapped >> 8) | 0xFF00_0000
        } else if a == 0 {
          word = 0
        } else {
          let r = Swift.min(255, divide(((p >> 16) & 0xFF) * 255 + a / 2, by: a, reciprocal))
          let g = Swift.min(255, divide(((p >> 8) & 0xFF) * 255 + a / 2, by: a, reciprocal))
          let b = Swift.min(255, divide((p & 0xFF) * 255 + a / 2, by: a, reciprocal))
          word = r | g << 8 | b << 16 | a << 24
        }
        out.storeBytes(of: word.littleEndian, toByteOffset: x * 4, as: UInt32.self)
      }
    }
  }
}

extension Canvas {
  /// The canvas's pixels as an `Image` a layer can show as its `contents` (with
  /// `contentsScale` set to this canvas's `scale` to keep its size in points).
  public func makeImage(name: String? = nil) -> Image {
    Image(makeBitmap(), name: name)
  }
}
