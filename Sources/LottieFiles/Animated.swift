import Animations
import Geometry

/// One keyframe of an animated Lottie property (`k[n]`): its frame `t`, its value `s`, the
/// value its segment ends on (`e`, in files before 5.5; later files take the next keyframe's
/// `s`), hold (`h`), the segment's easing (`o` then `i`, one control point per dimension) and,
/// for positions, the spatial tangents (`to`, `ti`).
struct Keyframe<Value: Sendable>: Sendable {
  /// The Lottie frame the keyframe is at.
  var frame: Double
  /// The value at `frame`.
  var start: Value
  /// The value the segment from this keyframe to the next ends on (`e`); `nil`: the next
  /// keyframe's `start`.
  var end: Value?
  /// Whether the value holds until the next keyframe (`h: 1`).
  var hold: Bool = false
  /// The segment's first control point per dimension (`o`), in the unit square.
  var easeOut: [Point] = [Point(x: 0, y: 0)]
  /// The segment's second control point per dimension (`i`).
  var easeIn: [Point] = [Point(x: 1, y: 1)]
  /// The spatial out tangent of a position (`to`), relative to `start`.
  var spatialOut: Point? = nil
  /// The spatial in tangent of the segment's end (`ti`), relative to the end value.
  var spatialIn: Point? = nil

  /// The segment's pacing for dimension `d` (the last control point given when the file has
  /// fewer dimensions), x clamped to 0...1 as Core Animation requires; y as given, as lottie-web
  /// takes it, within the 32-bit `Float` a timing function stores (the reader warns past it).
  func timingFunction(dimension d: Int) -> TimingFunction {
    let o = easeOut[Swift.min(d, easeOut.count - 1)]
    let i = easeIn[Swift.min(d, easeIn.count - 1)]
    func x(_ v: Double) -> Float { Float(v.isFinite ? Swift.min(1, Swift.max(0, v)) : 0) }
    func y(_ v: Double) -> Float {
      let most = Double(Float.greatestFiniteMagnitude)
      return Float(v.isFinite ? Swift.min(most, Swift.max(-most, v)) : 0)
    }
    return (try? TimingFunction(controlPoints: x(o.x), y(o.y), x(i.x), y(i.y))) ?? .linear
  }

  /// Whether the segment's pacing differs between dimensions 0 and 1.
  var easingDiffersByDimension: Bool {
    timingFunction(dimension: 0) != timingFunction(dimension: 1)
  }

  /// Whether the segment curves in space (non-zero `to` or `ti`).
  var isSpatial: Bool {
    (spatialOut.map { $0 != .zero } ?? false) || (spatialIn.map { $0 != .zero } ?? false)
  }
}

/// A Lottie property: one value, or keyframes in time (`a: 1`).
struct Animated<Value: Sendable>: Sendable {
  /// The keyframes, in frame order; one keyframe for a static value.
  var keyframes: [Keyframe<Value>]

  /// A static value.
  init(_ value: Value) { keyframes = [Keyframe(frame: 0, start: value, end: nil)] }

  /// Keyframes (at least one).
  init(keyframes: [Keyframe<Value>]) { self.keyframes = keyframes }

  /// Whether the value changes in time.
  var isAnimated: Bool { keyframes.count > 1 }

  /// The value before the first keyframe.
  var initial: Value { keyframes[0].start }

  /// The first and last keyframe frames.
  var frameRange: ClosedRange<Double> { keyframes[0].frame...keyframes[keyframes.count - 1].frame }

  /// Where `frame` falls: the segment index and the linear progress through it (0...1), or
  /// `nil` before the first or from the last keyframe on. Of keyframes sharing a frame, the
  /// last is the one shown at it, as lottie-web shows it.
  func segment(at frame: Double) -> (index: Int, progress: Double)? {
    guard keyframes.count > 1, frame >= keyframes[0].frame else { return nil }
    // Binary search for the last keyframe at or before `frame`.
    var low = 0, high = keyframes.count - 1
    guard frame < keyframes[high].frame else { return nil }
    while high - low > 1 {
      let mid = (low + high) / 2
      if keyframes[mid].frame <= frame { low = mid } else { high = mid }
    }
    let span = keyframes[low + 1].frame - keyframes[low].frame
    return (low, span > 0 ? (frame - keyframes[low].frame) / span : 1)
  }

  /// The value the segment starting at keyframe `i` ends on.
  func segmentEnd(_ i: Int) -> Value { keyframes[i].end ?? keyframes[i + 1].start }

  /// The value after the last keyframe: its `s`, or (old files, where the last keyframe has only
  /// `t`) the previous segment's `e`, which the reader has put in its `start`.
  var final: Value { keyframes[keyframes.count - 1].start }
}

extension Animated where Value == [Double] {
  /// The value at `frame`, eased per dimension, spatial segments followed along their curve.
  func value(at frame: Double) -> [Double] {
    guard isAnimated else { return initial }
    if frame < keyframes[0].frame { return initial }
    guard let (i, x) = segment(at: frame) else { return final }
    let k = keyframes[i]
    if k.hold { return k.start }
    let a = k.start, b = segmentEnd(i)
    if k.isSpatial, a.count >= 2, b.count >= 2 {
      let eased = k.timingFunction(dimension: 0).value(at: x)
      let p = SpatialSegment(k, from: a, to: b).point(atFraction: eased)
      var out = a
      out[0] = p.x
      out[1] = p.y
      return out
    }
    var out = a
    for d in 0..<Swift.min(a.count, b.count) {
      let y = k.timingFunction(dimension: d).value(at: x)
      out[d] = a[d] + (b[d] - a[d]) * y
    }
    return out
  }
}

extension Animated where Value == BezierShape {
  /// The shape at `frame`: vertices interpolated when both ends have as many, else the start.
  func value(at frame: Double) -> BezierShape {
    guard isAnimated else { return initial }
    if frame < keyframes[0].frame { return initial }
    guard let (i, x) = segment(at: frame) else { return final }
    let k = keyframes[i]
    if k.hold { return k.start }
    return k.start.interpolated(to: segmentEnd(i), k.timingFunction(dimension: 0).value(at: x))
  }
}

/// A position segment that curves in space: the cubic from `start` through `start + to` and
/// `end + ti` to `end`, travelled by arc length (as lottie-web does).
struct SpatialSegment {
  let segment: Path.Segment
  let measured: Path.MeasuredSegment?

  init(_ k: Keyframe<[Double]>, from a: [Double], to b: [Double]) {
    let p0 = Point(x: a[0], y: a[1]), p3 = Point(x: b[0], y: b[1])
    let to = k.spatialOut ?? .zero, ti = k.spatialIn ?? .zero
    var path = Path()
    path.move(to: p0)
    path.addCurve(
      to: p3, control1: Point(x: p0.x + to.x, y: p0.y + to.y),
      control2: Point(x: p3.x + ti.x, y: p3.y + ti.y))
    measured = path.measuredSegments().first
    segment = measured?.segment ?? .line(p0, p3)
  }

  /// The point `fraction` of the way along the curve by length.
  func point(atFraction fraction: Double) -> Point {
    guard let measured, measured.length > 0 else {
      let a = segment.start, b = segment.end
      return Point(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction)
    }
    return segment.point(at: measured.parameter(atDistance: fraction * measured.length))
  }
}
