import Geometry

extension GIF {
  /// Maps frames to an exact palette on any thread, each frame on its own: what the encoder's
  /// choosing stage would compute for it, computed ahead on the rendering threads so that the
  /// one serial stage only does what depends on the frames before.
  ///
  /// Only exact palettes qualify: their mapping is a lookup of each pixel's color, with no
  /// dithering, no cache filled as frames come, and nothing kept from the previous frame (see
  /// `ColorMapper.map`), so the indices are the same whichever thread maps which frame. A
  /// quantized palette's dithering keeps unchanged pixels' previous indices, an order the
  /// encoder alone knows; those frames are still mapped there.
  package struct IndependentMapper: Sendable {
    /// The exact palette frames are mapped to.
    package let palette: Palette

    /// A mapper for `palette`, or `nil` when its mapping depends on the frames before (a
    /// quantized palette).
    package init?(palette: Palette) {
      guard palette.isExact else { return nil }
      self.palette = palette
    }

    /// `frame`'s pixels as palette indices, one per pixel, rows top to bottom: the encoder's own
    /// mapping of it (the transparent index where alpha is under `GIF.alphaThreshold`).
    package func indices(of frame: Bitmap) -> [UInt8] {
      // A mapper of an exact palette is a few small tables: made per frame, it needs no
      // sharing between threads.
      var out: [UInt8] = []
      ColorMapper(palette: palette).map(frame, previous: nil, dither: .none, into: &out)
      return out
    }
  }
}
