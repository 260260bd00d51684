import Foundation
import Scenes
import Testing

@testable import Animations

/// Issue 18, twelfth pass: `settlingDuration` scanned from 0.1 s, 6,000 steps for an undamped
/// spring, so a file of 20,000 springs took 11 s to read. It now starts a step before the
/// envelope's slowest term falls below 0.001: the same durations, in a few steps.
@Suite struct SettlingDurationTests {
  /// The convention scanned from the first step, as `settlingDuration` did before.
  func scannedFromTheStart(_ spring: Spring) -> Double {
    for k in 1...6000 {
      let t = Double(k) * 0.1
      if spring.envelope(at: t) < 1e-3 && spring.envelope(at: t + 1e-3) <= spring.envelope(at: t) {
        return t
      }
    }
    return 600
  }

  @Test func theDurationIsTheOneScannedFromTheStart() {
    var generator = SeededGenerator(seed: 18)  // the same springs on every run
    var springs = [
      Spring(damping: 0), Spring(damping: 1e-3), Spring(damping: 1e-12), Spring(damping: 20),
      Spring(damping: 1e6, allowsOverdamping: true), Spring(damping: 19.99, initialVelocity: 1e6),
      Spring(mass: 1e-6, stiffness: 1e10, damping: 0.01), Spring(stiffness: 1e-6, damping: 1e-6),
    ]
    for _ in 0..<2000 {
      let draws = (0..<4).map { _ in Double.random(in: 0...1, using: &generator) }
      let mass = pow(10, 6 * draws[0] - 3), stiffness = pow(10, 8 * draws[1] - 3)
      let damping = draws[2] < 0.2 ? 0 : pow(10, 8 * draws[2] - 4)
      let velocity = 200 * draws[3] - 100
      springs.append(
        Spring(
          mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity,
          allowsOverdamping: Bool.random(using: &generator)))
    }
    for spring in springs {
      #expect(spring.settlingDuration == scannedFromTheStart(spring), "\(spring)")
    }
    #expect(Spring(damping: 0).settlingDuration == 600)
  }
}
