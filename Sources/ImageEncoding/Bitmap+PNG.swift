import FileIO
import Geometry

extension Bitmap {
  /// Decodes PNG bytes into straight-alpha RGBA8 (see `PNG.decode`).
  ///
  /// - Throws: `PNG.DecodingError` when the bytes are not a readable PNG.
  public init(pngData bytes: [UInt8]) throws(PNG.DecodingError) {
    self = try PNG.decode(bytes)
  }

  /// Decodes the picture PNG bytes show before they play: an APNG's first frame, else the
  /// image. An APNG's default image may be one no frame shows (image data before its first
  /// frame control), which browsers do not show and a plain PNG decoder does: scene contents
  /// and Lottie image assets both take the first frame, so one file draws alike in both.
  ///
  /// Where the image is the first frame (an fcTL before the image data), or no fcTL makes a
  /// frame at all (browsers show the image), libpng reads it, whatever its bit depth and
  /// interlacing; otherwise the first frame is read from its fdAT chunks (8-bit, not
  /// interlaced: others are refused, never shown as the hidden image).
  ///
  /// - Throws: `PNG.DecodingError` when the bytes are not a readable PNG, `APNG.DecodingError`
  ///   when the first frame of an APNG whose image is no frame cannot be read.
  public init(stillOfPNGData bytes: [UInt8]) throws {
    guard APNG.isAPNG(bytes), !APNG.imageDataIsFirstFrame(bytes) else {
      self = try PNG.decode(bytes)
      return
    }
    guard let frame = try APNG.FrameReader(bytes, firstFrameOnly: true).next()?.image else {
      throw APNG.DecodingError(reason: "the APNG has no frames")
    }
    self = frame
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
