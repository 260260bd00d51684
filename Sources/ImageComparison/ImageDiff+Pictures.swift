import Geometry

extension ImageDiff {
  /// A picture the size of the images in which the differences stand out: differing pixels
  /// red, forgiven anti-aliasing yellow, everything else the expected image faded to a pale gray
  /// (as pixelmatch draws its output).
  public func heatmap(over expected: Bitmap) -> Bitmap {
    var out = Bitmap(width: width, height: height)
    expected.pixels.withUnsafeBufferPointer { e in
      out.pixels.withUnsafeMutableBufferPointer { o in
        for i in 0..<(width * height) {
          let p = i * 4
          switch classes[i] {
          case 2: (o[p], o[p + 1], o[p + 2]) = (255, 0, 0)
          case 1: (o[p], o[p + 1], o[p + 2]) = (255, 255, 0)
          default:
            let (r, g, b) = ImageDiff.blended(e, p)
            let gray = UInt8((255 + (ImageDiff.luma(r, g, b) - 255) * 0.1).rounded())
            (o[p], o[p + 1], o[p + 2]) = (gray, gray, gray)
          }
          o[p + 3] = 255
        }
      }
    }
    return out
  }

  /// Expected, actual and the heatmap side by side, 4 pixels of mid gray between them, so one
  /// picture tells the whole story.
  public func strip(expected: Bitmap, actual: Bitmap) -> Bitmap {
    ImageDiff.sideBySide([expected, actual, heatmap(over: expected)])
  }

  /// The gray gap between pictures side by side, in pixels.
  public static let sideBySideGap = 4

  /// The size `strip(expected:actual:)` makes of two images of `width` x `height` pixels: three
  /// pictures side by side, `sideBySideGap` apart (known before anything is decoded).
  public static func stripSize(width: Int, height: Int) -> (width: Int, height: Int) {
    (3 * width + 2 * sideBySideGap, height)
  }

  /// `images` left to right on one canvas, `sideBySideGap` gray pixels apart, top-aligned.
  public static func sideBySide(_ images: [Bitmap]) -> Bitmap {
    let gap = sideBySideGap
    let width = images.reduce(0) { $0 + $1.width } + gap * Swift.max(0, images.count - 1)
    let height = images.map(\.height).max() ?? 0
    var out = Bitmap(width: width, height: height)
    out.pixels.withUnsafeMutableBufferPointer { o in
      for i in stride(from: 0, to: o.count, by: 4) {
        (o[i], o[i + 1], o[i + 2], o[i + 3]) = (128, 128, 128, 255)
      }
      var left = 0
      for image in images {
        image.pixels.withUnsafeBufferPointer { src in
          for y in 0..<image.height {
            let from = y * image.width * 4, to = (y * width + left) * 4
            for k in 0..<(image.width * 4) { o[to + k] = src[from + k] }
          }
        }
        left += image.width + gap
      }
    }
    return out
  }
}
