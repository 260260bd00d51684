import Geometry
import ImageEncoding

/// GIFs for tests: written by Flipbook's encoder, and the places of their frames' image data
/// for tests that damage or read it.
public enum GIFBytes {
  /// The GIF of `frames` (all of one size, one palette of at most 256 of their colours), each
  /// shown for `delay` hundredths of a second.
  public static func encode(_ frames: [Bitmap], delay: Int = 10) throws -> [UInt8] {
    let builder = GIF.PaletteBuilder()
    for frame in frames { builder.add(frame) }
    var bytes: [UInt8] = []
    let encoder = try GIF.Encoder(
      width: frames[0].width, height: frames[0].height,
      palette: builder.makePalette(maxColors: 256), options: GIF.Options()
    ) { bytes += $0 }
    for frame in frames { try encoder.add(frame, delay: delay) }
    try encoder.finish()
    return bytes
  }

  /// The offset of each frame's LZW minimum code size byte in `gif`, in order, found by walking
  /// its blocks (extensions, image descriptors and their colour tables); the frame's first data
  /// sub-block follows it (its size byte, then that many bytes).
  public static func frameDataStarts(of gif: [UInt8]) -> [Int] {
    var i = 13
    if gif[10] & 0x80 != 0 { i += 3 << (Int(gif[10] & 7) + 1) }
    func skipSubBlocks() {
      while gif[i] != 0 { i += Int(gif[i]) + 1 }
      i += 1
    }
    var starts: [Int] = []
    while gif[i] != 0x3B {
      if gif[i] == 0x21 {
        i += 2
        skipSubBlocks()
      } else {
        let flags = gif[i + 9]
        i += 10
        if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
        starts.append(i)
        i += 1
        skipSubBlocks()
      }
    }
    return starts
  }
}
