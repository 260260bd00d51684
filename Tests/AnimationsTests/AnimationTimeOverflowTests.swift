import Animations
import Testing

/// Issue 18, thirteenth pass: an animation's own time that overflows a `Double` (a beginTime of
/// -1e308 at a speed of 3.4e38, nine nested groups of speed 3.4e38) dropped the animation or
/// gave NaN, and a cumulative animation past 10^19 cycles showed one cycle's value.
@Suite struct AnimationTimeOverflowTests {
  /// The timing states `animation`'s property animations are in at `t`.
  func states(_ animation: any Animation, at t: Double) -> [MediaTiming.State] {
    var collected: [AnimationSample] = []
    samples(of: animation, at: t, into: &collected)
    return collected.map(\.state)
  }

  @Test func anOverflowingActiveTimeRepeatingForeverIsNotFinite() {
    let a = basic {
      $0.beginTime = -1e308; $0.speed = 3.4e38; $0.repeatCount = .infinity; $0.fillMode = .both
    }
    let shown = states(a, at: 0.3)
    #expect(shown.count == 1)
    #expect(shown.allSatisfy { !$0.isTimeFinite })
    // At a speed of 1 the time (1e300) is finite and the animation applies.
    let slow = basic {
      $0.beginTime = -1e300; $0.repeatCount = .infinity; $0.fillMode = .both
    }
    #expect(states(slow, at: 0.3).map(\.isTimeFinite) == [true])
  }

  @Test func anOverflowPastAFiniteActiveDurationShowsTheEnd() {
    // Once, filled forwards: any time past the end, infinite too, shows the end (100).
    let a = basic {
      $0.beginTime = -1e308; $0.speed = 3.4e38; $0.fillMode = .forwards
      $0.isRemovedOnCompletion = false
    }
    #expect(value(of: a, at: 0.3) == 100)
  }

  @Test func nestedGroupsWhoseTimesOverflowPassItOnToTheirAnimations() {
    var inner: any Animation = basic {
      $0.repeatCount = .infinity; $0.fillMode = .both
    }
    for _ in 0..<9 {
      var group = AnimationGroup([inner])
      group.duration = 1e300
      group.speed = 3.4e38
      group.repeatCount = .infinity
      group.fillMode = .both
      inner = group
    }
    #expect(states(inner, at: 0.3).map(\.isTimeFinite) == [false])
  }

  @Test func aCumulativeAnimationCountsCyclesPastAnyInteger() {
    // 10^19 cycles of 10 (more than Int.max): at the end, 10^20.
    var a = BasicAnimation(keyPath: "opacity")
    (a.fromValue, a.toValue, a.duration) = (0, 10, 1e-300)
    a.repeatCount = 1e19
    a.isCumulative = true
    a.fillMode = .forwards
    a.isRemovedOnCompletion = false
    #expect(isClose(value(of: a, at: 0.3) / 1e20, 1, 1e-6))
  }

  /// Seventeenth hostile pass: a duration of 1e-310 (here 2^-1030, 8.3e-311) repeating forever,
  /// or 1e-300 at 1e9 s, was refused as a time that overflows, blaming beginTime, speed and
  /// timeOffset, none of them set: what overflowed was the cycle count, the time over the
  /// duration. The phase within the cycle is the exact floor-modulo (`fmod`), which needs no
  /// count: these show a value, with autoreverses too (a cycle is both legs, so the leg needs
  /// no parity).
  @Test func aCycleCountPastADoubleStillGivesThePhase() {
    let cases = [(0x1p-1030, 0.3), (1e-300, 1e9), (Double.leastNonzeroMagnitude, 0.5)]
    for (d, t) in cases {
      let a = basic {
        $0.duration = d; $0.repeatCount = .infinity
      }
      let phase = t.truncatingRemainder(dividingBy: d) / d
      #expect(isClose(value(of: a, at: t), 100 * phase, 1e-6), "duration \(d) at \(t)")
      let shown = states(a, at: t)
      #expect(shown.map(\.isTimeFinite) == [true])
      #expect(shown.map(\.isCycleCountFinite) == [false])
      let back = basic {
        $0.duration = d; $0.repeatCount = .infinity; $0.autoreverses = true
      }
      let c = t.truncatingRemainder(dividingBy: 2 * d)
      let expected = 100 * (c > d ? 2 * d - c : c) / d
      #expect(isClose(value(of: back, at: t), expected, 1e-6), "autoreversing \(d) at \(t)")
    }
    // A group of 1e-300 repeating forever, at 1e9 s, gives its child a finite time.
    var group = AnimationGroup([basic { $0.duration = 0 }])
    (group.duration, group.repeatCount) = (1e-300, .infinity)
    #expect(states(group, at: 1e9).map(\.isTimeFinite) == [true])
  }

  /// Seventeenth hostile pass: past 2^53 cycles `t − k × C` rounds by more than a cycle; the
  /// phase is the exact floor-modulo there. 2^60 s over cycles of 0.375 s is 2^63 / 3 cycles,
  /// a remainder of 0.25 s: two thirds of the way.
  @Test func pastTwoToTheFiftyThirdCyclesThePhaseIsExact() {
    let a = basic {
      $0.duration = 0.375; $0.repeatCount = .infinity
    }
    #expect(value(of: a, at: 0x1p60) == 100 * (0.25 / 0.375))
  }

  /// Seventeenth hostile pass: a cumulative animation adds the cycle index times its span, so
  /// one whose index is past a `Double` (1e-310 s cycles) cannot be shown: its sample says its
  /// time is not finite (refused when drawn), where a plain one shows the phase.
  @Test func aCumulativeAnimationPastADoublesCyclesIsNotFinite() {
    for cumulative in [true, false] {
      let a = basic {
        $0.duration = 0x1p-1030; $0.repeatCount = .infinity; $0.isCumulative = cumulative
      }
      var collected: [AnimationSample] = []
      samples(of: a, at: 0.3, into: &collected)
      #expect(collected.map(\.isTimeFinite) == [!cumulative])
    }
  }

  /// Beside the seventeenth hostile pass's tiny durations: an autoreversing duration of 1e308
  /// made a cycle of two legs past the largest Double, and its phase NaN (`0 × ∞`): it was
  /// refused as a time that overflows. Its one cycle starts at 0, and the backward leg mirrors
  /// within it.
  @Test func anAutoreversingCyclePastADoubleIsOneCycle() {
    let a = basic {
      $0.duration = 1e308; $0.autoreverses = true; $0.repeatCount = .infinity
    }
    #expect(isClose(value(of: a, at: 0.5e308), 50))
    #expect(isClose(value(of: a, at: 1.5e308), 50))
    #expect(states(a, at: 1.5e308).map(\.isTimeFinite) == [true])
  }
}
