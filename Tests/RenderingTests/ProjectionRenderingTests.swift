import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

/// Pixel facts of 3D: the projective warp, w ≤ 0, back faces and transform layers' depth order.
@Suite struct ProjectionRenderingTests {
  func render(
    _ build: (Scene) -> Void, size: Size = Size(300, 200), scale: Double = 1
  ) throws -> Bitmap {
    let scene = Scene(size: size, scale: scale)
    scene.backgroundColor = .white
    build(scene)
    return try scene.makeFrame(at: 0).makeBitmap()
  }

  func card(_ transform: Transform3D, width: Double = 200, color: Color = .red) -> Layer {
    let l = Layer()
    l.bounds = Rect(0, 0, width, 100)
    l.position = Point(150, 100)
    l.backgroundColor = color
    l.transform = transform
    return l
  }

  let red = RGBA8(255, 0, 0, 255), white = RGBA8(255, 255, 255, 255)

  /// The card-flip idiom at several angles: pixels 3 px inside each projected corner (toward
  /// the quad's centre) are the card's, 3 px outside are the background.
  @Test func cardFlipCornersArePixelExact() throws {
    for theta in [0.3, 0.8, 1.2] {
      let t = Transform3D.perspective(distance: 500).rotated(theta, x: 0, y: 1, z: 0)
      let b = try render { $0.addLayer(card(t)) }
      let corners = [(0.0, 0.0), (200, 0), (200, 100), (0, 100)].map { (x, y) -> Point in
        let (dx, dy) = (x - 100, y - 50)
        let w = 1 + dx * sin(theta) / 500
        return Point(x: 150 + dx * cos(theta) / w, y: 100 + dy / w)
      }
      for c in corners {
        let (ux, uy) = (150 - c.x, 100 - c.y)
        let n = (ux * ux + uy * uy).squareRoot()
        let inside = Point(x: c.x + 3 * ux / n, y: c.y + 3 * uy / n)
        let outside = Point(x: c.x - 3 * ux / n, y: c.y - 3 * uy / n)
        #expect(b[Int(inside.x), Int(inside.y)] == red, "θ \(theta) inside \(c)")
        #expect(b[Int(outside.x), Int(outside.y)] == white, "θ \(theta) outside \(c)")
      }
    }
  }

  @Test func affineLayersStillDrawWithoutAWarp() throws {
    // A rotation about y without perspective is the 2D squeeze: exactly cos θ wide.
    let b = try render { $0.addLayer(card(.rotation(acos(0.5), x: 0, y: 1, z: 0))) }
    #expect(b[101, 100] == red && b[198, 100] == red)
    #expect(b[99, 100] == white && b[201, 100] == white)
  }

  /// perspective 100, rotateY 1.2 on a 400-point-wide layer: its left part (dx < -107) is behind
  /// the eye. Drawn without the clip it would show mirrored at (246, 159).
  @Test func partsBehindTheEyeAreNotDrawn() throws {
    let t = Transform3D.perspective(distance: 100).rotated(1.2, x: 0, y: 1, z: 0)
    let b = try render { $0.addLayer(card(t, width: 400)) }
    let (dx, dy) = (-180.0, -40.0)
    let w = 1 + dx * sin(1.2) / 100
    #expect(w < 0)
    let mirrored = Point(x: 150 + dx * cos(1.2) / w, y: 100 + dy / w)
    #expect(b[Int(mirrored.x), Int(mirrored.y)] == white)
    // The part in front is drawn: the anchor, and a point of the right half.
    #expect(b[150, 100] == red && b[165, 100] == red)
  }

  @Test func backFacesAreCulledWhenNotDoubleSided() throws {
    for perspective in [true, false] {
      var t = Transform3D.rotation(.pi - 0.4, x: 0, y: 1, z: 0)
      if perspective { t = t.concatenating(.perspective(distance: 500)) }
      let shown = try render { $0.addLayer(card(t)) }
      #expect(shown[150, 100] == red)
      let culled = try render { scene in
        let l = card(t)
        l.isDoubleSided = false
        l.addSublayer(card(.identity))  // the subtree goes with it
        scene.addLayer(l)
      }
      #expect(culled[150, 100] == white)
      // Facing the viewer, a single-sided layer draws.
      let front = try render { scene in
        let l = card(.perspective(distance: 500).rotated(0.4, x: 0, y: 1, z: 0))
        l.isDoubleSided = false
        scene.addLayer(l)
      }
      #expect(front[150, 100] == red)
    }
  }

  /// Two overlapping squares, the first nearer (z = +10): a transform layer draws it last, on
  /// top; a plain layer flattens and keeps the sublayer order.
  @Test func transformLayersDrawFarthestFirst() throws {
    func squares(in container: Layer) -> Layer {
      container.bounds = Rect(0, 0, 100, 100)
      container.position = Point(150, 100)
      container.sublayerTransform = .perspective(distance: 400)
      for (z, color) in [(10.0, Color.red), (-10, Color.blue)] {
        let s = Layer()
        s.bounds = Rect(0, 0, 60, 60)
        s.position = Point(50, 50)
        s.zPosition = z
        s.backgroundColor = color
        container.addSublayer(s)
      }
      return container
    }
    let sorted = try render { $0.addLayer(squares(in: TransformLayer())) }
    #expect(sorted[150, 100] == red)
    // zPosition sorts siblings in a plain layer too; translation z in the transform does not.
    let flat = try render { scene in
      let l = squares(in: Layer())
      for (s, z) in zip(l.sublayers, [10.0, -10]) {
        s.zPosition = 0
        s.transform = .translation(x: 0, y: 0, z: z)
      }
      scene.addLayer(l)
    }
    #expect(flat[150, 100] == RGBA8(0, 0, 255, 255))
    let deep = try render { scene in
      let l = squares(in: TransformLayer())
      for (s, z) in zip(l.sublayers, [10.0, -10]) {
        s.zPosition = 0
        s.transform = .translation(x: 0, y: 0, z: z)
      }
      scene.addLayer(l)
    }
    #expect(deep[150, 100] == red)
  }

  @Test func replicatorsPreservingDepthSortTheirInstances() throws {
    func replicator(preservesDepth: Bool) -> Layer {
      let r = ReplicatorLayer()
      r.bounds = Rect(0, 0, 100, 100)
      r.position = Point(150, 100)
      r.preservesDepth = preservesDepth
      r.instanceCount = 2
      // Instance 1 is 20 points farther and tinted blue-only.
      r.instanceTransform = .translation(x: 0, y: 0, z: -20)
      r.instanceRedOffset = -1
      r.instanceGreenOffset = -1
      let s = Layer()
      s.bounds = Rect(0, 0, 60, 60)
      s.position = Point(50, 50)
      s.backgroundColor = .white
      r.addSublayer(s)
      let host = Layer()
      host.bounds = Rect(0, 0, 300, 200)
      host.position = Point(150, 100)
      host.addSublayer(r)
      return host
    }
    let flat = try render { $0.addLayer(replicator(preservesDepth: false)) }
    #expect(flat[150, 100] == RGBA8(0, 0, 255, 255))  // the later instance on top
    let deep = try render { $0.addLayer(replicator(preservesDepth: true)) }
    #expect(deep[150, 100] == white)  // the nearer instance 0 on top
  }

  @Test func opacityAndMasksStayInTheLayersPlane() throws {
    let t = Transform3D.perspective(distance: 500).rotated(0.6, x: 0, y: 1, z: 0)
    let b = try render { scene in
      let l = card(t)
      l.opacity = 0.5
      let mask = Layer()
      mask.frame = Rect(0, 0, 100, 100)  // the left half of the card
      mask.backgroundColor = .black
      l.mask = mask
      scene.addLayer(l)
    }
    // The left half (nearer, as rotateY(0.6) turns the right edge away) shows at half opacity.
    let left = b[100, 100]
    #expect(left.r == 255 && abs(Int(left.g) - 128) <= 1)
    #expect(b[170, 100] == white)
  }

  /// Issue 18: a plane holding a stroke out to 10^20 points (so it is drawn offscreen) has a
  /// drawn extent so large that cutting it to the canvas lost every digit, and the card was
  /// not drawn at all. The part that shows is now found from the canvas's corners.
  @Test func aPlaneWithAnAstronomicalExtentStillDraws() throws {
    let b = try render(
      { scene in
        let l = card(Transform3D.perspective(distance: 300).rotated(0.1, x: 1, y: 0, z: 0))
        l.bounds = Rect(0, 0, 100, 100)
        l.position = Point(50, 50)
        l.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 1)
        let far = ShapeLayer()
        var line = Path()
        line.move(to: Point(0, 0))
        line.addLine(to: Point(1e20, 1e20))
        far.path = line
        far.fillColor = nil
        far.strokeColor = .red
        far.lineWidth = 2
        l.addSublayer(far)
        scene.addLayer(l)
      }, size: Size(100, 100))
    let green = RGBA8(0, 255, 0, 255)
    #expect(b[20, 80] == green && b[80, 20] == green)
    #expect(b[50, 50].r > 200 && b[50, 50].g < 60)  // the line, through the middle
  }

  /// Shadowed planes in perspective nested in each other: every shadow draws the planes inside
  /// it again, offscreen, so the work doubles with each level. Up to the limit they draw
  /// (the innermost square is there); past it the innermost plane is refused by name instead
  /// of taking minutes (issue 18: 13 levels took five, and 14 to 16 drew a blank frame).
  @Test func shadowedPlanesNestPastTheLimitAreRefusedByName() throws {
    func nested(_ depth: Int) -> Layer {
      var inner = Layer()
      inner.bounds = Rect(0, 0, 8, 8)
      inner.position = Point(10, 10)
      inner.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 1)
      for k in 0..<depth {
        let outer = Layer()
        outer.name = "s\(k)"
        outer.bounds = Rect(0, 0, 20, 20)
        outer.position = Point(10, 10)
        outer.transform = Transform3D.perspective(distance: 300).rotated(0.1, x: 1, y: 0, z: 0)
        outer.shadowOpacity = 1
        outer.shadowRadius = 1
        outer.addSublayer(inner)
        inner = outer
      }
      return inner
    }
    let limit = LayerRenderer.maximumShadowsAroundPlanes
    // At the limit: the innermost plane lies inside `limit` shadowed layers.
    let b = try render({ $0.addLayer(nested(limit + 1)) }, size: Size(20, 20))
    #expect(b[10, 10].g > 240 && b[10, 10].r < 10)  // green, resampled nine times
    #expect(throws: RenderingError.planeInsideTooManyShadows(layer: "s0")) {
      _ = try render({ $0.addLayer(nested(limit + 2)) }, size: Size(20, 20))
    }
  }
}
