import Geometry

/// A keyframe animation's tables, built once: the key times its mode uses, each value's
/// components (for cubic splines), the path's measured segments, arc-length tables.
/// Looking a time up is then a binary search: O(log n) in the number of keyframes. A class, so
/// that evaluating passes one reference rather than copying every table.
final class PreparedKeyframes: Sendable {
  let mode: KeyframeAnimation.CalculationMode
  let values: [AnimationValue]
  /// The key times the mode uses (n + 1 for discrete, n otherwise); `nil` for paced modes
  /// without movement.
  let times: [Double]?
  let timingFunction: TimingFunction?
  let timingFunctions: [TimingFunction]
  /// Components of every value, when they all interpolate with each other (cubic modes).
  let components: [[Double]]?
  let tension: [Double], continuity: [Double], bias: [Double]
  /// For `cubicPaced`: cumulative arc length at 32 samples per segment, and the total.
  let cubicLengths: [[Double]]
  /// For `cubicPaced`: the arc length at each segment's start, and the total last (found by a
  /// binary search, where walking the segments cost 100,000 values 0.2 ms an instant).
  let cubicStarts: [Double]
  let path: [Path.MeasuredSegment]?
  /// For a path paced by length: the distance along it at each segment's start, and its whole
  /// length last (one more than the segments). Walking the segments' lengths at each instant
  /// cost a 100,000-element path 0.6 ms, for every replicator instance (a frame of 90,000
  /// delayed instances ran past two minutes).
  let pathDistances: [Double]
  let rotationMode: KeyframeAnimation.RotationMode?

  static let samplesPerSegment = 32

  init(_ a: KeyframeAnimation) {
    mode = a.calculationMode
    timingFunction = a.timingFunction
    timingFunctions = a.timingFunctions ?? []
    tension = a.tensionValues ?? []
    continuity = a.continuityValues ?? []
    bias = a.biasValues ?? []
    rotationMode = a.rotationMode
    let values: [AnimationValue]
    // A path of moves alone has no keyframes: it animates nothing, as the empty path (its
    // segments, none, read as a point at the origin).
    if let p = a.path, case let segments = p.measuredSegments(), !segments.isEmpty {
      path = segments
      values = [.point(segments[0].segment.start)] + segments.map { .point($0.segment.end) }
      var distances = [0.0]
      distances.reserveCapacity(segments.count + 1)
      for segment in segments { distances.append(distances[distances.count - 1] + segment.length) }
      pathDistances = distances
    } else {
      path = nil
      values = a.values
      pathDistances = []
    }
    self.values = values
    let n = values.count
    let keyTimes = a.keyTimes
    func valid(_ count: Int) -> [Double]? {
      guard let keyTimes, keyTimes.count == count, count >= 2, keyTimes.first == 0,
        keyTimes.last == 1
      else { return nil }
      for i in 1..<count where keyTimes[i] < keyTimes[i - 1] { return nil }
      return keyTimes
    }
    let even = n >= 2 ? (0..<n).map { Double($0) / Double(n - 1) } : [0]
    switch mode {
    // A path's points are its keyframes in discrete mode too: each holds from its key time
    // (a path glided between them, its key times not used).
    case .discrete:
      times = valid(n + 1) ?? valid(n) ?? (0...max(n, 1)).map { Double($0) / Double(max(n, 1)) }
    case .paced where path == nil:
      var cumulative = [0.0]
      if n > 1 {
        for i in 1..<n {
          cumulative.append(cumulative[i - 1] + values[i - 1].distance(to: values[i]))
        }
      }
      let total = cumulative.last ?? 0
      // Values with no distance between them that still change (strings, booleans, lists of
      // other lengths: they switch) are spaced evenly, switching half way as in linear mode;
      // they showed the first value throughout.
      let changes = n > 1 && (1..<n).contains { values[$0] != values[$0 - 1] }
      times = total > 0 ? cumulative.map { $0 / total } : changes ? even : nil
    default:
      times = valid(n) ?? even
    }
    let components: [[Double]]?
    if (mode == .cubic || mode == .cubicPaced) && n >= 2,
      values.allSatisfy({ $0.isInterpolable(with: values[0]) })
    {
      components = values.map { $0.components ?? [] }
    } else {
      components = nil
    }
    self.components = components
    var lengths: [[Double]] = []
    if mode == .cubicPaced && path == nil && n >= 2 {
      let samples = PreparedKeyframes.samplesPerSegment
      lengths.reserveCapacity(n - 1)
      for i in 0..<(n - 1) {
        var table = [0.0]
        var previous = PreparedKeyframes.cubic(
          values, components, tension, continuity, bias, segment: i, s: 0)
        for j in 1...samples {
          let v = PreparedKeyframes.cubic(
            values, components, tension, continuity, bias, segment: i,
            s: Double(j) / Double(samples))
          table.append(table[j - 1] + previous.distance(to: v))
          previous = v
        }
        lengths.append(table)
      }
    }
    cubicLengths = lengths
    var starts = [0.0]
    starts.reserveCapacity(lengths.count + 1)
    for table in lengths {
      starts.append(starts[starts.count - 1] + table[PreparedKeyframes.samplesPerSegment])
    }
    cubicStarts = starts
  }

  /// The value at `fraction` of one pass; `model` when there are no values.
  func value(atFraction fraction: Double, model: AnimationValue) -> AnimationValue {
    if path != nil { return .point(pathPoint(atFraction: fraction).point) }
    let n = values.count
    if n == 0 { return model }
    if n == 1 { return values[0] }
    switch mode {
    case .discrete:
      // A frame meant to land on a key time (0.3 s into 0.8 s) arrives a rounding error early
      // (0.37499999999999994 of 0.375): within `discreteSlack` it counts as there.
      let u = (timingFunction?.value(at: fraction) ?? fraction) + PreparedKeyframes.discreteSlack
      return values[PreparedKeyframes.lastIndex(in: times!, limit: n - 1, atOrBefore: u)]
    case .linear, .cubic:
      let u = timingFunction?.value(at: fraction) ?? fraction
      let (i, raw) = PreparedKeyframes.segment(in: times!, at: u)
      let s =
        i < timingFunctions.count && raw >= 0 && raw <= 1 ? timingFunctions[i].value(at: raw) : raw
      if mode == .linear { return AnimationValue.interpolate(values[i], values[i + 1], s) }
      return PreparedKeyframes.cubic(
        values, components, tension, continuity, bias, segment: i, s: s)
    case .paced:
      guard let times else { return values[0] }
      let (i, s) = PreparedKeyframes.segment(in: times, at: fraction)
      return AnimationValue.interpolate(values[i], values[i + 1], s)
    case .cubicPaced:
      let (i, s) = cubicPacedSegment(at: fraction)
      return PreparedKeyframes.cubic(
        values, components, tension, continuity, bias, segment: i, s: s)
    }
  }

  /// How far below a key time, as a fraction of the pass, a discrete lookup still counts as at
  /// it: far above the rounding of times computed as i / fps, far below one frame at any rate.
  static let discreteSlack = 1e-9

  /// The largest index `j <= limit` with `times[j] <= u` (0 if none): right-continuous, so at
  /// equal key times the later keyframe wins.
  static func lastIndex(in times: [Double], limit: Int, atOrBefore u: Double) -> Int {
    var lo = 0, hi = Swift.min(limit, times.count - 1)
    if times[0] > u { return 0 }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if times[mid] <= u { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// The segment holding `u` and the position in it (outside 0...1 when `u` is).
  static func segment(in times: [Double], at u: Double) -> (Int, Double) {
    let i = lastIndex(in: times, limit: times.count - 2, atOrBefore: u)
    let span = times[i + 1] - times[i]
    return (i, span > 0 ? (u - times[i]) / span : 1)
  }

  /// The point at `s` of segment `i` of a Kochanek-Bartels spline through `values`, end keys
  /// duplicated (docs/timing.md §6.4); linear when the values have no common components.
  static func cubic(
    _ values: [AnimationValue], _ components: [[Double]]?, _ tension: [Double],
    _ continuity: [Double], _ bias: [Double],
    segment i: Int, s: Double
  ) -> AnimationValue {
    guard let c = components else { return AnimationValue.interpolate(values[i], values[i + 1], s) }
    let n = c.count
    let p0 = c[Swift.max(i - 1, 0)], p1 = c[i], p2 = c[i + 1], p3 = c[Swift.min(i + 2, n - 1)]
    func at(_ list: [Double], _ k: Int) -> Double { k < list.count ? list[k] : 0 }
    let (t1, c1, b1) = (at(tension, i), at(continuity, i), at(bias, i))
    let (t2, c2, b2) = (at(tension, i + 1), at(continuity, i + 1), at(bias, i + 1))
    let s2 = s * s, s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
    // Outgoing tangent at key i, incoming tangent at key i + 1.
    let oa = (1 - t1) * (1 + b1) * (1 + c1) / 2, ob = (1 - t1) * (1 - b1) * (1 - c1) / 2
    let ia = (1 - t2) * (1 + b2) * (1 - c2) / 2, ib = (1 - t2) * (1 - b2) * (1 + c2) / 2
    @inline(__always) func component(_ k: Int) -> Double {
      let outgoing = oa * (p1[k] - p0[k]) + ob * (p2[k] - p1[k])
      let incoming = ia * (p2[k] - p1[k]) + ib * (p3[k] - p2[k])
      return h00 * p1[k] + h10 * outgoing + h01 * p2[k] + h11 * incoming
    }
    // Scalars and points without building a component array.
    switch values[i] {
    case .scalar: return .scalar(component(0))
    case .point: return .point(Point(x: component(0), y: component(1)))
    default: return values[i].with(components: (0..<p1.count).map(component))
    }
  }

  /// For `.cubicPaced`: the segment and position at which the spline's arc length is `fraction`
  /// of its total.
  func cubicPacedSegment(at fraction: Double) -> (Int, Double) {
    let samples = PreparedKeyframes.samplesPerSegment
    let total = cubicStarts[cubicLengths.count]
    // No length to pace by (values that switch, or never move): evenly spaced, as `.paced`.
    guard total > 0 else {
      let segments = Double(cubicLengths.count)
      let u = Swift.min(Swift.max(fraction, 0), 1) * segments
      let i = Swift.min(Int(u), cubicLengths.count - 1)
      return (i, u - Double(i))
    }
    let whole = Swift.min(Swift.max(fraction, 0), 1) * total
    // The first segment whose end is at or past the target (the last past them all).
    var lo = 0, hi = cubicLengths.count - 1
    while lo < hi {
      let mid = (lo + hi) / 2
      if cubicStarts[mid + 1] >= whole { hi = mid } else { lo = mid + 1 }
    }
    let table = cubicLengths[lo], target = whole - cubicStarts[lo]
    let j = Swift.max(
      1,
      Swift.min(
        samples, PreparedKeyframes.lastIndex(in: table, limit: samples, atOrBefore: target) + 1))
    let span = table[j] - table[j - 1]
    let f = span > 0 ? (target - table[j - 1]) / span : 0
    return (lo, (Double(j - 1) + Swift.min(Swift.max(f, 0), 1)) / Double(samples))
  }

  /// The point on the path at `fraction`, and the direction of travel there.
  func pathPoint(atFraction fraction: Double) -> (point: Point, direction: Point) {
    guard let segments = path, !segments.isEmpty else { return (.zero, Point(x: 1, y: 0)) }
    let index: Int, s: Double
    if mode == .discrete {
      // At a keyframe: the path's start, or a segment's end, facing along it.
      let u = (timingFunction?.value(at: fraction) ?? fraction) + PreparedKeyframes.discreteSlack
      let k = PreparedKeyframes.lastIndex(in: times!, limit: segments.count, atOrBefore: u)
      (index, s) = k == 0 ? (0, 0) : (k - 1, 1)
    } else if mode == .paced || mode == .cubicPaced {
      let target = Swift.min(Swift.max(fraction, 0), 1) * pathDistances[segments.count]
      // The first segment whose end is at or past the target (the last past them all).
      var lo = 0, hi = segments.count - 1
      while lo < hi {
        let mid = (lo + hi) / 2
        if pathDistances[mid + 1] >= target { hi = mid } else { lo = mid + 1 }
      }
      (index, s) = (lo, segments[lo].parameter(atDistance: target - pathDistances[lo]))
    } else {
      let u = timingFunction?.value(at: fraction) ?? fraction
      let (i, raw) = PreparedKeyframes.segment(in: times!, at: u)
      let paced =
        i < timingFunctions.count && raw >= 0 && raw <= 1 ? timingFunctions[i].value(at: raw) : raw
      (index, s) = (i, Swift.min(Swift.max(paced, 0), 1))
    }
    let segment = segments[index].segment
    return (segment.point(at: s), segment.direction(at: s))
  }

  /// The angle of the path's direction at `fraction` (plus π for `.autoReverse`), or `nil`
  /// without a path and a rotation mode.
  func pathRotation(atFraction fraction: Double) -> Double? {
    guard path != nil, let rotationMode else { return nil }
    let d = pathPoint(atFraction: fraction).direction
    let angle = atan2(d.y, d.x)
    return rotationMode == .autoReverse ? angle + Double.pi : angle
  }
}

extension KeyframeAnimation {
  /// The value at `fraction` (0...1) of one pass, `model` when there are no values. Builds the
  /// keyframe tables on each call; layers keep them prepared (`PreparedAnimation`).
  public func value(atFraction fraction: Double, model: AnimationValue) -> AnimationValue {
    PreparedKeyframes(self).value(atFraction: fraction, model: model)
  }
}
