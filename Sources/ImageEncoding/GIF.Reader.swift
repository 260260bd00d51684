import CGIF
import Geometry

extension GIF {
  /// A decoded GIF as a viewer shows it: every frame composited by the GIF rules (disposal,
  /// transparency) onto the logical screen, with its delay, and the loop extension.
  public struct Animation: Hashable, Sendable {
    /// The logical screen's size in pixels.
    public var width: Int, height: Int
    /// Each frame as shown, straight RGBA; pixels no frame has covered are (0, 0, 0, 0).
    public var frames: [Bitmap]
    /// Each frame's delay in hundredths of a second.
    public var delays: [Int]
    /// Each frame's disposal method (GIF89a: 0 unspecified, 1 keep, 2 background, 3 previous).
    public var disposals: [Int]
    /// The NETSCAPE2.0 repeat count (0 forever), or `nil` without the extension (play once).
    public var loopExtension: Int?

    /// Creates an animation from its parts (for tests and tools that build one).
    public init(
      width: Int, height: Int, frames: [Bitmap], delays: [Int], disposals: [Int],
      loopExtension: Int?
    ) {
      (self.width, self.height, self.frames, self.delays, self.disposals, self.loopExtension) =
        (width, height, frames, delays, disposals, loopExtension)
    }
  }

  /// Why bytes could not be read as a GIF.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, in words.
    public var reason: String
    public var description: String { reason }
  }

  /// The most pixels a decoded GIF's screen may have (what `Canvas` allows).
  public static let maximumDecodedPixels = 64_000_000

  /// The most pixels all the decoded frames of a GIF may have together: 1,000,000,000 (each
  /// frame is the whole screen, 4 bytes a pixel), so a small file of many frames on a large
  /// screen cannot make the decoder allocate without bound.
  public static let maximumDecodedTotalPixels: Int = 1_000_000_000

  /// Walks the blocks of `b` without decoding them and refuses a screen, a frame or a frame
  /// count over the size limits before giflib allocates anything: `DGifSlurp` allocates each
  /// frame's pixels as its descriptor says (a 65535 x 65535 frame is 4 GiB), and the frames are
  /// then composited on whole screens. A frame's LZW minimum code size outside 2...8 is refused
  /// here too, by name. Other structure errors are left to giflib to report.
  static func checkSizes(_ b: [UInt8]) throws(DecodingError) {
    guard b.count >= 13 else { return }
    let width = Int(b[6]) | Int(b[7]) << 8, height = Int(b[8]) | Int(b[9]) << 8
    let screen = width * height
    guard screen <= maximumDecodedPixels else {
      throw DecodingError(
        reason: "screen size \(width) x \(height) is outside 1...\(maximumDecodedPixels) pixels")
    }
    var i = 13
    if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }
    var frames = 0
    func skipSubBlocks() {
      while i < b.count {
        let n = Int(b[i])
        i += 1 + n
        if n == 0 { return }
      }
    }
    while i < b.count {
      switch b[i] {
      case 0x2C:
        guard i + 10 <= b.count else { return }
        let area = (Int(b[i + 5]) | Int(b[i + 6]) << 8) * (Int(b[i + 7]) | Int(b[i + 8]) << 8)
        guard area <= maximumDecodedPixels else {
          throw DecodingError(
            reason: "frame \(frames) has \(area) pixels, over the limit of \(maximumDecodedPixels)")
        }
        frames += 1
        guard frames * Swift.max(screen, 1) <= maximumDecodedTotalPixels else {
          throw DecodingError(
            reason: "\(frames) frames of \(width) x \(height) pixels are over the limit of "
              + "\(maximumDecodedTotalPixels) decoded pixels")
        }
        let flags = b[i + 9]
        i += 10
        if flags & 0x80 != 0 { i += 3 << (Int(flags & 7) + 1) }
        // The LZW minimum code size: 2...8 (GIF89a, appendix F; Go's decoder takes the same).
        // giflib only says "Failed to read from given file" of a larger one.
        guard i < b.count else { return }
        guard (2...8).contains(b[i]) else {
          throw DecodingError(
            reason: "frame \(frames - 1) has an LZW minimum code size of \(b[i]), outside 2...8")
        }
        i += 1
        skipSubBlocks()
      case 0x21:
        i += 2
        skipSubBlocks()
      default:
        return  // the trailer, or something giflib will name
      }
    }
  }

  /// Decodes `bytes` with giflib and composites the frames.
  ///
  /// - Throws: `DecodingError` when the bytes are not a GIF giflib can read, a frame lies
  ///   outside the screen, a frame has no palette, or the screen is over the size limit.
  public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Animation {
    // Anything else (a JSON file named .gif) is refused as giflib would, before its bytes are
    // taken for a screen size.
    guard bytes.starts(with: Array("GIF".utf8)) else {
      throw DecodingError(reason: "not a GIF (\(errorText(D_GIF_ERR_NOT_GIF_FILE)))")
    }
    try checkSizes(bytes)
    let source = ByteSource(bytes)
    var error: Int32 = 0
    let opened = DGifOpen(
      Unmanaged.passUnretained(source).toOpaque(),
      { file, out, count in
        guard let file, let user = file.pointee.UserData, let out else { return 0 }
        let source = Unmanaged<ByteSource>.fromOpaque(user).takeUnretainedValue()
        let n = Swift.min(Int(count), source.bytes.count - source.offset)
        source.bytes.withUnsafeBufferPointer {
          out.update(from: $0.baseAddress! + source.offset, count: n)
        }
        source.offset += n
        return Int32(n)
      }, &error)
    guard let gif = opened else { throw DecodingError(reason: "not a GIF (\(errorText(error)))") }
    defer { DGifCloseFile(gif, &error) }
    guard DGifSlurp(gif) == GIF_OK else {
      throw DecodingError(reason: "unreadable GIF data (\(errorText(gif.pointee.Error)))")
    }
    let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
    guard width > 0, height > 0, width * height <= maximumDecodedPixels else {
      throw DecodingError(
        reason: "screen size \(width) x \(height) is outside 1...\(maximumDecodedPixels) pixels")
    }
    let frameCount = Int(gif.pointee.ImageCount)
    guard frameCount <= maximumDecodedTotalPixels / (width * height) else {
      throw DecodingError(
        reason: "\(frameCount) frames of \(width) x \(height) pixels are over the "
          + "limit of \(maximumDecodedTotalPixels) decoded pixels")
    }
    var animation = Animation(
      width: width, height: height, frames: [], delays: [], disposals: [], loopExtension: nil)
    var screen = Bitmap(width: width, height: height)
    for k in 0..<Int(gif.pointee.ImageCount) {
      let image = gif.pointee.SavedImages[k]
      var control = GraphicsControlBlock(
        DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
      DGifSavedExtensionToGCB(gif, Int32(k), &control)
      for e in 0..<Int(image.ExtensionBlockCount) where e + 1 < Int(image.ExtensionBlockCount) {
        let block = image.ExtensionBlocks[e]
        guard block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11 else { continue }
        let name = String(
          decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self)
        let next = image.ExtensionBlocks[e + 1]
        if name == "NETSCAPE2.0", next.ByteCount >= 3 {
          animation.loopExtension = Int(next.Bytes[1]) | Int(next.Bytes[2]) << 8
        }
      }
      let d = image.ImageDesc
      let (left, top, w, h) = (Int(d.Left), Int(d.Top), Int(d.Width), Int(d.Height))
      guard left >= 0, top >= 0, left + w <= width, top + h <= height else {
        throw DecodingError(
          reason:
            "frame \(k) (\(w) x \(h) at \(left), \(top)) lies outside the \(width) x \(height) screen"
        )
      }
      guard let map = d.ColorMap ?? gif.pointee.SColorMap else {
        throw DecodingError(reason: "frame \(k) has no color table")
      }
      let colors = Int(map.pointee.ColorCount)
      let transparent = Int(control.TransparentColor)
      let before = control.DisposalMode == DISPOSE_PREVIOUS ? screen : nil
      screen.pixels.withUnsafeMutableBufferPointer { out in
        for y in 0..<h {
          var o = ((top + y) * width + left) * 4
          for x in 0..<w {
            let index = Int(image.RasterBits[y * w + x])
            if index != transparent && index < colors {
              let c = map.pointee.Colors[index]
              out[o] = c.Red; out[o + 1] = c.Green; out[o + 2] = c.Blue; out[o + 3] = 255
            }
            o += 4
          }
        }
      }
      animation.frames.append(screen)
      animation.delays.append(Int(control.DelayTime))
      animation.disposals.append(Int(control.DisposalMode))
      if control.DisposalMode == DISPOSE_BACKGROUND {
        screen.pixels.withUnsafeMutableBufferPointer { out in
          for y in top..<(top + h) {
            for i in ((y * width + left) * 4)..<((y * width + left + w) * 4) { out[i] = 0 }
          }
        }
      } else if let before {
        screen = before
      }
    }
    guard !animation.frames.isEmpty else { throw DecodingError(reason: "the GIF has no frames") }
    return animation
  }

  /// The bytes giflib's read callback takes from.
  private final class ByteSource {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  private static func errorText(_ code: Int32) -> String {
    GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
  }
}
