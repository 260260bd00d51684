import Geometry

// Values as vectors: what interpolation, `additive`, `cumulative`, paced spacing and cubic splines
// need. Scalars, points, sizes, rects and colors are their components; a transform is its
// decomposition (translation, scale, rotation, shear, then the 3D parts: z translation and
// scale, rotations about x and y, perspective terms); a path is the coordinates of its points,
// given another path with the same element kinds. Images and flags have no components: they
// change discretely.

extension AnimationValue {
  /// The value's components, or `nil` for discrete values.
  public var components: [Double]? {
    switch self {
    case .scalar(let x): return [x]
    case .point(let p): return [p.x, p.y]
    case .size(let s): return [s.width, s.height]
    case .rect(let r): return [r.origin.x, r.origin.y, r.size.width, r.size.height]
    case .color(let c):
      let c = c ?? .clear
      return [c.red, c.green, c.blue, c.alpha]
    case .transform(let t):
      let d = TransformDecomposition(t)
      return [
        d.translationX, d.translationY, d.scaleX, d.scaleY, d.rotation, d.shear,
        d.translationZ, d.scaleZ, d.rotationX, d.rotationY,
      ] + d.perspective
    case .path(let p): return p.map(Self.pathComponents) ?? []
    case .colors(let list): return (list ?? []).flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
    case .numbers(let list): return list ?? []
    case .filters(let list): return list.flatMap(\.parameters)
    case .image, .bool, .text: return nil
    }
  }

  /// The value of the same kind (and, for paths, the same element structure as `self`) with the
  /// given components.
  package func with(components c: [Double]) -> AnimationValue {
    switch self {
    case .scalar: return .scalar(c[0])
    case .point: return .point(Point(x: c[0], y: c[1]))
    case .size: return .size(Size(width: c[0], height: c[1]))
    case .rect: return .rect(Rect(x: c[0], y: c[1], width: c[2], height: c[3]))
    case .color: return .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
    case .transform:
      var d = TransformDecomposition(
        translationX: c[0], translationY: c[1], scaleX: c[2], scaleY: c[3], rotation: c[4],
        shear: c[5])
      // The 3D parts, unless a spline left identity values a rounding error away (a planar
      // transform keeps its exact 2D composition).
      let extras = Array(c[6..<14]), identity: [Double] = [0, 1, 0, 0, 0, 0, 0, 1]
      if zip(extras, identity).contains(where: { abs($0 - $1) > 1e-12 }) {
        (d.translationZ, d.scaleZ, d.rotationX, d.rotationY) = (c[6], c[7], c[8], c[9])
        d.perspective = Array(c[10..<14])
      }
      return .transform(d.transform)
    case .path(let p): return .path(p.map { Self.path($0, replacingComponentsWith: c) })
    case .colors(let list):
      guard list != nil else { return self }
      return .colors(
        stride(from: 0, to: c.count - 3, by: 4).map {
          Color(red: c[$0], green: c[$0 + 1], blue: c[$0 + 2], alpha: c[$0 + 3])
        })
    case .numbers(let list): return list == nil ? self : .numbers(c)
    case .filters(let list):
      var i = 0
      return .filters(
        list.map { filter in
          let n = filter.parameters.count
          defer { i += n }
          return filter.with(parameters: Array(c[i..<(i + n)]))
        })
    case .image, .bool, .text: return self
    }
  }

  /// Whether two values can be interpolated component by component: same kind, and for paths
  /// the same element kinds in the same order.
  public func isInterpolable(with other: AnimationValue) -> Bool {
    switch (self, other) {
    case (.path(let a), .path(let b)):
      guard let a, let b else { return a == nil && b == nil }
      return a.elementKinds == b.elementKinds
    case (.colors(let a), .colors(let b)):
      guard let a, let b else { return a == nil && b == nil }
      return a.count == b.count
    case (.numbers(let a), .numbers(let b)):
      guard let a, let b else { return a == nil && b == nil }
      return a.count == b.count
    case (.filters(let a), .filters(let b)):
      return a.map(\.interpolationKey) == b.map(\.interpolationKey)
    default:
      return kind == other.kind && !kind.isDiscrete
    }
  }

  /// The value a fraction `t` of the way from `a` to `b` (`t` may leave 0...1 for curves that
  /// overshoot). Discrete values, and paths whose structures differ, switch at `t = 0.5`. Two
  /// transforms of which one has a 3D term turn by quaternion
  /// (`TransformDecomposition.interpolate(_:_:_:)`); transforms of the plane interpolate their
  /// 2D parts.
  public static func interpolate(
    _ a: AnimationValue, _ b: AnimationValue, _ t: Double
  ) -> AnimationValue {
    switch (a, b) {
    case (.scalar(let x), .scalar(let y)): return .scalar(x + (y - x) * t)
    case (.point(let p), .point(let q)):
      return .point(Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
    case (.transform(let p), .transform(let q)) where p.has3DTerms || q.has3DTerms:
      // The rotation by quaternion, as Core Animation; planar pairs keep their 2D parts below.
      return .transform(TransformDecomposition.interpolate(p, q, t))
    default:
      guard a.isInterpolable(with: b), let ca = a.components, let cb = b.components else {
        return t < 0.5 ? a : b
      }
      return a.with(components: zip(ca, cb).map { $0 + ($1 - $0) * t })
    }
  }

  /// `underlying + self`, as `additive` and `byValue` add: components add, except transforms,
  /// which compose (`self` applied first, then `underlying`, as `CATransform3DConcat`). Values
  /// that do not add (discrete ones replace, as Core Animation's do); values of kinds that add
  /// but of another structure (paths of other commands, lists of other lengths) have no sum:
  /// `underlying` is kept (the offset itself was drawn as the value: a path collapsed to a
  /// point; scene files refuse such animations when read).
  package func adding(_ underlying: AnimationValue) -> AnimationValue {
    switch (self, underlying) {
    case (.scalar(let x), .scalar(let y)): return .scalar(x + y)
    case (.transform(let t), .transform(let u)): return .transform(t.concatenating(u))
    default:
      guard isInterpolable(with: underlying), let a = components, let b = underlying.components
      else {
        // Discrete values, and kinds without components (images, text), replace.
        return kind == underlying.kind && components != nil && !kind.isDiscrete ? underlying : self
      }
      return with(components: zip(a, b).map { $0 + $1 })
    }
  }

  /// `self - other`, component by component (transforms by their decomposition).
  package func subtracting(_ other: AnimationValue) -> AnimationValue {
    if case .scalar(let x) = self, case .scalar(let y) = other { return .scalar(x - y) }
    guard isInterpolable(with: other), let a = components, let b = other.components else {
      return self
    }
    return with(components: zip(a, b).map { $0 - $1 })
  }

  /// `self + k * (end - start)`, component by component: what a `cumulative` animation adds in
  /// cycle k. The difference stays in components (a transform's is no transform: its scales
  /// are 0), so this takes both ends rather than a difference value.
  package func advanced(
    byDifferenceFrom start: AnimationValue, to end: AnimationValue, times k: Double
  ) -> AnimationValue {
    if case .scalar(let x) = self, case .scalar(let a) = start, case .scalar(let b) = end {
      return .scalar(x + k * (b - a))
    }
    guard isInterpolable(with: start), start.isInterpolable(with: end),
      let v = components, let a = start.components, let b = end.components, v.count == a.count,
      a.count == b.count
    else { return self }
    var out = v
    for i in out.indices { out[i] += k * (b[i] - a[i]) }
    return with(components: out)
  }

  /// The Euclidean distance between the components of two values (0 for discrete values), what
  /// paced keyframes space by.
  package func distance(to other: AnimationValue) -> Double {
    guard isInterpolable(with: other), let a = components, let b = other.components else {
      return 0
    }
    return zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
  }

  static func pathComponents(_ path: Path) -> [Double] {
    var out: [Double] = []
    for e in path.elements {
      switch e {
      case .move(let p), .line(let p): out += [p.x, p.y]
      case .quadCurve(let p, let c): out += [c.x, c.y, p.x, p.y]
      case .curve(let p, let c1, let c2): out += [c1.x, c1.y, c2.x, c2.y, p.x, p.y]
      case .closeSubpath: break
      }
    }
    return out
  }

  static func path(_ template: Path, replacingComponentsWith c: [Double]) -> Path {
    var i = 0
    func next() -> Point {
      defer { i += 2 }
      return Point(x: c[i], y: c[i + 1])
    }
    var out = Path()
    for e in template.elements {
      switch e {
      case .move: out.append(.move(to: next()))
      case .line: out.append(.line(to: next()))
      case .quadCurve:
        let control = next()
        out.append(.quadCurve(to: next(), control: control))
      case .curve:
        let c1 = next(), c2 = next()
        out.append(.curve(to: next(), control1: c1, control2: c2))
      case .closeSubpath: out.append(.closeSubpath)
      }
    }
    return out
  }
}

extension Path {
  /// The sequence of element kinds (move, line, quad, curve, close): two paths interpolate point
  /// by point only when theirs are equal.
  public var elementKinds: [UInt8] {
    elements.map {
      switch $0 {
      case .move: return 0
      case .line: return 1
      case .quadCurve: return 2
      case .curve: return 3
      case .closeSubpath: return 4
      }
    }
  }
}

extension AnimationValue {
  /// The largest magnitude a value an animation read from a file may hold in any of its
  /// components, in the value's own units (points, radians, scale factors): 10^15.
  ///
  /// Every quantity animations derive from values within it stays finite: a span between two
  /// values (2 × 10^15), a paced length over the 600,000 components of a 100,000-element path,
  /// a cubic or TCB tangent (a few spans), a spring's overshoot (at most 10^12 times its
  /// distance: 2 × 10^27), a cumulative animation's offset after 3.4 × 10^38 cycles (the most a
  /// `Float` repeat count holds) and a transform recomposed from four components' product. Past
  /// it, -1e308 to 1e308 made every value between them NaN, drawn as nothing, without a word;
  /// and past 2^53 ≈ 9 × 10^15 doubles no longer hold every whole point, so motion there is
  /// lost anyway. The scene and Lottie readers refuse animated values past it, naming them.
  public static let maximumMagnitude: Double = 1e15

  /// The component of largest magnitude (a transform's by its decomposition, as animations
  /// interpolate it), `nil` for discrete values; `.nan` or an infinity when a component is not
  /// finite.
  public var largestComponent: Double? {
    guard let c = components else { return nil }
    var largest = 0.0
    for x in c {
      if !x.isFinite { return x }
      if abs(x) > abs(largest) { largest = x }
    }
    return largest
  }

  /// Whether every number the value holds is finite (a transform's matrix entries, a path's
  /// points, a filter's parameters); discrete values are. What presentation checks of each
  /// animation's sample: a value built in Swift may overflow while it is evaluated.
  public var isFinite: Bool {
    switch self {
    case .scalar(let x): return x.isFinite
    case .point(let p): return p.x.isFinite && p.y.isFinite
    case .size(let s): return s.width.isFinite && s.height.isFinite
    case .rect(let r):
      return r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite
        && r.size.height.isFinite
    case .color(let c):
      guard let c else { return true }
      return c.red.isFinite && c.green.isFinite && c.blue.isFinite && c.alpha.isFinite
    case .transform(let t): return t.entries.allSatisfy(\.isFinite)
    case .path(let p): return p.map { Self.pathComponents($0).allSatisfy(\.isFinite) } ?? true
    case .colors(let list):
      return (list ?? []).allSatisfy {
        $0.red.isFinite && $0.green.isFinite && $0.blue.isFinite && $0.alpha.isFinite
      }
    case .numbers(let list): return (list ?? []).allSatisfy(\.isFinite)
    case .filters(let list): return list.allSatisfy { $0.parameters.allSatisfy(\.isFinite) }
    case .image, .bool, .text: return true
    }
  }
}
