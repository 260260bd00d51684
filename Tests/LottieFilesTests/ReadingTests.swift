import Flipbook
import FlipbookTestSupport
import Foundation
import GoldenTesting
import Testing

@testable import LottieFiles

/// Recognition by content, dotLottie archives, refusals by JSON path, warnings, `--strict`, the
/// commands and the golden kit on Lottie files.
@Suite struct ReadingTests {
  let folder = FixtureFiles.temporaryFolder()
  static let lottie = FixtureFiles.root + "/lottie"

  @Test func lottieIsRecognisedByContentWhateverItsName() throws {
    let json = LottieTest.document(layers: "[]", w: 64, h: 48)
    let path = folder + "/animation.txt"
    try AtomicFile.write(Array(json.utf8), to: path)
    let scene = try Scene(contentsOf: path)
    #expect(scene.size == Size(width: 64, height: 48))
    #expect(scene.duration == 4)
    #expect(LottieFormat.isLottie(Array(json.utf8)))
    // A scene file is still a scene file, through the same door.
    let sceneFile = FixtureFiles.root + "/scenes/readme-example.json"
    let a = try Scene(contentsOf: sceneFile), b = try SceneFormat.load(contentsOf: sceneFile)
    #expect(a.size == b.size && a.scale == b.scale && a.layers.count == b.layers.count)
    #expect(try a.makeFrame(at: 0).makeBitmap() == b.makeFrame(at: 0).makeBitmap())
    #expect(!LottieFormat.isLottie(try AtomicFile.read(sceneFile)))
  }

  /// Twenty-seventh hostile pass (hostile27): a Lottie file without `v` (which lottie-web
  /// plays, and the Lottie specification does not require) was read as a scene file, and one
  /// without `layers` too, each with a page of scene-format errors ("fr: unknown key (did you
  /// mean "fps"?)", "flipbook: missing required key") that never named the missing key. Without
  /// `v` it is read as Lottie (unless it has `flipbook`); one that looks like Lottie but lacks a
  /// key it needs is said in one line naming it.
  @Test func aLottieFileWithoutVIsLottieAndOneMissingAKeyIsSaidSo() throws {
    let withV = LottieTest.document(layers: "[]", w: 64, h: 48)
    let withoutV = withV.replacingOccurrences(of: #""v": "5.7.0", "#, with: "")
    #expect(withoutV != withV && !withoutV.contains(#""v""#))
    #expect(LottieFormat.isLottie(Array(withoutV.utf8)))
    let loaded = try SceneDocument.decode(Array(withoutV.utf8), file: "nov.json")
    #expect(loaded.scene.size == Size(width: 64, height: 48) && loaded.warnings.isEmpty)
    // With `flipbook` and without `v`, a scene file (with a scene file's errors).
    let scene = withoutV.replacingOccurrences(of: #""fr""#, with: #""flipbook": 1, "fr""#)
    #expect(!LottieFormat.isLottie(Array(scene.utf8)))
    func problem(_ json: String) -> String {
      do {
        _ = try SceneDocument.decode(Array(json.utf8), file: "x.json")
        return "read"
      } catch { return error.description }
    }
    #expect(problem(scene).hasPrefix("x.json: fr: unknown key"))
    #expect(
      problem(#"{"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 20, "h": 20}"#)
        == #"x.json: looks like a Lottie animation (it has v, fr, ip, op, w and h) but has no "#
        + #""layers" (a Lottie animation needs fr, ip, op, w, h and layers; a scene file has "#
        + #""flipbook")"#)
    #expect(
      problem(#"{"fr": 30, "ip": 0, "w": 20, "h": 20}"#)
        == #"x.json: looks like a Lottie animation (it has fr, ip, w and h) but has no "op" or "#
        + #""layers" (a Lottie animation needs fr, ip, op, w, h and layers; a scene file has "#
        + #""flipbook")"#)
    // Three of the keys are not enough to say so: a scene file's errors.
    #expect(problem(#"{"fr": 30, "w": 20, "h": 20}"#).hasPrefix("x.json: fr: unknown key"))
  }

  /// Fifteenth pass: a Lottie file's image files were not among its scene's input files, so
  /// `batch` kept an output whose picture had changed on disk ("unchanged").
  @Test func imageFilesReadFromDiskAreTheScenesInputFiles() throws {
    let folder = FixtureFiles.temporaryFolder() + "/external"
    try FileManager.default.createDirectory(
      atPath: folder + "/images", withIntermediateDirectories: true)
    try AtomicFile.write(
      try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png"),
      to: folder + "/images/q.png")
    let json = LottieTest.document(
      layers: #"[{"ty": 2, "ind": 1, "refId": "q", "ip": 0, "op": 40, "st": 0, "ks": {}}]"#,
      assets: #"[{"id": "q", "w": 24, "h": 16, "u": "images/", "p": "q.png"}]"#)
    try AtomicFile.write(Array(json.utf8), to: folder + "/a.json")
    let document = try LottieFormat.load(contentsOf: folder + "/a.json")
    #expect(document.scene.inputFiles == [folder + "/images/q.png"])
  }

  /// Fifteenth pass: an inverted mask's expansion was dropped when positive and grew the hole
  /// when negative. The path is expanded first, then inverted: a 40 x 40 square with a 20 x 20
  /// hole shows 1,200 pixels, 720 with the hole grown by 5, 1,500 with it shrunk by 5.
  @Test func anInvertedMasksExpansionGrowsOrShrinksItsHole() throws {
    func shown(_ x: Double) throws -> Int {
      let square =
        #"[{"ty": "gr", "it": [{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [40, 40]}, "r": {"a": 0, "k": 0}}, "#
        + #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}, {"ty": "tr"}]}]"#
      let mask =
        #""hasMask": true, "masksProperties": [{"inv": true, "mode": "a", "o": {"a": 0, "k": 100}, "#
        + #""x": {"a": 0, "k": \#(x)}, "pt": {"a": 0, "k": {"c": true, "v": [[-10, -10], [10, -10], [10, 10], [-10, 10]], "#
        + #""i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}}]"#
      let layer = LottieTest.shapeLayer(
        "L", ks: #"{"p": {"a": 0, "k": [50, 50]}}"#, shapes: square, extra: mask)
      let scene = try LottieTest.read(LottieTest.document(layers: "[\(layer)]")).scene
      let frame = try scene.makeFrame(at: 0).makeBitmap()
      return stride(from: 3, to: frame.pixels.count, by: 4).filter { frame.pixels[$0] > 128 }.count
    }
    #expect(try shown(0) == 1_200)
    #expect(abs(try shown(5) - 720) <= 8)
    #expect(abs(try shown(-5) - 1_500) <= 8)
  }

  @Test func dotLottieArchiveReadsItsFirstAnimationAndImages() throws {
    let archive = try LottieFormat.load(contentsOf: Self.lottie + "/archive.lottie")
    let embedded = try LottieFormat.load(contentsOf: Self.lottie + "/image.json")
    #expect(archive.warnings.isEmpty)
    #expect(archive.scene.size == Size(width: 100, height: 100))
    for time in [0, 0.5] {
      #expect(
        try archive.scene.makeFrame(at: time).makeBitmap()
          == embedded.scene.makeFrame(at: time).makeBitmap())
    }
    let picture = try LottieTest.layer("Picture", in: archive.scene, at: 0)
    #expect(picture.sublayers.first?.sublayers.first?.sublayers.first?.contents?.width == 24)
  }

  /// Image files are read from inside the Lottie file's folder only: a path through `..` (or
  /// from the root, `Fixtures/invalid-lottie/image-outside-folder.json`) is not read, with a
  /// warning naming the asset, even when the file is there (issue 18: an archive naming
  /// `/proc/self/mem` read it).
  @Test func imageFilesAreReadFromInsideTheFolderOnly() throws {
    let png = try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png")
    try AtomicFile.write(png, to: folder + "/quadrants.png")
    try AtomicFile.makeFolder(folder + "/inner")
    try AtomicFile.makeFolder(folder + "/inner/images")
    try AtomicFile.write(png, to: folder + "/inner/images/quadrants.png")
    func document(_ u: String, _ p: String) -> [UInt8] {
      let layer = #"{"ty": 2, "ind": 1, "nm": "Picture", "refId": "i", "ks": {}, "ip": 0, "op": 9}"#
      return Array(
        LottieTest.document(
          layers: "[\(layer)]",
          assets: #"[{"id": "i", "w": 24, "h": 16, "u": "\#(u)", "p": "\#(p)"}]"#
        ).utf8)
    }
    let inside = try LottieFormat.decode(
      document("images/", "quadrants.png"), file: "a.json", baseDirectory: folder + "/inner")
    #expect(inside.warnings.isEmpty)
    let frame = try inside.scene.makeFrame(at: 0).makeBitmap()
    #expect(frame.pixels[3] == 255)
    let outside = try LottieFormat.decode(
      document("images/", "../../quadrants.png"), file: "a.json",
      baseDirectory: folder + "/inner")
    #expect(
      outside.warnings.map(\.description) == [
        #"a.json: layers[0] "Picture": unsupported image files outside the Lottie file's folder (assets[0]: "images/../../quadrants.png", an absolute path or one through ..): not drawn"#
      ])
    #expect(try outside.scene.makeFrame(at: 0).makeBitmap().pixels.allSatisfy { $0 == 0 })
    // A symbolic link is followed inside the folder, not out of it (one to /etc/passwd was).
    #expect(symlink(folder + "/quadrants.png", folder + "/inner/images/away.png") == 0)
    #expect(symlink("quadrants.png", folder + "/inner/images/near.png") == 0)
    let near = try LottieFormat.decode(
      document("images/", "near.png"), file: "a.json", baseDirectory: folder + "/inner")
    #expect(near.warnings.isEmpty)
    let away = try LottieFormat.decode(
      document("images/", "away.png"), file: "a.json", baseDirectory: folder + "/inner")
    #expect(
      away.warnings.map(\.description) == [
        #"a.json: layers[0] "Picture": unsupported image files outside the Lottie file's folder (assets[0]: "images/away.png", a symbolic link leading out of it): not drawn"#
      ])
  }

  /// Eighteenth hostile pass: image assets naming one file (however spelled) or holding one
  /// `data:` URL were each decoded, and counted against the file's decoded pixels, again (five
  /// assets naming a 64-megapixel picture took 1.5 GB and the fifth was not drawn). They share
  /// one decoding, each named by its own asset.
  @Test func assetsNamingOnePictureShareItsDecoding() throws {
    try AtomicFile.makeFolder(folder + "/imgs")
    try AtomicFile.write(
      try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png"),
      to: folder + "/imgs/q.png")
    let data =
      "data:image/png;base64,"
      + Self.base64(try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png"))
    let spellings = [
      ("imgs/", "q.png"), ("./imgs/", "q.png"), ("imgs//", "q.png"), ("./././imgs/./", "q.png"),
      ("", data), ("", data),
    ]
    let assets = spellings.enumerated().map { n, s in
      #"{"id": "a\#(n)", "w": 24, "h": 16, "u": "\#(s.0)", "p": "\#(s.1)"}"#
    }
    let layers = spellings.indices.map { n in
      #"{"ty": 2, "ind": \#(n + 1), "nm": "P\#(n)", "refId": "a\#(n)", "ks": {}, "ip": 0, "op": 9}"#
    }
    let document = try LottieFormat.decode(
      Array(
        LottieTest.document(
          layers: "[" + layers.joined(separator: ", ") + "]",
          assets: "[" + assets.joined(separator: ", ") + "]"
        ).utf8), file: "a.json", baseDirectory: folder)
    #expect(document.warnings.isEmpty)
    func picture(_ n: Int) throws -> Image {
      let layer = try LottieTest.layer("P\(n)", in: document.scene, at: 0)
      return try #require(CompositingTests.first(layer) { $0.contents != nil }?.contents)
    }
    func storage(_ image: Image) -> UnsafeRawPointer? {
      image.bitmap.pixels.withUnsafeBytes { $0.baseAddress.map { UnsafeRawPointer($0) } }
    }
    let file = try picture(0), embedded = try picture(4)
    for n in 1..<4 {
      #expect(storage(try picture(n)) == storage(file))
      #expect(try picture(n).name == "a\(n)")
    }
    #expect(storage(try picture(5)) == storage(embedded))
    #expect(storage(file) != storage(embedded))
  }

  @Test func embeddedJPEGImagesAreDrawn() throws {
    let jpeg = try AtomicFile.read(FixtureFiles.root + "/images/two-colors.jpg")
    let data = "data:image/jpeg;base64," + Self.base64(jpeg)
    let json = LottieTest.document(
      layers: #"[{"ty": 2, "ind": 1, "nm": "Photo", "refId": "img", "ks": {}, "ip": 0, "op": 9}]"#,
      assets: #"[{"id": "img", "w": 16, "h": 8, "e": 1, "u": "", "p": "\#(data)"}]"#)
    let document = try LottieTest.read(json)
    #expect(document.warnings.isEmpty)
    let frame = try document.scene.makeFrame(at: 0).makeBitmap()
    let i = (3 * frame.width + 2) * 4
    #expect(abs(Int(frame.pixels[i]) - 200) <= 4 && frame.pixels[i + 3] == 255)
  }

  /// Eighteenth hostile pass: an SVG data URL or a JSON file as an image asset was warned as
  /// "not a readable PNG image", and a file name holding a NUL as "without a file name". Each
  /// is named for what it is.
  @Test func imageAssetsOfOtherKindsAreNamedForWhatTheyAre() throws {
    func warnings(_ asset: String, folder: String = "") throws -> [String] {
      let json = LottieTest.document(
        layers: #"[{"ty": 2, "ind": 1, "nm": "P", "refId": "img", "ks": {}, "ip": 0, "op": 9}]"#,
        assets: #"[{"id": "img", "w": 16, "h": 8, \#(asset)}]"#)
      return try LottieFormat.decode(Array(json.utf8), file: "a.json", baseDirectory: folder)
        .warnings.map(\.description)
    }
    let svg = "data:image/svg+xml;base64," + Self.base64(Array("<svg/>".utf8))
    #expect(
      try warnings(#""e": 1, "u": "", "p": "\#(svg)""#) == [
        #"a.json: layers[0] "P": unsupported images that cannot be decoded (assets[0]: image/svg+xml, neither a PNG, a JPEG nor a WebP): not drawn"#
      ])
    let folder = FixtureFiles.temporaryFolder()
    try AtomicFile.write(Array("{}".utf8), to: folder + "/x.json")
    #expect(
      try warnings(#""u": "", "p": "x.json""#, folder: folder + "/") == [
        #"a.json: layers[0] "P": unsupported images that cannot be decoded (assets[0]: neither a PNG, a JPEG nor a WebP): not drawn"#
      ])
    #expect(
      try warnings(#""u": "", "p": "x.webp\u0000.png""#) == [
        #"a.json: layers[0] "P": unsupported image file names holding a NUL character (assets[0].p): not drawn"#
      ])
    // Twentieth pass: a data URL without `;base64` (percent-encoded, RFC 2397, as browsers
    // read it) was "malformed": it is decoded, and named for what it holds; a `%` without two
    // hex digits is malformed.
    #expect(
      try warnings(#""e": 1, "u": "", "p": "data:image/svg+xml,%3Csvg%2F%3E""#) == [
        #"a.json: layers[0] "P": unsupported images that cannot be decoded (assets[0]: image/svg+xml, neither a PNG, a JPEG nor a WebP): not drawn"#
      ])
    #expect(
      try warnings(#""e": 1, "u": "", "p": "data:image/png,%G1""#) == [
        #"a.json: layers[0] "P": unsupported images with malformed data URLs (assets[0].p): not drawn"#
      ])
    let png = try AtomicFile.read(FixtureFiles.root + "/images/quadrants.png")
    let encoded = png.map { "%" + String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
    #expect(try warnings(#""e": 1, "u": "", "p": "data:image/png,\#(encoded)""#).isEmpty)
    // Twenty-ninth pass: base64 stopped at the first `=` (what followed was dropped), a `=`
    // inside was said to be a damaged picture, and URL-safe letters were taken: a browser's
    // forgiving-base64 refuses all three, so lottie-web draws none of them. Percent-encoded
    // base64 is decoded as a browser decodes it.
    let encodedPNG = Self.base64(png)
    let middle = encodedPNG.index(encodedPNG.startIndex, offsetBy: 8)
    for url in [
      encodedPNG + "QUJD", encodedPNG[..<middle] + "====" + encodedPNG[middle...],
      encodedPNG.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"),
    ] where url != encodedPNG {
      #expect(
        try warnings(#""e": 1, "u": "", "p": "data:image/png;base64,\#(url)""#) == [
          #"a.json: layers[0] "P": unsupported images with malformed data URLs (assets[0].p): not drawn"#
        ])
    }
    let percent = encodedPNG.replacingOccurrences(of: "+", with: "%2B")
    #expect(try warnings(#""e": 1, "u": "", "p": "data:image/png;base64,\#(percent)""#).isEmpty)
    // verify25: base64 text in a URL without `;base64` was said to be "image/png, neither a
    // PNG, ..." (read as a problem of the media type). Said for what it is.
    #expect(
      try warnings(#""e": 1, "u": "", "p": "data:image/png,\#(Self.base64(png))""#) == [
        #"a.json: layers[0] "P": unsupported images in data URLs of base64 text without ";base64" (assets[0].p): not drawn"#
      ])
    // Twenty-second pass: `.` (the Lottie file's own folder) was said to be outside it through
    // a symbolic link, an empty data URL to be of no known kind, an upper-case `DATA:` URL was
    // read as a file name, and a `http:` URL as a file that does not exist.
    #expect(
      try warnings(#""u": "", "p": ".""#, folder: folder + "/") == [
        #"a.json: layers[0] "P": unsupported image files that cannot be read (".": is a folder, not a file): not drawn"#
      ])
    #expect(
      try warnings(#""e": 1, "u": "", "p": "data:image/png;base64,""#) == [
        #"a.json: layers[0] "P": unsupported images that cannot be decoded (assets[0]: no bytes): not drawn"#
      ])
    #expect(
      try warnings(#""e": 1, "u": "", "p": "DATA:IMAGE/PNG;BASE64,\#(Self.base64(png))""#).isEmpty)
    // Hostile pass 32: a fragment is taken off before the data is read, as a browser's URL
    // parser takes it off (it was said to be a malformed data URL).
    #expect(
      try warnings(#""e": 1, "u": "", "p": "data:image/png;base64,\#(Self.base64(png))#frag""#)
        .isEmpty)
    #expect(
      try warnings(#""u": "", "p": "http://example.com/x.png""#) == [
        #"a.json: layers[0] "P": unsupported image assets named by a URL (assets[0]: "http://example.com/x.png"; URLs are not fetched): not drawn"#
      ])
  }

  /// A Lottie document of one image layer showing `picture` (a 16 x 16 asset embedded as a
  /// base64 data URL), read as `a.json`.
  static func imageLayerDocument(embedding picture: [UInt8]) throws -> LottieFormat.Document {
    let json = LottieTest.document(
      layers: #"[{"ty": 2, "ind": 1, "nm": "P", "refId": "img", "ks": {}, "ip": 0, "op": 9}]"#,
      assets:
        #"[{"id": "img", "w": 16, "h": 16, "e": 1, "u": "", "p": "data:image/png;base64,\#(Self.base64(picture))"}]"#
    )
    return try LottieFormat.decode(Array(json.utf8), file: "a.json")
  }

  /// Twenty-second hostile pass: an APNG whose default image is no frame of its animation (an
  /// IDAT before the first fcTL, grey 0x80 here) was drawn as that image, where browsers show
  /// its first frame (0x40). An APNG, like a WebP, shows its first frame.
  @Test func anAPNGAssetShowsItsFirstFrame() throws {
    let apng = try AtomicFile.read(FixtureFiles.root + "/images/apng-hidden-default.png")
    let document = try Self.imageLayerDocument(embedding: apng)
    #expect(document.warnings.isEmpty)
    let frame = try document.scene.makeFrame(at: 0).makeBitmap()
    #expect(frame[4, 4] == RGBA8(64, 64, 64, 64))
  }

  /// Twenty-seventh hostile pass (hostile27): an APNG asset whose IHDR comes after its IDAT was
  /// decoded past the limits (they were checked on a canvas of 0 x 0). It is not drawn, the
  /// warning saying why, as `diff` refuses it (`sheet` and `frame` read assets alike).
  @Test func anAPNGAssetWhoseIHDRComesLateIsNotDrawn() throws {
    let apng = try AtomicFile.read(FixtureFiles.root + "/images/apng-ihdr-late.png")
    let document = try Self.imageLayerDocument(embedding: apng)
    #expect(
      document.warnings.map(\.description) == [
        #"a.json: layers[0] "P": unsupported images that cannot be decoded (assets[0]: its first chunk is acTL, not IHDR (a PNG starts with IHDR)): not drawn"#
      ])
  }

  /// Layers showing one image asset share one decode of it (40 layers of a 64-megapixel
  /// picture took 7.8 GB and aborted when each decoded its own).
  @Test func layersShowingOneImageShareItsPixels() throws {
    let jpeg = try AtomicFile.read(FixtureFiles.root + "/images/two-colors.jpg")
    let data = "data:image/jpeg;base64," + Self.base64(jpeg)
    let json = LottieTest.document(
      layers: #"""
        [{"ty": 2, "ind": 1, "nm": "A", "refId": "img", "ks": {}, "ip": 0, "op": 9},
         {"ty": 2, "ind": 2, "nm": "B", "refId": "img", "ks": {}, "ip": 0, "op": 9}]
        """#,
      assets: #"[{"id": "img", "w": 16, "h": 8, "e": 1, "u": "", "p": "\#(data)"}]"#)
    let scene = try LottieTest.read(json).scene
    func pixels(_ name: String) throws -> UnsafeRawPointer? {
      var layer: Layer? = try LottieTest.layer(name, in: scene, at: 0)
      while let l = layer, l.contents == nil { layer = l.sublayers.first }
      return layer?.contents?.bitmap.pixels.withUnsafeBytes { $0.baseAddress }
    }
    let (a, b) = (try pixels("A"), try pixels("B"))
    #expect(a != nil && a == b)
  }

  /// Standard base64 with padding.
  static func base64(_ bytes: [UInt8]) -> String {
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var out = ""
    var i = 0
    while i < bytes.count {
      let n = Swift.min(3, bytes.count - i)
      var v = 0
      for k in 0..<3 { v = v << 8 | (k < n ? Int(bytes[i + k]) : 0) }
      for k in 0..<4 { out.append(k <= n ? table[(v >> (18 - 6 * k)) & 63] : "=") }
      i += 3
    }
    return out
  }

  /// Hostile pass 42: an archive with data before its first entry (a self-extracting stub)
  /// was said to be invalid JSON, and one whose entries are named `./animations/…` to hold no
  /// animation. Both are read, as unzip reads them.
  @Test func prefixedArchivesAndDotSlashNamesAreRead() throws {
    let bytes = try AtomicFile.read(Self.lottie + "/archive.lottie")
    let original = try LottieFormat.decode(bytes, file: "a.lottie").scene
    let prefixed = Array(repeating: UInt8(ascii: "M"), count: 1_002) + bytes
    let read = try LottieFormat.decode(prefixed, file: "prefixed.lottie").scene
    #expect(try read.makeFrame(at: 0).makeBitmap() == original.makeFrame(at: 0).makeBitmap())
    let dotted = try AtomicFile.read(Self.lottie + "/archive-dot-slash-names.lottie")
    #expect(throws: Never.self) { try LottieFormat.decode(dotted, file: "dotted.lottie") }
  }

  @Test func damagedArchivesAreRefused() throws {
    var bytes = try AtomicFile.read(Self.lottie + "/archive.lottie")
    bytes[bytes.count / 2] ^= 0xFF
    #expect(throws: SceneFormat.DecodingError.self) {
      try LottieFormat.decode(bytes, file: "broken.lottie")
    }
    let cut = Array(bytes.prefix(40))
    do {
      _ = try LottieFormat.decode(cut, file: "cut.lottie")
      Issue.record("a cut archive was read")
    } catch {
      #expect(error.description == "cut.lottie: a damaged zip archive (no central directory)")
    }
  }

  /// Twenty-second hostile pass: a manifest's `activeAnimationId` (the animation players open)
  /// was ignored and the first drawn, without a word; its playback settings too. The active
  /// one is drawn (`a` is red, `b` green), and settings not applied are warned about.
  @Test func theManifestsActiveAnimationIsDrawn() throws {
    let bytes = try AtomicFile.read(
      FixtureFiles.root + "/invalid-lottie/archive-active-animation.lottie")
    let document = try LottieFormat.decode(bytes, file: "a.lottie")
    let frame = try document.scene.makeFrame(at: 0).makeBitmap()
    #expect(frame[50, 50] == RGBA8(0, 255, 0, 255))
    #expect(document.warnings.map(\.description).first?.contains("animations[1].speed") == true)
  }

  /// Hostile pass 32: a version 2 manifest's `initialTheme` and `initial.stateMachine` were
  /// ignored without a word (its `speed` was said). A player applies them; Flipbook draws the
  /// file as it is and says so.
  @Test func themesAndStateMachinesAreSaidNotApplied() throws {
    let manifest = #"""
      {"version": "2", "initial": {"animation": "b", "stateMachine": "s"},
       "animations": [{"id": "a"}, {"id": "b", "initialTheme": "dark"}],
       "themes": [{"id": "dark"}], "stateMachines": [{"id": "s"}]}
      """#
    let chosen = try DotLottie.manifestAnimation(Array(manifest.utf8)).get()
    #expect(chosen.id == "b" && chosen.place == "animations[1]")
    #expect(chosen.playback == ["animations[1].initialTheme", "initial.stateMachine"])
    // Hostile pass 38: an `initial` of another kind was ignored without a word.
    let string = #"{"version": "2", "animations": [{"id": "a"}, {"id": "b"}], "initial": "b"}"#
    let read = try DotLottie.manifestAnimation(Array(string.utf8)).get()
    #expect(
      read.id == "a" && read.playback == ["initial is a string, not an object (initial.animation)"])
    let plain = #"{"animations": [{"id": "a", "speed": 1, "initialTheme": ""}]}"#
    #expect(try DotLottie.manifestAnimation(Array(plain.utf8)).get().playback == [])
    // An entry that is no object was said to have an id that is not a string.
    let strings = #"{"animations": ["b"]}"#
    guard case .failure(let problem) = DotLottie.manifestAnimation(Array(strings.utf8)) else {
      Issue.record("a manifest of strings was read")
      return
    }
    #expect(problem.description == "animations[0] is a string, not an object with an id")
  }

  /// Hostile pass 36: a precomposition clip of no area drew its layers unclipped (a 0.01
  /// clip showed nothing, a 0 one everything); lottie-web clips to it, so nothing shows. And a
  /// hidden track-matte layer matted as if shown; lottie-web never draws it, so the mask is
  /// empty (said, as After Effects would apply it).
  @Test func aClipOfNoAreaAndAHiddenMatteShowWhatLottieWebShows() throws {
    let square =
      ##"{"ty": 1, "ind": 1, "sc": "#ff0000", "sw": 100, "sh": 100, "ks": {}, "ip": 0, "op": 9}"##
    func visible(_ json: String) throws -> Int {
      let b = try LottieTest.read(json).scene.makeFrame(at: 0).makeBitmap()
      return b.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 0 }.count
    }
    for (w, h, shown) in [(10.0, 10.0, 100), (0, 0, 0), (100, 0, 0)] {
      let doc = LottieTest.document(
        layers: #"[{"ty": 0, "refId": "p", "w": \#(w), "h": \#(h), "ks": {}, "ip": 0, "op": 9}]"#,
        assets: #"[{"id": "p", "layers": [\#(square)]}]"#)
      #expect(try visible(doc) == shown, "\(w) x \(h)")
    }
    let unclipped = LottieTest.document(
      layers: #"[{"ty": 0, "refId": "p", "ks": {}, "ip": 0, "op": 9}]"#,
      assets: #"[{"id": "p", "layers": [\#(square)]}]"#)
    #expect(try visible(unclipped) == 10_000)
    for (tt, shown) in [(1, 0), (2, 10_000)] {
      let doc = LottieTest.document(
        layers: ##"""
          [{"ty": 1, "ind": 1, "td": 1, "hd": true, "sc": "#ffffff", "sw": 40, "sh": 40, "ks": {}, "ip": 0, "op": 9},
           {"ty": 1, "ind": 2, "tt": \##(tt), "sc": "#ff0000", "sw": 100, "sh": 100, "ks": {}, "ip": 0, "op": 9}]
          """##)
      #expect(try visible(doc) == shown)
      #expect(
        try LottieTest.read(doc).warnings.map(\.description).contains {
          $0.contains("hidden track matte layers (layers[0]): they matte with nothing")
        })
    }
  }

  @Test func malformedStructureIsRefusedByJSONPath() throws {
    #expect(
      LottieTest.problems(
        #"{"v": "5", "fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": 5}"#)
        == ["test.json: layers: expected a list, found a number"])
    #expect(
      LottieTest.problems(
        LottieTest.document(layers: #"["heart", {"ty": 4, "ks": {}, "shapes": [7]}]"#))
        == [
          "test.json: layers[0]: expected a layer (an object), found a string",
          "test.json: layers[1].shapes[0]: expected a shape item (an object), found a number",
        ])
    let noValue = LottieTest.shapeLayer(
      "Heart", ks: #"{"o": {"a": 1, "k": [{"t": 0}, {"t": 10, "s": [50]}]}}"#)
    #expect(
      LottieTest.problems(LottieTest.document(layers: "[\(noValue)]"))
        == ["test.json: layers[0].ks.o.k[0].s: missing required key (the keyframe's value)"])
    #expect(
      LottieTest.problems(
        #"{"v": "5", "fr": 30, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": [}"#)
        == ["test.json:1:70: invalid JSON: unexpected '}'; expected a value"])
    let missing = LottieTest.document(
      layers: #"[{"ty": 0, "refId": "nowhere", "ks": {}, "nm": "A"}]"#)
    // A dangling reference is not the format's structure: drawn without it, with a warning.
    #expect(LottieTest.problems(missing).isEmpty)
    #expect(
      try LottieTest.read(missing).warnings.map(\.description) == [
        #"test.json: layers[0] "A": unsupported missing asset "nowhere" (refId): not drawn"#
      ])
    let loop = LottieTest.document(
      layers: #"[{"ty": 0, "refId": "a", "ks": {}}]"#,
      assets: #"[{"id": "a", "layers": [{"ty": 0, "refId": "a", "ks": {}}]}]"#)
    #expect(
      LottieTest.problems(loop) == [
        #"test.json: assets[0].layers[0].refId: precomposition "a" contains itself"#
      ])
  }

  /// A chain of `depth` precompositions, each holding the next, the last a solid.
  static func precompositionChain(depth: Int) -> String {
    let assets = (0..<depth).map { i in
      let inner =
        i == depth - 1
        ? ##"{"ty": 1, "sc": "#ff0000", "sw": 50, "sh": 50, "ks": {}}"##
        : #"{"ty": 0, "refId": "a\#(i + 1)", "w": 100, "h": 100, "ks": {}}"#
      return #"{"id": "a\#(i)", "layers": [\#(inner)]}"#
    }
    return LottieTest.document(
      layers: #"[{"ty": 0, "refId": "a0", "w": 100, "h": 100, "ks": {}}]"#,
      assets: "[" + assets.joined(separator: ", ") + "]")
  }

  @Test func hostileNestingIsRefusedByItsPlace() throws {
    // Precompositions 32 deep read and draw; deeper ones would overflow the stack (a crash at
    // about 175 on a worker thread): refused where the 33rd begins.
    let deepest = try LottieTest.read(Self.precompositionChain(depth: 32))
    _ = try deepest.scene.makeFrame(at: 0)
    #expect(
      LottieTest.problems(Self.precompositionChain(depth: 40)) == [
        "test.json: assets[31].layers[0].refId: precompositions nested more than 32 deep, "
          + "the limit"
      ])
    // Repeaters inside repeaters multiply their copies: held to 10,000 as nested replicators
    // are (two of 1,000 hung the renderer).
    let repeater = #"{"ty": "rp", "c": {"a": 0, "k": 1000}, "o": {"a": 0, "k": 0}, "tr": {}}"#
    let dot = #"{"ty": "el", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [4, 4]}}"#
    let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
    let nested = LottieTest.document(
      layers: "["
        + LottieTest.shapeLayer(
          "Dots",
          shapes: #"[{"ty": "gr", "it": [{"ty": "gr", "it": [\#(dot), \#(fill), \#(repeater)]}, "#
            + #"\#(repeater)]}]"#) + "]")
    #expect(
      LottieTest.problems(nested) == [
        "test.json: layers[0].shapes[0].it[0].it[2].c: nested repeaters make more than 10000 copies "
          + "of what they repeat, the limit (the product of their counts)"
      ])
  }

  @Test func keyframeTimesPast2To53DoNotHang() throws {
    // A trim whose keyframe times run -1e19 then 1e19: sampling used to add steps that could
    // not move a frame number that large, and never ended.
    let trim =
      #"{"ty": "tm", "s": {"a": 0, "k": 0}, "o": {"a": 0, "k": 0}, "e": {"a": 1, "k": ["#
      + #"{"t": -1e19, "s": [0], "i": {"x": [0.5], "y": [0.5]}, "o": {"x": [0.5], "y": [0.5]}}, "#
      + #"{"t": 1e19, "s": [100]}]}}"#
    let path =
      #"{"ty": "rc", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}, "#
      + #""r": {"a": 0, "k": 0}}"#
    let stroke =
      #"{"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "#
      + #""w": {"a": 0, "k": 2}}"#
    let document = LottieTest.document(
      layers: "[" + LottieTest.shapeLayer("Box", shapes: "[\(path), \(stroke), \(trim)]") + "]")
    let read = try LottieTest.read(document)
    _ = try read.scene.makeFrame(at: 0.7)
  }

  /// A Lottie file saved as UTF-16 or UTF-32 says so (it said "unexpected byte 0xfe"), read
  /// as a Lottie file or through the door that takes either kind of file.
  @Test func wideTextSaysItsEncoding() {
    let json = LottieTest.document(layers: "[]")
    let utf16: [UInt8] =
      [0xFE, 0xFF] + json.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] as [UInt8] }
    let utf32: [UInt8] = json.unicodeScalars.flatMap {
      [UInt8($0.value & 0xFF), 0, 0, 0] as [UInt8]
    }
    for (bytes, encoding) in [(utf16, "UTF-16 (big-endian)"), (utf32, "UTF-32 (little-endian)")] {
      let message =
        "a.json:1:1: invalid JSON: the file is \(encoding) text; scene and Lottie files must be "
        + "UTF-8"
      do {
        _ = try LottieFormat.decode(bytes, file: "a.json")
        Issue.record("\(encoding) was read")
      } catch {
        #expect(error.description == message)
      }
      do {
        _ = try SceneDocument.decode(bytes, file: "a.json")
        Issue.record("\(encoding) was read")
      } catch {
        #expect(error.description == message)
      }
    }
  }

  /// Keyframes whose times go backwards are refused at the one out of order: lottie-web's
  /// reading of them depends on the frames it showed before (they were taken at the previous
  /// keyframe's frame without a word).
  @Test func keyframesOutOfTimeOrderAreRefused() {
    let ks =
      #"{"p": {"a": 1, "k": [{"t": 30, "s": [0, 0]}, {"t": 30, "s": [50, 50]}, "#
      + #"{"t": 10, "s": [10, 10]}]}}"#
    #expect(
      LottieTest.problems(LottieTest.document(layers: "[\(LottieTest.shapeLayer("A", ks: ks))]"))
        == [
          "test.json: layers[0].ks.p.k[2].t: keyframe at frame 10 is before the previous "
            + "keyframe's frame 30 (keyframes must be in time order)"
        ])
  }

  static let expression = LottieTest.shapeLayer(
    "Heart", ind: 1, ks: #"{"o": {"a": 0, "k": 50, "x": "wiggle(2, 10)"}}"#)
  static let expression2 = LottieTest.shapeLayer(
    "Other", ind: 2, ks: #"{"r": {"a": 0, "k": 5, "x": "time * 10"}}"#, extra: #""ddd": 1"#)

  @Test func unsupportedFeaturesWarnOncePerFeatureNamingTheLayer() throws {
    let json = LottieTest.document(layers: "[\(Self.expression), \(Self.expression2)]")
    let document = try LottieTest.read(json)
    #expect(
      document.warnings.map(\.description) == [
        #"test.json: layers[0] "Heart": unsupported expressions (x): the static value or keyframes are used"#,
        #"test.json: layers[1] "Other": unsupported 3D layers (ddd): drawn flat"#,
      ])
    // The static value is used.
    #expect(try LottieTest.layer("Heart", in: document.scene, at: 0).opacity == 0.5)
  }

  @Test func strictTurnsWarningsIntoErrors() {
    let json = LottieTest.document(layers: "[\(Self.expression)]")
    do {
      _ = try LottieFormat.decode(Array(json.utf8), file: "test.json", strict: true)
      Issue.record("a strict read accepted an unsupported feature")
    } catch {
      #expect(
        error.description
          == #"test.json: layers[0] "Heart": unsupported expressions (x): the static value or keyframes are used (--strict)"#
      )
    }
  }

  @Test func commandsTakeLottieFilesAndStrict() throws {
    let json = LottieTest.document(layers: "[\(Self.expression)]")
    let path = folder + "/heart.lottie.json"
    try AtomicFile.write(Array(json.utf8), to: path)
    let png = folder + "/heart.png"
    let frame = try Tools.run(Tools.flipbook, ["frame", path, "--time", "0.5", "-o", png])
    #expect(frame.status == 0)
    #expect(
      frame.errors.contains(#"warning: \#(path): layers[0] "Heart": unsupported expressions (x)"#))
    #expect(FixtureFiles.exists(png))
    let strict = try Tools.run(
      Tools.flipbook, ["frame", path, "--time", "0", "-o", folder + "/s.png", "--strict"])
    #expect(strict.status == 1)
    #expect(strict.errors.contains("(--strict)"))
    #expect(!FixtureFiles.exists(folder + "/s.png"))
    let gif = folder + "/shapes.gif"
    let render = try Tools.run(
      Tools.flipbook, ["render", Self.lottie + "/shapes.json", "-o", gif, "--quiet"])
    #expect(render.status == 0, "\(render.errors)")
    let frames = try GIF.decode(try AtomicFile.read(gif)).frames
    #expect(frames.count > 1)
  }

  @Test func inspectNamesLayersAfterTheirNm() throws {
    let result = try Tools.run(
      Tools.flipbook, ["inspect", Self.lottie + "/shapes.json", "--time", "0"])
    #expect(result.status == 0)
    for name in [
      "Badge", "Star", "Star Fill", "Star Stroke", "Ring", "Ring Stroke", "Card", "Card Fill",
    ] {
      #expect(result.output.contains(#""name": "\#(name)""#), "\(name)")
    }
  }

  @Test func goldenKitAssertsOnLottieFiles() {
    assertGolden(
      contentsOf: Self.lottie + "/shapes.json", at: [0, 1], named: "shapes",
      scale: 0.5)
  }
}
