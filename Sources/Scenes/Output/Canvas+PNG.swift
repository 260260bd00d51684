import CairoCanvas
import Geometry
import ImageEncoding

extension Canvas {
  /// The canvas's pixels as PNG bytes, with Flipbook's one PNG writer (libpng, as
  /// `PNG.encode(makeBitmap())`): the same bytes `flipbook frame` writes.
  public func pngData(compression: PNG.Compression = .default) throws -> [UInt8] {
    try PNG.encode(makeBitmap(), compression: compression)
  }

  /// Writes the canvas as a PNG file at `path`, whole or not at all: the same bytes
  /// `flipbook frame` writes for the same frame.
  public func writePNG(toFile path: String, compression: PNG.Compression = .default) throws {
    try makeBitmap().writePNG(toFile: path, compression: compression)
  }
}
