import CGIF
import Geometry

/// An independent check of what Flipbook writes: giflib's reader, plus compositing by the GIF
/// rules (disposal, transparency), giving what a viewer shows for each frame.
public struct DecodedGIF {
  public var width: Int
  public var height: Int
  /// Each frame as shown, straight RGBA (transparent pixels are 0, 0, 0, 0).
  public var frames: [Bitmap]
  public var delays: [Int]
  public var disposals: [Int32]
  /// The NETSCAPE2.0 repeat count, or `nil` without the extension.
  public var loopExtension: Int?

  final class Source {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  public init(_ bytes: [UInt8]) throws {
    let source = Source(bytes)
    var error: Int32 = 0
    guard let gif = DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { file, out, count in
      guard let file, let user = file.pointee.UserData, let out else { return 0 }
      let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
      let n = Swift.min(Int(count), source.bytes.count - source.offset)
      for i in 0..<n { out[i] = source.bytes[source.offset + i] }
      source.offset += n
      return Int32(n)
    }, &error) else { throw DecodeError(message: "open failed: \(error)") }
    defer { DGifCloseFile(gif, &error) }
    guard DGifSlurp(gif) == GIF_OK else { throw DecodeError(message: "slurp failed: \(gif.pointee.Error)") }
    width = Int(gif.pointee.SWidth)
    height = Int(gif.pointee.SHeight)
    frames = []
    delays = []
    disposals = []
    loopExtension = nil
    let global = gif.pointee.SColorMap
    var screen = Bitmap(width: width, height: height)
    for k in 0..<Int(gif.pointee.ImageCount) {
      let image = gif.pointee.SavedImages[k]
      var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: NO_TRANSPARENT_COLOR)
      DGifSavedExtensionToGCB(gif, Int32(k), &control)
      for e in 0..<Int(image.ExtensionBlockCount) {
        let block = image.ExtensionBlocks[e]
        if block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11, e + 1 < Int(image.ExtensionBlockCount) {
          let name = String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self)
          let next = image.ExtensionBlocks[e + 1]
          if name == "NETSCAPE2.0", next.ByteCount >= 3 { loopExtension = Int(next.Bytes[1]) | Int(next.Bytes[2]) << 8 }
        }
      }
      let d = image.ImageDesc
      let map = d.ColorMap ?? global!
      let before = screen
      for y in 0..<Int(d.Height) {
        for x in 0..<Int(d.Width) {
          let index = Int(image.RasterBits[y * Int(d.Width) + x])
          if index == Int(control.TransparentColor) { continue }
          let c = map.pointee.Colors[index]
          screen[Int(d.Left) + x, Int(d.Top) + y] = RGBA8(c.Red, c.Green, c.Blue, 255)
        }
      }
      frames.append(screen)
      delays.append(Int(control.DelayTime))
      disposals.append(control.DisposalMode)
      switch control.DisposalMode {
      case DISPOSE_BACKGROUND:
        for y in 0..<Int(d.Height) {
          for x in 0..<Int(d.Width) { screen[Int(d.Left) + x, Int(d.Top) + y] = RGBA8(0, 0, 0, 0) }
        }
      case DISPOSE_PREVIOUS:
        screen = before
      default:
        break
      }
    }
  }

  public struct DecodeError: Error { public var message: String }
}
