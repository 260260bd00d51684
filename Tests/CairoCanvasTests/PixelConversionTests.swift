@testable import CairoCanvas
import Geometry
import Testing

@Suite struct PixelConversionTests {
  /// The reciprocal table divides exactly for every value the un-premultiplication divides.
  @Test func reciprocalDivisionIsExactForEveryCase() {
    PixelConversion.reciprocals.withUnsafeBufferPointer { reciprocal in
      var wrong = 0
      for a in UInt32(1)...255 {
        for x in UInt32(0)..<(1 << 16) where PixelConversion.divide(x, by: a, reciprocal) != x / a {
          wrong += 1
        }
      }
      #expect(wrong == 0)
    }
  }

  /// The surface cache never shows stale pixels: a changed copy of a drawn bitmap is drawn as
  /// changed, and drawing the same bitmap again gives the same pixels.
  @Test func theImageSurfaceCacheFollowsThePixels() throws {
    var bitmap = Bitmap(width: 4, height: 4)
    for i in stride(from: 0, to: bitmap.pixels.count, by: 4) {
      (bitmap.pixels[i], bitmap.pixels[i + 3]) = (200, 255)
    }
    let canvas = try Canvas(pixelWidth: 4, pixelHeight: 4)
    canvas.draw(bitmap, in: Rect(0, 0, 4, 4))
    let first = canvas.makeBitmap()
    #expect(first.pixels[0] == 200)
    var changed = bitmap
    for i in stride(from: 0, to: changed.pixels.count, by: 4) { changed.pixels[i] = 10 }
    canvas.draw(changed, in: Rect(0, 0, 4, 4))
    #expect(canvas.makeBitmap().pixels[0] == 10)
    canvas.draw(bitmap, in: Rect(0, 0, 4, 4))
    #expect(canvas.makeBitmap() == first)
  }
}
