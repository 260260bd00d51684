import Geometry
import Glibc
import LayerTree
import Testing

/// docs/geometry.md §5: frame from bounds, position, anchorPoint and transform.
@Suite struct LayerGeometryTests {
  func layer(bounds: Rect, position: Point, anchor: Point = Point(0.5, 0.5)) -> Layer {
    let l = Layer()
    l.bounds = bounds
    l.position = position
    l.anchorPoint = anchor
    return l
  }

  @Test func frameWithIdentityTransform() {
    let l = layer(bounds: Rect(0, 0, 100, 50), position: Point(50, 25))
    #expect(l.frame == Rect(0, 0, 100, 50))
    // The bounds origin does not move the frame.
    l.bounds.origin = Point(7, 9)
    #expect(l.frame == Rect(0, 0, 100, 50))
  }

  @Test func changingTheAnchorMovesTheFrameNotThePosition() {
    let l = layer(bounds: Rect(0, 0, 100, 50), position: Point(50, 25))
    l.anchorPoint = Point(0, 0)
    #expect(l.position == Point(50, 25))
    #expect(l.frame == Rect(50, 25, 100, 50))
    l.anchorPoint = Point(1.5, 1.5)
    #expect(l.frame == Rect(-100, -50, 100, 50))
  }

  @Test func frameOfARotatedLayerIsTheBoundingBox() {
    let l = layer(bounds: Rect(0, 0, 100, 50), position: Point(50, 25))
    l.transform = .rotation(.pi / 2)
    let f = l.frame
    #expect(
      abs(f.minX - 25) < 1e-9 && abs(f.minY + 25) < 1e-9 && abs(f.width - 50) < 1e-9
        && abs(f.height - 100) < 1e-9)
  }

  @Test func settingTheFrameKeepsTheBoundsOrigin() {
    let l = layer(bounds: Rect(5, 5, 10, 10), position: .zero, anchor: Point(0.25, 0.75))
    l.frame = Rect(100, 200, 40, 80)
    #expect(l.bounds == Rect(5, 5, 40, 80))
    #expect(l.position == Point(110, 260))
    #expect(l.frame == Rect(100, 200, 40, 80))
  }

  @Test func anchorOutsideTheBoundsPivotsThere() {
    // The cat's pupils: anchor (1.5, 1.5) rotates the layer about a point outside it.
    let l = layer(bounds: Rect(0, 0, 10, 10), position: Point(100, 100), anchor: Point(1.5, 1.5))
    l.transform = .rotation(.pi)
    let m = l.transformToSuperlayer.affineTransform!
    // The anchor point itself stays at the position.
    let a = Point(15, 15).applying(m)
    #expect(abs(a.x - 100) < 1e-9 && abs(a.y - 100) < 1e-9)
    // The top-left corner (15 up-left of the anchor) ends 15 down-right of it.
    let c = Point(0, 0).applying(m)
    #expect(abs(c.x - 115) < 1e-9 && abs(c.y - 115) < 1e-9)
  }

  @Test func nestedTransformsComposeThreeLevelsDeep() {
    let a = layer(bounds: Rect(0, 0, 100, 100), position: Point(100, 100))
    a.transform = .rotation(.pi / 2)
    let b = layer(bounds: Rect(0, 0, 20, 20), position: Point(50, 0))
    b.transform = .scale(x: 2, y: 2)
    let c = layer(bounds: Rect(0, 0, 4, 4), position: Point(20, 10), anchor: .zero)
    a.addSublayer(b)
    b.addSublayer(c)
    // c's origin: in b at (20, 10); b scales 2 about its anchor (10, 10) -> (30, 10); then b's
    // placement puts (10,10) at (50, 0): (70, 0) in a; a turns 90° about (50, 50) and puts it at
    // (100, 100): (70-50, 0-50) = (20, -50) -> rotated (50, 20) -> (150, 120).
    let m = c.transformToSuperlayer.concatenating(b.transformToSuperlayer).concatenating(
      a.transformToSuperlayer)
    let p = Point(0, 0).applying(m.affineTransform!)
    #expect(abs(p.x - 150) < 1e-9 && abs(p.y - 120) < 1e-9)
  }

  @Test func sublayerTransformPivotsAboutTheAnchor() {
    let l = layer(bounds: Rect(0, 0, 100, 100), position: Point(50, 50))
    l.sublayerTransform = .scale(x: 2, y: 2)
    let p = Point(60, 50).applying(l.sublayerTransformAboutAnchor.affineTransform!)
    #expect(p == Point(70, 50))
  }
}

@Suite struct LayerHierarchyTests {
  @Test func addingMovesALayerBetweenParents() {
    let a = Layer(), b = Layer(), child = Layer()
    a.addSublayer(child)
    b.addSublayer(child)
    #expect(a.sublayers.isEmpty)
    #expect(b.sublayers.count == 1 && child.superlayer === b)
    child.removeFromSuperlayer()
    #expect(b.sublayers.isEmpty && child.superlayer == nil)
  }

  @Test func insertionPlaces() {
    let parent = Layer()
    let x = Layer(), y = Layer(), z = Layer(), w = Layer()
    parent.addSublayer(x)
    parent.insertSublayer(y, at: 0)
    parent.insertSublayer(z, above: y)
    parent.insertSublayer(w, below: x)
    #expect(
      parent.sublayers.map { ObjectIdentifier($0) } == [y, z, w, x].map { ObjectIdentifier($0) })
  }

  @Test func drawingOrderSortsByZPositionStably() {
    let parent = Layer()
    let layers = (0..<5).map { i -> Layer in
      let l = Layer()
      l.name = "\(i)"
      parent.addSublayer(l)
      return l
    }
    layers[1].zPosition = 2
    layers[3].zPosition = -1
    layers[4].zPosition = 2
    #expect(parent.sublayersInDrawingOrder.compactMap(\.name) == ["3", "0", "2", "1", "4"])
  }

  @Test func copiesAreDeepAndKeepTheirKind() {
    let root = Layer()
    let shape = ShapeLayer()
    shape.path = Path(rect: Rect(0, 0, 1, 1))
    shape.name = "s"
    root.addSublayer(shape)
    let copy = root.copyTree()
    let copiedShape = copy.sublayers[0] as? ShapeLayer
    #expect(copiedShape?.path == shape.path)
    #expect(copiedShape !== shape)
    #expect(copy.layer(named: "s") === copiedShape)
  }
}
