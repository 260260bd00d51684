import Flipbook
import FlipbookTestSupport
import Testing

/// Pixel facts of `ShapeLayer.pathOperation`: a path's subpaths combined (Lottie's merge
/// paths), filled and stroked.
@Suite struct PathOperationRenderingTests {
  /// Two overlapping squares as the two subpaths of one shape layer's path, 40 x 30: the first
  /// from x 5 to 25, the second from x 15 to 35, both from y 5 to 25.
  func render(
    _ operation: PathOperation, fill: Color? = .red, stroke: Color? = nil
  ) throws -> Bitmap {
    let scene = Scene(size: Size(40, 30))
    let shape = ShapeLayer()
    shape.frame = Rect(0, 0, 40, 30)
    var path = Path(rect: Rect(5, 5, 20, 20))
    path.addPath(Path(rect: Rect(15, 5, 20, 20)))
    shape.path = path
    shape.fillColor = fill
    shape.strokeColor = stroke
    shape.lineWidth = 2
    shape.pathOperation = operation
    scene.addLayer(shape)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  /// The alpha in the first square only, in both, and in the second only (row 15).
  func coverage(_ b: Bitmap) -> [UInt8] { [b[10, 15].a, b[20, 15].a, b[30, 15].a] }

  @Test func fillsCombineTheOperandsCoverage() throws {
    #expect(coverage(try render(.none)) == [255, 255, 255])
    #expect(coverage(try render(.union)) == [255, 255, 255])
    #expect(coverage(try render(.subtract)) == [255, 0, 0])
    #expect(coverage(try render(.intersect)) == [0, 255, 0])
    #expect(coverage(try render(.exclude)) == [255, 0, 255])
    let b = try render(.subtract)
    #expect(b[10, 15] == RGBA8(255, 0, 0, 255))
    #expect(b[20, 2].a == 0 && b[38, 15].a == 0)
  }

  @Test func translucentFillsCoverOverlapsOnce() throws {
    // The coverage is built opaque and painted with the colour's alpha: a union's overlap is
    // as translucent as the rest, where drawing each operand would darken it.
    let half = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
    #expect(coverage(try render(.union, fill: half)) == [128, 128, 128])
    #expect(coverage(try render(.exclude, fill: half)) == [128, 0, 128])
  }

  /// The alpha on the first square's left edge (x 5), on its right edge inside the second
  /// square (x 25), on the second's left edge inside the first (x 15) and on its right edge
  /// (x 35), each two points wide (row 15).
  func outline(_ b: Bitmap) -> [UInt8] { [b[4, 15].a, b[24, 15].a, b[15, 15].a, b[35, 15].a] }

  @Test func strokesFollowTheResultsOutline() throws {
    #expect(outline(try render(.none, fill: nil, stroke: .blue)) == [255, 255, 255, 255])
    #expect(outline(try render(.union, fill: nil, stroke: .blue)) == [255, 0, 0, 255])
    #expect(outline(try render(.subtract, fill: nil, stroke: .blue)) == [255, 0, 255, 0])
    #expect(outline(try render(.intersect, fill: nil, stroke: .blue)) == [0, 255, 255, 0])
    #expect(outline(try render(.exclude, fill: nil, stroke: .blue)) == [255, 255, 255, 255])
    // The stroke is drawn over the fill, in the stroke's colour.
    let b = try render(.subtract, fill: .red, stroke: .blue)
    #expect(b[15, 15] == RGBA8(0, 0, 255, 255))
    #expect(b[10, 15] == RGBA8(255, 0, 0, 255))
  }

  @Test func trimmedStrokesTrimTheWholePathAcrossOperands() throws {
    // strokeEnd 0.5 of two squares of equal length: the first square's outline only.
    let scene = Scene(size: Size(40, 30))
    let shape = ShapeLayer()
    shape.frame = Rect(0, 0, 40, 30)
    var path = Path(rect: Rect(5, 5, 20, 20))
    path.addPath(Path(rect: Rect(15, 5, 20, 20)))
    shape.path = path
    shape.fillColor = nil
    shape.strokeColor = .blue
    shape.lineWidth = 2
    shape.strokeEnd = 0.5
    shape.pathOperation = .exclude
    scene.addLayer(shape)
    let b = try scene.makeFrame(at: 0).makeBitmap()
    #expect(outline(b) == [255, 255, 0, 0])
  }
}
