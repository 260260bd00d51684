import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

@testable import FlipbookCommand

/// `flipbook sheet`: contact sheets of scenes and GIFs.
@Suite struct SheetCommandTests {
  let folder = FixtureFiles.temporaryFolder()

  func run(_ arguments: [String]) -> Int32 {
    FlipbookTool.run(arguments, standardError: { _ in })
  }

  @Test func aGIFsFramesInARowWithTheirTimes() throws {
    let sheet = folder + "/spinner.png"
    #expect(
      run([
        "sheet", FixtureFiles.root + "/../docs/gallery/spinner.gif", "-o", sheet, "--columns", "8",
      ]) == 0)
    let bitmap = try Bitmap(contentsOfPNGFile: sheet)
    // 8 px padding, 8 cells of 120 px, an 18 px caption under each.
    #expect(bitmap.width == 8 + 8 * (120 + 8) && bitmap.height == 8 + 120 + 18 + 8)
    // Each caption has dark text pixels.
    for k in 0..<8 {
      var dark = 0
      for y in (8 + 120)..<(8 + 138) {
        for x in (8 + k * 128)..<(8 + k * 128 + 120) where bitmap[x, y].r < 128 { dark += 1 }
      }
      #expect(dark > 10, "caption \(k)")
    }
  }

  @Test func aScenesSheetIsAOneImageGolden() throws {
    let sheet = folder + "/radar.png"
    #expect(
      run([
        "sheet", FixtureFiles.root + "/scenes/radar-pulses.json", "-o", sheet, "--scale", "0.25",
        "--times", "0", "1", "2", "3", "--columns", "2",
      ]) == 0)
    let bitmap = try Bitmap(contentsOfPNGFile: sheet)
    #expect(bitmap.width == 8 + 2 * (80 + 8) && bitmap.height == 8 + 2 * (80 + 18 + 8))
    if let failure = Golden.check(
      bitmap, against: FixtureFiles.root + "/goldens/sheets/radar-pulses.png")
    {
      Issue.record(Comment(rawValue: failure))
    }
    // The same bytes every time.
    let again = folder + "/again.png"
    #expect(
      run([
        "sheet", FixtureFiles.root + "/scenes/radar-pulses.json", "-o", again, "--scale", "0.25",
        "--times", "0", "1", "2", "3", "--columns", "2",
      ]) == 0)
    #expect(try AtomicFile.read(sheet) == AtomicFile.read(again))
  }

  /// Seventeenth pass: frames narrower than their captions (`--scale 0.01`: 2 x 1 pixels) had
  /// their captions drawn over one another and off the sheet.
  @Test func framesNarrowerThanTheirCaptionsGetCellsAsWideAsACaption() throws {
    let sheet = folder + "/tiny.png"
    #expect(
      run([
        "sheet", FixtureFiles.root + "/scenes/radar-pulses.json", "-o", sheet, "--scale", "0.01",
        "--times", "0", "1.125", "10.125", "1e300", "--columns", "4",
      ]) == 0)
    let bitmap = try Bitmap(contentsOfPNGFile: sheet)
    let cell = ContactSheet.minimumCellWidth
    #expect(ContactSheet.cellWidth(frameWidth: 3) == cell)
    #expect(ContactSheet.cellWidth(frameWidth: 300) == 300)
    #expect(bitmap.width == 8 + 4 * (cell + 8) && bitmap.height == 8 + 3 + 18 + 8)
    // Each caption has ink, and none in the padding between cells: no caption runs into the
    // next, not even the cut "1e+300 s".
    for k in 0..<4 {
      var ink = 0
      let left = 8 + k * (cell + 8)
      for y in (8 + 3)..<(8 + 3 + 18) {
        for x in left..<(left + cell) where bitmap[x, y].r < 128 { ink += 1 }
        for x in (left + cell)..<(left + cell + 8) {
          #expect(bitmap[x, y] == RGBA8(255, 255, 255, 255), "gap after \(k)")
        }
      }
      #expect(ink > 10, "caption \(k)")
    }
  }

  @Test func gifTimesPickTheFrameOnScreen() {
    let picked = SheetCommand.frames(delays: [10, 20, 10, 10], at: [0, 0.1, 0.25, 0.3, 9])
    #expect(picked.map(\.index) == [0, 1, 1, 2, 3])
    #expect(
      picked.map { ContactSheet.caption($0.time) } == ["0 s", "0.1 s", "0.1 s", "0.3 s", "0.4 s"])
    // Sixteenth pass: 1e306 s was captioned "inf s" (the milliseconds overflowed).
    #expect(ContactSheet.caption(1e308) == "1e+308 s")
    #expect(ContactSheet.caption(1e306) == "1e+306 s")
    #expect(ContactSheet.caption(2.5) == "2.5 s")
    // Hostile pass 34: a looping GIF at 1e308 s was captioned "inf s" (its play count
    // overflowed); the frame on screen then, at its time.
    let late = SheetCommand.frames(delays: [10, 20, 10, 10], at: [1e308, 5.15], plays: 0)
    #expect(late[1].index == 1)
    #expect(late[0].time.isFinite && abs(late[0].time - 1e308) < 1e293)
    #expect(ContactSheet.caption(late[1].time) == "5.1 s")
    // Thirty-first pass: 1e-7 s was captioned "0 s".
    #expect(ContactSheet.caption(1e-7) == "1e-07 s" && ContactSheet.caption(-0.0) == "0 s")
    #expect(ContactSheet.caption(0.0004) == "0.0004 s" && ContactSheet.caption(0.0006) == "0.001 s")
  }

  /// A GIF's delays of 0 and 1 cs are shown for 10 cs, as browsers play them: at 0.15 s a
  /// viewer shows the second frame of a GIF whose delays are all 0, not its last.
  @Test func gifDelaysUnderTwoCentisecondsLastTenAsInABrowser() {
    let picked = SheetCommand.frames(delays: [0, 1, 0, 2], at: [0.05, 0.15, 0.25, 0.31, 9])
    #expect(picked.map(\.index) == [0, 1, 2, 3, 3])
    #expect(
      picked.map { ContactSheet.caption($0.time) } == ["0 s", "0.1 s", "0.2 s", "0.3 s", "0.3 s"])
    let forever = SheetCommand.frames(delays: [0, 0], at: [0.25], plays: 0)
    #expect(forever.map(\.index) == [0])
    #expect(forever.map { ContactSheet.caption($0.time) } == ["0.2 s"])
  }

  /// Eighteenth hostile pass: `--times` past a looping GIF's length showed its last frame
  /// where a viewer shows the frame on screen in a later play. A GIF that loops wraps within
  /// its plays, captioned with the time the frame comes on screen; after its last play, its
  /// last frame stays.
  @Test func gifTimesPastTheEndWrapWithinItsPlays() {
    let forever = SheetCommand.frames(delays: [10, 10], at: [0.25, 0.35, 100.05], plays: 0)
    #expect(forever.map(\.index) == [0, 1, 0])
    #expect(forever.map { ContactSheet.caption($0.time) } == ["0.2 s", "0.3 s", "100 s"])
    let twice = SheetCommand.frames(delays: [10, 10], at: [0.25, 0.45, 9], plays: 2)
    #expect(twice.map(\.index) == [0, 1, 1])
    #expect(twice.map { ContactSheet.caption($0.time) } == ["0.2 s", "0.3 s", "0.3 s"])
    let once = SheetCommand.frames(delays: [10, 10], at: [0.25], plays: 1)
    #expect(once.map(\.index) == [1])
  }

  /// Eighteenth hostile pass: sheet called an APNG "a PNG image", and advised a GIF's sheet
  /// over the limits "at a smaller scale", which --scale refuses for a GIF. The APNG is named
  /// for what it is; a GIF's sheet suggests only the options that apply to it.
  @Test func anAPNGAndAGIFOverTheLimitsAreSaidAsTheyAre() throws {
    let apng = folder + "/a.apng"
    #expect(
      runFlipbook([
        "render", FixtureFiles.root + "/scenes/spinner.json", "-o", apng, "--to", "0.2",
        "--quiet",
      ]).status == 0)
    let sheet = runFlipbook(["sheet", apng, "-o", folder + "/s.png"])
    #expect(sheet.status == 1)
    #expect(
      sheet.errors
        == "\(apng): is an APNG image: sheet takes a scene file, a Lottie animation or a GIF\n")
    // Four frames of 5000 x 1 side by side are over 16384 pixels wide.
    let frames = (0..<4).map { k in
      var frame = Bitmap(width: 5000, height: 1)
      for x in 0..<5000 { frame[x, 0] = RGBA8(UInt8(k * 60), UInt8(x % 256), 0, 255) }
      return frame
    }
    let bytes = try GIFBytes.encode(frames)
    let gif = folder + "/wide.gif"
    try AtomicFile.write(bytes, to: gif)
    let wide = runFlipbook(["sheet", gif, "-o", folder + "/w.png"])
    #expect(wide.status == 1)
    #expect(
      wide.errors.hasSuffix(
        "over the limits (16384 pixels a side, 64 megapixels): show fewer frames (--times), or "
          + "in other columns (--columns)\n"), "\(wide.errors)")
    // The size is checked before any frame is decoded: with its last frame's data damaged,
    // the GIF is still refused for the sheet's size, not for the damage found decoding it.
    var damaged = bytes
    // The last frame's first data sub-block, after its size byte.
    let start = try #require(GIFBytes.frameDataStarts(of: bytes).last) + 1
    for i in (start + 1)..<(start + 1 + Int(bytes[start])) { damaged[i] = 0xFF }
    let bad = folder + "/wide-damaged.gif"
    try AtomicFile.write(damaged, to: bad)
    let early = runFlipbook(["sheet", bad, "-o", folder + "/d.png"])
    #expect(early.status == 1)
    #expect(early.errors.contains("over the limits"), "\(early.errors)")
    #expect(!FixtureFiles.exists(folder + "/d.png"))
    // In one column the sheet fits, and the damage is found.
    let late = runFlipbook(["sheet", bad, "-o", folder + "/d.png", "--columns", "1"])
    #expect(late.status == 1)
    #expect(late.errors.contains("unreadable GIF data"), "\(late.errors)")
  }

  /// Verification pass after the eighteenth: `sheet --times` on a GIF whose blocks state no
  /// frame trapped (SIGILL) choosing the frames to show.
  @Test func aGIFOfNoFramesIsSaidSoWhateverTheTimes() throws {
    // Header, a 1 x 1 screen with a 2-colour table, then the trailer.
    let gif: [UInt8] =
      Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255] + [0x3B]
    let path = folder + "/empty.gif"
    try AtomicFile.write(gif, to: path)
    #expect(SheetCommand.frames(delays: [], at: [0, 1]).isEmpty)
    var errors = ""
    let status = FlipbookTool.run(
      ["sheet", path, "-o", folder + "/e.png", "--times", "0"], standardError: { errors += $0 })
    #expect(status == 1 && errors.contains("the GIF has no frames"), "\(errors)")
  }

  @Test func wrongUsageExitsWith2() {
    let scene = FixtureFiles.root + "/scenes/radar-pulses.json"
    #expect(run(["sheet", scene]) == 2)
    #expect(run(["sheet", scene, "-o", folder + "/x.gif"]) == 2)
    #expect(run(["sheet", scene, "-o", folder + "/x.png", "--columns", "0"]) == 2)
    #expect(run(["sheet", scene, "-o", folder + "/x.png", "--times", "-1"]) == 2)
    #expect(run(["sheet", folder + "/missing.json", "-o", folder + "/x.png"]) == 1)
  }
}
