import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// docs/command-line.md `diff`: PNG and GIF comparisons, tolerance flags, exit statuses, `-o`.
@Suite struct DiffCommandTests {
  let folder = FixtureFiles.temporaryFolder()
  static let goldens = FixtureFiles.root + "/goldens"

  func run(_ arguments: [String]) -> (status: Int32, errors: String) { runFlipbook(arguments) }

  @Test func aPNGMatchesItselfAndNotAnotherFrame() throws {
    let cat = Self.goldens + "/cat.png", later = Self.goldens + "/cat@0.5.png"
    #expect(run(["diff", cat, cat]).status == 0)
    let differ = run(["diff", cat, later, "-o", folder + "/heat.png"])
    #expect(differ.status == 1 && differ.errors.contains("differ"))
    let heat = try Bitmap(contentsOfPNGFile: folder + "/heat.png")
    #expect(heat.width == 400 && heat.height == 400)
    #expect(run(["diff", cat, later, "--max-diff-ratio", "0.05"]).status == 0)
    #expect(run(["diff", cat, later, "--max-diff-pixels", "10"]).status == 1)
    #expect(run(["diff", cat, later, "-o", folder + "/strip.png", "--strip"]).status == 1)
    #expect(try Bitmap(contentsOfPNGFile: folder + "/strip.png").width == 3 * 400 + 8)
  }

  /// Eighteenth hostile pass: a JPEG, a JSON scene or a text file was "not a readable PNG
  /// image"; each is said to be what its bytes say, with what diff compares. A --threshold out
  /// of range says the value found, as other usage errors do.
  @Test func aFileDiffDoesNotTakeIsNamedForWhatItIs() throws {
    let jpeg = FixtureFiles.root + "/images/two-colors.jpg"
    let result = run(["diff", jpeg, jpeg])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "\(jpeg): is a JPEG image: diff compares two PNGs, or two GIFs, APNGs or WebPs\n")
    let scene = FixtureFiles.root + "/scenes/spinner.json"
    #expect(
      run(["diff", scene, scene]).errors
        == "\(scene): is neither a PNG, a GIF, an APNG nor a WebP: diff compares two PNGs, or "
        + "two GIFs, APNGs or WebPs\n")
    let threshold = run(["diff", jpeg, jpeg, "--threshold", "2"])
    #expect(threshold.status == 2)
    #expect(threshold.errors.contains("--threshold must be in 0...1, found 2\n"))
    #expect(
      run(["diff", jpeg, jpeg, "--max-diff-ratio", "1.5"]).errors.contains(
        "--max-diff-ratio must be in 0...1, found 1.5\n"))
  }

  /// Twenty-seventh hostile pass (hostile27): an APNG whose IHDR came after its IDAT had its
  /// limits checked on a canvas of 0 x 0, so a 13 KB file of 200 frames of 8000 x 8000 compared
  /// for 12 s, and a report page of 8 such frames took 4.8 GB. Refused at once, as a PNG whose
  /// first chunk is not IHDR (`Fixtures/images/apng-ihdr-late.png`).
  @Test func anAPNGWhoseIHDRComesLateIsRefused() {
    let late = FixtureFiles.root + "/images/apng-ihdr-late.png"
    let result = run(["diff", late, late, "-o", folder + "/report.html"])
    #expect(result.status == 1)
    #expect(
      result.errors == "\(late): its first chunk is acTL, not IHDR (a PNG starts with IHDR)\n")
  }

  /// Hostile pass 32: a report page of APNGs labelled every frame 0 s, and a 1,000-frame
  /// animation's frames by their place in the page's 300-frame window. The page has each
  /// frame's time from the delays, the animation's first shown frame and its frame count.
  @Test func aReportPageOfALongAPNGSaysWhichFramesItShowsAndWhen() throws {
    func apng(_ path: String, changing changed: Int?) throws {
      let encoder = try APNG.Encoder(width: 2, height: 2, fps: 10)
      for k in 0..<1_000 {
        let v: UInt8 = k == changed ? 200 : (k % 2 == 0 ? 0 : 255)
        try encoder.add(try Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: v, count: 16)))
      }
      try AtomicFile.write(try encoder.assemble(), to: path)
    }
    try apng(folder + "/a.png", changing: nil)
    try apng(folder + "/b.png", changing: 700)
    let result = run(["diff", folder + "/a.png", folder + "/b.png", "-o", folder + "/p.html"])
    #expect(result.status == 1)
    let page = String(decoding: try AtomicFile.read(folder + "/p.html"), as: UTF8.self)
    #expect(page.contains(#"data-worst="150" data-first="550" data-count="1000""#))
    #expect(page.contains("showing frames 550 to 849 of 1000 (from 0)"))
    // Frame 550 (left out of the list: the figures hold the shown frame, 700) at 55 s.
    #expect(page.contains(#""t":55,"#) && page.contains(#""t":84.9,"#))
  }

  /// Hostile pass 32: a PNG whose acTL states a frame no fcTL makes, compared with a PNG, was
  /// "an APNG: compare two files of one format" (none would do); an animated WebP without
  /// frames "not a valid WebP". Each is said for what is wrong with it.
  @Test func animatedFilesThatDoNotReadSayWhy() {
    let png = Self.goldens + "/cat.png"
    let apng = FixtureFiles.root + "/images/apng-actl-without-fctl.png"
    #expect(
      run(["diff", png, apng]).errors
        == "\(apng): its acTL says 1 frame, its frame controls (fcTL) make 0\n")
    let webp = FixtureFiles.root + "/images/webp-animated-without-frames.webp"
    #expect(
      run(["diff", webp, webp]).errors
        == "\(webp): its VP8X header says it is animated, but it has no frames (ANMF)\n")
    // Hostile pass 40: a RIFF size that leaves the second frame outside was said to be a
    // damaged frame.
    let short = FixtureFiles.root + "/images/webp-riff-size-short.webp"
    #expect(
      run(["diff", short, short]).errors
        == "\(short): its RIFF header says 92 bytes, the file has 140, and frames (ANMF chunks) "
        + "lie past them: the header cuts the animation short\n")
  }

  @Test func differentSizesNameBoth() {
    let result = run(["diff", Self.goldens + "/cat.png", Self.goldens + "/spinner.png"])
    #expect(result.status == 1)
    #expect(result.errors.contains("expected 400 x 400, actual 120 x 120"))
  }

  /// Eighteenth hostile pass: `diff a.png b.png -o x.png` (or `-o x.html`) of two PNGs whose
  /// sizes differ wrote nothing and said nothing, where animations whose frames were not
  /// compared say so. The picture's absence is said, and the page is written with the cause and
  /// no frames, as an animation's is.
  @Test func aPictureNotWrittenForDifferentSizesIsSaid() throws {
    let cat = Self.goldens + "/cat.png", spinner = Self.goldens + "/spinner.png"
    let cause = "sizes differ: expected 400 x 400, actual 120 x 120"
    let picture = try Tools.run(Tools.flipbook, ["diff", cat, spinner, "-o", folder + "/s.png"])
    #expect(picture.status == 1)
    #expect(
      picture.errors
        == "\(folder)/s.png: not written: the images were not compared (\(cause))\n"
        + "\(cat) and \(spinner) differ: \(cause)\n")
    #expect(access(folder + "/s.png", F_OK) != 0)
    // Hostile pass 42: an earlier comparison's heatmap there was left, and read as this one's
    // after exit 1. It is removed, and said.
    #expect(try Tools.run(Tools.flipbook, ["diff", cat, cat, "-o", folder + "/e.png"]).status == 0)
    #expect(access(folder + "/e.png", F_OK) == 0)
    let earlier = try Tools.run(Tools.flipbook, ["diff", cat, spinner, "-o", folder + "/e.png"])
    #expect(
      earlier.errors
        == "\(folder)/e.png: not written: the images were not compared (\(cause)); the earlier "
        + "file there is removed\n\(cat) and \(spinner) differ: \(cause)\n")
    #expect(access(folder + "/e.png", F_OK) != 0)
    let page = try Tools.run(Tools.flipbook, ["diff", cat, spinner, "-o", folder + "/s.html"])
    #expect(page.status == 1 && page.errors == "\(cat) and \(spinner) differ: \(cause)\n")
    let html = String(decoding: try AtomicFile.read(folder + "/s.html"), as: UTF8.self)
    #expect(html.contains(cause))
  }

  /// Sizes come from the PNG headers before anything is decoded: a file whose header states
  /// another size is reported as a size mismatch even though its pixel data is garbage (which
  /// decoding would have refused), so a large pair that cannot match costs no memory.
  @Test func sizesAreComparedBeforeDecoding() throws {
    let big = folder + "/big.png"
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + [0, 0, 0x3E, 0x80, 0, 0, 0x0F, 0xA0, 8, 6, 0, 0, 0]
    bytes += [UInt8](repeating: 0xAB, count: 100)
    try AtomicFile.write(bytes, to: big)
    let result = run(["diff", Self.goldens + "/cat.png", big])
    #expect(result.status == 1)
    #expect(result.errors.contains("sizes differ: expected 400 x 400, actual 16000 x 4000"))
  }

  /// Eighteenth hostile pass: `--strip` of two 16000 x 4000 PNGs wrote a 48008 x 4000 strip
  /// (1.6 GB while it was made) that Flipbook then refused to read. The strip's size is checked
  /// from the headers, before anything is decoded, and refused naming --strip and the limits.
  @Test func aStripOverTheFrameLimitsIsRefusedBeforeDecoding() throws {
    let big = folder + "/big-strip.png"
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + [0, 0, 0x3E, 0x80, 0, 0, 0x0F, 0xA0, 8, 6, 0, 0, 0]
    bytes += [UInt8](repeating: 0xAB, count: 100)
    try AtomicFile.write(bytes, to: big)
    let strip = folder + "/too-wide-strip.png"
    let result = run(["diff", big, big, "-o", strip, "--strip"])
    #expect(result.status == 1)
    #expect(
      result.errors.contains(
        "\(strip): --strip would make a picture of 48008 x 4000 pixels (expected, actual and "
          + "heatmap side by side), over the limits of a frame (16384 pixels a side, 64 "
          + "megapixels): write the heatmap alone, without --strip"))
    #expect(access(strip, F_OK) != 0)
    // An animation's frames are checked as its header states them: 5500 pixels wide, so
    // three side by side are 16508.
    var frame = Bitmap(width: 5500, height: 1)
    for x in 0..<5500 { frame[x, 0] = RGBA8(UInt8(x % 256), 0, 0, 255) }
    let gif = try GIFBytes.encode([frame])
    let wide = folder + "/wide.gif"
    try AtomicFile.write(gif, to: wide)
    let animated = run(["diff", wide, wide, "-o", strip, "--strip"])
    #expect(animated.status == 1)
    #expect(animated.errors.contains("--strip would make a picture of 16508 x 1 pixels"))
    #expect(run(["diff", wide, wide, "-o", strip]).status == 0)
  }

  @Test func gifsAreComparedFrameByFrameWithTheirTiming() throws {
    let a = folder + "/a.gif", b = folder + "/b.gif", c = folder + "/c.gif"
    #expect(run(["demo", "spinner", "-o", a, "--quiet"]).status == 0)
    #expect(run(["demo", "spinner", "-o", b, "--quiet"]).status == 0)
    #expect(run(["diff", a, b]).status == 0)
    #expect(run(["demo", "spinner", "-o", c, "--quiet", "--to", "0.4"]).status == 0)
    let result = try Tools.run(Tools.flipbook, ["diff", a, c])
    #expect(result.status == 1)
    #expect(result.output.contains("frame counts differ: expected 8, actual 4"))
    // No frames compared, no picture: said (it was left for the user to find no file).
    let picture = try Tools.run(Tools.flipbook, ["diff", a, c, "-o", folder + "/d.png"])
    #expect(
      picture.errors.hasPrefix(
        "\(folder)/d.png: not written: no frames were compared (frame counts differ: "
          + "expected 8, actual 4)\n"))
    #expect(access(folder + "/d.png", F_OK) != 0)
  }

  /// A GIF on a `width` x `height` screen (black and white) whose frames are one pixel each
  /// at (k, 0), white where `white` says, black elsewhere.
  static func gif(width: Int, height: Int, white: [Bool]) -> [UInt8] {
    var gif: [UInt8] =
      Array("GIF89a".utf8) + [UInt8(width & 255), UInt8(width >> 8)]
      + [UInt8(height & 255), UInt8(height >> 8), 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    for (k, w) in white.enumerated() {
      gif += [0x2C, UInt8(k), 0, 0, 0, 1, 0, 1, 0, 0] + [2, 2, w ? 0x4C : 0x44, 0x01, 0]
    }
    return gif + [0x3B]
  }

  /// Issue 18: GIFs are compared frame by frame as they are decoded (999 frames of 1000 x 1000
  /// held at once took 7.9 GB); the picture is still of the first frame that differs, and a
  /// report page, which shows every frame, is refused past its budget before decoding.
  @Test func gifsAreComparedAsTheyAreDecoded() throws {
    let a = folder + "/black.gif", b = folder + "/white.gif", heat = folder + "/heat.png"
    try AtomicFile.write(Self.gif(width: 8, height: 8, white: [false, false, false]), to: a)
    try AtomicFile.write(Self.gif(width: 8, height: 8, white: [false, true, false]), to: b)
    let result = try Tools.run(Tools.flipbook, ["diff", a, b, "-o", heat])
    #expect(result.status == 1)
    #expect(result.output.hasPrefix("frame 1: 1 of 64 pixels differ"), "\(result.output)")
    #expect(result.output.contains("frame 2: 1 of 64 pixels differ"))
    let picture = try Bitmap(contentsOfPNGFile: heat)
    #expect(picture.width == 8 && picture[1, 0] == RGBA8(255, 0, 0, 255))
    #expect(picture[0, 0] != RGBA8(255, 0, 0, 255))
    // 5 frames of 4000 x 4000 (80,000,000 pixels) for a page that shows 64,000,000.
    let big = folder + "/big.gif"
    try AtomicFile.write(
      Self.gif(width: 4000, height: 4000, white: [false, false, false, false, false]), to: big)
    let page = run(["diff", big, big, "-o", folder + "/page.html"])
    #expect(page.status == 1)
    #expect(
      page.errors
        == "\(big): 5 frames of 4000 x 4000 pixels are over the 64000000 pixels of frames a "
        + "report page shows; write a .png picture of the first frame that differs instead\n")
    #expect(access(folder + "/page.html", F_OK) != 0)
  }

  @Test func wrongUsageExitsWith2() {
    let png = Self.goldens + "/cat.png"
    #expect(run(["diff", png]).status == 2)
    #expect(run(["diff", png, png, "--threshold", "2"]).status == 2)
    #expect(
      run(["diff", png, png, "--max-diff-pixels", "1", "--max-diff-ratio", "0.1"]).status == 2)
    #expect(run(["diff", png, png, "-o", folder + "/x.gif"]).status == 2)
    #expect(run(["diff", png, folder + "/missing.png"]).status == 1)
  }
}
