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
  /// An APNG whose animation cannot be read shows its image when libpng reads that, as
  /// browsers show it.
  ///
  /// - Throws: `PNG.DecodingError` when the bytes are not a readable PNG, `APNG.DecodingError`
  ///   when they are neither a readable APNG nor a readable PNG.
  public init(stillOfPNGData bytes: [UInt8]) throws {
    guard APNG.isAPNG(bytes) else {
      self = try PNG.decode(bytes)
      return
    }
    do {
      guard let frame = try APNG.FrameReader(bytes, firstFrameOnly: true).next()?.image else {
        throw APNG.DecodingError(reason: "the APNG has no frames")
      }
      self = frame
    } catch {
      // An animation that cannot be read (an acTL whose frames no fcTL makes) over a readable
      // PNG shows that PNG's image, as browsers show it.
      guard let still = try? PNG.decode(bytes) else { throw error }
      self = still
    }
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
