import Animations
import Testing

/// docs/timing.md §3: a layer maps its parent's time as (t - beginTime) * speed + timeOffset.
@Suite struct LayerTimingTests {
  @Test func defaultsAreTheIdentity() {
    let timing = LayerTiming()
    #expect(timing.isIdentity)
    #expect(timing.localTime(2.5) == 2.5)
  }

  @Test func beginTimeIsInParentUnitsAndOffsetIsAddedAfterScaling() {
    let timing = LayerTiming(beginTime: 1, speed: 2, timeOffset: 0.5)
    #expect(timing.localTime(1) == 0.5)
    #expect(timing.localTime(3) == 4.5)
  }

  @Test func speedZeroPausesAtTheOffset() {
    let paused = LayerTiming(beginTime: 0, speed: 0, timeOffset: 1.25)
    #expect(paused.localTime(0) == 1.25)
    #expect(paused.localTime(100) == 1.25)
  }

  @Test func negativeOffsetDelaysWithoutWrapping() {
    #expect(LayerTiming(timeOffset: -2).localTime(1) == -1)
  }

  @Test func speedIsStoredAsFloat() {
    let timing = LayerTiming(speed: 0.3)
    #expect(timing.localTime(1) == 0.30000001192092896)
  }
}
