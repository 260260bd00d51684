import Geometry

extension GIF {
  /// The colors a GIF's pixels index, and whether one more index stands for transparency.
  public struct Palette: Hashable, Sendable {
    /// The opaque colors, at most 256 (255 with a transparent index).
    public var colors: [RGBA8]
    /// Whether the palette was found exactly (every color of the animation is in it), in which
    /// case frames need no dithering and are reproduced losslessly.
    public var isExact: Bool
    /// Whether the palette has a spare index beyond `colors`, used for transparent pixels and
    /// for pixels that stay as they were in the previous frame.
    public var hasTransparentIndex: Bool

    /// Creates a palette.
    public init(colors: [RGBA8], isExact: Bool, hasTransparentIndex: Bool) {
      precondition(
        colors.count + (hasTransparentIndex ? 1 : 0) <= 256, "A GIF palette has at most 256 entries"
      )
      self.colors = colors
      self.isExact = isExact
      self.hasTransparentIndex = hasTransparentIndex
    }

    /// The transparent index (just after the colors), or `nil`.
    public var transparentIndex: UInt8? { hasTransparentIndex ? UInt8(colors.count) : nil }

    /// The number of entries the GIF color table needs: colors plus the transparent index,
    /// rounded up to a power of two (at least 2).
    public var tableSize: Int {
      var size = 2
      while size < colors.count + (hasTransparentIndex ? 1 : 0) { size *= 2 }
      return size
    }
  }
}
