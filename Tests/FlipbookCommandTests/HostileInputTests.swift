import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// Issue 18, docs/command-line.md "Limits": hostile options and files get one clear message and
/// the documented exit status, before any work starts.
@Suite struct HostileInputTests {
  static let scenes = FixtureFiles.root + "/scenes"
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  @Test func negativeNumbersReachTheirOptionAndGetItsRange() {
    let fps = run(["render", Self.scenes + "/spinner.json", "-o", folder + "/s.gif", "--fps", "-1"])
    #expect(fps.status == 2)
    #expect(
      fps.errors.hasPrefix("Error: --fps must be from 0.01 to 240 frames per second, found -1\n"))
    let jobs = run([
      "render", Self.scenes + "/spinner.json", "-o", folder + "/s.gif", "--jobs", "-3",
    ])
    #expect(jobs.status == 2)
    #expect(jobs.errors.hasPrefix("Error: --jobs must be 1...256, found -3\n"))
    // A negative start time is a time, not an option.
    #expect(
      run([
        "render", Self.scenes + "/spinner.json", "-o", folder + "/s.gif", "--from", "-0.5", "--to",
        "0", "--quiet",
      ]).status == 0)
  }

  @Test func aHugeRangeIsRefusedBeforeCountingFrames() {
    let result = run([
      "render", Self.scenes + "/spinner.json", "-o", folder + "/s.gif", "--to", "1e300",
    ])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(Self.scenes)/spinner.json: the render would make more than 10^18 frames, over the limit of 100000\n"
    )
  }

  @Test func aFrameUnderOnePixelNamesSizeAndScale() {
    let result = run([
      "frame", Self.scenes + "/spinner.json", "--time", "0", "-o", folder + "/s.png", "--scale",
      "0.001",
    ])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(Self.scenes)/spinner.json: --scale 0.001 makes a frame of 0 x 0 pixels from the "
        + "scene's 40 x 40 points, outside the limits (1 to 16384 pixels a side, at most 64 "
        + "megapixels)\n")
  }

  @Test func aMissingSceneIsNamedOnce() {
    for command in [
      ["render", folder + "/x.json", "-o", folder + "/x.gif"],
      ["frame", folder + "/x.json", "--time", "0", "-o", folder + "/x.png"],
    ] {
      let result = run(command)
      #expect(result.status == 1)
      #expect(
        result.errors == "\(folder)/x.json: cannot read the file: No such file or directory\n")
    }
  }

  @Test func aDeviceIsNotReadAsAScene() {
    let result = run(["render", "/dev/zero", "-o", folder + "/z.gif"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "/dev/zero: cannot read the file: is not a regular file (a device, pipe or socket)\n")
  }

  @Test func aDynamicsSceneFarInTimeIsRefusedAtOnce() {
    let result = run([
      "frame", Self.scenes + "/cradle.json", "--time", "1e7", "-o", folder + "/c.png",
    ])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(Self.scenes)/cradle.json: the time 10000000 s is past the limit of 3600 s for a scene "
        + "that simulates (dynamics, timeline events or display-link hooks step through every instant before it)\n"
    )
    #expect(access(folder + "/c.png", F_OK) != 0)
  }
}
