import Geometry

/// Animated GIFs: palettes, dithering, frame optimisation and delays are Flipbook's own; giflib
/// writes the bit-stream.
///
/// Encoding takes two passes over the frames: `GIF.PaletteBuilder` sees every frame once and
/// keeps a color histogram (not the frames), then `GIF.Encoder` maps each frame to the palette
/// and writes it as it comes. Memory stays at a few frames whatever their number.
///
/// Pixels with alpha below 128 are transparent (a transparent palette index); the others are
/// drawn with their straight (un-premultiplied) color, so edges over any page color show no
/// dark halo.
public enum GIF {
  /// The alpha at and above which a pixel is drawn; below it the pixel is transparent.
  public static let alphaThreshold: UInt8 = 128

  /// How colors that are not in the palette are approximated.
  public enum DitherMethod: String, Hashable, Sendable, CaseIterable {
    /// Error diffusion (Floyd-Steinberg), serpentine, applied only where a pixel's nearest
    /// palette color is visibly off: flat areas stay flat (the default).
    case floydSteinberg = "floyd-steinberg"
    /// An 8 x 8 Bayer pattern, applied only where a pixel's nearest palette color is visibly off.
    case ordered
    /// The nearest palette color, no dithering.
    case none
  }

  /// Choices that shape the output.
  public struct Options: Hashable, Sendable {
    /// The most colors in the palette, 2...256 (a transparent index counts as one).
    public var maxColors: Int
    /// How colors missing from the palette are approximated (unused when the palette is exact).
    public var dither: DitherMethod
    /// How many times the animation plays: 0 forever (a NETSCAPE2.0 loop extension with count
    /// 0), 1 once (no extension), N > 1 N times in all.
    public var loopCount: Int
    /// Whether a frame that the global palette serves clearly worse than one of its own may get
    /// a local palette (see `GIF.LocalPalette`; default true).
    public var allowsLocalPalettes: Bool

    /// Creates options: 256 colors, Floyd-Steinberg, looping forever, local palettes allowed.
    public init(
      maxColors: Int = 256, dither: DitherMethod = .floydSteinberg, loopCount: Int = 0,
      allowsLocalPalettes: Bool = true
    ) {
      precondition(
        (2...256).contains(maxColors), "A GIF palette has 2 to 256 colors, got \(maxColors)")
      precondition(
        loopCount >= 0 && loopCount <= 65536, "Loop count must be 0...65536, got \(loopCount)")
      self.maxColors = maxColors
      self.dither = dither
      self.loopCount = loopCount
      self.allowsLocalPalettes = allowsLocalPalettes
    }
  }

  /// Why a GIF could not be written.
  public enum EncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `finish()` was called before any frame was added.
    case noFrames
    /// A frame's size differs from the animation's.
    case frameSizeMismatch(frame: Int, expected: Size, actual: Size)
    /// A delay outside 0...65535 centiseconds.
    case delayOutOfRange(frame: Int, centiseconds: Int)
    /// giflib reported an error (its code and message).
    case giflib(code: Int32, message: String)
    /// The output refused the bytes (a full disk, a closed file).
    case output(String)

    /// A one-line message.
    public var description: String {
      switch self {
      case .noFrames: return "a GIF needs at least one frame"
      case .frameSizeMismatch(let i, let e, let a):
        return "frame \(i) is \(a), the animation is \(e)"
      case .delayOutOfRange(let i, let cs):
        return "frame \(i) has a delay of \(cs) cs, outside 0...65535"
      case .giflib(let code, let message): return "giflib error \(code): \(message)"
      case .output(let message): return "cannot write the GIF: \(message)"
      }
    }
  }
}

extension GIF {
  /// The most colours a palette may have for all of them to show (`--colors 16` or fewer): a
  /// quantized palette of more keeps one entry transparent, so that a frame keeps the pixels
  /// that did not change, unless the animation has transparent pixels of its own.
  public static let smallPaletteColors = 16
}
