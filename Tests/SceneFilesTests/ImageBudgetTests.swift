import Flipbook
import FlipbookTestSupport
import Glibc
import Testing

/// Issue 18, seventh pass: a scene of 40 distinct large pictures held them all decoded (7.8 GB)
/// and aborted. Each image file is decoded once however it is named, and the distinct ones
/// decode to at most `SceneFormat.maximumImagePixels` together, counted from their headers
/// before anything is decoded.
@Suite struct ImageBudgetTests {
  /// Writes a `side` x `side` PNG of one colour at `path`.
  func writePNG(_ path: String, side: Int, red: UInt8) throws {
    let pixels = [UInt8]((0..<side * side).flatMap { _ in [red, 0, 0, 255] })
    try AtomicFile.write(try Bitmap(width: side, height: side, pixels: pixels).pngData(), to: path)
  }

  func scene(_ contents: [String]) -> String {
    let layers = contents.enumerated().map { i, name in
      #"{"bounds": [0, 0, 10, 10], "position": [\#(5 + i), 5], "contents": "\#(name)"}"#
    }
    return #"{"flipbook": 1, "size": [20, 20], "layers": ["#
      + layers.joined(separator: ", ") + "]}"
  }

  /// Twentieth hostile pass: a JPEG as contents was "not a readable PNG image: not a PNG file
  /// (no PNG signature)": a picture of another kind is named for what it is.
  @Test func contentsOfAnotherKindAreNamedForWhatTheyAre() throws {
    let folder = FixtureFiles.temporaryFolder()
    let jpeg = try AtomicFile.read(FixtureFiles.root + "/images/two-colors.jpg")
    try AtomicFile.write(jpeg, to: folder + "/a.png")
    #expect(throws: SceneFormat.DecodingError.self) {
      try SceneFormat.decode(Array(scene(["a.png"]).utf8), file: "s.json", baseDirectory: folder)
    }
    do {
      _ = try SceneFormat.decode(
        Array(scene(["a.png"]).utf8), file: "s.json", baseDirectory: folder)
    } catch {
      #expect(
        error.description
          == "s.json: layers[0].contents: cannot read image \"a.png\": it is a JPEG image; "
          + "contents takes PNG files")
    }
  }

  /// Hostile pass 32: one APNG whose default image is no frame of its animation (grey 0x80)
  /// showed that image as a scene's contents and its first frame (0x40) as a Lottie asset. Both
  /// show the first frame, as browsers do.
  @Test func anAPNGAsContentsShowsItsFirstFrame() throws {
    let folder = FixtureFiles.temporaryFolder()
    let apng = try AtomicFile.read(FixtureFiles.root + "/images/apng-hidden-default.png")
    try AtomicFile.write(apng, to: folder + "/a.png")
    let scene = try SceneFormat.decode(
      Array(scene(["a.png"]).utf8), file: "s.json", baseDirectory: folder)
    let contents = try #require(scene.rootLayer.sublayers.first?.contents)
    #expect(contents.bitmap[4, 4] == RGBA8(64, 64, 64, 64))
    // An acTL whose frame no fcTL makes: the PNG's image, as browsers show it.
    let broken = try AtomicFile.read(FixtureFiles.root + "/images/apng-actl-without-fctl.png")
    try AtomicFile.write(broken, to: folder + "/b.png")
    let still = try SceneFormat.decode(
      Array(self.scene(["b.png"]).utf8), file: "s.json", baseDirectory: folder)
    #expect(still.rootLayer.sublayers.first?.contents != nil)
  }

  @Test func imagesPastTheDecodedPixelBudgetAreRefusedByPlace() throws {
    #expect(SceneFormat.maximumImagePixels == 256_000_000)
    let folder = FixtureFiles.temporaryFolder()
    try writePNG(folder + "/a.png", side: 10, red: 255)
    try writePNG(folder + "/b.png", side: 10, red: 128)
    try writePNG(folder + "/c.png", side: 10, red: 64)
    try writePNG(folder + "/d.png", side: 10, red: 32)
    mkdir(folder + "/sub", 0o755)
    // a.png named three ways is one file: 100 pixels; b.png makes 200, c.png would make 300.
    // Past the budget, the first image over it is said, once.
    let names = ["a.png", "a.png", "./sub/../a.png", "b.png", "c.png"]
    func read(limit: Int, more: [String] = []) throws -> Scene {
      try SceneFormat.decode(
        Array(scene(names + more).utf8), file: "images.json", baseDirectory: folder,
        imagePixelLimit: limit)
    }
    let accepted = try read(limit: 300)
    let frame = try accepted.makeFrame(at: 0).makeBitmap()
    #expect(frame[2, 2] == RGBA8(255, 0, 0, 255))  // a.png, under the others
    #expect(frame[13, 5] == RGBA8(64, 0, 0, 255))  // c.png alone
    do {
      _ = try read(limit: 299, more: ["d.png", "c.png"])
      Issue.record("images over the budget were read")
    } catch {
      #expect(
        String(describing: error)
          == "images.json: layers[4].contents: cannot read image \"c.png\": the scene's images "
          + "would decode to more than 299 pixels in all, the limit (each image file counted "
          + "once, however many layers show it)")
    }
  }
}
