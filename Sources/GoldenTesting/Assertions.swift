import ImageComparison
import Flipbook
import Testing
import XCTest

// Assertions for XCTest and Swift Testing alike: a failure is reported to whichever runs the
// test (an `Issue` under Swift Testing, `XCTFail` under XCTest), with the golden's path, what
// differs, where the failure pictures are and what to run next.
//
// Goldens live beside the test: `__Snapshots__/<TestFile>/<test>.<name>.png` (`.gif` for GIFs).

/// Asserts that `bitmap` matches the golden `name` of the calling test.
public func assertGolden(
  _ bitmap: Bitmap, named name: String, tolerance: Tolerance = .antialiasing,
  filePath: StaticString = #filePath, function: StaticString = #function, line: UInt = #line,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let golden = GoldenFile(testFile: "\(filePath)", test: "\(function)", name: name)
  report(golden.verify(bitmap, tolerance: tolerance), filePath: filePath, line: line, sourceLocation: sourceLocation)
}

/// Asserts that a canvas's pixels match the golden `name` of the calling test.
public func assertGolden(
  _ canvas: Canvas, named name: String, tolerance: Tolerance = .antialiasing,
  filePath: StaticString = #filePath, function: StaticString = #function, line: UInt = #line,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  assertGolden(canvas.makeBitmap(), named: name, tolerance: tolerance, filePath: filePath, function: function, line: line, sourceLocation: sourceLocation)
}

/// Asserts that the frames of `scene` at `times` (seconds, taken in increasing order) match the
/// goldens `name@<time>` of the calling test, one golden per time.
public func assertGolden(
  _ scene: Scene, at times: [Double], named name: String, scale: Double? = nil, tolerance: Tolerance = .antialiasing,
  filePath: StaticString = #filePath, function: StaticString = #function, line: UInt = #line,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for time in times.sorted() {
    let label = "\(name)@\(shortest(time))"
    do {
      let frame = try scene.makeFrame(at: time, scale: scale).makeBitmap()
      let golden = GoldenFile(testFile: "\(filePath)", test: "\(function)", name: label)
      report(golden.verify(frame, tolerance: tolerance), filePath: filePath, line: line, sourceLocation: sourceLocation)
    } catch {
      report(.failed(message: "\(label): the scene could not be rendered at \(time) s: \(error)"), filePath: filePath, line: line, sourceLocation: sourceLocation)
    }
  }
}

/// Asserts that every frame of the scene `recipe` builds, as an animated GIF with the export
/// `options`, matches the golden GIF `name` of the calling test: frame count, delays, loop count
/// and each composited frame.
public func assertGolden(
  everyFrameOf recipe: SceneRecipe, named name: String, options: Export.Options = Export.Options(),
  tolerance: Tolerance = .antialiasing,
  filePath: StaticString = #filePath, function: StaticString = #function, line: UInt = #line,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    // Rendered into memory (a `GIFSink` with a `.memory` destination): no temporary file.
    let bytes = try Export.gifData(recipe, options: options)
    assertGolden(gif: bytes, named: name, tolerance: tolerance, filePath: filePath, function: function, line: line, sourceLocation: sourceLocation)
  } catch {
    report(.failed(message: "\(name): the scene could not be rendered to a GIF: \(error)"), filePath: filePath, line: line, sourceLocation: sourceLocation)
  }
}

/// Asserts that every frame of the scene `recipe` builds, as a lossless animated WebP, matches the
/// golden WebP `name` of the calling test (`__Snapshots__/<TestFile>/<test>.<name>.webp`): frame
/// count, durations, loop count and each frame with its exact colours and partial alpha, where a
/// GIF golden keeps at most 256 colours and 1-bit alpha. For animations whose transparency or
/// gradients matter.
public func assertGolden(
  everyFrameOf recipe: SceneRecipe, asWebPNamed name: String,
  options: Export.Options = Export.Options(), tolerance: Tolerance = .antialiasing,
  filePath: StaticString = #filePath, function: StaticString = #function, line: UInt = #line,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    var webpOptions = options.webp
    webpOptions.quality = nil  // goldens are lossless
    let sink = WebPSink(.memory, options: webpOptions, loopCount: options.loopCountIsSet ? options.gif.loopCount : nil)
    _ = try Export.render(recipe, into: sink, options: options)
    let golden = GoldenFile(testFile: "\(filePath)", test: "\(function)", name: name, extension: "webp")
    report(golden.verifyWebP(sink.bytes, tolerance: tolerance), filePath: filePath, line: line, sourceLocation: sourceLocation)
  } catch {
    report(.failed(message: "\(name): the scene could not be rendered to a WebP: \(error)"), filePath: filePath, line: line, sourceLocation: sourceLocation)
  }
}

/// Asserts that the GIF `bytes` match the golden GIF `name` of the calling test, frame by frame
/// (frame count, delays and loop count too).
public func assertGolden(
  gif bytes: [UInt8], named name: String, tolerance: Tolerance = .antialiasing,
  filePath: StaticString = #filePath, function: StaticString = #function, line: UInt = #line,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let golden = GoldenFile(testFile: "\(filePath)", test: "\(function)", name: name, extension: "gif")
  report(golden.verifyGIF(bytes, tolerance: tolerance), filePath: filePath, line: line, sourceLocation: sourceLocation)
}

/// Reports a failing outcome to the running test framework.
func report(_ outcome: GoldenFile.Outcome, filePath: StaticString, line: UInt, sourceLocation: SourceLocation) {
  guard let message = outcome.message else { return }
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  } else {
    XCTFail(message, file: filePath, line: line)
  }
}

/// A time as a golden name shows it: `0.5`, `2`, `1.25`.
func shortest(_ time: Double) -> String {
  time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : "\(time)"
}
