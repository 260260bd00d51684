import CCairo
import Geometry

extension Canvas {
  /// The canvas encoded as a PNG file's bytes (8-bit RGBA, Cairo's encoder).
  public func pngData() throws(CanvasError) -> [UInt8] {
    cairo_surface_flush(surface)
    let sink = ByteSink()
    let status = cairo_surface_write_to_png_stream(
      surface,
      { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
      }, Unmanaged.passUnretained(sink).toOpaque())
    if let error = Canvas.failure(status) { throw error }
    return sink.bytes
  }

  /// Writes the canvas as a PNG file at `path`, whole or not at all (see `AtomicFile`).
  public func writePNG(toFile path: String) throws {
    try AtomicFile.write(pngData(), to: path)
  }
}

extension Bitmap {
  /// Decodes PNG bytes (any PNG that Cairo's reader takes: gray, palette, RGB, RGBA, 8 or 16
  /// bits) into straight-alpha RGBA8.
  ///
  /// - Throws: `CanvasError.invalidPNG` when the bytes are not a readable PNG.
  public init(pngData bytes: [UInt8]) throws(CanvasError) {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
      throw .invalidPNG(bytes.isEmpty ? "the file is empty" : "not a PNG file (no PNG signature)")
    }
    let source = ByteSource(bytes)
    guard
      let surface = cairo_image_surface_create_from_png_stream(
        { closure, data, length in
          guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
          let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
          let n = Int(length)
          guard source.offset + n <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
          source.bytes.withUnsafeBufferPointer { buffer in
            data.update(from: buffer.baseAddress! + source.offset, count: n)
          }
          source.offset += n
          return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(source).toOpaque())
    else { throw .invalidPNG("could not decode") }
    defer { cairo_surface_destroy(surface) }
    let status = cairo_surface_status(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      // Cairo reports truncated or corrupt data as a read error or as "out of memory".
      throw .invalidPNG("corrupt or truncated PNG data")
    }
    let format = cairo_image_surface_get_format(surface)
    guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else {
      throw .invalidPNG("unsupported pixel format")
    }
    self = Canvas.readBitmap(surface, opaque: format == CAIRO_FORMAT_RGB24)
  }

  /// Reads and decodes the PNG file at `path`.
  ///
  /// - Throws: `FileError` when the file cannot be read, `CanvasError.invalidPNG` when it is not
  ///   a readable PNG.
  public init(contentsOfPNGFile path: String) throws {
    try self.init(pngData: AtomicFile.read(path))
  }

  /// The bitmap encoded as PNG bytes.
  public func pngData() throws(CanvasError) -> [UInt8] {
    guard width > 0, height > 0 else { throw .sizeOutOfRange(width: width, height: height) }
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height)
    guard let image = Canvas.makeSurface(self) else { throw .cairo("could not create a surface") }
    defer { cairo_surface_destroy(image) }
    cairo_set_operator(canvas.cr, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_surface(canvas.cr, image, 0, 0)
    cairo_paint(canvas.cr)
    return try canvas.pngData()
  }
}

private final class ByteSink {
  var bytes: [UInt8] = []
}

private final class ByteSource {
  let bytes: [UInt8]
  var offset = 0
  init(_ bytes: [UInt8]) { self.bytes = bytes }
}
