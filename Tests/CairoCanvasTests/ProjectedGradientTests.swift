@testable import CairoCanvas
import Geometry
import Glibc
import Testing

/// Gradients computed through a plane's projective map (`GradientRamp.fill`: exact samples,
/// second-order steps between them, the ends of the ramp filled at once) against the exact
/// location of every pixel, and the columns a projected outline can touch.
@Suite struct ProjectedGradientTests {
  /// The card-flip map of a 300 x 240 plane at 2 device pixels per unit: perspective
  /// `distance`, turned `angle` about y and `tilt` about x around its centre, placed at
  /// (100, 60) of an 800 x 600 device band.
  static func cardFlip(angle: Double, tilt: Double = 0, distance: Double = 500) -> Homography {
    let t = Transform3D.translation(x: -150, y: -120)
      .concatenating(Transform3D.rotation(tilt, x: 1, y: 0, z: 0))
      .concatenating(Transform3D.rotation(angle, x: 0, y: 1, z: 0))
      .concatenating(Transform3D.perspective(distance: distance))
      .concatenating(Transform3D.translation(x: 150, y: 120))
      .concatenating(Transform3D.scale(x: 2, y: 2))
      .concatenating(Transform3D.translation(x: 100, y: 60))
    return Homography(t)
  }

  /// Maps whose rows see w growing, shrinking and constant (a turn about x only), a steep one
  /// whose vanishing line crosses the band (pixels beyond it have w < 0), and a nearly affine
  /// one.
  static let maps: [(String, Homography)] = [
    ("flip 0.6", cardFlip(angle: 0.6)),
    ("flip -0.6", cardFlip(angle: -0.6)),
    ("flip 1.2, tilt 0.3", cardFlip(angle: 1.2, tilt: 0.3)),
    ("tilt 0.8", cardFlip(angle: 0, tilt: 0.8)),
    ("steep 1.3 at 150", cardFlip(angle: 1.3, distance: 150)),
    ("steep -1.45 at 120, tilt -0.4", cardFlip(angle: -1.45, tilt: -0.4, distance: 120)),
    ("nearly affine", cardFlip(angle: 0.3, distance: 1e7)),
  ]

  /// Along the plane's x and y, diagonal, and short (most pixels past its ends).
  static let axes: [(Point, Point)] = [
    (Point(x: 0, y: 0), Point(x: 300, y: 0)),
    (Point(x: 150, y: 0), Point(x: 150, y: 240)),
    (Point(x: 0, y: 240), Point(x: 300, y: 0)),
    (Point(x: 100, y: 100), Point(x: 110, y: 105)),
  ]

  static let stops = [
    GradientStop(location: 0, color: .black),
    GradientStop(location: 0.3, color: Color(red: 1, green: 0.5, blue: 0, alpha: 1)),
    GradientStop(location: 1, color: .white),
  ]

  /// Every pixel of an 800 x 600 band shows the table entry of its centre's exact location, or
  /// a neighbouring entry (the steps stay within half an entry, rounding adds half), and is
  /// clear where its pre-image is at or behind the eye; the fill says whether it cleared any.
  @Test(arguments: 0..<maps.count)
  func axialPixelsStayWithinAnEntryOfTheExactLocation(map index: Int) throws {
    let (name, map) = Self.maps[index]
    let f = try #require(map.inverted)
    let ramp = GradientRamp(Self.stops, conic: false)
    let (width, height) = (800, 600)
    let columns = [(from: Int, to: Int)](repeating: (0, width), count: height)
    for (start, end) in Self.axes {
      var pixels = [UInt32](repeating: 0xDEAD_BEEF, count: width * height)
      let onlyEntries = pixels.withUnsafeMutableBufferPointer {
        ramp.fill(
          $0.baseAddress!, stride: width, columns: columns[...], x: 0, y: 0,
          geometry: .axial(start: start, end: end), fromDevice: f)
      }
      let (dx, dy) = (end.x - start.x, end.y - start.y)
      var wrong = 0, cleared = 0, firstWrong = ""
      for y in 0..<height {
        for x in 0..<width {
          let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
          let w = px * f.m13 + py * f.m23 + f.m33
          let value = pixels[y * width + x]
          guard w > 0 else {
            cleared += 1
            if value != 0 { wrong += 1 }
            continue
          }
          let u = (px * f.m11 + py * f.m21 + f.m31) / w
          let v = (px * f.m12 + py * f.m22 + f.m32) / w
          let i = ramp.index(((u - start.x) * dx + (v - start.y) * dy) / (dx * dx + dy * dy))
          let near = Swift.max(i - 1, 0)...Swift.min(i + 1, GradientRamp.size - 1)
          if !near.contains(where: { ramp.packed[$0] == value }) {
            if wrong == 0 { firstWrong = "(\(x), \(y)): entry \(i)" }
            wrong += 1
          }
        }
      }
      #expect(wrong == 0, "\(name), \(start) to \(end): \(wrong) pixels, first \(firstWrong)")
      #expect(onlyEntries == (cleared == 0), "\(name): \(cleared) pixels behind the eye")
    }
  }

  /// The steep maps do reach pixels behind the eye, and the others do not (so both branches of
  /// the test above are taken).
  @Test func someMapsClearPixelsBehindTheEye() throws {
    func behind(_ map: Homography) throws -> Bool {
      let f = try #require(map.inverted)
      return [(0.5, 0.5), (799.5, 0.5), (0.5, 599.5), (799.5, 599.5)].contains { p in
        p.0 * f.m13 + p.1 * f.m23 + f.m33 <= 0
      }
    }
    #expect(try behind(Self.cardFlip(angle: 1.3, distance: 150)))
    #expect(try !behind(Self.cardFlip(angle: 0.6)))
  }

  /// Every pixel a fill of the polygons touches (any coverage, as Cairo draws it) is inside
  /// the row's extents: a convex projected card, a concave star, and two overlapping loops.
  @Test func rowExtentsHoldEveryPixelAFillTouches() throws {
    let card = Self.cardFlip(angle: 0.7, tilt: 0.2)
    let outline = card.polygons(
      of: Path(roundedRect: Rect(0, 0, 300, 240), cornerRadius: 30),
      within: Rect(x: -64, y: -64, width: 928, height: 728), tolerance: 0.1
    ).map { $0.compactMap { card.apply($0) } }
    let star = (0..<10).map { i -> Point in
      let angle = Double(i) * .pi / 5, radius = i % 2 == 0 ? 250.0 : 90
      return Point(x: 400 + radius * cos(angle), y: 300 + radius * sin(angle) * 0.9)
    }
    let loops = [
      [Point(x: 10.3, y: 20.7), Point(x: 200.5, y: 40.2), Point(x: 120.25, y: 310.9)],
      [
        Point(x: 600, y: 500.5), Point(x: 790.4, y: 100), Point(x: 700.1, y: 590),
        Point(x: 450, y: 560),
      ],
    ]
    for polygons in [outline, [star], loops] {
      let canvas = try Canvas(size: Size(800, 600), scale: 1)
      var path = Path()
      for polygon in polygons {
        path.move(to: polygon[0])
        for p in polygon.dropFirst() { path.addLine(to: p) }
        path.closeSubpath()
      }
      canvas.fill(path, with: .black)
      let bitmap = canvas.makeBitmap()
      let extents = Canvas.rowExtents(of: polygons, minX: 0, minY: 0, width: 800, height: 600)
      var outside = 0, touched = 0
      for y in 0..<600 {
        for x in 0..<800 where bitmap[x, y].a > 0 {
          touched += 1
          if x < extents[y].from || x >= extents[y].to { outside += 1 }
        }
      }
      #expect(touched > 1000)
      #expect(outside == 0, "\(outside) of \(touched) touched pixels outside the extents")
    }
  }

  /// A table comes from the shared cache the same as made afresh.
  @Test func cachedTablesAreTheTablesOfTheirStops() {
    let fresh = GradientRamp(Self.stops, conic: true)
    for _ in 0..<2 {
      let cached = GradientRamp.cached(Self.stops, conic: true)
      let same = cached.packed == fresh.packed && cached.colors.count == fresh.colors.count
      #expect(same)
      #expect(cached.isOpaque)
    }
    let translucent = [
      GradientStop(location: 0, color: .clear), GradientStop(location: 1, color: .white),
    ]
    #expect(!GradientRamp.cached(translucent, conic: false).isOpaque)
  }
}
