import Animations
import Testing

/// docs/timing.md §5: CAMediaTimingFunction.
@Suite struct TimingFunctionTests {
  /// docs/timing.md §5: real Core Animation outputs (ChouTiUI's expectations); CA solves to about
  /// 1e-5 in x, so the tolerance is 2e-5 times the local slope, plus float rounding.
  static let published:
    [(name: String, function: TimingFunction, x: Double, ca: Double, slope: Double)] = [
      ("easeIn", .easeIn, 0.25, 0.09346466, 0.8), ("easeIn", .easeIn, 0.5, 0.31535682, 1.2),
      ("easeIn", .easeIn, 0.75, 0.6218605, 1.6),
      ("easeOut", .easeOut, 0.25, 0.37813953, 1.6), ("easeOut", .easeOut, 0.5, 0.6846432, 1.2),
      ("easeOut", .easeOut, 0.75, 0.9065353, 0.8),
      ("easeInEaseOut", .easeInEaseOut, 0.25, 0.12916191, 1.1),
      ("easeInEaseOut", .easeInEaseOut, 0.5, 0.5, 2),
      ("easeInEaseOut", .easeInEaseOut, 0.75, 0.8708381, 1.1),
    ]

  @Test(arguments: published.indices)
  func matchesCoreAnimationsPublishedValues(_ i: Int) {
    let row = Self.published[i]
    let tolerance = 2e-5 * row.slope + 1e-7
    #expect(isClose(row.function.value(at: row.x), row.ca, tolerance), "\(row.name)(\(row.x))")
  }

  @Test func namedFunctionsHaveCoreAnimationsControlPoints() {
    let points = { (f: TimingFunction) in [f.c1x, f.c1y, f.c2x, f.c2y] }
    #expect(points(.linear) == [0, 0, 1, 1])
    #expect(points(.easeIn) == [0.42, 0, 1, 1])
    #expect(points(.easeOut) == [0, 0, 0.58, 1])
    #expect(points(.easeInEaseOut) == [0.42, 0, 0.58, 1])
    #expect(points(.default) == [0.25, 0.1, 0.25, 1])
    #expect(TimingFunction.default != .easeInEaseOut)
  }

  @Test func solvesToTheExactCurve() throws {
    // Exact values of the Float control points' curves, from an independent bisection.
    #expect(isClose(TimingFunction.default.value(at: 0.25), 0.4085105919937359, 1e-7))
    #expect(isClose(TimingFunction.default.value(at: 0.5), 0.8024033878671197, 1e-7))
    #expect(
      isClose(
        try TimingFunction(controlPoints: 0.2, 0, 0.8, 1).value(at: 0.3), 0.2549076603506829, 1e-7))
    #expect(isClose(TimingFunction.easeIn.value(at: 0.75), 0.6218618746489522, 1e-7))
  }

  @Test func controlPointsMayOvershootInY() throws {
    let f = try TimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5)
    #expect(isClose(f.value(at: 0.1), -0.07075622807293014, 1e-7))
    #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1)
  }

  @Test func nearVerticalCurvesAreSolvedAccurately() throws {
    let f = try TimingFunction(controlPoints: 1, 0, 0, 1)
    for x in stride(from: 0.05, through: 0.95, by: 0.05) where abs(x - 0.5) > 0.01 {
      // Recover the parameter from y and check x(s) lands within 1e-7.
      let y = f.value(at: x)
      let s = bisect { 3 * (1 - $0) * $0 * $0 * 1 + $0 * $0 * $0 - y }  // Y(s) with c1y 0, c2y 1
      let xs = 3 * (1 - s) * (1 - s) * s * 1 + s * s * s  // X(s) with c1x 1, c2x 0
      #expect(isClose(xs, x, 1e-6), "x = \(x)")
    }
  }

  func bisect(_ f: (Double) -> Double) -> Double {
    var (lo, hi) = (0.0, 1.0)
    for _ in 0..<100 {
      let mid = (lo + hi) / 2
      if f(mid) < 0 { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }

  @Test func controlPointXOutsideTheUnitIntervalIsRejected() {
    #expect(throws: AnimationError.controlPointOutOfRange(x: Double(Float(1.2)))) {
      try TimingFunction(controlPoints: 1.2, 0, 0.5, 1)
    }
    #expect(throws: AnimationError.self) { try TimingFunction(controlPoints: 0.5, 0, -0.1, 1) }
    // An infinite y is said as a y (it was said as an x of nan).
    #expect(throws: AnimationError.controlPointNotFinite(y: -.infinity)) {
      try TimingFunction(controlPoints: 0.5, 0, 0.5, -.infinity)
    }
    #expect(
      AnimationError.controlPointNotFinite(y: .infinity).description
        == "timing function control point y = inf is not a finite number")
  }

  @Test func linearIsTheIdentity() {
    for x in [0.0, 0.1, 0.5, 0.77, 1] { #expect(TimingFunction.linear.value(at: x) == x) }
  }
}

/// docs/timing.md §8: groups.
@Suite struct GroupTests {
  @Test func childrenSeeTheGroupsWarpedTime() {
    var g = AnimationGroup([basic { $0.duration = 0 }])
    g.duration = 1
    g.timingFunction = .easeIn
    #expect(isClose(value(of: g, at: 0.5), 31.535681876, 1e-6))
  }

  @Test func aReversingGroupPlaysItsChildrenBackwards() {
    var g = AnimationGroup([basic { $0.duration = 0 }])
    g.duration = 1
    g.autoreverses = true
    #expect(value(of: g, at: 1.25) == 75)
  }

  @Test func childrenAreClippedNotScaled() {
    var g = AnimationGroup([basic { $0.duration = 10 }])
    g.duration = 5
    #expect(isClose(value(of: g, at: 4.9), 49))
    #expect(value(of: g, at: 5.1) == -1)
    g.fillMode = .forwards
    g.isRemovedOnCompletion = false
    #expect(value(of: g, at: 5.1) == 50)  // frozen at the group's end, the child still active
  }

  @Test func aDelayedChildNeedsItsOwnBackwardsFill() {
    var g = AnimationGroup([basic { $0.beginTime = 1 }])
    g.duration = 2
    g.fillMode = .backwards
    #expect(value(of: g, at: 0.5) == -1)
    g.animations = [
      basic {
        $0.beginTime = 1; $0.fillMode = .backwards
      }
    ]
    #expect(value(of: g, at: 0.5) == 0)
  }

  @Test func aChildEndingWhereItsGroupFreezesDisappearsUnlessItFillsForwards() {
    var g = AnimationGroup([basic()])
    g.duration = 1
    g.fillMode = .forwards
    g.isRemovedOnCompletion = false
    #expect(value(of: g, at: 2) == -1)
    g.animations = [basic { $0.fillMode = .forwards }]
    #expect(value(of: g, at: 2) == 100)  // children ignore isRemovedOnCompletion
  }

  @Test func groupSpeedBeginAndRepeatActOnChildren() {
    var g = AnimationGroup([basic { $0.duration = 0 }])
    g.duration = 1
    g.beginTime = 2
    g.speed = 2
    g.repeatCount = 2
    #expect(value(of: g, at: 2.25) == 50)
    #expect(value(of: g, at: 2.75) == 50)  // second cycle
    #expect(value(of: g, at: 3) == -1)
  }

  @Test func theRadarGroupMatchesTheArticle() {
    // 4 s group, default timing, children without durations, staggered, filling backwards.
    var scale = BasicAnimation(keyPath: "transform.scale")
    (scale.fromValue, scale.toValue) = (0, 1.5)
    var g = AnimationGroup([scale])
    g.duration = 4
    g.beginTime = 2 * 4.0 / 6.0
    g.repeatCount = .infinity
    g.fillMode = .backwards
    g.timingFunction = .default
    #expect(value(of: g, at: 0) == 0)  // filled backwards: scale 0, invisible
    let f = TimingFunction.default.value(at: 0.5)
    #expect(isClose(value(of: g, at: 4.0 / 3.0 + 2), 1.5 * f))
    #expect(isClose(value(of: g, at: 4.0 / 3.0 + 6), 1.5 * f))
  }
}
