import CGIF
import Geometry

extension GIF {
  /// The giflib side: screen descriptor, color table, loop extension, and each frame's graphic
  /// control extension, image descriptor and LZW-coded pixels.
  final class Writer {
    private var gif: UnsafeMutablePointer<GifFileType>?
    private let sink: Sink

    /// Bytes giflib produced, handed on to `output` after each frame.
    final class Sink {
      var buffer: [UInt8] = []
      var failure: String? = nil
      let output: ([UInt8]) throws -> Void
      init(output: @escaping ([UInt8]) throws -> Void) { self.output = output }
      func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do { try output(buffer) } catch { failure = "\(error)" }
        buffer.removeAll(keepingCapacity: true)
      }
    }

    init(
      width: Int, height: Int, palette: Palette, loopCount: Int,
      output: @escaping ([UInt8]) throws -> Void
    ) throws(EncodingError) {
      sink = Sink(output: output)
      var error: Int32 = 0
      let opened = EGifOpen(
        Unmanaged.passUnretained(sink).toOpaque(),
        { file, bytes, count in
          guard let file, let user = file.pointee.UserData, let bytes else { return 0 }
          let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
          sink.buffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
          return count
        }, &error)
      guard let opened else { throw Writer.failure(error) }
      gif = opened
      EGifSetGifVersion(opened, true)
      var table = [GifColorType](
        repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: palette.tableSize)
      for (i, c) in palette.colors.enumerated() {
        table[i] = GifColorType(Red: c.r, Green: c.g, Blue: c.b)
      }
      let map = table.withUnsafeBufferPointer { GifMakeMapObject(Int32($0.count), $0.baseAddress) }
      defer { GifFreeMapObject(map) }
      let background = Int32(palette.transparentIndex ?? 0)
      try check(EGifPutScreenDesc(opened, Int32(width), Int32(height), 8, background, map))
      if loopCount != 1 {
        let repeats = loopCount == 0 ? 0 : loopCount - 1
        try check(EGifPutExtensionLeader(opened, APPLICATION_EXT_FUNC_CODE))
        var name = Array("NETSCAPE2.0".utf8)
        try check(EGifPutExtensionBlock(opened, 11, &name))
        var count: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8 & 0xFF)]
        try check(EGifPutExtensionBlock(opened, 3, &count))
        try check(EGifPutExtensionTrailer(opened))
      }
      try flush()
    }

    deinit {
      if let gif {
        var error: Int32 = 0
        EGifCloseFile(gif, &error)
      }
    }

    static func failure(_ code: Int32) -> EncodingError {
      .giflib(
        code: code, message: GifErrorString(code).map { String(cString: $0) } ?? "unknown error")
    }

    private func check(_ status: Int32) throws(EncodingError) {
      guard status == GIF_OK else { throw Writer.failure(gif?.pointee.Error ?? 0) }
    }

    private func flush() throws(EncodingError) {
      sink.flush()
      if let failure = sink.failure { throw .output(failure) }
    }

    /// Writes one frame: `pixels` holds `rect.width * rect.height` indices, rows top to bottom.
    func writeFrame(
      rect: (x: Int, y: Int, width: Int, height: Int), pixels: [UInt8], delay: Int, disposal: Int32,
      transparentIndex: UInt8?,
      localColors: [RGBA8]? = nil, localTableSize: Int = 0
    ) throws(EncodingError) {
      guard let gif else { return }
      var control = GraphicsControlBlock(
        DisposalMode: disposal, UserInputFlag: false, DelayTime: Int32(delay),
        TransparentColor: transparentIndex.map(Int32.init) ?? NO_TRANSPARENT_COLOR)
      var extensionBytes = [GifByteType](repeating: 0, count: 4)
      let length = EGifGCBToExtension(&control, &extensionBytes)
      try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), &extensionBytes))
      var localMap: UnsafeMutablePointer<ColorMapObject>? = nil
      if let localColors {
        var table = [GifColorType](
          repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: localTableSize)
        for (i, c) in localColors.enumerated() {
          table[i] = GifColorType(Red: c.r, Green: c.g, Blue: c.b)
        }
        localMap = table.withUnsafeBufferPointer {
          GifMakeMapObject(Int32($0.count), $0.baseAddress)
        }
      }
      defer { if let localMap { GifFreeMapObject(localMap) } }
      try check(
        EGifPutImageDesc(
          gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), false, localMap)
      )
      var rows = pixels
      try check(
        rows.withUnsafeMutableBufferPointer { EGifPutLine(gif, $0.baseAddress, Int32($0.count)) })
      try flush()
    }

    /// Writes the trailer and closes the stream.
    func finish() throws(EncodingError) {
      guard let gif else { return }
      var error: Int32 = 0
      let status = EGifCloseFile(gif, &error)
      self.gif = nil
      guard status == GIF_OK else { throw Writer.failure(error) }
      try flush()
    }
  }
}
