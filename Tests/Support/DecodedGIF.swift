import Geometry
import ImageEncoding

/// What a viewer shows for each frame of a GIF Flipbook wrote, read back by giflib
/// (`GIF.decode`), for tests that check the encoder's output.
public typealias DecodedGIF = GIF.Animation

extension GIF.Animation {
  /// Decodes `bytes` (see `GIF.decode`).
  public init(_ bytes: [UInt8]) throws {
    self = try GIF.decode(bytes)
  }
}
