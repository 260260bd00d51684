import CZlib
import Geometry

extension APNG {
  /// An APNG as a viewer shows it: each frame composited on the canvas.
  public struct Animation: Hashable, Sendable {
    /// The canvas size, in pixels.
    public var width: Int, height: Int
    /// The frames, composited, straight RGBA.
    public var frames: [Bitmap]
    /// Each frame's delay.
    public var delays: [Delay]
    /// How many times it plays: 0 forever.
    public var loopCount: Int

    /// Creates an animation.
    public init(width: Int, height: Int, frames: [Bitmap], delays: [Delay], loopCount: Int) {
      (self.width, self.height, self.frames, self.delays, self.loopCount) = (
        width, height, frames, delays, loopCount
      )
    }
  }

  /// Why an APNG could not be read.
  public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// The reason.
    public var description: String { reason }
  }

  /// The most pixels an APNG's canvas may have: 64,000,000 (what `Canvas` allows, as for a
  /// GIF's screen).
  public static let maximumDecodedPixels = 64_000_000

  /// The most pixels all the decoded frames of an APNG may have together: 1,000,000,000 (each
  /// frame is the whole canvas), as for a GIF, so a small file of many frames cannot make the
  /// decoding run without bound. The count its acTL states is checked before any frame is
  /// decoded.
  public static let maximumDecodedTotalPixels = 1_000_000_000

  /// The most frames a decoded APNG may have: 100,000, the most a render makes, as for a GIF;
  /// the count its acTL states is checked before any frame is decoded.
  public static let maximumDecodedFrames = 100_000

  /// Whether `bytes` are a PNG with an `acTL` chunk before its image data (an APNG).
  public static func isAPNG(_ bytes: [UInt8]) -> Bool { kind(of: bytes) == .apng }

  /// What the chunks before the image data say a file is.
  private enum Kind { case notPNG, apng, png, cutShort }

  private static func kind(of bytes: [UInt8]) -> Kind {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
      return .notPNG
    }
    var at = 8
    while at + 8 <= bytes.count {
      let length = Int(bytes.bigEndian32(at)),
        type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
      if type == "acTL" { return .apng }
      if type == "IDAT" || type == "IEND" { return .png }
      at += 12 + length
    }
    return .cutShort
  }

  /// Whether an APNG's image data (its IDAT, what a plain PNG decoder reads) is its first
  /// frame: an fcTL comes before the first IDAT, or no fcTL comes at all (no frame of its own,
  /// so browsers show the image). `false` when the first fcTL follows the IDAT (the image is no
  /// frame, which browsers do not show) or the chunks cannot be walked.
  public static func imageDataIsFirstFrame(_ bytes: [UInt8]) -> Bool {
    guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
      return false
    }
    var at = 8
    var sawImageData = false
    while at + 8 <= bytes.count {
      let length = Int(bytes.bigEndian32(at))
      let type = bytes[(at + 4)..<(at + 8)]
      if type.elementsEqual("fcTL".utf8) { return !sawImageData }
      if type.elementsEqual("IDAT".utf8) { sawImageData = true }
      if type.elementsEqual("IEND".utf8) { return true }
      guard length <= bytes.count - at - 12 else { return false }
      at += 12 + length
    }
    return false
  }

  /// Decodes every frame of an 8-bit RGB, RGBA or indexed, non-interlaced APNG (what `Encoder`
  /// writes and what the usual tools write), composited with each frame's disposal and blending
  /// (see `FrameReader`, which gives them one at a time).
  public static func decode(_ bytes: [UInt8]) throws(DecodingError) -> Animation {
    let reader = try FrameReader(bytes)
    var frames: [Bitmap] = [], delays: [Delay] = []
    while let frame = try reader.next() {
      frames.append(frame.image)
      delays.append(frame.delay)
    }
    return Animation(
      width: reader.width, height: reader.height, frames: frames, delays: delays,
      loopCount: reader.loopCount)
  }

  /// Reads an APNG's frames one at a time, each composited on the canvas with its disposal and
  /// blending, so a caller that looks at each frame once (`flipbook diff`) holds a canvas or
  /// two, not every frame. The canvas and the frame count its acTL states are checked against
  /// the limits when it is made, before any frame is decoded.
  public final class FrameReader {
    /// The canvas size, in pixels.
    public private(set) var width = 0, height = 0
    /// How many times it plays: 0 forever.
    public private(set) var loopCount = 0
    /// The frame count the acTL chunk states (the frame controls must make as many).
    public private(set) var declaredFrames = 0
    /// How many frames `next()` has returned.
    public private(set) var framesRead = 0

    private struct Control {
      var x = 0, y = 0, width = 0, height = 0, delay = Delay(numerator: 0, denominator: 100),
        dispose = 0, blend = 0
    }
    private let bytes: [UInt8]
    private var at = 8
    private var channels = 4
    private var palette: [UInt8] = [], alphas: [UInt8] = []
    private var control: Control? = nil
    private var data: [UInt8] = []
    private var canvas = Bitmap(width: 0, height: 0)
    private var finished = false
    /// The sequence number the next fcTL or fdAT chunk must have: they count 0, 1, 2, ... in
    /// the order they come (the APNG specification), so one out of order is said, not guessed.
    private var nextSequence = 0
    /// Whether an acTL, and an IDAT, have been read.
    private var sawAnimationControl = false, sawImageData = false
    /// Whether a PLTE, and a tRNS, have been read.
    private var sawPalette = false, sawTransparency = false
    /// Whether the frame being read takes its data from IDAT (the first frame, when its fcTL
    /// comes before the image data): then no fdAT may add to it.
    private var frameDataIsIDAT = false
    /// Whether only the first frame is read (the limits on all the frames are not checked).
    private let firstFrameOnly: Bool

    /// Opens `bytes` as an APNG and reads its chunks up to the first frame's.
    ///
    /// `firstFrameOnly`: the caller reads the first frame alone (a still picture), so the
    /// limits on the frames in all are not checked; the canvas's still is.
    ///
    /// - Throws: `DecodingError` when they are not an APNG this reads, or its canvas or frame
    ///   count is over the limits.
    public init(_ bytes: [UInt8], firstFrameOnly: Bool = false) throws(DecodingError) {
      self.firstFrameOnly = firstFrameOnly
      switch kind(of: bytes) {
      case .apng: break
      case .notPNG: throw DecodingError(reason: "not an APNG (no PNG signature)")
      case .png: throw DecodingError(reason: "not an APNG (a PNG without acTL)")
      case .cutShort: throw DecodingError(reason: "the file ends before its acTL chunk")
      }
      self.bytes = bytes
      // IHDR first (the PNG specification): one after the image data was read after the limits
      // were checked on a canvas of 0 x 0 pixels, so 2,000 frames of 8000 x 8000 decoded for
      // two minutes.
      let first = bytes[12..<16]
      guard first.elementsEqual("IHDR".utf8) else {
        let named =
          first.allSatisfy { (0x41...0x5A).contains($0 & 0xDF) }
          ? String(decoding: first, as: UTF8.self) + ", not IHDR" : "not IHDR"
        throw DecodingError(reason: "its first chunk is \(named) (a PNG starts with IHDR)")
      }
      // The header chunks: IHDR comes first and acTL before any image data.
      while declaredFrames == 0 || width == 0, at + 12 <= bytes.count {
        let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
        if type == "fcTL" || type == "IDAT" || type == "IEND" { break }
        _ = try chunk()
      }
      try checkLimits()
    }

    /// Refuses a frame count, or frames in all, over the limits the acTL and IHDR state.
    private func checkLimits() throws(DecodingError) {
      guard !firstFrameOnly else { return }
      guard declaredFrames <= maximumDecodedFrames else {
        throw DecodingError(
          reason: "its acTL says \(declaredFrames) frames, over the limit of "
            + "\(maximumDecodedFrames) a decoded animation")
      }
      let total = declaredFrames.multipliedReportingOverflow(by: Swift.max(1, width * height))
      guard !total.overflow, total.partialValue <= maximumDecodedTotalPixels else {
        throw DecodingError(
          reason: "\(declaredFrames) frames of \(width) x \(height) pixels are over the limit of "
            + "\(maximumDecodedTotalPixels) decoded pixels in all the frames")
      }
    }

    /// The next frame and its delay, or `nil` after the last (at IEND).
    ///
    /// - Throws: `DecodingError` when a chunk is broken, a frame lies outside the canvas, its
    ///   data is damaged, or the frames are not what the acTL says.
    public func next() throws(DecodingError) -> (image: Bitmap, delay: Delay)? {
      while !finished {
        guard at + 12 <= bytes.count else {
          throw DecodingError(reason: "the file ends before IEND")
        }
        if let frame = try chunk() { return frame }
      }
      return nil
    }

    /// Reads the chunk at `at`; the frame it finishes, if any.
    private func chunk() throws(DecodingError) -> (image: Bitmap, delay: Delay)? {
      let length = Int(bytes.bigEndian32(at))
      guard length >= 0, at + 12 + length <= bytes.count else {
        throw DecodingError(reason: "a chunk runs past the end")
      }
      let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
      let body = Array(bytes[(at + 8)..<(at + 8 + length)])
      // Bit 5 of the first letter clear: a chunk a reader must understand (PNG's critical
      // chunks). It, and the chunks of the animation, must be whole, as libpng wants critical
      // ones: a damaged one was read as given (a flipped bit in IHDR is another size), where
      // the same file as a plain PNG was refused.
      let critical = bytes[at + 4] & 0x20 == 0
      let stored = bytes.bigEndian32(at + 8 + length)
      let computed = bytes.withUnsafeBufferPointer { all in
        UInt32(crc32(0, all.baseAddress! + at + 4, uInt(length + 4)))
      }
      at += 12 + length
      if stored != computed {
        guard critical || ["acTL", "fcTL", "fdAT"].contains(type) else {
          return nil  // an ancillary chunk that is damaged is left out, as libpng does
        }
        throw DecodingError(
          reason: "its \(Self.chunkName(type)) chunk is damaged (its CRC does not match its data)")
      }
      switch type {
      case "IHDR":
        guard length == 13 else { throw DecodingError(reason: "a bad IHDR") }
        // One IHDR, first (the PNG specification): a second one made a new canvas after the
        // limits were checked on the first's.
        guard width == 0 else { throw DecodingError(reason: "a second IHDR chunk (a PNG has one)") }
        (width, height) = (Int(body.bigEndian32(0)), Int(body.bigEndian32(4)))
        guard body[8] == 8, body[6 + 6] == 0, body[10] == 0, body[11] == 0,
          body[9] == 2 || body[9] == 6 || body[9] == 3
        else {
          throw DecodingError(
            reason: "only 8-bit RGB, RGBA or indexed non-interlaced APNGs are read")
        }
        // Sizes up to 2^32 - 1 each: their product can overflow (it trapped at 2^32 - 1 by
        // 2^32 - 1).
        let area = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !area.overflow, area.partialValue <= maximumDecodedPixels
        else {
          throw DecodingError(
            reason:
              "a \(width) x \(height) canvas is outside 1...\(maximumDecodedPixels) pixels")
        }
        channels = body[9] == 6 ? 4 : body[9] == 2 ? 3 : 1
        canvas = Bitmap(width: width, height: height)
      // One palette and one transparency chunk, before the image data (the PNG specification,
      // as libpng refuses them): a PLTE after the first frame's data recoloured that frame,
      // which is composited only when the next fcTL comes.
      case "PLTE":
        guard !sawPalette else {
          throw DecodingError(reason: "a second PLTE chunk (a PNG has one)")
        }
        guard !sawImageData else {
          throw DecodingError(
            reason: "a PLTE chunk after the image data (a PNG's palette comes before its IDAT)")
        }
        // tRNS follows PLTE (the PNG specification): libpng drops one before it, so the same
        // file read as a plain PNG was opaque where this reader made it transparent.
        guard !sawTransparency else {
          throw DecodingError(
            reason: "a PLTE chunk after the tRNS (a PNG's transparency comes after its palette)")
        }
        sawPalette = true
        palette = body
      case "tRNS":
        guard !sawTransparency else {
          throw DecodingError(reason: "a second tRNS chunk (a PNG has one)")
        }
        guard !sawImageData else {
          throw DecodingError(
            reason: "a tRNS chunk after the image data (a PNG's transparency comes before its IDAT)"
          )
        }
        sawTransparency = true
        alphas = body
      case "acTL":
        guard length == 8 else { throw DecodingError(reason: "a bad acTL") }
        // One acTL (the APNG specification): a second one's count was taken silently.
        guard !sawAnimationControl else {
          throw DecodingError(reason: "a second acTL chunk (an APNG has one)")
        }
        sawAnimationControl = true
        declaredFrames = Int(body.bigEndian32(0))
        loopCount = Int(body.bigEndian32(4))
        // An acTL after a frame's fcTL (the specification asks it before the IDAT only) is
        // checked here too: one read after `init` was never checked against the limits.
        try checkLimits()
      case "fcTL":
        guard length == 26 else { throw DecodingError(reason: "a bad fcTL") }
        let finished = try finishFrame()
        // `framesRead` is now this control's frame. Values the APNG specification does not
        // define are refused, where they read as 0 and a damaged file compared as matching.
        try checkSequence(body, frame: framesRead, chunk: "fcTL")
        guard body[24] <= 2 else {
          throw DecodingError(
            reason: "frame \(framesRead)'s fcTL has dispose_op \(body[24]) (APNG's are 0, 1 and 2)")
        }
        guard body[25] <= 1 else {
          throw DecodingError(
            reason: "frame \(framesRead)'s fcTL has blend_op \(body[25]) (APNG's are 0 and 1)")
        }
        let den = Int(body[22]) << 8 | Int(body[23])
        // An fcTL before the IDAT makes the default image the first frame, which must then
        // cover the canvas (the APNG specification); its data was said to run past its rows.
        let (fx, fy) = (Int(body.bigEndian32(12)), Int(body.bigEndian32(16)))
        let (fw, fh) = (Int(body.bigEndian32(4)), Int(body.bigEndian32(8)))
        if framesRead == 0 && !sawImageData && (fx != 0 || fy != 0 || fw != width || fh != height) {
          throw DecodingError(
            reason: "frame 0's fcTL is \(fw) x \(fh) at \(fx), \(fy), but it is the default image "
              + "(it comes before the IDAT), which covers the whole \(width) x \(height) canvas")
        }
        control = Control(
          x: Int(body.bigEndian32(12)), y: Int(body.bigEndian32(16)),
          width: Int(body.bigEndian32(4)), height: Int(body.bigEndian32(8)),
          delay: Delay(
            numerator: Int(body[20]) << 8 | Int(body[21]), denominator: den == 0 ? 100 : den),
          dispose: Int(body[24]), blend: Int(body[25]))
        if framesRead == 0 && finished == nil && control?.dispose == 2 { control?.dispose = 1 }
        return finished
      case "IDAT":
        // Only the first frame's data may be IDAT, in one run (the specification): IDAT after
        // a later frame's fcTL was taken as its data.
        if control != nil && framesRead > 0 {
          throw DecodingError(
            reason: "frame \(framesRead)'s image data is IDAT (only the first frame's may be; "
              + "the others' are fdAT)")
        }
        if control != nil {
          data += body
          frameDataIsIDAT = true
        }
        sawImageData = true
      case "fdAT":
        guard length >= 4 else { throw DecodingError(reason: "a bad fdAT") }
        // Frame data follows its frame's fcTL, and a frame's data is IDAT or fdAT, not both
        // (the APNG specification): an fdAT before any fcTL was taken as the next frame's
        // data, so a damaged file compared as matching another.
        guard control != nil else {
          throw DecodingError(reason: "an fdAT chunk before any fcTL (frame data follows its fcTL)")
        }
        guard !frameDataIsIDAT else {
          throw DecodingError(
            reason: "frame \(framesRead)'s image data is IDAT and fdAT (a frame's is one of them)")
        }
        try checkSequence(body, frame: framesRead, chunk: "fdAT")
        data += body[4...]
      case "IEND":
        let last = try finishFrame()
        finished = true
        // An APNG whose frames are not what its acTL says is in error (the APNG specification):
        // refused, where it read as an animation of no frames that matched anything.
        guard framesRead > 0, framesRead == declaredFrames else {
          throw DecodingError(
            reason: "its acTL says \(declaredFrames) frame\(declaredFrames == 1 ? "" : "s"), "
              + "its frame controls (fcTL) make \(framesRead)")
        }
        return last
      default:
        // An unknown critical chunk changes how the image is read: a reader must stop (the
        // PNG specification; libpng refuses it), not skip it.
        if critical {
          throw DecodingError(
            reason: "it holds a critical chunk this reader does not know, \(Self.chunkName(type)) "
              + "(a reader must not skip one)")
        }
      }
      return nil
    }

    /// A chunk type as messages name it: its four letters, or `?` for each byte of another kind.
    static func chunkName(_ type: String) -> String {
      String(
        type.unicodeScalars.map { c in
          ("A"..."Z").contains(c) || ("a"..."z").contains(c) ? Character(c) : "?"
        })
    }

    /// Checks the sequence number starting `body` (an fcTL's or fdAT's) against the one
    /// expected, and counts it.
    private func checkSequence(_ body: [UInt8], frame: Int, chunk: String) throws(DecodingError) {
      let sequence = Int(body.bigEndian32(0))
      guard sequence == nextSequence else {
        throw DecodingError(
          reason: "frame \(frame)'s \(chunk) has sequence number \(sequence), not \(nextSequence) "
            + "(APNG numbers its fcTL and fdAT chunks 0, 1, 2, ... in order)")
      }
      nextSequence += 1
    }

    /// Composites the frame whose data has been gathered, if any, and applies its disposal.
    private func finishFrame() throws(DecodingError) -> (image: Bitmap, delay: Delay)? {
      guard let c = control else { return nil }
      control = nil
      frameDataIsIDAT = false
      guard c.width > 0, c.height > 0 else {
        throw DecodingError(
          reason: "frame \(framesRead) is \(c.width) x \(c.height) pixels (an APNG frame is at "
            + "least 1 x 1)")
      }
      guard c.x + c.width <= width, c.y + c.height <= height else {
        throw DecodingError(reason: "frame \(framesRead) lies outside the canvas")
      }
      // The frame controls may make more frames than the acTL said: counted as they come.
      guard framesRead < declaredFrames else {
        throw DecodingError(
          reason: "its acTL says \(declaredFrames) frame\(declaredFrames == 1 ? "" : "s"), "
            + "its frame controls (fcTL) make more")
      }
      guard !data.isEmpty else {
        throw DecodingError(
          reason: "frame \(framesRead) has no image data (no IDAT or fdAT chunk after its fcTL)")
      }
      var pixels: [UInt8]
      do {
        pixels = try inflateFrame(data, width: c.width, height: c.height, channels: channels)
      } catch {
        throw DecodingError(reason: "frame \(framesRead): \(error.reason)")
      }
      if channels == 1 {
        var rgba = [UInt8](repeating: 0, count: c.width * c.height * 4)
        for p in 0..<(c.width * c.height) {
          let i = Int(pixels[p])
          guard i * 3 + 2 < palette.count else {
            throw DecodingError(
              reason: palette.isEmpty
                ? "frame \(framesRead) is indexed and the file has no palette (PLTE)"
                : "frame \(framesRead): a pixel's index \(i) is outside the palette of "
                  + "\(palette.count / 3) colours")
          }
          (rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]) = (
            palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2]
          )
          rgba[p * 4 + 3] = i < alphas.count ? alphas[i] : 255
        }
        pixels = rgba
      } else if channels == 3, alphas.count >= 6 {
        // An RGB image's tRNS names one colour (three 16-bit samples, an 8-bit image's in their
        // low bytes) that is transparent: it was drawn opaque.
        let key = (alphas[1], alphas[3], alphas[5])
        pixels.withUnsafeMutableBufferPointer { out in
          for p in stride(from: 0, to: out.count, by: 4)
          where (out[p], out[p + 1], out[p + 2]) == key {
            out[p + 3] = 0
          }
        }
      }
      data = []
      let before = c.dispose == 2 ? canvas : nil
      let width = width
      // Over raw pointers; a frame stored with `source` blending is its rows copied (a loop
      // that blended every pixel, bounds checked, took 0.5 s of an 8000 x 8000 frame).
      pixels.withUnsafeBufferPointer { source in
        canvas.pixels.withUnsafeMutableBufferPointer { out in
          guard let from = source.baseAddress, let to = out.baseAddress else { return }
          for y in 0..<c.height {
            let s = from + y * c.width * 4, d = to + ((c.y + y) * width + c.x) * 4
            guard c.blend != 0 else {
              d.update(from: s, count: c.width * 4)
              continue
            }
            for x in 0..<c.width {
              let p = s + x * 4, q = d + x * 4
              let sa = Int(p[3])
              if sa == 255 {
                q.update(from: p, count: 4)
              } else if sa > 0 {
                let da = Int(q[3])
                let outA = sa * 255 + da * (255 - sa)  // alpha times 255
                for k in 0..<3 {
                  q[k] = UInt8(
                    (Int(p[k]) * sa * 255 + Int(q[k]) * da * (255 - sa) + outA / 2) / outA)
                }
                q[3] = UInt8((outA + 127) / 255)
              }
            }
          }
        }
      }
      let shown = (image: canvas, delay: c.delay)
      framesRead += 1
      switch c.dispose {
      case 1:
        canvas.pixels.withUnsafeMutableBufferPointer { out in
          for y in c.y..<(c.y + c.height) {
            for i in ((y * width + c.x) * 4)..<((y * width + c.x + c.width) * 4) { out[i] = 0 }
          }
        }
      case 2: if let before { canvas = before }
      default: break
      }
      return shown
    }
  }

  // Inflates and unfilters a frame's rows to RGBA.
  private static func inflateFrame(
    _ data: [UInt8], width: Int, height: Int, channels: Int
  ) throws(DecodingError) -> [UInt8] {
    let stride = width * channels
    var raw = [UInt8](repeating: 0, count: height * (stride + 1))
    var length = uLongf(raw.count)
    let status = raw.withUnsafeMutableBufferPointer { o in
      data.withUnsafeBufferPointer {
        uncompress(o.baseAddress, &length, $0.baseAddress, uLong($0.count))
      }
    }
    guard status == Z_OK, Int(length) == raw.count else {
      let cause =
        status == Z_BUF_ERROR && Int(length) == raw.count
        ? "goes on past its rows"
        : status == Z_OK || status == Z_BUF_ERROR
          ? "ends before its rows do"
          : status == Z_DATA_ERROR
            ? "is damaged (not zlib data, or a broken stream)" : "is damaged (zlib error \(status))"
      throw DecodingError(reason: "its image data \(cause)")
    }
    // Each row unfiltered by its filter's own loop, over raw pointers (a loop that worked out
    // every predictor for every byte, bounds checked, took 1.6 s of an 8000 x 8000 frame).
    var rows = [UInt8](repeating: 0, count: height * stride)
    var unknownFilter: UInt8? = nil
    raw.withUnsafeBufferPointer { rawBuffer in
      rows.withUnsafeMutableBufferPointer { rowBuffer in
        guard stride > 0, let input = rawBuffer.baseAddress, let output = rowBuffer.baseAddress
        else { return }
        let lead = Swift.min(channels, stride)  // the bytes with no pixel to their left
        for y in 0..<height {
          let filter = input[y * (stride + 1)]
          let src = input + y * (stride + 1) + 1
          let dst = output + y * stride
          let up: UnsafePointer<UInt8>? = y > 0 ? UnsafePointer(dst - stride) : nil
          switch (filter, up) {
          case (0, _), (2, nil):
            dst.update(from: src, count: stride)
          case (1, _), (4, nil):  // Paeth with no row above predicts from the left
            dst.update(from: src, count: lead)
            for i in lead..<stride { dst[i] = src[i] &+ dst[i - channels] }
          case (2, let up?):
            for i in 0..<stride { dst[i] = src[i] &+ up[i] }
          case (3, let up):
            for i in 0..<lead { dst[i] = src[i] &+ (up.map { $0[i] } ?? 0) / 2 }
            if let up {
              for i in lead..<stride {
                dst[i] = src[i] &+ UInt8((UInt16(dst[i - channels]) + UInt16(up[i])) / 2)
              }
            } else {
              for i in lead..<stride { dst[i] = src[i] &+ dst[i - channels] / 2 }
            }
          case (4, let up?):
            for i in 0..<lead { dst[i] = src[i] &+ up[i] }  // a = c = 0: b
            for i in lead..<stride {
              let a = Int(dst[i - channels]), b = Int(up[i]), c = Int(up[i - channels])
              let p = a + b - c
              let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
              dst[i] =
                src[i] &+ UInt8(truncatingIfNeeded: pa <= pb && pa <= pc ? a : (pb <= pc ? b : c))
            }
          default:
            unknownFilter = filter
            return
          }
        }
      }
    }
    if let unknownFilter { throw DecodingError(reason: "an unknown row filter \(unknownFilter)") }
    guard channels == 3 else { return rows }  // RGBA, or indices (1)
    var rgba = [UInt8](repeating: 255, count: width * height * 4)
    rows.withUnsafeBufferPointer { rgb in
      rgba.withUnsafeMutableBufferPointer { out in
        for p in 0..<(width * height) {
          out[p * 4] = rgb[p * 3]
          out[p * 4 + 1] = rgb[p * 3 + 1]
          out[p * 4 + 2] = rgb[p * 3 + 2]
        }
      }
    }
    return rgba
  }
}

extension Array where Element == UInt8 {
  func bigEndian32(_ at: Int) -> UInt32 {
    UInt32(self[at]) << 24 | UInt32(self[at + 1]) << 16 | UInt32(self[at + 2]) << 8
      | UInt32(self[at + 3])
  }
}
