import Geometry

extension KeyframeAnimation {
  /// The keyframe values used: `values`, or for a `path` the end point of each element that is
  /// not a move (preceded by the path's first point).
  var effectiveValues: [AnimationValue] {
    guard let path else { return values }
    let segments = path.measuredSegments()
    guard let first = segments.first else { return [] }
    return [.point(first.segment.start)] + segments.map { .point($0.segment.end) }
  }

  /// The value at `fraction` (0...1) of one pass, `model` when there are no values.
  public func value(atFraction fraction: Double, model: AnimationValue) -> AnimationValue {
    if let path, !path.isEmpty { return .point(pathPoint(atFraction: fraction).point) }
    let n = values.count
    if n == 0 { return model }
    if n == 1 { return values[0] }
    switch calculationMode {
    case .discrete:
      let u = timingFunction?.value(at: fraction) ?? fraction
      let times = validKeyTimes(count: n + 1) ?? validKeyTimes(count: n) ?? (0...n).map { Double($0) / Double(n) }
      let index = Self.lastIndex(in: times, limit: n - 1, atOrBefore: u)
      return values[index]
    case .linear, .cubic:
      let u = timingFunction?.value(at: fraction) ?? fraction
      let times = validKeyTimes(count: n) ?? Self.evenTimes(n)
      let (i, s) = segment(in: times, at: u)
      let paced = (timingFunctions?.indices.contains(i) ?? false) && s >= 0 && s <= 1 ? timingFunctions![i].value(at: s) : s
      return calculationMode == .linear ? AnimationValue.interpolate(values[i], values[i + 1], paced) : cubicValue(segment: i, s: paced)
    case .paced:
      let times = pacedTimes()
      guard let times else { return values[0] }
      let (i, s) = segment(in: times, at: fraction)
      return AnimationValue.interpolate(values[i], values[i + 1], s)
    case .cubicPaced:
      let (i, s) = cubicPacedSegment(at: fraction)
      return cubicValue(segment: i, s: s)
    }
  }

  // MARK: Key times

  /// `keyTimes` when they fit: `count` entries, non-decreasing, first 0 and last 1.
  func validKeyTimes(count: Int) -> [Double]? {
    guard let keyTimes, keyTimes.count == count, keyTimes.first == 0, keyTimes.last == 1 else { return nil }
    for i in 1..<keyTimes.count where keyTimes[i] < keyTimes[i - 1] { return nil }
    return keyTimes
  }

  static func evenTimes(_ n: Int) -> [Double] { (0..<n).map { Double($0) / Double(n - 1) } }

  /// The largest index `j <= limit` with `times[j] <= u` (0 if none): right-continuous, so at
  /// equal key times the later keyframe wins. O(log n).
  static func lastIndex(in times: [Double], limit: Int, atOrBefore u: Double) -> Int {
    var lo = 0, hi = Swift.min(limit, times.count - 1)
    if times[0] > u { return 0 }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if times[mid] <= u { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// The segment `i` holding `u` and the position `s` in it (outside 0...1 when `u` is).
  func segment(in times: [Double], at u: Double) -> (Int, Double) {
    let i = Self.lastIndex(in: times, limit: times.count - 2, atOrBefore: u)
    let span = times[i + 1] - times[i]
    return (i, span > 0 ? (u - times[i]) / span : 1)
  }

  /// Key times spaced for a constant speed; `nil` when every value is the same.
  func pacedTimes() -> [Double]? {
    var cumulative = [0.0]
    for i in 1..<values.count { cumulative.append(cumulative[i - 1] + values[i - 1].distance(to: values[i])) }
    guard let total = cumulative.last, total > 0 else { return nil }
    return cumulative.map { $0 / total }
  }

  // MARK: Kochanek-Bartels

  /// The point at `s` of cubic segment `i`, a Kochanek-Bartels spline whose end keys are
  /// duplicated (timing.md §4.5).
  func cubicValue(segment i: Int, s: Double) -> AnimationValue {
    let n = values.count
    guard let p1 = values[i].components, let p2 = values[i + 1].components, values[i].isInterpolable(with: values[i + 1]) else {
      return AnimationValue.interpolate(values[i], values[i + 1], s)
    }
    func comps(_ j: Int) -> [Double] {
      let k = Swift.min(Swift.max(j, 0), n - 1)
      guard values[k].isInterpolable(with: values[i]), let c = values[k].components else { return p1 }
      return c
    }
    let p0 = comps(i - 1), p3 = comps(i + 2)
    func tcb(_ k: Int) -> (Double, Double, Double) {
      (tensionValues?[safe: k] ?? 0, continuityValues?[safe: k] ?? 0, biasValues?[safe: k] ?? 0)
    }
    // Outgoing tangent at key i, incoming tangent at key i + 1.
    let (t1, c1, b1) = tcb(i)
    let (t2, c2, b2) = tcb(i + 1)
    let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
    let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
    var out = [Double](repeating: 0, count: p1.count)
    for k in 0..<p1.count {
      let outgoing = (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[k] - p0[k]) + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (p2[k] - p1[k])
      let incoming = (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[k] - p1[k]) + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (p3[k] - p2[k])
      out[k] = h00 * p1[k] + h10 * outgoing + h01 * p2[k] + h11 * incoming
    }
    return values[i].with(components: out)
  }

  /// For `.cubicPaced`: the segment and position at which the spline's arc length is `fraction`
  /// of its total (each segment measured at 32 samples).
  func cubicPacedSegment(at fraction: Double) -> (Int, Double) {
    let n = values.count
    let samples = 32
    var lengths: [[Double]] = []
    var total = 0.0
    for i in 0..<(n - 1) {
      var table = [0.0]
      var previous = cubicValue(segment: i, s: 0)
      for j in 1...samples {
        let v = cubicValue(segment: i, s: Double(j) / Double(samples))
        table.append(table[j - 1] + previous.distance(to: v))
        previous = v
      }
      lengths.append(table)
      total += table[samples]
    }
    guard total > 0 else { return (0, 0) }
    var target = Swift.min(Swift.max(fraction, 0), 1) * total
    for i in 0..<(n - 1) {
      let table = lengths[i]
      if target <= table[samples] || i == n - 2 {
        var j = 1
        while j < samples && table[j] < target { j += 1 }
        let span = table[j] - table[j - 1]
        let f = span > 0 ? (target - table[j - 1]) / span : 0
        return (i, (Double(j - 1) + Swift.min(Swift.max(f, 0), 1)) / Double(samples))
      }
      target -= table[samples]
    }
    return (n - 2, 1)
  }

  // MARK: Paths

  /// The point on `path` at `fraction`, and the segment's direction there.
  func pathPoint(atFraction fraction: Double) -> (point: Point, direction: Point) {
    guard let path else { return (.zero, Point(x: 1, y: 0)) }
    let segments = path.measuredSegments()
    guard !segments.isEmpty else { return (path.currentPoint ?? .zero, Point(x: 1, y: 0)) }
    let index: Int, s: Double
    if calculationMode == .paced || calculationMode == .cubicPaced {
      let total = segments.reduce(0) { $0 + $1.length }
      var target = Swift.min(Swift.max(fraction, 0), 1) * total
      var i = 0
      while i < segments.count - 1 && target > segments[i].length {
        target -= segments[i].length
        i += 1
      }
      (index, s) = (i, segments[i].parameter(atDistance: target))
    } else {
      let u = timingFunction?.value(at: fraction) ?? fraction
      let n = segments.count + 1
      let times = validKeyTimes(count: n) ?? Self.evenTimes(n)
      let (i, raw) = segment(in: times, at: u)
      let paced = (timingFunctions?.indices.contains(i) ?? false) && raw >= 0 && raw <= 1 ? timingFunctions![i].value(at: raw) : raw
      (index, s) = (i, Swift.min(Swift.max(paced, 0), 1))
    }
    let segment = segments[index].segment
    return (segment.point(at: s), segment.direction(at: s))
  }

  /// The angle of the path's direction at `fraction`, plus π for `.autoReverse`.
  func pathRotation(atFraction fraction: Double) -> Double {
    let d = pathPoint(atFraction: fraction).direction
    let angle = atan2(d.y, d.x)
    return rotationMode == .autoReverse ? angle + Double.pi : angle
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
