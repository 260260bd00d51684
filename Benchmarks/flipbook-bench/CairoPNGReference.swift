import CCairo
import Flipbook

/// Cairo's own PNG writer, kept here only as the reference the PNG benchmarks measure
/// Flipbook's libpng writer against (Flipbook itself writes PNGs with libpng only).
/// Returns the PNG's size in bytes, or 0 when Cairo fails.
func cairoPNGByteCount(_ bitmap: Bitmap) -> Int {
  guard
    let surface = cairo_image_surface_create(
      CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))
  else { return 0 }
  defer { cairo_surface_destroy(surface) }
  cairo_surface_flush(surface)
  let stride = Int(cairo_image_surface_get_stride(surface))
  guard let base = cairo_image_surface_get_data(surface) else { return 0 }
  for y in 0..<bitmap.height {
    let row = UnsafeMutableRawPointer(base + y * stride).assumingMemoryBound(to: UInt32.self)
    for x in 0..<bitmap.width {
      let i = (y * bitmap.width + x) * 4
      let a = UInt32(bitmap.pixels[i + 3])
      func mul(_ c: UInt8) -> UInt32 { let t = UInt32(c) * a + 128; return (t + (t >> 8)) >> 8 }
      row[x] =
        a << 24 | mul(bitmap.pixels[i]) << 16 | mul(bitmap.pixels[i + 1]) << 8
        | mul(bitmap.pixels[i + 2])
    }
  }
  cairo_surface_mark_dirty(surface)
  var count = 0
  let status = withUnsafeMutablePointer(to: &count) { counter in
    cairo_surface_write_to_png_stream(
      surface,
      { closure, _, length in
        closure!.assumingMemoryBound(to: Int.self).pointee += Int(length)
        return CAIRO_STATUS_SUCCESS
      }, counter)
  }
  return status == CAIRO_STATUS_SUCCESS ? count : 0
}
