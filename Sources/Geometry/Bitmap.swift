/// A picture as rows of straight-alpha RGBA8 pixels: what a canvas reads out, what encoders take
/// and what a layer's `contents` shows.
///
/// Pixels are stored contiguously, row after row, four bytes per pixel in R, G, B, A order, with
/// no padding. Two bitmaps are equal when their sizes and bytes are.
public struct Bitmap: Hashable, Sendable {
  /// The width, in pixels.
  public let width: Int
  /// The height, in pixels.
  public let height: Int
  /// `width * height * 4` bytes: R, G, B, A per pixel, rows top to bottom.
  public var pixels: [UInt8]

  /// Creates a bitmap of the given size filled with `color` (transparent by default).
  public init(width: Int, height: Int, fill color: RGBA8 = RGBA8(0, 0, 0, 0)) {
    precondition(
      width >= 0 && height >= 0, "Bitmap size must not be negative: \(width) x \(height)")
    self.width = width
    self.height = height
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    if color != RGBA8(0, 0, 0, 0) {
      for i in stride(from: 0, to: pixels.count, by: 4) {
        (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (
          color.r, color.g, color.b, color.a
        )
      }
    }
    self.pixels = pixels
  }

  /// Wraps existing RGBA8 bytes; `pixels.count` must be `width * height * 4`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(
      width >= 0 && height >= 0, "Bitmap size must not be negative: \(width) x \(height)")
    precondition(
      pixels.count == width * height * 4,
      "A \(width) x \(height) bitmap needs \(width * height * 4) bytes, got \(pixels.count)")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The pixel at column `x`, row `y` (0-based, from the top-left).
  public subscript(x: Int, y: Int) -> RGBA8 {
    get {
      precondition(
        x >= 0 && x < width && y >= 0 && y < height,
        "Pixel (\(x), \(y)) is outside \(width) x \(height)")
      let i = (y * width + x) * 4
      return RGBA8(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
    set {
      precondition(
        x >= 0 && x < width && y >= 0 && y < height,
        "Pixel (\(x), \(y)) is outside \(width) x \(height)")
      let i = (y * width + x) * 4
      (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (
        newValue.r, newValue.g, newValue.b, newValue.a
      )
    }
  }

  /// Whether every pixel has alpha 255.
  public var isOpaque: Bool {
    pixels.withUnsafeBufferPointer { p in
      var i = 3
      while i < p.count {
        if p[i] != 255 { return false }
        i += 4
      }
      return true
    }
  }
}

/// One straight-alpha pixel, 8 bits per channel.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
  /// Red, 0...255.
  public var r: UInt8
  /// Green, 0...255.
  public var g: UInt8
  /// Blue, 0...255.
  public var b: UInt8
  /// Alpha, 0 (transparent) ... 255 (opaque).
  public var a: UInt8

  /// Creates a pixel from its four channels.
  @inlinable public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) {
    (self.r, self.g, self.b, self.a) = (r, g, b, a)
  }

  /// `rgba(r, g, b, a)`, for messages.
  public var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}
