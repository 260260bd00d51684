import ImageComparison
import Flipbook
import Testing
import XCTest

// Assertions for XCTest and Swift Testing alike: a failure is reported to whichever runs the
// test (an `Issue` under Swift Testing, `XCTFail` under XCTest), with the test's name, the
// golden's path, what differs, where the failure pictures are and the command that re-records.
//
// The caller's place comes from plain literals (`#fileID`, `#filePath`, `#function`, `#line`,
// `#column`), never from Swift Testing's macros, so the same calls compile in a file that
// imports only XCTest and in one that imports only Testing.
//
// Goldens live beside the test: `__Snapshots__/<TestFile>/<test>.<name>.png` (`.gif` for GIFs).

/// Asserts that `bitmap` matches the golden `name` of the calling test.
///
/// Leave `fileID`, `file`, `function`, `line` and `column` at their defaults: they say where the
/// golden lives and where the failure is reported.
public func assertGolden(
  _ bitmap: Bitmap, named name: String, tolerance: Tolerance = .antialiasing,
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  let caller = Caller(fileID: fileID, file: file, function: function, line: line, column: column)
  var golden = GoldenFile(testFile: "\(file)", test: function, name: name)
  golden.rerunFilter = caller.filter
  caller.report(golden.verify(bitmap, tolerance: tolerance))
}

/// Asserts that a canvas's pixels match the golden `name` of the calling test.
public func assertGolden(
  _ canvas: Canvas, named name: String, tolerance: Tolerance = .antialiasing,
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  assertGolden(
    canvas.makeBitmap(), named: name, tolerance: tolerance, fileID: fileID, file: file,
    function: function, line: line, column: column)
}

/// Asserts that the frames of `scene` at `times` (seconds, taken in increasing order) match the
/// goldens `name@<time>` of the calling test, one golden per time. A scene that cannot render
/// (an animation `Layer.add(_:forKey:)` refused, say) fails this test with the reason.
public func assertGolden(
  _ scene: Scene, at times: [Double], named name: String, scale: Double? = nil,
  tolerance: Tolerance = .antialiasing,
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  let caller = Caller(fileID: fileID, file: file, function: function, line: line, column: column)
  for time in times.sorted() {
    let label = "\(name)@\(shortest(time))"
    do {
      let frame = try scene.makeFrame(at: time, scale: scale).makeBitmap()
      var golden = GoldenFile(testFile: "\(file)", test: function, name: label)
      golden.rerunFilter = caller.filter
      caller.report(golden.verify(frame, tolerance: tolerance))
    } catch {
      let reason = "\(label): the scene could not be rendered at \(time) s: \(error)"
      caller.report(.failed(message: reason))
    }
  }
}

/// Asserts that the frames at `times` of the scene file or Lottie animation (JSON or dotLottie)
/// at `path` match the goldens `name@<time>` of the calling test: a team's Lottie files as
/// goldens in its test suite. A file that cannot be read fails the test with every problem; with
/// `strict`, so does a Lottie file using a feature Flipbook does not draw.
public func assertGolden(
  contentsOf path: String, at times: [Double], named name: String, scale: Double? = nil,
  strict: Bool = false, tolerance: Tolerance = .antialiasing,
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  let scene: Scene
  do {
    scene = try SceneDocument.load(contentsOf: path, strict: strict).scene
  } catch {
    let caller = Caller(fileID: fileID, file: file, function: function, line: line, column: column)
    caller.report(.failed(message: "\(name): \(error.description)"))
    return
  }
  assertGolden(
    scene, at: times, named: name, scale: scale, tolerance: tolerance, fileID: fileID, file: file,
    function: function, line: line, column: column)
}

/// Asserts that every frame of the scene `recipe` builds, as an animated GIF with the export
/// `options`, matches the golden GIF `name` of the calling test: frame count, delays, loop count
/// and each composited frame. A failure shows the frame that differs most, with its index and
/// time.
public func assertGolden(
  everyFrameOf recipe: SceneRecipe, named name: String, options: Export.Options = Export.Options(),
  tolerance: Tolerance = .antialiasing,
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  do {
    // Rendered into memory (a `GIFSink` with a `.memory` destination): no temporary file.
    let bytes = try Export.gifData(recipe, options: options)
    assertGolden(
      gif: bytes, named: name, tolerance: tolerance, fileID: fileID, file: file,
      function: function, line: line, column: column)
  } catch {
    let caller = Caller(fileID: fileID, file: file, function: function, line: line, column: column)
    caller.report(.failed(message: "\(name): the scene could not be rendered to a GIF: \(error)"))
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
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  let caller = Caller(fileID: fileID, file: file, function: function, line: line, column: column)
  do {
    var webpOptions = options.webp
    webpOptions.quality = nil  // goldens are lossless
    let sink = WebPSink(
      .memory, options: webpOptions, loopCount: options.loopCountIsSet ? options.gif.loopCount : nil
    )
    _ = try Export.render(recipe, into: sink, options: options)
    var golden = GoldenFile(testFile: "\(file)", test: function, name: name, extension: "webp")
    golden.rerunFilter = caller.filter
    caller.report(golden.verifyWebP(sink.bytes, tolerance: tolerance))
  } catch {
    caller.report(.failed(message: "\(name): the scene could not be rendered to a WebP: \(error)"))
  }
}

/// Asserts that the GIF `bytes` match the golden GIF `name` of the calling test, frame by frame
/// (frame count, delays and loop count too).
public func assertGolden(
  gif bytes: [UInt8], named name: String, tolerance: Tolerance = .antialiasing,
  fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
  line: UInt = #line, column: UInt = #column
) {
  let caller = Caller(fileID: fileID, file: file, function: function, line: line, column: column)
  var golden = GoldenFile(testFile: "\(file)", test: function, name: name, extension: "gif")
  golden.rerunFilter = caller.filter
  caller.report(golden.verifyGIF(bytes, tolerance: tolerance))
}

/// A time as a golden name shows it: `0.5`, `2`, `1.25`.
func shortest(_ time: Double) -> String {
  time == time.rounded() && abs(time) < 1e15 ? String(Int(time)) : "\(time)"
}
