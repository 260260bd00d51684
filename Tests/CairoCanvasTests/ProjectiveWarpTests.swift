@testable import CairoCanvas
import Testing

/// The fast projective warp (spans interpolated between exact samples, only the columns the
/// projected source can reach, bands of rows on several threads) against the exact warp.
@Suite struct ProjectiveWarpTests {
  /// A 300 x 240 source with hard edges, gradients and noise (premultiplied, with transparent,
  /// translucent and opaque parts), so any shift of a sample shows in the blend.
  static let source: [UInt32] = {
    var pixels = [UInt32](repeating: 0, count: 300 * 240)
    var seed: UInt32 = 12345
    for y in 2..<238 {
      for x in 2..<298 {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        let a: UInt32 = (x / 37 + y / 29) % 3 == 0 ? 255 : (x < 150 ? 128 : 255)
        let r = UInt32(x * 255 / 299) * a / 255, g = UInt32(y * 255 / 239) * a / 255
        let b = (seed >> 24) * a / 255
        pixels[y * 300 + x] = a << 24 | r << 16 | g << 8 | b
      }
    }
    return pixels
  }()

  /// The card-flip map of a 300 x 240-pixel plane at 2 device pixels per pixel: perspective
  /// `distance`, turned `angle` about y (and `tilt` about x) around its centre, centred at
  /// (400, 300).
  func cardFlip(angle: Double, tilt: Double = 0, distance: Double = 500) -> Homography {
    let t = Transform3D.translation(x: -150, y: -120)
      .concatenating(Transform3D.rotation(tilt, x: 1, y: 0, z: 0))
      .concatenating(Transform3D.rotation(angle, x: 0, y: 1, z: 0))
      .concatenating(Transform3D.perspective(distance: distance))
      .concatenating(Transform3D.translation(x: 150, y: 120))
      .concatenating(Transform3D.scale(x: 2, y: 2))
      .concatenating(Transform3D.translation(x: 100, y: 60))
    return Homography(t)
  }

  /// The 800 x 600 destination, warped fast (into a transparent image) and exactly.
  func warp(
    _ map: Homography, bands: Int = 1, threads: Int = 1
  ) -> (fast: [UInt32], exact: [UInt32]) {
    let warp = ProjectiveWarp(
      inverse: map.inverted!, sourceWidth: 300, sourceHeight: 240, sourceStride: 300)
    var fast = [UInt32](repeating: 0, count: 800 * 600)
    var exact = [UInt32](repeating: 0xDEAD_BEEF, count: 800 * 600)
    ProjectiveWarpTests.source.withUnsafeBufferPointer { src in
      fast.withUnsafeMutableBufferPointer { dst in
        warp.fill(
          dst.baseAddress!, stride: 800, x: 0, y: 0, width: 800, height: 600,
          from: src.baseAddress!, bands: bands, threads: threads)
      }
      exact.withUnsafeMutableBufferPointer { dst in
        for row in 0..<600 {
          warp.fillExact(
            row: dst.baseAddress! + row * 800, columns: 0..<800, deviceX: 0, deviceY: row,
            from: src.baseAddress!)
        }
      }
    }
    return (fast, exact)
  }

  /// The largest difference of one channel between two images, and how many pixels differ.
  func difference(_ a: [UInt32], _ b: [UInt32]) -> (maximum: UInt32, pixels: Int, over1: Int) {
    var maximum: UInt32 = 0, pixels = 0, over1 = 0
    for (p, q) in zip(a, b) where p != q {
      pixels += 1
      var most: UInt32 = 0
      for shift: UInt32 in [0, 8, 16, 24] {
        let (x, y) = ((p >> shift) & 0xFF, (q >> shift) & 0xFF)
        most = Swift.max(most, x > y ? x - y : y - x)
      }
      maximum = Swift.max(maximum, most)
      if most > 1 { over1 += 1 }
    }
    return (maximum, pixels, over1)
  }

  @Test(arguments: [0.05, 0.3, 0.6, 0.9, 1.2, 1.4, 1.55, 2.0, 2.6, 3.1])
  func cardFlipAnglesStayWithinOneLevelOfTheExactWarp(angle: Double) {
    let (fast, exact) = warp(cardFlip(angle: angle))
    let d = difference(fast, exact)
    #expect(d.maximum <= 1, "angle \(angle): \(d)")
    // Nearly every pixel is the same; the few that differ sit where a sample's weight is at a
    // boundary of 1/256.
    #expect(d.pixels * 20 < exact.filter { $0 != 0 }.count + 1, "angle \(angle): \(d)")
    // The warp drew something (or, edge-on, nearly nothing) in the same places.
    #expect(fast.filter { $0 != 0 }.count == exact.filter { $0 != 0 }.count)
  }

  @Test func steepPerspectiveAndTiltStayWithinOneLevel() {
    for (angle, tilt, distance) in [(0.9, 0.5, 300.0), (1.3, -0.7, 250), (0.4, 1.2, 400)] {
      let (fast, exact) = warp(cardFlip(angle: angle, tilt: tilt, distance: distance))
      let d = difference(fast, exact)
      #expect(d.maximum <= 1, "\(angle), \(tilt), \(distance): \(d)")
    }
  }

  /// A plane partly behind the eye: the fast warp leaves those pixels transparent, as the
  /// exact one does.
  @Test func partsBehindTheEyeStayTransparent() {
    let (fast, exact) = warp(cardFlip(angle: 1.3, distance: 120))
    let d = difference(fast, exact)
    #expect(d.maximum <= 1, "\(d)")
  }

  @Test func bandsOnSeveralThreadsGiveTheSameBytes() {
    let map = cardFlip(angle: 0.6)
    let one = warp(map).fast
    for (bands, threads) in [(2, 2), (8, 2), (7, 3)] {
      #expect(warp(map, bands: bands, threads: threads).fast == one, "\(bands) bands")
    }
  }

  @Test func columnsWhereALinearFormIsPositive() {
    // 10 − 2i > 0 for i < 5: widened by a pixel it may hold up to i = 5, surely up to i = 3.
    #expect(ProjectiveWarp.columns(10, -2, width: 20, tight: false) == 0..<6)
    #expect(ProjectiveWarp.columns(10, -2, width: 20, tight: true) == 0..<4)
    #expect(ProjectiveWarp.columns(-7, 2, width: 20, tight: false) == 3..<20)
    #expect(ProjectiveWarp.columns(-7, 2, width: 20, tight: true) == 5..<20)
    #expect(ProjectiveWarp.columns(1, 0, width: 20, tight: true) == 0..<20)
    #expect(ProjectiveWarp.columns(-1, 0, width: 20, tight: false) == 0..<0)
    #expect(ProjectiveWarp.columns(-100, 1, width: 20, tight: false) == 20..<20)
  }
}
