import Animations
import Geometry
import Testing

/// docs/timing.md §7.1: basic endpoints, additive, and several animations on one key path (§7.2).
@Suite struct BasicEndpointTests {
  func halfway(
    from: AnimationValue? = nil, to: AnimationValue? = nil, by: AnimationValue? = nil,
    model: Double = 50
  ) -> Double {
    var a = BasicAnimation(keyPath: "opacity")
    (a.fromValue, a.toValue, a.byValue, a.duration) = (from, to, by, 1)
    return value(of: a, at: 0.5, model: model)
  }

  @Test func everyCombination() {
    #expect(halfway(from: 10, to: 20) == 15)
    #expect(halfway(from: 10, by: 5) == 12.5)  // 10 -> 15
    #expect(halfway(to: 20, by: 5) == 17.5)  // 15 -> 20
    #expect(halfway(from: 10) == 30)  // 10 -> model 50
    #expect(halfway(to: 20) == 35)  // model 50 -> 20
    #expect(halfway(by: 10) == 55)  // 50 -> 60
    #expect(halfway() == 50)
  }

  @Test func additiveAddsToTheValueBelow() {
    var a = basic {
      $0.fromValue = 0; $0.toValue = 10
    }
    a.isAdditive = true
    #expect(value(of: a, at: 0.5, model: 50) == 55)
  }

  /// Twenty-eighth pass: an additive path over an earlier animation's path of other commands
  /// drew the offset itself as the path (a point: the stroke vanished). Values of another
  /// structure have no sum: the value below is kept (scene files refuse them when read).
  @Test func anAdditiveValueOfAnotherStructureKeepsTheValueBelow() throws {
    let below = AnimationValue.path(try Path(svgPathData: "M 0 0 L 10 10 L 20 0 L 30 10"))
    let offset = AnimationValue.path(try Path(svgPathData: "M 0 10 L 0 10 L 0 10"))
    #expect(offset.adding(below) == below)
    #expect(AnimationValue.numbers([1, 1]).adding(.numbers([5, 5, 20])) == .numbers([5, 5, 20]))
    #expect(AnimationValue.numbers([1, 1]).adding(.numbers([5, 5])) == .numbers([6, 6]))
    // Discrete values replace, as Core Animation's do.
    #expect(AnimationValue.bool(true).adding(.bool(false)) == .bool(true))
  }

  @Test func animationsOnOneKeyPathApplyInTheOrderAdded() {
    var additive = basic {
      $0.fromValue = 0; $0.toValue = 10
    }
    additive.isAdditive = true
    let replacing = basic()
    var first = AnimationGroup([replacing, additive])
    first.duration = 1
    var second = AnimationGroup([additive, replacing])
    second.duration = 1
    #expect(value(of: first, at: 0.5) == 55)
    #expect(value(of: second, at: 0.5) == 50)
  }
}

/// docs/timing.md §6: keyframe animations in every calculation mode.
@Suite struct KeyframeTests {
  func keyframes(
    _ values: [AnimationValue], _ keyTimes: [Double]? = nil,
    _ configure: (inout KeyframeAnimation) -> Void = { _ in }
  ) -> KeyframeAnimation {
    var a = KeyframeAnimation(keyPath: "opacity")
    a.values = values
    a.keyTimes = keyTimes
    a.duration = 1
    configure(&a)
    return a
  }

  @Test func linearSegmentsFollowKeyTimes() {
    let a = keyframes([0, 100, 50], [0, 0.25, 1])
    #expect(value(of: a, at: 0.125) == 50)
    #expect(value(of: a, at: 0.625) == 75)
    #expect(value(of: a, at: 0.25) == 100)
  }

  @Test func missingKeyTimesAreEvenlySpaced() {
    let a = keyframes([0, 10, 20, 40])
    #expect(isClose(value(of: a, at: 0.5), 15))
    #expect(isClose(value(of: a, at: 5.0 / 6.0), 30))
  }

  @Test func invalidKeyTimesAreIgnored() {
    #expect(isClose(value(of: keyframes([0, 10, 20, 40], [0, 0.9, 0.1, 1]), at: 0.5), 15))
    #expect(isClose(value(of: keyframes([0, 10, 20, 40], [0, 1]), at: 0.5), 15))
  }

  @Test func segmentTimingFunctionsApplyAfterTheAnimations() {
    let perSegment = keyframes([0, 100, 50], [0, 0.25, 1]) {
      $0.timingFunctions = [.easeIn, .linear]
    }
    #expect(isClose(value(of: perSegment, at: 0.125), 31.535681876, 1e-6))
    // The animation's own function warps time first: easeIn(0.5) = 0.31535... lies in segment 1.
    let both = keyframes([0, 100, 50], [0, 0.25, 1]) { $0.timingFunction = .easeIn }
    let u = 0.31535681876384825
    #expect(isClose(value(of: both, at: 0.5), 100 - 50 * (u - 0.25) / 0.75, 1e-6))
  }

  @Test func equalKeyTimesAreRightContinuous() {
    let a = keyframes([0, 10, 20, 30], [0, 0.5, 0.5, 1])
    #expect(value(of: a, at: 0.5) == 20)
    #expect(isClose(value(of: a, at: 0.4999), 9.998))
  }

  @Test func oneValueIsConstant() {
    #expect(value(of: keyframes([7]), at: 0.3) == 7)
  }

  @Test func discreteMatchesApplesExample() {
    // keyTimes [0, 0.25, 0.5, 0.75, 1], values [310, 60, 120, 60]: "position.y will remain at 60
    // until the animation completes".
    let a = keyframes([310, 60, 120, 60], [0, 0.25, 0.5, 0.75, 1]) {
      $0.calculationMode = .discrete
      $0.fillMode = .forwards
      $0.isRemovedOnCompletion = false
    }
    #expect(value(of: a, at: 0) == 310)
    #expect(value(of: a, at: 0.2499) == 310)
    #expect(value(of: a, at: 0.25) == 60)  // the new value at the exact key time
    #expect(value(of: a, at: 0.5) == 120)
    #expect(value(of: a, at: 0.75) == 60)
    #expect(value(of: a, at: 0.99) == 60)
    #expect(value(of: a, at: 1) == 60)
  }

  @Test func discreteLegacyAndMissingKeyTimes() {
    let legacy = keyframes([1, 2, 3], [0, 0.5, 1]) { $0.calculationMode = .discrete }
    #expect(value(of: legacy, at: 0.99) == 2)
    let slots = keyframes([0, 1, 2, 3]) { $0.calculationMode = .discrete }
    #expect(value(of: slots, at: 0.2499) == 0)
    #expect(value(of: slots, at: 0.25) == 1)
    #expect(value(of: slots, at: 0.75) == 3)
  }

  @Test func discreteFramesOnKeyTimesShowTheirKeyframeDespiteRounding() {
    // Eight images over 0.8 s, sampled at i / 10 s: 0.3 / 0.8 is 0.37499999999999994 in binary,
    // a hair before key time 3/8, yet frame 3 must show image 3 (the spinner demo).
    let a = keyframes([0, 1, 2, 3, 4, 5, 6, 7]) {
      $0.calculationMode = .discrete
      $0.duration = 0.8
    }
    for i in 0..<8 {
      #expect(value(of: a, at: Double(i) / 10) == Double(i))
    }
  }

  @Test func pacedMatchesApplesExample() {
    // [310, 60, 120, 60, 310]: lengths 250, 60, 60, 250; at 6.2 s, 100 units per second.
    let a = keyframes([310, 60, 120, 60, 310], [0, 0.1, 0.2, 0.3, 1]) {
      $0.calculationMode = .paced
      $0.duration = 6.2
      $0.timingFunction = .easeIn  // ignored
      $0.timingFunctions = [.easeIn, .easeIn, .easeIn, .easeIn]  // ignored
    }
    #expect(isClose(value(of: a, at: 1), 210))
    #expect(isClose(value(of: a, at: 2.5), 60))
    #expect(isClose(value(of: a, at: 3.1), 120))
    #expect(isClose(value(of: a, at: 5.2), 210))
  }

  @Test func pacedWithoutMovementIsConstant() {
    #expect(value(of: keyframes([4, 4, 4]) { $0.calculationMode = .paced }, at: 0.5) == 4)
  }

  /// Twenty-first hostile pass: paced and cubic-paced values that switch rather than move
  /// (strings, booleans, lists of other lengths) have no distance to pace by, and showed the
  /// first value throughout. They are spaced evenly and switch half way, as in linear mode.
  @Test func pacedValuesThatSwitchAreSpacedEvenly() {
    for mode in [KeyframeAnimation.CalculationMode.paced, .cubicPaced] {
      var a = KeyframeAnimation(keyPath: "string")
      a.values = [.text("a"), .text("b"), .text("c")]
      a.duration = 1
      a.calculationMode = mode
      func shown(_ t: Double) -> AnimationValue? {
        var collected: [AnimationSample] = []
        samples(of: a, at: t, into: &collected)
        return collected.last?.value(model: .text(nil), underlying: .text(nil))
      }
      #expect(
        [0, 0.2, 0.3, 0.6, 0.8].map(shown) == [
          .text("a"), .text("a"), .text("b"), .text("b"), .text("c"),
        ],
        "\(mode)")
    }
  }

  @Test func cubicPassesThroughEveryValueAtItsKeyTime() {
    let a = keyframes([0, 10, 0, 10]) { $0.calculationMode = .cubic }
    #expect(isClose(value(of: a, at: 1.0 / 3.0), 10))
    #expect(isClose(value(of: a, at: 2.0 / 3.0), 0))
  }

  @Test func cubicIsCatmullRomWithDuplicatedEndKeys() {
    let a = keyframes([0, 10, 20, 30]) { $0.calculationMode = .cubic }
    // Middle segment of evenly spaced data: tangents 10 at both ends -> a straight line.
    #expect(isClose(value(of: a, at: 0.5), 15))
    // First segment: the duplicated first key makes its tangent (10 - 0) / 2 = 5:
    // h10(0.5)·5 + h01(0.5)·10 + h11(0.5)·10 = 0.625 + 5 - 1.25.
    #expect(isClose(value(of: a, at: 1.0 / 6.0), 4.375))
  }

  @Test func tensionOneGivesZeroTangents() {
    let a = keyframes([0, 10, 20, 30]) {
      $0.calculationMode = .cubic; $0.tensionValues = [1, 1, 1, 1]
    }
    // h01(0.25) · 10 = (-2/64 + 3/16) · 10.
    #expect(isClose(value(of: a, at: 1.0 / 12.0), 1.5625))
  }

  @Test func continuityAndBiasShapeTheTangents() {
    // Bias 1 at key 1: outgoing = (1+1)(1+0)/2·(P1−P0) = 10, incoming at key 1 the same; with
    // P0 = 0, P1 = 10, P2 = 10 the second segment starts rising with slope 10: at s = 0.5,
    // h00·10 + h10·10 + h01·10 + h11·(incoming at key 2 = ½·0 + ½·(10−10)... ) = 5 + 1.25 + 5.
    let a = keyframes([0, 10, 10]) {
      $0.calculationMode = .cubic; $0.biasValues = [0, 1, 0]
    }
    #expect(isClose(value(of: a, at: 0.75), 11.25))
  }

  @Test func cubicPacedKeepsTheEndsAndMovesAtConstantSpeed() {
    let a = keyframes([0, 10, 20, 30]) { $0.calculationMode = .cubicPaced }
    #expect(isClose(value(of: a, at: 0), 0))
    #expect(isClose(value(of: a, at: 1 - 1e-12), 30, 1e-6))
    #expect(isClose(value(of: a, at: 0.5), 15, 0.01))
    #expect(isClose(value(of: a, at: 0.25), 7.5, 0.05))
  }

  @Test func pathsAreFollowedAndRotationFollowsTheTangent() throws {
    var a = KeyframeAnimation(keyPath: "position")
    a.path = try Path(svgPathData: "M 0 0 L 100 0 L 100 100")
    a.duration = 1
    a.rotationMode = .auto
    var collected: [AnimationSample] = []
    samples(of: a, at: 0.75, into: &collected)
    #expect(collected[0].value(model: .point(0, 0), underlying: .point(0, 0)) == .point(100, 50))
    #expect(isClose(try #require(collected[0].pathRotation), .pi / 2))
    a.rotationMode = .autoReverse
    collected = []
    samples(of: a, at: 0.25, into: &collected)
    #expect(collected[0].value(model: .point(0, 0), underlying: .point(0, 0)) == .point(50, 0))
    #expect(isClose(try #require(collected[0].pathRotation), .pi))
  }

  /// Hostile pass 33: a path in discrete mode glided between its points, its key times not
  /// used. Its points (the start and each segment's end) are keyframes that hold from their
  /// key times, facing along the path there (timing.md §6.2, §6.5).
  @Test func aPathInDiscreteModeJumpsBetweenItsPoints() throws {
    var a = KeyframeAnimation(keyPath: "position")
    a.path = try Path(svgPathData: "M 0 0 L 100 100 L 0 100")
    a.calculationMode = .discrete
    a.keyTimes = [0, 0.25, 0.5, 1]
    a.duration = 1
    a.rotationMode = .auto
    for (time, point, angle) in [
      (0.2, AnimationValue.point(0, 0), Double.pi / 4), (0.3, .point(100, 100), Double.pi / 4),
      (0.6, .point(0, 100), Double.pi), (0.95, .point(0, 100), Double.pi),
    ] {
      var collected: [AnimationSample] = []
      samples(of: a, at: time, into: &collected)
      #expect(collected[0].value(model: .point(0, 0), underlying: .point(0, 0)) == point)
      #expect(isClose(try #require(collected[0].pathRotation), angle), "at \(time)")
    }
    // Without key times, the three points share the time evenly (n + 1 times).
    a.keyTimes = nil
    var collected: [AnimationSample] = []
    samples(of: a, at: 0.5, into: &collected)
    #expect(collected[0].value(model: .point(0, 0), underlying: .point(0, 0)) == .point(100, 100))
  }

  /// Twenty-sixth pass: a paced path walked its segments' lengths at every instant (0.6 ms
  /// for 100,000 elements, per replicator instance). Looked up in a table of distances: the
  /// position is still the one at that fraction of the length, on paths of many segments of
  /// unequal lengths, in `paced` and `cubicPaced` alike.
  @Test func pacedPathsOfManySegmentsPlaceByDistance() throws {
    // 1,000 steps along x alternating 1 and 3 points long: 2,000 points in all.
    var data = "M 0 0"
    var x = 0.0
    for i in 0..<1000 {
      x += i % 2 == 0 ? 1 : 3
      data += " L \(Int(x)) 0"
    }
    for mode in [KeyframeAnimation.CalculationMode.paced, .cubicPaced] {
      var a = KeyframeAnimation(keyPath: "position")
      a.path = try Path(svgPathData: data)
      a.calculationMode = mode
      a.duration = 1
      for (t, expected) in [(0.0, 0.0), (0.25, 500.0), (0.3337, 667.4), (0.999, 1998.0)] {
        var collected: [AnimationSample] = []
        samples(of: a, at: t, into: &collected)
        let shown = collected[0].value(model: .point(0, 0), underlying: .point(0, 0))
        guard case .point(let p) = shown else { Issue.record("\(shown)"); continue }
        #expect(isClose(p.x, expected, 1e-9) && p.y == 0, "\(mode) at \(t): \(p)")
      }
    }
    // cubicPaced values (not a path): spaced by the spline's length, looked up the same way.
    let even = keyframes((0..<1000).map { .scalar(Double($0)) }) {
      $0.calculationMode = .cubicPaced
    }
    #expect(isClose(value(of: even, at: 0.5), 499.5, 1e-6))
  }

  /// Fifteenth hostile pass: a path of moves alone has no keyframes, and put the layer at the
  /// origin; it animates nothing, as the empty path (scene files refuse both).
  @Test func aPathOfMovesAloneAnimatesNothing() throws {
    for data in ["M 10 10", "M 10 10 M 30 30", ""] {
      var a = KeyframeAnimation(keyPath: "position")
      a.path = try Path(svgPathData: data)
      a.duration = 1
      a.rotationMode = .autoReverse
      var collected: [AnimationSample] = []
      samples(of: a, at: 0.5, into: &collected)
      // Either no sample, or one that keeps the value under it and turns nothing.
      for sample in collected {
        #expect(
          sample.value(model: .point(50, 50), underlying: .point(50, 50)) == .point(50, 50),
          "\(data)")
        #expect(sample.pathRotation == nil, "\(data)")
      }
    }
  }

  @Test func cumulativeKeyframesAddLastMinusFirstPerCycle() {
    let a = keyframes([0, 10, 30]) {
      $0.repeatCount = 2; $0.isCumulative = true
    }
    #expect(value(of: a, at: 1.5) == 40)
  }
}

/// Values of every kind interpolate as Core Animation does.
@Suite struct ValueInterpolationTests {
  @Test func compositeValuesInterpolateComponentWise() {
    #expect(AnimationValue.interpolate(.point(0, 0), .point(10, 20), 0.5) == .point(5, 10))
    #expect(
      AnimationValue.interpolate(.rect(Rect(0, 0, 10, 10)), .rect(Rect(10, 10, 30, 50)), 0.5)
        == .rect(Rect(5, 5, 20, 30)))
    #expect(
      AnimationValue.interpolate(
        .color(.black), .color(Color(red: 1, green: 0.5, blue: 0, alpha: 0)), 0.5)
        == .color(Color(red: 0.5, green: 0.25, blue: 0, alpha: 0.5)))
  }

  @Test func transformsInterpolateByDecomposition() {
    let end = Transform3D.scale(x: 2, y: 2).concatenating(.rotation(.pi / 2)).concatenating(
      .translation(x: 10, y: 0))
    guard
      case .transform(let mid) = AnimationValue.interpolate(
        .transform(.identity), .transform(end), 0.5)
    else {
      Issue.record("not a transform")
      return
    }
    let parts = TransformDecomposition(mid)
    #expect(
      isClose(parts.rotation, .pi / 4) && isClose(parts.scaleX, 1.5) && isClose(parts.scaleY, 1.5))
    #expect(isClose(parts.translationX, 5) && isClose(parts.translationY, 0))
  }

  @Test func decompositionRoundTrips() {
    let t = Transform3D.scale(x: 2, y: -3).concatenating(.rotation(0.7)).concatenating(
      .translation(x: 4, y: 5))
    let back = TransformDecomposition(t).transform
    for (a, b) in [
      (t.m11, back.m11), (t.m12, back.m12), (t.m21, back.m21), (t.m22, back.m22), (t.m41, back.m41),
      (t.m42, back.m42),
    ] {
      #expect(isClose(a, b, 1e-12))
    }
  }

  @Test func pathsInterpolatePointByPointWhenTheirStructuresMatch() throws {
    let a = try Path(svgPathData: "M 0 0 L 10 0 Q 10 10 0 10 Z")
    let b = try Path(svgPathData: "M 0 0 L 20 0 Q 20 20 0 20 Z")
    let mid = AnimationValue.interpolate(.path(a), .path(b), 0.5)
    #expect(mid == .path(try Path(svgPathData: "M 0 0 L 15 0 Q 15 15 0 15 Z")))
    let other = try Path(svgPathData: "M 0 0 L 5 5")
    #expect(!AnimationValue.path(a).isInterpolable(with: .path(other)))
  }

  @Test func discreteValuesSwitchHalfway() {
    #expect(AnimationValue.interpolate(false, true, 0.49) == false)
    #expect(AnimationValue.interpolate(false, true, 0.5) == true)
  }
}
