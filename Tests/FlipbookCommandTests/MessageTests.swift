import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// Issue 18, fifth pass: what the command says of numbers typed oddly, options given twice,
/// outputs it cannot write and inputs that are not what their names say.
@Suite struct MessageTests {
  static let scene = FixtureFiles.root + "/scenes/strokes.json"
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  /// `--fps 0x10` was read as 16, `--fps 1e-401` said "found 0": only decimal numbers are
  /// read, and one out of a number's range is refused as typed.
  @Test func numbersAreDecimalAndInRangeAsTyped() throws {
    let cases = [
      ("0x10", "'0x10' is invalid for '--fps <fps>': expected a decimal number"),
      (
        "1e-401",
        "'1e-401' is invalid for '--fps <fps>': 1e-401 is out of range: so small it "
          + "underflows to 0"
      ),
      ("1e999", "'1e999' is invalid for '--fps <fps>': 1e999 is out of range: too large"),
      ("nan", "'nan' is invalid for '--fps <fps>': expected a decimal number"),
    ]
    for (value, message) in cases {
      let result = run(["render", Self.scene, "-o", folder + "/x.gif", "--fps", value])
      #expect(result.status == 2)
      #expect(result.errors.contains(message), "\(value): \(result.errors)")
    }
    for bad in ["e5", ".", "1e", "--1", "1.2.3", " 1", "0b1", "inf", "infinity", ""] {
      #expect(throws: NumberError.self, "\(bad)") { try decimal(bad) }
    }
    #expect(try decimal("+2.5e1") == 25 && decimal("-.5") == -0.5 && decimal("0e999") == 0)
    #expect(try decimal("1.") == 1 && decimal("7E-2") == 0.07)
  }

  /// Twenty-sixth pass: a `--time` of 100,000 digits was repeated whole, twice, in a line of
  /// 200,093 bytes. Arguments over 200 characters are cut in their middle, as paths are.
  @Test func aLongValueIsCutInAUsageError() {
    let digits = String(repeating: "1", count: 100_000)
    let cut = String(repeating: "1", count: 100) + "…" + String(repeating: "1", count: 99)
    let result = run(["inspect", Self.scene, "--time", digits])
    #expect(result.status == 2)
    #expect(
      result.errors.hasPrefix(
        "Error: The value '\(cut)' is invalid for '--time <time>': \(cut) is out of range: "))
    #expect(result.errors.utf8.count < 1_000 && !result.errors.contains(digits.prefix(201)))
  }

  /// Twenty-eighth pass: a scale of 10^155 (a scene of 10^-153 points, a legal 100 x 100
  /// frame) squared the frame's transform past a double, and Cairo drew a transparent frame with
  /// pixels of memory it had not written, different on every run. Scales are 10^-6 to 10^6.
  @Test func aScaleOutOfItsRangeIsRefused() {
    let png = folder + "/x.png"
    for scale in ["1e7", "1e-7"] {
      let result = run(["frame", Self.scene, "--time", "0", "--scale", scale, "-o", png])
      #expect(result.status == 1)
      #expect(
        result.errors
          == "\(Self.scene): --scale \(scale == "1e7" ? "10000000" : "1e-07") is outside "
          + "1e-06...1000000 pixels a point\n")
    }
    #expect(access(png, F_OK) != 0)
  }

  /// Twenty-eighth pass: `batch`'s usage line showed INPUTs and --output as optional (they
  /// are, with --merge only), right under an error saying --output was missing.
  @Test func batchUsageShowsItsTwoForms() {
    let result = run(["batch", Self.scene])
    #expect(result.status == 2)
    #expect(
      result.errors
        == "Error: Missing expected argument '--output <output>'\n"
        + "Usage: flipbook batch <inputs> ... --output <output> [--formats <formats>] "
        + "[--shard <shard>] [--jobs <jobs>] [--force] [--quiet]\n"
        + "       flipbook batch --merge <merge>\n"
        + "  See 'flipbook batch --help' for more information.\n")
  }

  /// Thirty-first and -second passes: `batch -o ""` (a script's unset variable) wrote into the
  /// working folder and replaced its index.html; usage errors and success lines printed control
  /// characters of an argument raw (`x<ESC>[2J.zzz` cleared the terminal).
  @Test func emptyFoldersAndControlCharactersInArgumentsAreSaid() throws {
    let empty = run(["batch", Self.scene, "-o", ""])
    #expect(empty.status == 2)
    #expect(
      empty.errors.hasPrefix(
        "Error: --output is empty: name the output folder (use . for this one)\n"))
    #expect(run(["batch", "", "-o", folder]).errors.hasPrefix("Error: an input is empty"))
    let escaped = run(["render", Self.scene, "-o", "x\u{1B}[2J.zzz"])
    #expect(escaped.status == 2)
    #expect(escaped.errors.contains("'x\\u001B[2J.zzz'") && !escaped.errors.contains("\u{1B}"))
    let output = folder + "/bad\nname.png"
    let result = try Tools.run(Tools.flipbook, ["render", Self.scene, "-o", output])
    #expect(result.output.hasPrefix("\(folder)/bad\\u000Aname.png: 1 frame"), "\(result.output)")
  }

  /// Whole-number options said only that a value like `1.5` was "invalid": each names what it
  /// takes, and one out of its range names the value found.
  @Test func wholeNumberOptionsSayTheirRange() {
    let png = folder + "/x.png", gif = folder + "/x.gif"
    let cases: [([String], String)] = [
      (
        ["render", Self.scene, "-o", gif, "--jobs", "abc"],
        "Error: The value 'abc' is invalid for '--jobs <jobs>': expected a whole number in 1...256"
      ),
      (
        ["render", Self.scene, "-o", gif, "--colors", "2.5"],
        "Error: The value '2.5' is invalid for '--colors <colors>': expected a whole number in "
          + "2...256"
      ),
      (
        ["render", Self.scene, "-o", gif, "--loop", "99999999999999999999"],
        "Error: The value '99999999999999999999' is invalid for '--loop <loop>': expected a whole "
          + "number in 0...65536, found one past 9223372036854775807 in magnitude"
      ),
      (
        ["render", Self.scene, "-o", folder + "/x.mp4", "--crf", "1e3"],
        "Error: The value '1e3' is invalid for '--crf <crf>': expected a whole number in 0...51 "
          + "for H.264 (.mp4), 0...63 for VP9 (.webm)"
      ),
      (
        ["sheet", Self.scene, "-o", png, "--columns", "1.5"],
        "Error: The value '1.5' is invalid for '--columns <columns>': expected a whole number in "
          + "1...100"
      ),
      (
        ["sheet", Self.scene, "-o", png, "--columns", "0"],
        "Error: --columns must be 1...100, found 0"
      ),
      (
        ["diff", png, png, "--max-diff-pixels", "x"],
        "Error: The value 'x' is invalid for '--max-diff-pixels <max-diff-pixels>': expected a "
          + "whole number of 0 or more"
      ),
      // Twentieth hostile pass: a whole number too large was "not a whole number", a negative
      // one was not shown, and -o naming an input printed the root usage, not diff's.
      (
        ["diff", png, png, "--max-diff-pixels", "9223372036854775808"],
        "Error: The value '9223372036854775808' is invalid for '--max-diff-pixels "
          + "<max-diff-pixels>': expected a whole number of 0 or more, found one past "
          + "9223372036854775807 in magnitude"
      ),
      (
        ["diff", png, png, "--max-diff-pixels", "-1"],
        "Error: --max-diff-pixels must be 0 or more, found -1"
      ),
      (
        ["batch", Self.scene, "-o", folder, "--jobs", "0x4"],
        "Error: The value '0x4' is invalid for '--jobs <jobs>': expected a whole number in 1...256"
      ),
    ]
    for (arguments, message) in cases {
      let result = run(arguments)
      #expect(result.status == 2)
      #expect(result.errors.hasPrefix(message + "\n"), "\(arguments): \(result.errors)")
    }
    #expect(throws: Never.self) { _ = try wholeNumber("in 1...2")("+2") }
    try? AtomicFile.write([0], to: png)
    let input = run(["diff", png, folder + "/other.png", "-o", png])
    #expect(input.status == 2)
    #expect(
      input.errors.hasPrefix(
        "Error: -o \(png) names one of the compared files\nUsage: flipbook diff"),
      "\(input.errors)")
  }

  /// Nineteenth hostile pass: the argument parser takes time in the square of the arguments
  /// (16,000 `--time` options took 16 s, 64,000 batch inputs 100 s before any work). A batch's
  /// inputs past the first are set aside and given to it after parsing, in order; any other
  /// command line is limited to 4,096 arguments, said at once.
  @Test func longCommandLinesAreReadInLinearTime() throws {
    let inputs = (0..<300).map { "in/s\($0).json" }
    let (parsed, aside) = BulkArguments.settingAsideBatchInputs(
      ["batch", "first.json", "-o", "out", "--jobs=2", "--formats", "png"] + inputs
        + ["--", "-odd.json"])
    #expect(
      parsed == ["batch", "first.json", "-o", "out", "--jobs=2", "--formats", "png", "--"])
    #expect(aside == inputs + ["-odd.json"])
    let few = ["batch", "a.json", "b.json", "-o", "out"]
    #expect(BulkArguments.settingAsideBatchInputs(few) == (few, []))
    // A batch of 300 inputs renders them all.
    let scene = #"{"flipbook": 1, "size": [4, 4], "duration": 0.1, "fps": 10, "layers": []}"#
    let paths = try (0..<300).map { k in
      let path = folder + "/s\(k).json"
      try AtomicFile.write(Array(scene.utf8), to: path)
      return path
    }
    let batch = run(["batch"] + paths + ["-o", folder + "/out", "--formats", "png", "--quiet"])
    #expect(batch.status == 0, "\(batch.errors)")
    let manifest = try AtomicFile.read(folder + "/out/manifest.json")
    #expect(
      String(decoding: manifest, as: UTF8.self).components(separatedBy: "\"name\"").count == 301)
    // Past the limit, at once, with the command's usage.
    let times = (0..<2049).flatMap { ["--time", "\($0)"] }
    let long = run(["inspect", Self.scene] + times)
    #expect(long.status == 2)
    #expect(
      long.errors.hasPrefix(
        "Error: 4100 arguments, more than the 4096 flipbook takes on one command line besides a "
          + "batch's inputs: ask for many times with --from, --to and --step (inspect), or frames "
          + "spread evenly (sheet, without --times), and give many inputs as folders or @LIST "
          + "files\nUsage: flipbook inspect"), "\(long.errors.prefix(300))")
  }

  /// Twenty-first and twenty-second hostile passes: an input file's name holding a newline or
  /// an escape sequence was printed raw (one problem on two lines, `ESC[2J` clearing the
  /// terminal), where `-o` names and values were escaped. Input names are escaped too.
  @Test func inputNamesWithControlCharactersAreEscaped() throws {
    let scene = folder + "/bad\nname\u{1B}[31m.json"
    try AtomicFile.write(
      Array(#"{"flipbook": 1, "size": [4, 4], "layers": [{"bogus": 1}]}"#.utf8), to: scene)
    let shown = folder + "/bad\\u000Aname\\u001B[31m.json"
    #expect(
      run(["render", scene, "-o", folder + "/x.gif"]).errors
        == "\(shown): layers[0].bogus: unknown key\n")
    let picture = folder + "/a\nb.png"
    try AtomicFile.write([0x78], to: picture)
    #expect(
      run(["diff", picture, picture]).errors
        == "\(folder)/a\\u000Ab.png: is neither a PNG, a GIF, an APNG nor a WebP: diff compares two "
        + "PNGs, or two GIFs, APNGs or WebPs\n")
    #expect(
      run(["batch", "@" + folder + "/no\nlist.txt", "-o", folder + "/out"]).errors
        == "\(folder)/no\\u000Alist.txt: cannot read the list: No such file or directory\n")
  }

  /// `--fps 10 --fps 20` took the last without a word.
  @Test func anOptionGivenTwiceIsRefusedByName() {
    let twice = run(["render", Self.scene, "-o", folder + "/x.gif", "--fps", "10", "--fps=20"])
    #expect(twice.status == 2)
    #expect(twice.errors.hasPrefix("Error: --fps given twice (10, then 20): give it once\n"))
    #expect(twice.errors.contains("Usage: flipbook render"))
    let spelled = run([
      "render", Self.scene, "-o", folder + "/x.gif", "--output", folder + "/y.gif",
    ])
    #expect(
      spelled.errors.hasPrefix(
        "Error: --output given twice (-o \(folder)/x.gif, then --output \(folder)/y.gif)"))
    // Options that repeat still may, and a value that looks like an option is a value.
    #expect(run(["inspect", Self.scene, "--time", "0", "--time", "0.5"]).status == 0)
    #expect(
      RepeatedOptions.problem(in: ["render", "a.json", "-o", "--fps", "--fps", "2"]) == nil)
  }

  /// Failures writing the output said only the path and the reason.
  @Test func anUnwritableOutputIsNamedAsTheOutput() {
    for (command, output) in [
      (["render", Self.scene], "/nonexistent/x.gif"),
      (["frame", Self.scene, "--time", "0"], "/nonexistent/x.png"),
      (["sheet", Self.scene], "/nonexistent/s.png"),
    ] {
      let result = run(command + ["-o", output])
      #expect(result.status == 1)
      #expect(
        result.errors
          == "cannot write output \(output): the folder it goes in, /nonexistent, does not exist\n")
    }
    // A folder of frames too (it said only the path and the reason).
    let frames = run(["render", Self.scene, "-o", "/nonexistent/frames/"])
    #expect(
      frames.errors
        == "cannot write output /nonexistent/frames: the folder it goes in, /nonexistent, does not "
        + "exist\n")
    // Sixteenth pass: a 5,000-byte path was printed whole; past 200 characters it is cut in
    // its middle, keeping its start and the file's name.
    let deep =
      "/nonexistent/" + String(repeating: String(repeating: "d", count: 200) + "/", count: 15)
      + "x.gif"
    let long = run(["render", Self.scene, "-o", deep])
    #expect(
      long.errors
        == "cannot write output " + String(deep.prefix(100)) + "…" + String(deep.suffix(99))
        + ": the folder it goes in does not exist\n")
  }

  /// A JSON file named .gif was reported by the screen size its bytes made; `--scale` was
  /// ignored for a GIF.
  @Test func aSheetOfAGIFSaysWhatIsWrongWithIt() throws {
    let fake = folder + "/fake.gif"
    try AtomicFile.write(Array(FixtureFiles.text(Self.scene).utf8), to: fake)
    let result = run(["sheet", fake, "-o", folder + "/s.png"])
    #expect(result.status == 1)
    #expect(result.errors == "\(fake): not a GIF (Data is not in GIF format)\n")
    let gif = folder + "/real.gif"
    #expect(run(["render", Self.scene, "-o", gif, "--quiet"]).status == 0)
    let scaled = run(["sheet", gif, "-o", folder + "/s.png", "--scale", "3"])
    #expect(scaled.status == 2)
    #expect(
      scaled.errors.hasPrefix(
        "Error: --scale applies to a scene: a GIF's frames are shown at their own pixel size"))
  }

  /// `--from -1e308 --to 1e308 --step 1e308` is three times, not "more than 1,000,000".
  @Test func aRangeAtTheEndsOfTheNumberLineIsCountedRight() {
    #expect(InspectCommand.steps(from: -1e308, to: 1e308, step: 1e308) == 2)
    let times = (0..<4).map { InspectCommand.time($0, from: -1e308, step: 1e308) }
    #expect(times[0] == -1e308 && times[1] == 0 && times[2] == 1e308 && times[3].isInfinite)
    let result = run([
      "inspect", Self.scene, "--from", "-1e308", "--to", "1e308", "--step", "1e308",
    ])
    #expect(result.status == 0 && result.errors.isEmpty)
  }

  /// 100 times of a scene of 10,000 layers printed 613 MB in 20 s, and the 1,000,000 times a
  /// range may ask for would have printed 6 TB: what would be printed is counted before a line
  /// is printed (a plain layer's state is 110 to 112 units: its keys, numbers and name).
  @Test func tooManyLayerStatesAreRefusedBeforeAnyIsPrinted() throws {
    let layers = (0..<1_000).map { #"{"name": "l\#($0)", "bounds": [0, 0, 1, 1]}"# }
    let path = folder + "/many.json"
    try AtomicFile.write(
      Array(
        #"{"flipbook": 1, "size": [100, 100], "layers": [\#(layers.joined(separator: ", "))]}"#
          .utf8), to: path)
    let refused = try Tools.run(
      Tools.flipbook, ["inspect", path, "--from", "0", "--to", "1", "--step", "0.001"])
    #expect(refused.status == 1 && refused.output.isEmpty)
    #expect(
      refused.errors
        == "\(path): 1001 times of 110892 units each (keys, numbers, characters, path elements) "
        + "would print more than the limit of 64000000 units: ask for at most 577 times "
        + "(--time, --step)\n")
    let fits = try Tools.run(
      Tools.flipbook, ["inspect", path, "--from", "0", "--to", "0.001", "--step", "0.001"])
    #expect(fits.status == 0 && fits.output.split(separator: "\n").count == 2)
  }

  /// An independent hostile pass: one shape layer of a 100,000-element path printed 0.9 MB a
  /// state, so 1,001 times printed 891 MB in 140 s under a limit that counted states (and
  /// 1,000,000 would have printed 890 GB). Its path counts 3 units an element (a command and
  /// two numbers), at its largest among the model and the animations' values.
  @Test func aLayerThatPrintsMuchCountsWhatItPrints() throws {
    let elements = (1..<100_000).map { " L\($0 % 200) \($0 * 7 % 200)" }.joined()
    let big = folder + "/big-path.json"
    try AtomicFile.write(
      Array(
        #"{"flipbook": 1, "size": [200, 200], "layers": [{"type": "shape", "name": "s", "#
          .utf8) + Array(#""bounds": [0, 0, 50, 50], "path": "M0 0\#(elements)"}]}"#.utf8),
      to: big)
    let refused = runFlipbook(["inspect", big, "--from", "0", "--to", "0.213", "--step", "0.001"])
    #expect(refused.status == 1)
    #expect(
      refused.errors
        == "\(big): 214 times of 300131 units each (keys, numbers, characters, path elements) "
        + "would print more than the limit of 64000000 units: ask for at most 213 times "
        + "(--time, --step)\n")
    // Just under the limit prints; just over is refused.
    #expect(InspectCommand.printingProblem(times: 213, unitsPerTime: 300_131) == nil)
    #expect(InspectCommand.printingProblem(times: 214, unitsPerTime: 300_131) != nil)
    #expect(InspectCommand.printingProblem(times: 1, unitsPerTime: Int.max) == nil)  // one time
    #expect(InspectCommand.printingProblem(times: 3, unitsPerTime: Int.max / 2) != nil)
    // Two times print, each with the whole path.
    let fits = try Tools.run(Tools.flipbook, ["inspect", big, "--time", "0", "--time", "1"])
    #expect(fits.status == 0)
    #expect(fits.output.split(separator: "\n").map { $0.count > 890_000 } == [true, true])
    // A path that only an animation makes long counts the animation's values.
    let values = (0..<2).map { k in
      "\"M0 0" + (1..<10_000).map { " L\($0 % 100) \(k)" }.joined() + "\""
    }
    let animated = folder + "/animated-path.json"
    try AtomicFile.write(
      Array(
        (#"{"flipbook": 1, "size": [100, 100], "layers": [{"type": "shape", "bounds": "#
          + #"[0, 0, 1, 1], "path": "M0 0", "animations": [{"type": "keyframe", "#
          + #""keyPath": "path", "values": [\#(values.joined(separator: ", "))]}]}]}"#).utf8),
      to: animated)
    let counted = runFlipbook([
      "inspect", animated, "--from", "0", "--to", "10", "--step", "0.001",
    ])
    #expect(counted.errors.contains(": 10001 times of 30130 units each "), "\(counted.errors)")
  }

  /// `--from 1e25 --to 1e25 --step 1` asked for 1e25 + i, which stays 1e25 for a billion `i`:
  /// the times list grew to 8.8 GB (and at 1e22 printed the same time endlessly). A step that
  /// cannot advance the time is refused naming --step; the times are counted before they are
  /// made.
  /// Fifteenth pass: a range of 1,000,000 steps holds 1,000,001 times (both ends), and was let
  /// through the limit of 1,000,000 times.
  @Test func aRangeIsCountedByItsTimesBothEndsIncluded() throws {
    let most = try InspectCommand.parse([
      Self.scene, "--from", "0", "--to", "999999", "--step", "1",
    ])
    #expect(most.times.count == 1_000_000)
    #expect(throws: (any Error).self) {
      try InspectCommand.parse([Self.scene, "--from", "0", "--to", "1000000", "--step", "1"])
    }
  }

  @Test func aStepTooSmallForItsTimesIsRefused() throws {
    let result = run(["inspect", Self.scene, "--from", "1e25", "--to", "1e25", "--step", "1"])
    #expect(result.status == 2)
    #expect(
      result.errors.hasPrefix(
        "Error: --step 1 is too small to advance a time of 1e+25 s: times there are "
          + "2147483648 s apart at the least\n"))
    let at22 = run(["inspect", Self.scene, "--from", "1e22", "--to", "1e22", "--step", "1"])
    #expect(at22.status == 2 && at22.errors.contains("--step 1 is too small"))
    // A step that advances them gives the times asked for, each once.
    let range = try InspectCommand.parse(
      [Self.scene, "--from", "1e22", "--to", "1e22", "--step", "2097152"])
    #expect(range.times == [1e22])
    let three = try InspectCommand.parse(
      [Self.scene, "--from", "1e22", "--to", "1.0000000000000004e22", "--step", "2097152"])
    #expect(three.times == [1e22, 1e22 + 2_097_152, 1e22 + 4_194_304])
  }

  /// Messages a hostile pass found wrong: "is an WebP", a GIF named .png refused by sheet as
  /// a GIF image, `@` in a list without the list named, and a shard count past an Int said to
  /// break 1 ≤ I ≤ N.
  @Test func messagesSayTheRealCause() throws {
    let (webp, apng, gif) = (folder + "/a.webp", folder + "/a.apng", folder + "/a.gif")
    for output in [webp, apng, gif] {
      #expect(run(["render", Self.scene, "-o", output, "--quiet"]).status == 0)
    }
    #expect(
      run(["diff", webp, apng]).errors
        == "\(webp) is a WebP but \(apng) is an APNG: compare two files of one format\n")
    let named = folder + "/g.png"
    try AtomicFile.write(try AtomicFile.read(gif), to: named)
    let sheet = run(["sheet", named, "-o", folder + "/s.png"])
    #expect(sheet.status == 0 && sheet.errors.isEmpty, "\(sheet.errors)")
    let list = folder + "/list.txt"
    try AtomicFile.write(Array("# inputs\n\n@\n".utf8), to: list)
    #expect(
      run(["batch", "@" + list, "-o", folder + "/out"]).errors
        == "\(list) line 3: @: the list file's name is empty (write @LIST.txt, a file of paths)\n")
    let shard = run([
      "batch", Self.scene, "-o", folder + "/out", "--shard", "1/100000000000000000000",
    ])
    #expect(shard.status == 2)
    #expect(
      shard.errors.hasPrefix(
        "Error: --shard must be I/N with 1 ≤ I ≤ N ≤ 9223372036854775807, found "
          + "'1/100000000000000000000': too large\n"))
  }

  /// A batch whose input is its output folder said only that it found nothing.
  @Test func aBatchOfItsOwnOutputFolderSaysItIsNotSearched() throws {
    try AtomicFile.write(Array(FixtureFiles.text(Self.scene).utf8), to: folder + "/a.json")
    let result = run(["batch", folder, "-o", folder, "--quiet"])
    #expect(result.status == 1)
    #expect(
      result.errors == "no scene or Lottie files found in \(folder) (the output folder \(folder) "
        + "is not searched: put the outputs elsewhere)\n")
  }
}
