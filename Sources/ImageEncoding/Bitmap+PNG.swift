import FileIO
import Geometry

extension Bitmap {
  /// Decodes PNG bytes into straight-alpha RGBA8 (see `PNG.decode`).
  ///
  /// - Throws: `PNG.DecodingError` when the bytes are not a readable PNG.
  public init(pngData bytes: [UInt8]) throws(PNG.DecodingError) {
    self = try PNG.decode(bytes)
  }

  /// Reads and decodes the PNG file at `path`.
  ///
  /// - Throws: `FileError` when the file cannot be read, `PNG.DecodingError` when it is not a
  ///   readable PNG.
  public init(contentsOfPNGFile path: String) throws {
    self = try PNG.decode(AtomicFile.read(path))
  }

  /// The bitmap as PNG bytes (libpng; RGB when opaque, RGBA otherwise).
  public func pngData(compression: PNG.Compression = .default) throws(PNG.EncodingError) -> [UInt8]
  {
    try PNG.encode(self, compression: compression)
  }

  /// Writes the bitmap as a PNG file at `path`, whole or not at all (see `AtomicFile`).
  public func writePNG(toFile path: String, compression: PNG.Compression = .default) throws {
    try AtomicFile.write(PNG.encode(self, compression: compression), to: path)
  }
}
