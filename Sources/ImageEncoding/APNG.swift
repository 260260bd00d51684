import CZlib
import FileIO
import Geometry
import Parallelism

/// Animated PNG (APNG): our own chunk writer around zlib-compressed image data.
///
/// Lossless with full alpha (8-bit RGBA, or RGB or indexed colour when the frames fit: see
/// `ColorModel`). Each frame after the first stores only the rectangle
/// that changed, with the disposal of the frame before it and its own blend operation chosen
/// among those that keep every frame exact, for the fewest bytes (see `Encoder`). A frame
/// identical to the one before is merged into it. Delays are exact fractions (`Delay`).
public enum APNG {
  /// How an animation is encoded.
  public struct Options: Hashable, Sendable {
    /// How many times the animation plays: 0 forever (the default), N in all.
    public var loopCount: Int = 0
    /// zlib's level, 1 (fastest) ... 9 (smallest, the default).
    public var level: Int = 9

    /// Looping forever, zlib level 9.
    public init(loopCount: Int = 0, level: Int = 9) {
      self.loopCount = loopCount
      self.level = level
    }
  }

  /// Why an animation could not be written.
  public enum EncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No frame was added.
    case noFrames
    /// zlib failed; its status.
    case zlib(Int)
    /// A frame's size differs from the canvas's, or the canvas is empty.
    case badSize(String)
    /// The output refused the bytes (it names the file and why).
    case output(FileError)

    /// A one-line message.
    public var description: String {
      switch self {
      case .noFrames: return "an APNG needs at least one frame"
      case .zlib(let status): return "zlib failed (status \(status))"
      case .badSize(let what): return what
      case .output(let error): return error.description
      }
    }
  }

  /// A frame's delay as the fraction `numerator / denominator` seconds (APNG's `delay_num` and
  /// `delay_den`, each at most 65535).
  public struct Delay: Hashable, Sendable, CustomStringConvertible {
    /// Seconds' numerator.
    public var numerator: Int
    /// Seconds' denominator.
    public var denominator: Int

    /// Creates a delay (not reduced).
    public init(numerator: Int, denominator: Int) {
      (self.numerator, self.denominator) = (numerator, denominator)
    }

    /// The delay of `frames` frames at `fps` frames per second, reduced: exact when the frame
    /// rate is a fraction within a billionth with a denominator up to 1,000,000 (30 -> 1/30 per
    /// frame, 29.97 -> 100/2997, 1.0005 -> 2000/2001) and the result fits 16 bits; otherwise
    /// the closest fraction that fits. Rates were rounded to thousandths, so odd ones drifted.
    public init(frames: Int, fps: Double) {
      precondition(
        fps > 0 && fps.isFinite && frames > 0, "a delay needs frames and a positive rate")
      let (p, q) = simplestFraction(
        approximating: fps, maximumNumerator: 1e12, maximumDenominator: 1_000_000)
      guard p > 0, Double(frames) * q <= 1e15 else {
        // A rate past the fraction's reach (under a millionth of a frame a second).
        self = Delay.closest(seconds: Double(frames) / fps)
        return
      }
      self = Delay.closest(numerator: frames * Int(q), denominator: Int(p))
    }

    /// The closest delay to `seconds` with both terms at most 65535.
    static func closest(seconds: Double) -> Delay {
      guard seconds < 65535 else { return Delay(numerator: 65535, denominator: 1) }
      let (p, q) = simplestFraction(
        approximating: seconds, tolerance: 0, maximumNumerator: 65535, maximumDenominator: 65535)
      return p == 0
        ? Delay(numerator: 1, denominator: 65535) : Delay(numerator: Int(p), denominator: Int(q))
    }

    /// `a / b` reduced, or its best approximation with both terms at most 65535 (continued
    /// fractions).
    public static func closest(numerator a: Int, denominator b: Int) -> Delay {
      func gcd(_ x: Int, _ y: Int) -> Int { y == 0 ? x : gcd(y, x % y) }
      let g = gcd(a, b)
      let (n, d) = (a / g, b / g)
      if n <= 65535 && d <= 65535 { return Delay(numerator: n, denominator: d) }
      var (h0, h1, k0, k1) = (0, 1, 1, 0)  // convergents h/k
      var (x, y) = (n, d)
      while y != 0 {
        let t = x / y
        let (h2, k2) = (t * h1 + h0, t * k1 + k0)
        if h2 > 65535 || k2 > 65535 { break }
        (h0, h1, k0, k1) = (h1, h2, k1, k2)
        (x, y) = (y, x - t * y)
      }
      if k1 == 0 { return Delay(numerator: 65535, denominator: 1) }  // longer than 65535 s
      if h1 == 0 { return Delay(numerator: 1, denominator: 65535) }  // shorter than 1/65535 s
      return Delay(numerator: h1, denominator: k1)
    }

    /// `"num/den s"`, or `"0 s"` (a file's `0/0` read as 0/100 was said as `0/1 s`).
    public var description: String {
      numerator == 0 ? "0 s" : "\(numerator)/\(denominator) s"
    }
  }

  /// How pixels are stored: the smallest PNG colour type that holds every frame exactly.
  public enum ColorModel: Hashable, Sendable {
    /// 8-bit RGBA (colour type 6): any frames.
    case rgba
    /// 8-bit RGB (colour type 2): every pixel of every frame opaque.
    case rgb
    /// 8-bit indexed (colour type 3, `PLTE` and `tRNS`): these colours (at most 256), each as
    /// its RGBA bytes read as a little-endian `UInt32`, in palette order.
    case indexed([UInt32])

    /// The model for frames whose distinct colours are `colors` (`nil`: more than 256): indexed
    /// when they fit (with an entry for transparent black added when there is room, so frames
    /// can be blended over), else RGBA. The palette is sorted (transparent entries first, so
    /// `tRNS` is short). Opaque frames are not stored as RGB: without alpha no frame can be
    /// blended over the one before, and the demos measured larger so (radar 1.62 MB against
    /// 1.17 MB, cat 120 KB against 81 KB; waves 95 KB against 103 KB); `opaque` is kept for a
    /// colour-keyed RGB to come.
    public static func smallest(colors: Set<UInt32>?, opaque: Bool) -> ColorModel {
      if var colors, !colors.isEmpty, colors.count <= 256 {
        if colors.count < 256 && !colors.contains(where: { $0 >> 24 == 0 }) { colors.insert(0) }
        return .indexed(
          colors.sorted { ($0 >> 24 == 255 ? 1 : 0, $0) < ($1 >> 24 == 255 ? 1 : 0, $1) })
      }
      return .rgba
    }

    /// Bytes per pixel.
    var bytesPerPixel: Int {
      switch self {
      case .rgba: return 4
      case .rgb: return 3
      case .indexed: return 1
      }
    }
  }

  /// The APNG `dispose_op` values.
  public enum Dispose: UInt8, Hashable, Sendable {
    /// Leave the frame on the canvas.
    case none = 0
    /// Clear the frame's rectangle to transparent black before the next frame.
    case background = 1
    /// Restore the canvas as it was before the frame.
    case previous = 2
  }

  /// The APNG `blend_op` values.
  public enum Blend: UInt8, Hashable, Sendable {
    /// The frame's pixels replace the rectangle.
    case source = 0
    /// The frame's pixels are drawn over the rectangle (transparent pixels keep it).
    case over = 1
  }
}

extension APNG {
  /// Writes an APNG frame by frame, in display order, to its output as it goes; `finish()`
  /// ends it (`assemble()` returns the file of an encoder writing to memory).
  ///
  /// For each frame it tries, against the canvas the frame before leaves (that frame disposed
  /// with `none`, or with `background` clearing its rectangle), the bounding rectangle of the
  /// changed pixels stored with `source` blending, and with `over` blending when every changed
  /// pixel is opaque (unchanged pixels then stored transparent, which compresses to almost
  /// nothing); the smallest candidate (by a quick zlib level-6 estimate) wins, and is stored
  /// with and without adaptive row filters at the options' level, keeping the smaller. Every
  /// choice keeps each frame exact. A frame is written once the next differs (which decides
  /// its disposal and ends its delay); `acTL`, which states the frame count, is written first
  /// and its count filled in by `finish()` (the compressed frames were kept until the end: an
  /// animation of large changing frames held gigabytes, twice over while the file was put
  /// together). Not thread-safe.
  public final class Encoder {
    /// The canvas size, in pixels.
    public let width: Int, height: Int
    /// Loop count and zlib level.
    public let options: Options
    /// The frame rate delays are computed from.
    public let fps: Double
    /// How pixels are stored.
    public let colorModel: ColorModel
    private var index: [UInt32: UInt8] = [:]
    private var transparentIndex: UInt8? = nil

    private struct Stored {
      var x, y, width, height: Int
      var blend: Blend
      var dispose: Dispose = .none
      var data: [UInt8]
      var frames: Int
      /// The unfiltered rows of the rectangle (while a candidate; emptied once compressed).
      var rows: [UInt8] = []
    }

    /// Where the file goes.
    private let output: any ByteOutput
    /// The last frame stored, not yet written: its delay and disposal depend on what comes next.
    private var pending: Stored? = nil
    /// Frames written so far, and the sequence number of the next fcTL or fdAT chunk.
    private var written = 0
    private var sequence: UInt32 = 0
    /// Where the `acTL` chunk starts in the output (its count is filled in at the end).
    private var animationControlOffset = 0
    private var finished = false
    private var previous: Bitmap? = nil

    /// An encoder for a `width` x `height` animation at `fps` frames per second, storing pixels
    /// as `colorModel` says (every frame's pixels must fit it: opaque for `.rgb`, in the palette
    /// for `.indexed`; `ColorModel.smallest` chooses it from a first look at the frames),
    /// writing to `output` (memory unless given: `assemble()` returns the file). The caller
    /// commits or aborts `output` after `finish()`.
    public init(
      width: Int, height: Int, fps: Double, colorModel: ColorModel = .rgba,
      options: Options = Options(), output: any ByteOutput = ByteBuffer()
    ) throws(EncodingError) {
      self.output = output
      guard width > 0, height > 0, width < 1 << 31, height < 1 << 31 else {
        throw .badSize("an APNG cannot be \(width) x \(height)")
      }
      (self.width, self.height, self.fps, self.options, self.colorModel) = (
        width, height, fps, options, colorModel
      )
      if case .indexed(let palette) = colorModel {
        guard !palette.isEmpty, palette.count <= 256 else {
          throw .badSize("a palette of \(palette.count) colours")
        }
        for (i, color) in palette.enumerated() { index[color] = UInt8(i) }
        transparentIndex = palette.firstIndex { $0 >> 24 == 0 }.map { UInt8($0) }
      }
    }

    /// Whether frames can be blended over the canvas (the stored pixels have alpha).
    private var canBlendOver: Bool {
      switch colorModel {
      case .rgba: return true
      case .rgb: return false
      case .indexed: return transparentIndex != nil
      }
    }

    /// How many frames are stored so far (identical neighbours merged).
    public var storedFrameCount: Int { written + (pending == nil ? 0 : 1) }
    /// The bytes written to the output so far.
    public private(set) var byteCount = 0

    /// Adds the next frame, shown for `1 / fps` seconds.
    public func add(_ bitmap: Bitmap) throws(EncodingError) {
      guard bitmap.width == width && bitmap.height == height else {
        throw .badSize("a \(bitmap.width) x \(bitmap.height) frame in a \(width) x \(height) APNG")
      }
      precondition(!finished, "APNG.Encoder.add after finish")
      guard let previous, var last = pending else {
        let rows = self.rows(
          bitmap, x: 0, y: 0, width: width, height: height, blankUnchangedOver: nil)
        let data = try finalCompression(
          rows, stride: width * colorModel.bytesPerPixel, height: height)
        try writeHeader()
        pending = Stored(
          x: 0, y: 0, width: width, height: height, blend: .source, data: data, frames: 1)
        self.previous = bitmap
        return
      }
      if bitmap.pixels == previous.pixels && last.frames < 65535 {
        pending?.frames += 1
        return
      }
      var best: (dispose: Dispose, frame: Stored)? = nil
      for dispose in [Dispose.none, .background] {
        var canvas = previous
        if dispose == .background {
          clear(&canvas, x: last.x, y: last.y, width: last.width, height: last.height)
        }
        for candidate in try candidates(bitmap, over: canvas) {
          if best == nil || candidate.data.count < best!.frame.data.count {
            best = (dispose, candidate)
          }
        }
      }
      guard var best else { return }
      best.frame.data = try finalCompression(
        best.frame.rows, stride: best.frame.width * colorModel.bytesPerPixel,
        height: best.frame.height)
      best.frame.rows = []
      last.dispose = best.dispose
      try writeFrame(last, isLast: false)
      pending = best.frame
      self.previous = bitmap
    }

    /// Ends the file: writes the last frame and `IEND`, and fills in `acTL`'s frame count.
    public func finish() throws(EncodingError) {
      guard !finished else { return }
      guard let last = pending else { throw .noFrames }
      try writeFrame(last, isLast: true)
      pending = nil
      previous = nil
      var end: [UInt8] = []
      end.appendChunk("IEND", [])
      try put(end)
      try put(animationControl(frameCount: written), at: animationControlOffset)
      finished = true
    }

    /// The APNG file, for an encoder writing to memory (the default output): `finish()` and
    /// the bytes written.
    public func assemble() throws(EncodingError) -> [UInt8] {
      try finish()
      guard let buffer = output as? ByteBuffer else {
        preconditionFailure("APNG.Encoder.assemble() of an encoder writing to a file")
      }
      return buffer.bytes
    }

    /// Writes `bytes` to the output (at `offset`, over bytes written before, when given).
    private func put(_ bytes: [UInt8], at offset: Int? = nil) throws(EncodingError) {
      do {
        if let offset {
          try output.overwrite(bytes, at: offset)
        } else {
          try output.write(bytes)
          byteCount += bytes.count
        }
      } catch {
        throw .output(error)
      }
    }

    /// The `acTL` chunk for `frameCount` frames (20 bytes, whatever the count).
    private func animationControl(frameCount: Int) -> [UInt8] {
      var actl = [UInt8]()
      actl.appendBigEndian(UInt32(frameCount))
      actl.appendBigEndian(UInt32(max(0, options.loopCount)))
      var chunk: [UInt8] = []
      chunk.appendChunk("acTL", actl)
      return chunk
    }

    /// The signature, `IHDR`, the palette's `PLTE` and `tRNS`, and `acTL` with no frames yet.
    private func writeHeader() throws(EncodingError) {
      var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      var ihdr = [UInt8]()
      ihdr.appendBigEndian(UInt32(width))
      ihdr.appendBigEndian(UInt32(height))
      let colorType: UInt8
      switch colorModel {
      case .rgba: colorType = 6
      case .rgb: colorType = 2
      case .indexed: colorType = 3
      }
      // 8 bits, the colour type, deflate, adaptive filters, no interlace.
      ihdr += [8, colorType, 0, 0, 0]
      out.appendChunk("IHDR", ihdr)
      if case .indexed(let palette) = colorModel {
        out.appendChunk(
          "PLTE",
          palette.flatMap { [UInt8($0 & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8(($0 >> 16) & 0xFF)] })
        let alphas = palette.map { UInt8($0 >> 24) }
        if let last = alphas.lastIndex(where: { $0 != 255 }) {
          out.appendChunk("tRNS", Array(alphas[...last]))
        }
      }
      animationControlOffset = out.count
      out += animationControl(frameCount: 0)
      try put(out)
    }

    /// Writes a frame's `fcTL` and its data (`IDAT` for the first, `fdAT` after).
    private func writeFrame(_ frame: Stored, isLast: Bool) throws(EncodingError) {
      let delay = Delay(frames: frame.frames, fps: fps)
      var fctl = [UInt8]()
      fctl.appendBigEndian(sequence)
      sequence += 1
      for v in [frame.width, frame.height, frame.x, frame.y] { fctl.appendBigEndian(UInt32(v)) }
      fctl.appendBigEndian(UInt16(delay.numerator))
      fctl.appendBigEndian(UInt16(delay.denominator))
      fctl += [isLast ? Dispose.none.rawValue : frame.dispose.rawValue, frame.blend.rawValue]
      var out: [UInt8] = []
      out.appendChunk("fcTL", fctl)
      if written == 0 {
        out.appendChunk("IDAT", frame.data)
      } else {
        var fdat = [UInt8]()
        fdat.appendBigEndian(sequence)
        sequence += 1
        out.appendChunk("fdAT", fdat + frame.data)
      }
      try put(out)
      written += 1
    }

    // The smallest exact ways to draw `bitmap` over `canvas`: `source` always, `over` when every
    // changed pixel is opaque.
    private func candidates(_ bitmap: Bitmap, over canvas: Bitmap) throws(EncodingError) -> [Stored]
    {
      guard var r = changedRectangle(bitmap, canvas) else {
        // Nothing changed against this canvas: one unchanged pixel (a frame needs a rectangle).
        let rows = self.rows(bitmap, x: 0, y: 0, width: 1, height: 1, blankUnchangedOver: nil)
        return [
          Stored(x: 0, y: 0, width: 1, height: 1, blend: .source, data: [], frames: 1, rows: rows)
        ]
      }
      var out: [Stored] = []
      let source = rows(
        bitmap, x: r.x, y: r.y, width: r.width, height: r.height, blankUnchangedOver: nil)
      out.append(
        Stored(
          x: r.x, y: r.y, width: r.width, height: r.height, blend: .source,
          data: try estimate(source, stride: r.width * colorModel.bytesPerPixel, height: r.height),
          frames: 1, rows: source))
      if canBlendOver && changedPixelsAreOpaque(bitmap, canvas, &r) {
        let over = rows(
          bitmap, x: r.x, y: r.y, width: r.width, height: r.height, blankUnchangedOver: canvas)
        out.append(
          Stored(
            x: r.x, y: r.y, width: r.width, height: r.height, blend: .over,
            data: try estimate(over, stride: r.width * colorModel.bytesPerPixel, height: r.height),
            frames: 1, rows: over))
      }
      return out
    }

    private struct Rect { var x, y, width, height: Int }

    private func changedRectangle(_ a: Bitmap, _ b: Bitmap) -> Rect? {
      var (minX, minY, maxX, maxY) = (width, height, -1, -1)
      a.pixels.withUnsafeBytes { pa in
        b.pixels.withUnsafeBytes { pb in
          let p = pa.bindMemory(to: UInt32.self), q = pb.bindMemory(to: UInt32.self)
          for y in 0..<height {
            let row = y * width
            var first = -1, lastX = -1
            for x in 0..<width where p[row + x] != q[row + x] {
              first = x
              break
            }
            guard first >= 0 else { continue }
            var x = width - 1
            while x >= first {
              if p[row + x] != q[row + x] { lastX = x; break }
              x -= 1
            }
            minX = min(minX, first)
            maxX = max(maxX, lastX)
            minY = min(minY, y)
            maxY = y
          }
        }
      }
      guard maxX >= 0 else { return nil }
      return Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    private func changedPixelsAreOpaque(_ a: Bitmap, _ b: Bitmap, _ r: inout Rect) -> Bool {
      a.pixels.withUnsafeBufferPointer { pa in
        b.pixels.withUnsafeBufferPointer { pb in
          for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) {
              let i = (y * width + x) * 4
              if pa[i + 3] != 255
                && (pa[i] != pb[i] || pa[i + 1] != pb[i + 1] || pa[i + 2] != pb[i + 2]
                  || pa[i + 3] != pb[i + 3])
              {
                return false
              }
            }
          }
          return true
        }
      }
    }

    private func clear(_ bitmap: inout Bitmap, x: Int, y: Int, width w: Int, height h: Int) {
      for row in y..<(y + h) {
        let start = (row * width + x) * 4
        for i in start..<(start + w * 4) { bitmap.pixels[i] = 0 }
      }
    }

    // The rectangle's rows, 4 bytes a pixel; with `blankUnchangedOver`, pixels equal to that
    // canvas are stored as transparent black.
    private func rows(
      _ bitmap: Bitmap, x: Int, y: Int, width w: Int, height h: Int,
      blankUnchangedOver canvas: Bitmap?
    ) -> [UInt8] {
      // The whole frame, nothing blanked, is the bitmap's own pixels (shared, not copied: a
      // copy of an 8000 x 8000 frame is 256 MB).
      if x == 0, y == 0, w == width, h == height, canvas == nil {
        return stored(bitmap.pixels, blanks: false)
      }
      var rows = [UInt8](repeating: 0, count: h * w * 4)
      rows.withUnsafeMutableBytes { out in
        let o = out.bindMemory(to: UInt32.self)
        bitmap.pixels.withUnsafeBytes { pb in
          let p = pb.bindMemory(to: UInt32.self)
          for row in 0..<h {
            let from = (y + row) * width + x
            for px in 0..<w { o[row * w + px] = p[from + px] }
          }
          guard let canvas else { return }
          canvas.pixels.withUnsafeBytes { cb in
            let c = cb.bindMemory(to: UInt32.self)
            for row in 0..<h {
              let from = (y + row) * width + x
              for px in 0..<w where p[from + px] == c[from + px] { o[row * w + px] = 0 }
            }
          }
        }
      }
      return stored(rows, blanks: canvas != nil)
    }

    // RGBA rows in the colour model's bytes; with `blanks`, transparent black stands for "keep
    // the canvas" (any fully transparent palette entry will do).
    private func stored(_ rgba: [UInt8], blanks: Bool) -> [UInt8] {
      switch colorModel {
      case .rgba: return rgba
      case .rgb:
        var out = [UInt8](repeating: 0, count: rgba.count / 4 * 3)
        for p in 0..<(rgba.count / 4) {
          (out[p * 3], out[p * 3 + 1], out[p * 3 + 2]) = (
            rgba[p * 4], rgba[p * 4 + 1], rgba[p * 4 + 2]
          )
        }
        return out
      case .indexed:
        var out = [UInt8](repeating: 0, count: rgba.count / 4)
        rgba.withUnsafeBytes { raw in
          let words = raw.bindMemory(to: UInt32.self)
          for p in 0..<words.count {
            if let i = index[words[p]] {
              out[p] = i
            } else if blanks && words[p] == 0, let t = transparentIndex {
              out[p] = t
            } else {
              preconditionFailure("APNG: a colour outside the palette the encoder was given")
            }
          }
        }
        return out
      }
    }

    // A quick size estimate to choose among candidates: no filters, zlib level 6.
    private func estimate(
      _ rows: [UInt8], stride: Int, height: Int
    ) throws(EncodingError) -> [UInt8] {
      try APNG.Encoder.deflate(
        rows, stride: stride, height: height, bytesPerPixel: colorModel.bytesPerPixel,
        adaptive: false, level: 6)
    }

    // The stored form: without filters and with adaptive filtering (libpng's minimum-sum
    // heuristic) at the options' level, keeping the smaller. The two are made at once on two
    // threads when the region is large (one 8000 x 8000 frame took 20 s one after the other);
    // the bytes are the same either way.
    private func finalCompression(
      _ rows: [UInt8], stride: Int, height: Int
    ) throws(EncodingError) -> [UInt8] {
      let level = min(9, max(1, options.level))
      let bytesPerPixel = colorModel.bytesPerPixel
      let threads = rows.count >= APNG.Encoder.parallelCompressionBytes ? 2 : 1
      let results = Bands.map(count: 2, threads: threads) { k in
        Result { () throws(EncodingError) -> [UInt8] in
          try APNG.Encoder.deflate(
            rows, stride: stride, height: height, bytesPerPixel: bytesPerPixel,
            adaptive: k == 1, level: level)
        }
      }
      let plain = try results[0].get(), adaptive = try results[1].get()
      return adaptive.count < plain.count ? adaptive : plain
    }

    /// The longest match chain zlib follows at levels 8 and 9: 1,024, level 8's (level 9's
    /// 4,096 took a tiled 2000 x 2000 frame 9.9 s, 1,024 5.1 s for a file 1.2% larger; the
    /// scene fixtures' APNGs are 1.5% larger), and 128 for a region of more than
    /// `longChainBytes` (`largeRegionMatchChain`), whose time grows with its pixels.
    static let maximumMatchChain: Int32 = 1024
    /// See `maximumMatchChain`.
    static let largeRegionMatchChain: Int32 = 128
    /// The bytes of rows past which a region is compressed with the shorter chains: 16 MB, a
    /// 2000 x 2000 RGBA frame.
    static let longChainBytes = 16_000_000

    /// The size of a region, in bytes of its rows, from which its two final compressions run on
    /// two threads (4 MB: a 1000 x 1000 RGBA frame; below it a thread costs more than it saves).
    static let parallelCompressionBytes = 4_000_000

    /// The zlib stream of `rows` as PNG scanlines (each row filtered with filter 0, or
    /// adaptively), made a row at a time: the filtered image is never whole, and the output
    /// grows as it is made (an 8000 x 8000 frame's filtered copies and zlib's worst-case
    /// buffers took 1.5 GB beside the frame).
    private static func deflate(
      _ rows: [UInt8], stride: Int, height: Int, bytesPerPixel: Int, adaptive: Bool, level: Int
    ) throws(EncodingError) -> [UInt8] {
      var stream = z_stream()
      var status = deflateInit_(
        &stream, Int32(level), zlibVersion(), Int32(MemoryLayout<z_stream>.size))
      guard status == Z_OK else { throw .zlib(Int(status)) }
      defer { deflateEnd(&stream) }
      // Levels 8 and 9 follow match chains up to 4,096 long, in time that data repeating with
      // a short period makes the whole chain at every byte: one tiled 2000 x 2000 frame took
      // 9.9 s, 4000 x 4000 50 s, 8000 x 8000 over two minutes (`maximumMatchChain`).
      if level >= 8 {
        let chain =
          rows.count > APNG.Encoder.longChainBytes
          ? APNG.Encoder.largeRegionMatchChain : APNG.Encoder.maximumMatchChain
        status = deflateTune(&stream, 32, 258, 258, chain)
        guard status == Z_OK else { throw .zlib(Int(status)) }
      }
      var out: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      var failure: Int32? = nil
      PNGRowFilter.forEachRow(
        rows, stride: stride, height: height, bytesPerPixel: bytesPerPixel, adaptive: adaptive
      ) { line, last in
        guard failure == nil else { return }
        stream.next_in = UnsafeMutablePointer(mutating: line.baseAddress)
        stream.avail_in = uInt(line.count)
        repeat {
          let produced = chunk.withUnsafeMutableBufferPointer { o -> Int in
            stream.next_out = o.baseAddress
            stream.avail_out = uInt(o.count)
            status = CZlib.deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
            return o.count - Int(stream.avail_out)
          }
          guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            failure = status
            return
          }
          out.append(contentsOf: chunk[0..<produced])
        } while stream.avail_in > 0 || (last && status != Z_STREAM_END)
      }
      if let failure { throw .zlib(Int(failure)) }
      return out
    }
  }
}

/// PNG row filters (PNG specification 9.2).
enum PNGRowFilter {
  /// Gives each row filtered (its filter byte, then its bytes) to `body`, with whether it is the
  /// last, in one line's buffer reused: filter 0, or the filter whose output has the smallest
  /// sum of absolute signed bytes.
  static func forEachRow(
    _ rows: [UInt8], stride: Int, height: Int, bytesPerPixel bpp: Int, adaptive: Bool,
    _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Void
  ) {
    var candidate = [[UInt8]](
      repeating: [UInt8](repeating: 0, count: stride + 1), count: adaptive ? 5 : 1)
    rows.withUnsafeBufferPointer { r in
      for y in 0..<height {
        let row = y * stride, up = (y - 1) * stride
        guard adaptive else {
          candidate[0].withUnsafeMutableBufferPointer { c in
            c[0] = 0
            for i in 0..<stride { c[1 + i] = r[row + i] }
            body(UnsafeBufferPointer(c), y == height - 1)
          }
          continue
        }
        var best = 0, bestSum = Int.max
        for f in 0..<5 {
          var sum = 0
          candidate[f].withUnsafeMutableBufferPointer { c in
            c[0] = UInt8(f)
            for i in 0..<stride {
              let x = Int(r[row + i])
              let a = i >= bpp ? Int(r[row + i - bpp]) : 0
              let b = y > 0 ? Int(r[up + i]) : 0
              let cc = (i >= bpp && y > 0) ? Int(r[up + i - bpp]) : 0
              let predicted: Int
              switch f {
              case 0: predicted = 0
              case 1: predicted = a
              case 2: predicted = b
              case 3: predicted = (a + b) / 2
              default:
                let p = a + b - cc
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - cc))
                predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : cc)
              }
              let v = UInt8(truncatingIfNeeded: x - predicted)
              c[1 + i] = v
              sum += v < 128 ? Int(v) : 256 - Int(v)
            }
          }
          if sum < bestSum { (best, bestSum) = (f, sum) }
        }
        candidate[best].withUnsafeBufferPointer { body($0, y == height - 1) }
      }
    }
  }
}

extension Array where Element == UInt8 {
  mutating func appendBigEndian(_ v: UInt32) {
    append(contentsOf: [
      UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF),
    ])
  }

  mutating func appendBigEndian(_ v: UInt16) {
    append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)])
  }

  /// Appends a PNG chunk: length, type, data, CRC-32 of type and data.
  mutating func appendChunk(_ type: String, _ data: [UInt8]) {
    appendBigEndian(UInt32(data.count))
    let typeBytes = Array(type.utf8)
    var crc = crc32(0, nil, 0)
    crc = typeBytes.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    append(contentsOf: typeBytes)
    append(contentsOf: data)
    appendBigEndian(UInt32(crc))
  }
}
