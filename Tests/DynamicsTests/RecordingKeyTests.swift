import Geometry
import Testing

@testable import Dynamics

/// The key a shared dynamics recording files a simulation under: equal values give equal keys,
/// doubles are told apart by their bits, and the direct paths (doubles, points) write what the
/// mirror would.
@Suite struct RecordingKeyTests {
  /// A stand-in with a point's shape, described through its mirror.
  struct XY {
    var x: Double
    var y: Double
  }

  @Test func doublesAreWrittenAsTheHexDigitsOfTheirBits() {
    #expect(DynamicsRecording.key(1.0) == "(:3ff0000000000000,)")
    #expect(DynamicsRecording.key(0.0) == "(:0,)")
    #expect(DynamicsRecording.key(-0.0) == "(:8000000000000000,)")
    #expect(DynamicsRecording.key(Double.leastNonzeroMagnitude) == "(:1,)")
    #expect(DynamicsRecording.key(3, true) == "(:3,:t,)")
  }

  @Test func aPointIsWrittenAsItsMirrorWould() {
    #expect(DynamicsRecording.key(Point(1, -2)) == DynamicsRecording.key(XY(x: 1, y: -2)))
    #expect(DynamicsRecording.key([Point(0.5, 0)]) == DynamicsRecording.key([XY(x: 0.5, y: 0)]))
    // Collision boundaries, a list of segments.
    #expect(
      DynamicsRecording.key([(Point(1, 2), Point(3, -4)), (Point(0, 0), Point(0.5, 1e300))])
        == DynamicsRecording.key([
          (XY(x: 1, y: 2), XY(x: 3, y: -4)), (XY(x: 0, y: 0), XY(x: 0.5, y: 1e300)),
        ]))
  }

  @Test func equalValuesShareAKeyAndBitsTellValuesApart() {
    let a = DynamicsRecording.key([Point(1, 2)], "push", 0.1 + 0.2)
    #expect(a == DynamicsRecording.key([Point(1, 2)], "push", 0.1 + 0.2))
    #expect(a != DynamicsRecording.key([Point(1, 2)], "push", 0.3))
    #expect(DynamicsRecording.key(Point(0, 0)) != DynamicsRecording.key(Point(0, -0.0)))
  }
}
