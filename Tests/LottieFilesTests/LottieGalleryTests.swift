import Flipbook
import FlipbookTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The README's Lottie gallery (`docs/gallery/lottie-NAME.gif`, from the hand-written
/// `docs/lottie-examples/NAME.json`) is what the current code renders, byte for byte.
@Suite struct LottieGalleryTests {
  static let names = ["heart", "loader", "blob", "badge"]

  @Test(arguments: names) func committedGIFIsWhatTheCodeRenders(_ name: String) throws {
    let source = FixtureFiles.repository + "docs/lottie-examples/\(name).json"
    let committed = FixtureFiles.repository + "docs/gallery/lottie-\(name).gif"
    let folder = FixtureFiles.temporaryFolder()
    let fresh = "\(folder)/\(name).gif"
    _ = try Export.gif(SceneRecipe { try SceneDocument.load(contentsOf: source).scene }, to: fresh)
    #expect(
      try AtomicFile.read(committed) == AtomicFile.read(fresh),
      "docs/gallery/lottie-\(name).gif is not what the code renders: run scripts/demo")
    unlink(fresh)
    rmdir(folder)
  }

  @Test(arguments: names) func examplesUseNoUnsupportedFeature(_ name: String) throws {
    let source = FixtureFiles.repository + "docs/lottie-examples/\(name).json"
    #expect(try SceneDocument.load(contentsOf: source, strict: true).warnings.isEmpty)
  }
}
