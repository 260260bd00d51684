import Animations
import Testing

/// docs/timing.md §2: parent time to active local time.
@Suite struct ParentTimeToActiveTimeTests {
  // §2.2
  @Test func durationZeroMeansAQuarterSecond() {
    let a = basic { $0.duration = 0 }
    #expect(value(of: a, at: 0.125) == 50)
    #expect(value(of: a, at: 0.25) == -1)  // ended (end-exclusive), removed
  }

  @Test func groupDurationZeroClipsChildrenAtAQuarterSecond() {
    var g = AnimationGroup([basic { $0.duration = 1 }])
    g.duration = 0
    #expect(value(of: g, at: 0.2) == 20)
    #expect(value(of: g, at: 0.3) == -1)
  }

  @Test func aChildWithoutDurationTakesTheGroups() {
    var g = AnimationGroup([basic { $0.duration = 0 }])
    g.duration = 4
    #expect(value(of: g, at: 2) == 50)
    #expect(value(of: g, at: 3) == 75)
  }

  // §2.3
  @Test func beginTimeIsNotScaledBySpeed() {
    let a = basic {
      $0.beginTime = 1; $0.speed = 2
    }
    #expect(value(of: a, at: 1.25) == 50)
    #expect(value(of: a, at: 0.99) == -1)
  }

  @Test func timeOffsetIsAddedAfterScaling() {
    let a = basic {
      $0.speed = 2; $0.timeOffset = 0.5
    }
    #expect(isClose(value(of: a, at: 0.1), 70))
  }

  // §2.4
  @Test func theActiveIntervalEndsExclusivelyAtBeginPlusADOverSpeed() {
    let a = basic { $0.speed = 2 }
    #expect(isClose(value(of: a, at: 0.4999), 99.98))
    #expect(value(of: a, at: 0.5) == -1)
  }

  @Test func timeOffsetWrapsAndNeitherMovesNorShortensTheInterval() {
    let a = basic { $0.timeOffset = 0.5 }
    #expect(value(of: a, at: 0) == 50)
    #expect(isClose(value(of: a, at: 0.6), 10))  // 1.1 wraps to 0.1
    #expect(isClose(value(of: a, at: 0.99), 49))
    #expect(value(of: a, at: 1.0) == -1)
  }

  @Test func negativeOffsetsWrapByFloorModulo() {
    let a = basic {
      $0.timeOffset = -0.25; $0.repeatCount = 2
    }
    #expect(value(of: a, at: 0) == 75)
    #expect(value(of: a, at: 0.5) == 25)
  }

  // §2.5
  @Test func backwardsFillShowsTheOffsetFrameBeforeTheStart() {
    let a = basic {
      $0.beginTime = 1; $0.fillMode = .backwards; $0.timeOffset = 0.25
    }
    #expect(value(of: a, at: 0) == 25)
    let noFill = basic {
      $0.beginTime = 1; $0.timeOffset = 0.25
    }
    #expect(value(of: noFill, at: 0) == -1)
    let both = basic {
      $0.beginTime = 1; $0.fillMode = .both
    }
    #expect(value(of: both, at: 0.5) == 0)
  }

  @Test func forwardsFillNeedsRemovedOnCompletionOff() {
    #expect(value(of: basic { $0.fillMode = .forwards }, at: 2) == -1)
    #expect(
      value(
        of: basic {
          $0.fillMode = .forwards; $0.isRemovedOnCompletion = false
        }, at: 2) == 100)
    #expect(
      value(
        of: basic {
          $0.fillMode = .both; $0.isRemovedOnCompletion = false
        }, at: 5) == 100)
    #expect(
      value(
        of: basic {
          $0.fillMode = .backwards; $0.isRemovedOnCompletion = false
        }, at: 2) == -1)
  }

  // §2.6
  @Test func speedZeroFreezesAtTheOffsetOnceBegun() {
    let a = basic {
      $0.speed = 0; $0.timeOffset = 0.4; $0.beginTime = 1
    }
    #expect(value(of: a, at: 0.5) == -1)
    #expect(value(of: a, at: 1) == 40)
    #expect(value(of: a, at: 100) == 40)
  }

  @Test func negativeSpeedRunsBackwards() {
    let a = basic {
      $0.speed = -1; $0.timeOffset = 1
    }
    #expect(value(of: a, at: 0.25) == 75)
    #expect(value(of: a, at: 0.75) == 25)
    #expect(value(of: a, at: 1) == -1)
    // The ends are the contract's boundaries (timing.md §2.6, asked about by the nineteenth
    // hostile pass): at its beginTime t = 1 wraps to a new cycle's start, and filling forwards
    // t_end = 0 is the end of the cycle before.
    #expect(value(of: a, at: 0) == 0)
    let filled = basic {
      $0.speed = -1; $0.timeOffset = 1; $0.fillMode = .forwards; $0.isRemovedOnCompletion = false
    }
    #expect(value(of: filled, at: 1) == 100 && value(of: filled, at: 1.5) == 100)
  }

  @Test func speedIsStoredAsFloat() {
    let a = basic { $0.speed = 0.3 }
    #expect(isClose(value(of: a, at: 1), 30.000001192092896, 1e-12))
  }
}

/// docs/timing.md §4: active time to basic time, the boundary table of §4.3, and cumulative.
@Suite struct ActiveTimeToBasicTimeTests {
  static let table: [(repeatCount: Float, autoreverses: Bool, time: Double, expected: Double)] = [
    (2.5, false, 1.0, 0),  // exactly on a cycle boundary inside: the new cycle starts
    (2.5, false, 2.5, 50),  // end, forwards
    (3, false, 3.0, 100),  // end rule: integer count freezes on toValue
    (0, true, 1.0, 100),  // the turnaround
    (0, true, 2.0, 0),  // autoreverse freezes on fromValue
    (2, true, 4.0, 0),
    (2.5, true, 5.0, 100),
  ]

  @Test(arguments: table.indices)
  func boundaryTable(_ row: Int) {
    let r = Self.table[row]
    let a = basic {
      $0.repeatCount = r.repeatCount
      $0.autoreverses = r.autoreverses
      $0.fillMode = .forwards
      $0.isRemovedOnCompletion = false
    }
    #expect(value(of: a, at: r.time) == r.expected)
  }

  @Test func endWithRemovedFillShowsTheModel() {
    #expect(value(of: basic { $0.repeatCount = 3 }, at: 3) == -1)
    #expect(
      value(
        of: basic {
          $0.repeatCount = 3; $0.fillMode = .forwards
        }, at: 3) == -1)
  }

  @Test func repeatDurationBoundsTheActiveInterval() {
    let a = basic { $0.repeatDuration = 1.5 }
    #expect(value(of: a, at: 1.25) == 25)
    #expect(value(of: a, at: 1.5) == -1)
    // It wins over repeatCount when both are set (docs/timing.md §4.1).
    #expect(
      value(
        of: basic {
          $0.repeatDuration = 1.5; $0.repeatCount = 5
        }, at: 2) == -1)
  }

  @Test func infiniteRepeats() {
    #expect(value(of: basic { $0.repeatCount = .infinity }, at: 1000.25) == 25)
    #expect(value(of: basic { $0.repeatCount = .greatestFiniteMagnitude }, at: 7.5) == 50)
  }

  @Test func theBackwardLegMirrorsWithoutFlippingTheTimingFunction() {
    let a = basic {
      $0.autoreverses = true; $0.timingFunction = .easeIn
    }
    let forward = value(of: a, at: 0.75)
    let backward = value(of: a, at: 1.25)
    #expect(forward == backward)
    #expect(isClose(backward, 62.18618746, 1e-6))
  }

  @Test func fractionalRepeatCountEndsMidPass() {
    let a = basic {
      $0.repeatCount = 3.5; $0.duration = 2; $0.fillMode = .forwards;
      $0.isRemovedOnCompletion = false
    }
    #expect(isClose(value(of: a, at: 6.9), 45))
    #expect(value(of: a, at: 7) == 50)  // Lockwood: 3.5 x 2 s = 7 s in all
  }

  @Test func cumulativeAddsOneChangePerCycle() {
    let a = basic {
      $0.repeatCount = 3; $0.isCumulative = true; $0.fillMode = .forwards;
      $0.isRemovedOnCompletion = false
    }
    #expect(value(of: a, at: 0.5) == 50)
    #expect(value(of: a, at: 2.5) == 250)
    #expect(value(of: a, at: 3) == 300)  // frozen at the end of the third cycle
  }

  @Test func cumulativeTransformsKeepTurning() {
    // The cat HUD's pupils: half a turn per cycle, cumulative, so cycle k starts at k half turns.
    var a = BasicAnimation(keyPath: "transform")
    a.fromValue = .transform(.rotation(0))
    a.toValue = .transform(.rotation(.pi))
    a.duration = 1
    a.isCumulative = true
    a.repeatCount = .infinity
    func angle(at t: Double) -> Double {
      var collected: [AnimationSample] = []
      samples(of: a, at: t, into: &collected)
      guard
        case .transform(let m) = collected[0].value(
          model: .transform(.identity), underlying: .transform(.identity))
      else { return .nan }
      return TransformDecomposition(m).rotation
    }
    #expect(isClose(angle(at: 0.5), .pi / 2))
    #expect(isClose(abs(angle(at: 1)), .pi))  // ±π: the same turn
    #expect(isClose(angle(at: 1.5), -.pi / 2))  // three quarters of a turn
    #expect(isClose(angle(at: 2.25), .pi / 4))  // two half turns and a quarter of one
  }
}
