import Pages
import SceneFiles
import Testing

@testable import Batch

/// The manifest's JSON (deterministic, read back whole) and the gallery page made from it.
@Suite struct ManifestTests {
  static var sample: Manifest {
    var ok = Manifest.Entry(name: "icons/spin", input: "icons/spin.json")
    ok.hash = "sha256:00"
    ok.dependencies = ["images/a b.png"]
    (ok.width, ok.height, ok.duration, ok.fps, ok.frameCount) = (64, 32, 1.5, 20, 30)
    ok.outputs = [
      Manifest.Output(
        format: "gif", file: "icons/spin.gif", bytes: 2048, width: 64, height: 32, duration: 1.5,
        frames: 28, renderSeconds: 0.25),
      Manifest.Output(
        format: "webm", file: "icons/spin.webm", bytes: 99, width: 64, height: 32, duration: 1.5,
        frames: 30, renderSeconds: 0.5),
    ]
    ok.frames = Manifest.FrameSheet(file: "icons/spin.frames.png", count: 30, columns: 6, step: 1)
    ok.warnings = ["a <warning> & more"]
    var bad = Manifest.Entry(name: "broken", input: "broken.json")
    bad.error = "broken.json: layers[0].x: expected a number </script>"
    return Manifest(
      flipbookVersion: "0.1.0", formats: ["gif", "webm"], shard: nil, animations: [bad, ok])
  }

  @Test func jsonReadsBackToTheSameManifest() throws {
    let text = ManifestTests.sample.json.serialized()
    let back = try Manifest(json: try JSONParser.parse(Array(text.utf8)))
    #expect(back == ManifestTests.sample)
    #expect(back.json.serialized() == text)
    #expect(text.contains(#""renderSeconds": 0.25"#))
    #expect(text.contains(#""formats": ["gif", "webm"]"#))
    #expect(!text.contains("shard"))
  }

  /// Manifests' files are plain relative paths in the output folder; links encode colons, so
  /// that no file name reads as a URL scheme.
  @Test func filesArePlainRelativePathsAndLinksEncodeColons() {
    #expect(Paths.notPlainRelative("icons/a:b.gif") == nil)
    #expect(Paths.notPlainRelative("a b/c.gif") == nil)
    #expect(Paths.notPlainRelative("") == "an empty path")
    #expect(Paths.notPlainRelative("/etc/x.gif") == "a file outside the output folder")
    #expect(Paths.notPlainRelative("a/../../x.gif") == "a file outside the output folder")
    #expect(Paths.notPlainRelative("a\u{85}.gif") == "a control character in a file name")
    #expect(Paths.notPlainRelative(#"C:\x.gif"#) == "a backslash in a file name")
    #expect(
      Paths.notPlainRelative("JavaScript:x//.gif")
        == "a colon before the first slash (a link would read it as a URL scheme)")
    #expect(HTML.urlPath("javascript:alert(1)//.gif") == "javascript%3Aalert(1)//.gif")
    #expect(HTML.urlPath("icons/a:b c.gif") == "icons/a%3Ab%20c.gif")
  }

  @Test func numbersAndStringsAreWrittenExactly() {
    #expect(JSONValue.text(of: 3) == "3")
    #expect(JSONValue.text(of: 0.1) == "0.1")
    #expect(JSONValue.text(of: -2.5) == "-2.5")
    #expect(JSONValue.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
  }

  @Test func shardManifestsAreNamedByIndexAndCount() {
    #expect(Manifest.shardFileName(2, of: 3) == "manifest.2-of-3.json")
  }

  @Test func thePageShowsEveryAnimationWithItsFactsAndProblems() {
    let page = GalleryPage.html(ManifestTests.sample)
    #expect(page.contains("<h2>icons/spin</h2>"))
    #expect(page.contains("64×32 px · 1.5 s · 30 frames"))
    #expect(page.contains("<a href=\"icons/spin.gif\">gif</a> 2 KiB"))
    #expect(page.contains("<a href=\"icons/spin.webm\">webm</a> 99 B"))
    #expect(page.contains("<img src=\"icons/spin.gif\""))
    #expect(page.contains("⚠ a &lt;warning&gt; &amp; more"))
    #expect(page.contains("✖ broken.json: layers[0].x: expected a number &lt;/script&gt;"))
    #expect(page.contains("2 animations, <span class=\"bad\">1 failed</span>"))
    #expect(page.contains("id=\"filter\""))
    // The embedded manifest cannot close its script element early.
    #expect(!page.contains("number </script>"))
    #expect(page.contains("number \\u003c/script\\u003e"))
    // No network, no render times (two runs make the same page).
    #expect(!page.contains("http://") && !page.contains("https://"))
    #expect(!page.contains("renderSeconds\": 0.25"))
  }

  /// An error quoting a key like `<!--<script>` opened an HTML comment inside the embedded
  /// manifest, which swallowed the page's script (found by a hostile pass): the embedded JSON
  /// has no `<`, `>`, `&`, U+2028 or U+2029 left, and reads back as the same manifest.
  @Test func theEmbeddedManifestHasNoMarkupAndReadsBack() throws {
    var manifest = ManifestTests.sample
    manifest.animations[0].error =
      "bad.json: <!--<script>: not a key of a scene file & \u{2028}\u{2029}"
    for a in manifest.animations.indices {
      for o in manifest.animations[a].outputs.indices {
        manifest.animations[a].outputs[o].renderSeconds = 0
      }
    }
    let page = GalleryPage.html(manifest)
    let opening = "<script type=\"application/json\" id=\"manifest\">"
    let start = try #require(page.range(of: opening)).upperBound
    let end = try #require(page[start...].range(of: "</script>")).lowerBound
    let embedded = String(page[start..<end])
    #expect(!embedded.contains { "<>&\u{2028}\u{2029}".contains($0) })
    #expect(embedded.contains(#"bad.json: \u003c!--\u003cscript\u003e: not a key"#))
    #expect(embedded.contains(#"\u0026 \u2028\u2029"#))
    let back = try Manifest(json: try JSONParser.parse(Array(embedded.utf8)))
    #expect(back == manifest)
  }

  @Test func aVideoFirstOutputIsAVideoElement() {
    var manifest = ManifestTests.sample
    manifest.animations[1].outputs.removeFirst()
    let page = GalleryPage.html(manifest)
    #expect(page.contains("<video src=\"icons/spin.webm\" muted loop autoplay playsinline>"))
  }

  /// `text` with its first `old` replaced by `new`.
  static func replacing(_ old: String, _ new: String, in text: String) -> String {
    guard let range = text.range(of: old) else { return text }
    return text.replacingCharacters(in: range, with: new)
  }

  /// What reading the sample manifest with `old` replaced by `new` refuses (`nil`: nothing).
  static func problem(_ old: String, _ new: String) -> String? {
    let text = ManifestTests.sample.json.serialized()
    let changed = ManifestTests.replacing(old, new, in: text)
    #expect(changed != text, "\(old)")
    do {
      _ = try Manifest(json: try JSONParser.parse(Array(changed.utf8)))
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// An independent hostile pass: a shard manifest's outputs repeated 1,000,000 times took 74 s
  /// and 1.5 GB to merge, a format of `exe` or `<img ...>` and a `width` of `"x"` were taken
  /// (the width as none), and an error of 50,000,000 characters was printed whole. Each value
  /// is checked for its kind and size as the manifest is read, naming its JSON path.
  @Test func aManifestReadBackIsCheckedForItsShapeNamingThePlace() throws {
    let problem = ManifestTests.problem
    #expect(
      problem(#""formats": ["gif", "webm"]"#, #""formats": ["gif", "exe"]"#)
        == #"formats[1]: "exe" is not a format a batch makes (gif, webp, apng, png, mp4, webm)"#)
    #expect(
      problem(#""formats": ["gif", "webm"]"#, #""formats": ["gif", "gif"]"#)
        == "formats[1]: gif is named twice")
    #expect(
      problem(#""format": "gif""#, #""format": "<img src=x onerror=alert(1)>""#)
        == #"animations[1].outputs[0].format: "<img src=x onerror=alert(1)>" is not one of the "#
        + "manifest's formats (gif, webm)")
    #expect(
      problem(#""format": "webm""#, #""format": "gif""#)
        == "animations[1].outputs[1].format: a second gif output")
    #expect(
      problem(#""width": 64"#, #""width": "x""#)
        == "animations[1].width: expected a whole number of 0 or more, found a string")
    #expect(
      problem(#""bytes": 2048"#, #""bytes": 2048.5"#)
        == "animations[1].outputs[0].bytes: expected a whole number of 0 or more, found 2048.5")
    #expect(
      problem(#""duration": 1.5"#, #""duration": "long""#)
        == "animations[1].duration: expected a number, found a string")
    #expect(
      problem(#""a <warning>"#, #"7, "a <warning>"#)
        == "animations[1].warnings[0]: expected a string, found 7")
    // An animation's outputs: at most one a format the manifest names.
    var many = ManifestTests.sample
    many.animations[1].outputs += many.animations[1].outputs
    let repeated = many.json.serialized()
    #expect(
      throws: ManifestError(
        message: "animations[1].outputs: 4 outputs, more than the 2 formats the manifest names "
          + "(one each)")
    ) {
      try Manifest(json: try JSONParser.parse(Array(repeated.utf8)))
    }
    // Texts: whole up to 100,000 characters; a longer one is not what a batch writes.
    let long = String(repeating: "é", count: Manifest.maximumTextLength)
    #expect(problem(#""error": "broken.json"#, #""error": "\#(long)"#) != nil)
    #expect(
      problem(#""error": "broken.json"#, #""error": "\#(long)broken.json"#)
        == "animations[0].error: 100053 characters, more than the 100000 a batch writes")
    #expect(
      problem(#""name": "broken""#, #""name": "\#(String(repeating: "n", count: 4_097))""#)
        == "animations[0].name: 4097 bytes, more than the 4096 a name may have")
  }

  /// Hostile pass 26: a cached or shard manifest whose record for `effects-replicator` listed
  /// `three-d.gif` (another animation's output) was trusted. A batch writes `NAME.FORMAT` and
  /// `NAME.frames.png` for animation `NAME`, the input's path without its extension; a record
  /// naming another file, or named after another input, is refused naming its JSON path.
  @Test func aRecordListsOnlyItsOwnAnimationsFiles() {
    let problem = ManifestTests.problem
    #expect(
      problem(#""file": "icons/spin.gif""#, #""file": "broken.gif""#)
        == #"animations[1].outputs[0].file: "broken.gif" is not the file a batch writes as "#
        + #"icons/spin's gif output ("icons/spin.gif")"#)
    #expect(
      problem(#""file": "icons/spin.webm""#, #""file": "icons/spin.gif""#)
        == #"animations[1].outputs[1].file: "icons/spin.gif" is not the file a batch writes as "#
        + #"icons/spin's webm output ("icons/spin.webm")"#)
    #expect(
      problem(#""file": "icons/spin.frames.png""#, #""file": "broken.frames.png""#)
        == #"animations[1].frames.file: "broken.frames.png" is not the file a batch writes as "#
        + #"icons/spin's frame sheet ("icons/spin.frames.png")"#)
    #expect(
      problem(#""name": "broken""#, #""name": "icons/spin""#)
        == #"animations[0].name: "icons/spin" is not its input "broken.json" without the "#
        + #"extension ("broken")"#)
  }

  /// A batch writes an error or warning longer than the manifest keeps cut to it, so that a
  /// merge reads back every manifest a batch writes; messages and the page cut each line to
  /// 1,000 characters and escape control characters.
  @Test func longTextsAreKeptWithinTheLimitAndShownCut() throws {
    var manifest = ManifestTests.sample
    manifest.animations[0].error = String(repeating: "E", count: 150_000)
    let back = try Manifest(json: try JSONParser.parse(Array(manifest.json.serialized().utf8)))
    let kept = try #require(back.animations[0].error)
    #expect(kept.unicodeScalars.count == Manifest.maximumTextLength && kept.hasSuffix("E…"))
    #expect(
      MessageText.lines("a.json: " + String(repeating: "x", count: 2_000) + "\nb \u{1B}[2J")
        == "a.json: " + String(repeating: "x", count: 992) + "…\nb \\u001B[2J")
    #expect(MessageText.lines("short\nlines") == "short\nlines")
    manifest.animations[0].error = String(repeating: "E", count: 5_000)
    let page = GalleryPage.html(manifest)
    #expect(page.contains("✖ " + String(repeating: "E", count: 1_000) + "…</p>"))
    #expect(!page.contains("✖ " + String(repeating: "E", count: 1_001)))
  }
}
