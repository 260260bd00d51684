import Animations
import Testing

/// docs/timing.md §9: CASpringAnimation in closed form.
@Suite struct SpringTests {
  @Test func criticalDampingMatchesRealCoreAnimation() {
    // m = 1, k = 4π², c = 4π (ζ = 1, ω0 = 2π): CA gives 0.56196046, 0.89003396, 0.976705, 0.99546117.
    let spring = Spring(mass: 1, stiffness: 4 * .pi * .pi, damping: 4 * .pi)
    let expected = [0.56196045, 0.89003394, 0.97670504, 0.99546115]
    for (i, t) in [0.3, 0.6, 0.9, 1.2].enumerated() {
      #expect(isClose(1 - spring.displacement(at: t), expected[i], 1e-8))
    }
  }

  @Test func underdampedClosedForm() {
    let spring = Spring(mass: 1, stiffness: 100, damping: 10)  // ζ = 0.5, ω0 = 10
    #expect(isClose(spring.displacement(at: 0.2), 0.15057436514588768, 1e-12))
    #expect(isClose(spring.displacement(at: 0.5), -0.07459056659503334, 1e-12))
    let pushed = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 3)
    #expect(isClose(pushed.displacement(at: 0.2), 0.024790476245988104, 1e-12))
  }

  @Test func overdampingIsCriticalUnlessAllowed() {
    let capped = Spring(mass: 1, stiffness: 100, damping: 40)  // ζ = 2
    // (1 + ω0 t)e^(-ω0 t)
    #expect(isClose(capped.displacement(at: 0.1), 0.7357588823428847, 1e-12))
    let allowed = Spring(mass: 1, stiffness: 100, damping: 40, allowsOverdamping: true)
    #expect(isClose(allowed.displacement(at: 0.1), 0.8222634239018095, 1e-12))
    #expect(isClose(allowed.displacement(at: 0.5), 0.28217117397515296, 1e-12))
  }

  @Test func settlingDurationFollowsTheSceneFormatConvention() {
    // Apple: m = 1, k = 100, damping 5 "approximately 2.85 seconds", damping 15 "just over 1 second".
    #expect(isClose(Spring(damping: 5).settlingDuration, 2.8))
    #expect(isClose(Spring(damping: 15).settlingDuration, 1.0))
    #expect(
      isClose(Spring(mass: 1, stiffness: 4 * .pi * .pi, damping: 4 * .pi).settlingDuration, 1.5))
  }

  @Test func theAnimationRunsOnSecondsAndEndsAtItsDuration() {
    var a = SpringAnimation(keyPath: "position.y")
    (a.fromValue, a.toValue) = (0, 100)
    (a.mass, a.stiffness, a.damping) = (1, 4 * .pi * .pi, 4 * .pi)
    a.duration = 1.2
    a.fillMode = .forwards
    a.isRemovedOnCompletion = false
    #expect(isClose(value(of: a, at: 0.6), 89.003394, 1e-5))
    #expect(isClose(value(of: a, at: 5), 99.546115, 1e-5))  // frozen at x(duration), not toValue
  }

  @Test func withoutADurationASpringLastsItsSettlingDuration() {
    var a = SpringAnimation(keyPath: "opacity")
    (a.fromValue, a.toValue) = (0, 1)
    (a.stiffness, a.damping) = (100, 15)
    #expect(value(of: a, at: 0.99) != -1)
    #expect(value(of: a, at: 1.0) == -1)
  }
}
