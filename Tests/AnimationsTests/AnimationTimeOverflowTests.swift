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
}
