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

  /// Every premultiplied pixel Cairo can hold (each alpha with each channel value up to it)
  /// comes out as straight RGBA rounded to nearest, opaque and clear pixels included; with
  /// `opaque`, alpha is taken as 255 whatever the surface holds.
  @Test func unpremultiplyingGivesEveryPixelRoundedToNearest() {
    var source: [UInt32] = []
    var expected: [UInt8] = []
    for a in UInt32(0)...255 {
      for c in UInt32(0)...a {
        let (r, g, b) = (c, a - c, c / 2)
        source.append(a << 24 | r << 16 | g << 8 | b)
        func straight(_ v: UInt32) -> UInt8 {
          a == 0 ? 0 : UInt8(Swift.min(255, (v * 255 + a / 2) / a))
        }
        expected += [straight(r), straight(g), straight(b), UInt8(a)]
      }
    }
    let width = 7, height = source.count / width
    source.removeLast(source.count - width * height)
    expected.removeLast(expected.count - width * height * 4)
    var out = [UInt8](repeating: 1, count: width * height * 4)
    var opaqueOut = out
    source.withUnsafeBytes { raw in
      let bytes = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      PixelConversion.unpremultiply(
        argb: bytes, stride: width * 4, width: width, height: height, opaque: false,
        into: &out)
      PixelConversion.unpremultiply(
        argb: bytes, stride: width * 4, width: width, height: height, opaque: true,
        into: &opaqueOut)
    }
    // Compared as a Bool: a failing comparison of large arrays prints (and diffs) them whole.
    let straightMatches = out == expected
    #expect(straightMatches)
    let opaqueExpected = source.flatMap { p in
      [UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF), 255]
    }
    let opaqueMatches = opaqueOut == opaqueExpected
    #expect(opaqueMatches)
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
