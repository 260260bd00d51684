import FlipbookTestSupport
import Flipbook
import Glibc
import Testing

/// README "Limits and the fuzzer": a seeded mutation fuzzer over the scene reader (and what it
/// accepts, drawn small at a few times) and the PNG and GIF readers. It starts from the files in
/// `Fixtures/` and mutates them the ways hostile input breaks parsers (flipped bytes, cut and
/// repeated runs, numbers swapped for extreme ones, tokens spliced in, PNG chunks with fixed
/// CRCs and huge sizes). Every input must be accepted or refused with a well-formed message;
/// a crash or trap fails the whole run, and the input that did it is in
/// `.build/fuzz-last-input` (keep it as a regression fixture in `Fixtures/invalid/` or
/// `Fixtures/hostile/`).
///
/// `FLIPBOOK_FUZZ_ITERATIONS` (default 200 per reader) and `FLIPBOOK_FUZZ_SEED` (default 18)
/// choose how long and which run (README "The fuzzer" has the command for a long run).
@Suite struct FuzzTests {
  static let iterations =
    Int(getenv("FLIPBOOK_FUZZ_ITERATIONS").map { String(cString: $0) } ?? "") ?? 200
  static let seed = UInt64(getenv("FLIPBOOK_FUZZ_SEED").map { String(cString: $0) } ?? "") ?? 18
  static let lastInput = FixtureFiles.repository + ".build/fuzz-last-input"

  static func seeds(_ folder: String, _ suffix: String) -> [[UInt8]] {
    FixtureFiles.names(in: FixtureFiles.root + "/" + folder, suffix: suffix).compactMap {
      try? AtomicFile.read("\(FixtureFiles.root)/\(folder)/\($0)\(suffix)")
    }
  }

  /// Writes the input under test where a crash leaves it (plain writes: this must be cheap).
  static func remember(_ bytes: [UInt8], _ suffix: String) {
    let path = lastInput + suffix
    guard let file = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }

  @Test func sceneReaderHoldsUnderMutation() throws {
    let corpus =
      Self.seeds("scenes", ".json") + Self.seeds("invalid", ".json")
      + Self.seeds("hostile", ".json")
    #expect(corpus.count >= 30)
    var random = SeededGenerator(seed: Self.seed)
    var accepted = 0
    for _ in 0..<Self.iterations {
      let input = Mutator.mutateJSON(
        corpus.randomElement(using: &random)!, corpus: corpus, using: &random)
      Self.remember(input, ".json")
      do {
        let scene = try SceneFormat.decode(
          input, file: "fuzz.json", baseDirectory: FixtureFiles.root + "/scenes")
        accepted += 1
        // Drawn small (at most 32 pixels a side) at a few times early in the scene.
        let side = Swift.max(scene.size.width, scene.size.height)
        let scale = side > 0 ? Swift.min(1, 32 / side) : 1
        for time in [0, 0.37, Double.random(in: -1...2, using: &random)] {
          do {
            _ = try scene.makeFrame(at: time, scale: scale).makeBitmap()
          } catch {
            Self.checkMessage(String(describing: error), file: nil)
          }
        }
      } catch {
        Self.checkMessage(error.description, file: "fuzz.json")
      }
    }
    // The mutations are mild enough that some scenes still read and get drawn.
    #expect(accepted > 0 || Self.iterations < 20)
  }

  /// The Lottie reader (issue 15) under the same mutations of `Fixtures/lottie`'s files, plus
  /// Lottie's own keys and values spliced in; dotLottie archives get byte-level changes.
  @Test func lottieReaderHoldsUnderMutation() throws {
    let json = Self.seeds("lottie", ".json")
    let archives = Self.seeds("lottie", ".lottie")
    #expect(json.count >= 5 && !archives.isEmpty)
    var random = SeededGenerator(seed: Self.seed &+ 3)
    var accepted = 0
    for _ in 0..<Self.iterations {
      let input: [UInt8]
      if Int.random(in: 0..<8, using: &random) == 0 {
        input = Mutator.mutateBytes(archives.randomElement(using: &random)!, using: &random)
      } else {
        let base = json.randomElement(using: &random)!
        input =
          Bool.random(using: &random)
          ? Mutator.mutateJSON(base, corpus: json, using: &random)
          : Mutator.insert(
            Array(Mutator.lottieTokens.randomElement(using: &random)!.utf8), into: base,
            using: &random)
      }
      Self.remember(input, ".lottie.json")
      do {
        let document = try LottieFormat.decode(
          input, file: "fuzz.json", baseDirectory: FixtureFiles.root + "/lottie")
        accepted += 1
        let scene = document.scene
        let side = Swift.max(scene.size.width, scene.size.height)
        let scale = side > 0 ? Swift.min(1, 32 / side) : 1
        for time in [0, 0.37, Double.random(in: -1...2, using: &random)] {
          do {
            _ = try scene.makeFrame(at: time, scale: scale).makeBitmap()
          } catch {
            Self.checkMessage(String(describing: error), file: nil)
          }
        }
        for warning in document.warnings {
          Self.checkMessage(warning.description, file: "fuzz.json")
        }
      } catch {
        Self.checkMessage(error.description, file: "fuzz.json")
      }
    }
    #expect(accepted > 0 || Self.iterations < 20)
  }

  @Test func pngReaderHoldsUnderMutation() {
    let corpus = Self.seeds("images", ".png") + [Self.smallPNG()]
    var random = SeededGenerator(seed: Self.seed &+ 1)
    for _ in 0..<Self.iterations {
      let input = Mutator.mutatePNG(corpus.randomElement(using: &random)!, using: &random)
      Self.remember(input, ".png")
      do {
        let bitmap = try PNG.decode(input)
        #expect(bitmap.width <= PNG.maximumDecodedSide && bitmap.height <= PNG.maximumDecodedSide)
        #expect(bitmap.width * bitmap.height <= PNG.maximumDecodedPixels)
      } catch {
        Self.checkMessage(error.description, file: nil)
      }
    }
  }

  @Test func gifReaderHoldsUnderMutation() throws {
    let corpus = [try Self.smallGIF()]
    var random = SeededGenerator(seed: Self.seed &+ 2)
    for _ in 0..<Self.iterations {
      let input = Mutator.mutateBytes(corpus.randomElement(using: &random)!, using: &random)
      Self.remember(input, ".gif")
      do {
        let animation = try GIF.decode(input)
        #expect(animation.width * animation.height <= GIF.maximumDecodedPixels)
      } catch {
        Self.checkMessage(error.description, file: nil)
      }
    }
  }

  /// One line per problem, each short, naming the file once when there is one.
  static func checkMessage(_ message: String, file: String?) {
    #expect(!message.isEmpty)
    #expect(!message.utf8.contains(0))
    for line in message.split(separator: "\n") {
      #expect(line.utf8.count <= 600, "a message line of \(line.utf8.count) bytes")
      if let file {
        #expect(line.hasPrefix(file + ":"))
        #expect(!line.hasPrefix("\(file): \(file)"))
      }
    }
  }

  static func smallPNG() -> [UInt8] {
    let pixels = (0..<24).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    return (try? PNG.encode(Bitmap(width: 3, height: 2, pixels: pixels))) ?? []
  }

  /// A two-frame GIF of 8 x 6 pixels: a red square moving on white.
  static func smallGIF() throws -> [UInt8] {
    let text =
      ##"{"flipbook": 1, "size": [8, 6], "duration": 0.2, "fps": 10, "background": "#ffffff", "##
      + ##""layers": [{"bounds": [0, 0, 4, 4], "position": [3, 3], "backgroundColor": "#ff0000", "##
      + ##""animations": [{"type": "basic", "keyPath": "position.x", "toValue": 5, "duration": 0.2}]}]}"##
    let bytes = Array(text.utf8)
    return try Export.gifData(SceneRecipe { try SceneFormat.decode(bytes, file: "small.json") })
  }
}

/// The mutations: each returns a new input made from `bytes`.
enum Mutator {
  static let extremeNumbers = [
    "1e308", "-1e308", "0", "-0", "1e-320", "-1e-300", "4294967296", "9007199254740993", "-1",
    "1e7", "65536", "0.0001", "3600", "240", "100001", "1e15",
  ]
  static let tokens = [
    "{}", "[]", "null", "true", "\"\"", "\"\\u0000\"", "[1e308, 1e308]", "{\"arc\": {}}",
    "\"M0 0 A 1e308 1e308 0 1 1 1e308 -1e308\"", "\"M0 0 A 1e-320 1e300 0 1 1 1e300 1\"",
    "[{\"scale\": 1e300}, {\"scale\": 1e300}]", "\"quadrants.png\"", "\"../images/quadrants.png\"",
    "{\"type\": \"keyframe\", \"keyPath\": \"opacity\", \"values\": []}", "\"infinity\"",
    String(repeating: "[", count: 600), String(repeating: "k", count: 500),
  ]

  /// Lottie values that have broken readers: self-referencing and missing assets, keyframes
  /// without values or with huge frames, empty shapes, extreme counts.
  static let lottieTokens = [
    #"{"a": 1, "k": [{"t": 0}, {"t": 1e308, "s": [1]}]}"#, #"{"a": 1, "k": []}"#,
    #"{"a": 1, "k": [{"t": 5, "s": [0]}, {"t": 1, "s": [9]}]}"#, #"{"k": {"c": true}}"#,
    #"{"k": {"c": true, "v": [[0, 0]], "i": [], "o": []}}"#, #"{"ty": 0, "refId": "comp_0"}"#,
    #"{"ty": "rp", "c": {"a": 0, "k": 1e9}}"#, #"{"ty": "sr", "pt": {"a": 0, "k": 1e12}}"#,
    #"{"ty": "gr", "it": [{"ty": "gr", "it": []}]}"#, #"{"ty": 2, "refId": "nothing"}"#,
    #""data:image/png;base64,AAAA""#, #"{"ty": "tm", "o": {"a": 0, "k": 1e300}}"#,
    #"{"ty": "gf", "g": {"p": 1e9, "k": {"a": 0, "k": [0]}}}"#, #""parent": 1"#,
  ]

  static func mutateJSON(
    _ bytes: [UInt8], corpus: [[UInt8]], using random: inout SeededGenerator
  ) -> [UInt8] {
    var out = bytes
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      switch Int.random(in: 0..<10, using: &random) {
      case 0...3: out = replaceNumber(out, using: &random)
      case 4, 5:
        out = insert(Array(tokens.randomElement(using: &random)!.utf8), into: out, using: &random)
      case 6: out = splice(out, corpus.randomElement(using: &random)!, using: &random)
      default: out = mutateBytes(out, using: &random)
      }
    }
    return out
  }

  /// Swaps one number in the text for an extreme one.
  static func replaceNumber(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
    let isNumber: (UInt8) -> Bool = {
      ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 46 || $0 == 101 || $0 == 43
    }
    let starts = bytes.indices.filter { i in
      (bytes[i] >= 48 && bytes[i] <= 57 || bytes[i] == 45) && (i == 0 || !isNumber(bytes[i - 1]))
    }
    guard let start = starts.randomElement(using: &random) else { return bytes }
    var end = start
    while end < bytes.count && isNumber(bytes[end]) { end += 1 }
    return Array(bytes[..<start]) + Array(extremeNumbers.randomElement(using: &random)!.utf8)
      + Array(bytes[end...])
  }

  static func insert(
    _ token: [UInt8], into bytes: [UInt8], using random: inout SeededGenerator
  ) -> [UInt8] {
    let at = Int.random(in: 0...bytes.count, using: &random)
    if Bool.random(using: &random), at < bytes.count {
      // Replace the run up to the next separator, so the token often lands as a whole value.
      var end = at
      while end < bytes.count && ![44, 93, 125].contains(bytes[end]) { end += 1 }
      return Array(bytes[..<at]) + token + Array(bytes[end...])
    }
    return Array(bytes[..<at]) + token + Array(bytes[at...])
  }

  static func splice(_ a: [UInt8], _ b: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
    guard !a.isEmpty, !b.isEmpty else { return a + b }
    let i = Int.random(in: 0..<a.count, using: &random),
      j = Int.random(in: 0..<b.count, using: &random)
    let k = Swift.min(b.count, j + Int.random(in: 1...200, using: &random))
    return Array(a[..<i]) + Array(b[j..<k]) + Array(a[i...])
  }

  /// Byte-level changes: flips, cuts, repeats, truncation.
  static func mutateBytes(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
    var out = bytes
    guard !out.isEmpty else { return [UInt8.random(in: 0...255, using: &random)] }
    switch Int.random(in: 0..<5, using: &random) {
    case 0:
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        out[Int.random(in: 0..<out.count, using: &random)] = UInt8.random(
          in: 0...255, using: &random)
      }
    case 1:
      let i = Int.random(in: 0..<out.count, using: &random)
      out.removeSubrange(i..<Swift.min(out.count, i + Int.random(in: 1...64, using: &random)))
    case 2:
      let i = Int.random(in: 0..<out.count, using: &random)
      let run = out[i..<Swift.min(out.count, i + Int.random(in: 1...64, using: &random))]
      out.insert(
        contentsOf: Array(repeating: Array(run), count: Int.random(in: 1...20, using: &random))
          .joined(), at: i)
    case 3:
      out = Array(out.prefix(Int.random(in: 0..<out.count, using: &random)))
    default:
      let i = Int.random(in: 0..<out.count, using: &random)
      out[i] = [0, 0xFF, 0x7F, 0x80].randomElement(using: &random)!
    }
    return out
  }

  /// PNG changes that get past the CRC checks: a chunk's data changed and its CRC fixed, or the
  /// header's size set to an extreme.
  static func mutatePNG(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
    var out = bytes
    guard out.count > 33 else { return mutateBytes(out, using: &random) }
    switch Int.random(in: 0..<3, using: &random) {
    case 0:
      // IHDR width and height (bytes 16...23).
      let sizes: [UInt32] = [0, 1, 16000, 16385, 65535, 0x7FFF_FFFF, 0xFFFF_FFFF, 3]
      for offset in [16, 20] where Bool.random(using: &random) {
        let v = sizes.randomElement(using: &random)!
        for k in 0..<4 { out[offset + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * k)) }
      }
      if Bool.random(using: &random) {
        out[24] = [1, 2, 4, 8, 16, 3].randomElement(using: &random)!
      }
      if Bool.random(using: &random) {
        out[25] = [0, 2, 3, 4, 6, 7].randomElement(using: &random)!
      }
      fixCRCs(&out)
    case 1:
      out = mutateBytes(out, using: &random)
      fixCRCs(&out)
    default:
      out = mutateBytes(out, using: &random)
    }
    return out
  }

  /// Recomputes the CRC of every whole chunk after the signature.
  static func fixCRCs(_ bytes: inout [UInt8]) {
    var at = 8
    while at + 12 <= bytes.count {
      let length =
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8
        | Int(bytes[at + 3])
      guard at + 12 + length <= bytes.count else { return }
      let crc = crc32(bytes[(at + 4)..<(at + 8 + length)])
      for k in 0..<4 {
        bytes[at + 8 + length + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k)))
      }
      at += 12 + length
    }
  }

  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
