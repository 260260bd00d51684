extension Path {
  /// Each subpath (from one `move` to the next) as a path of its own, in order.
  public var subpaths: [Path] {
    var out: [Path] = []
    var current: [Element] = []
    for element in elements {
      if case .move = element, !current.isEmpty {
        out.append(Path(elements: current))
        current = []
      }
      current.append(element)
    }
    if !current.isEmpty { out.append(Path(elements: current)) }
    return out
  }

  /// The parts of `subpaths` that the fractions `start`...`end` of the whole path's arc length
  /// select (as `trimmed(from:to:)` does for the whole path), one per subpath, empty where the
  /// range misses it.
  public func subpathsTrimmed(from start: Double, to end: Double) -> [Path] {
    let parts = subpaths
    if start <= 0 && end >= 1 { return parts }
    let lengths = parts.map(\.length)
    let total = lengths.reduce(0, +)
    guard total > 0 else { return parts.map { _ in Path() } }
    let a = start * total, b = end * total
    var offset = 0.0
    return zip(parts, lengths).map { part, length in
      defer { offset += length }
      guard length > 0 else { return a <= offset && offset <= b ? part : Path() }
      return part.trimmed(from: (a - offset) / length, to: (b - offset) / length)
    }
  }
}
