import Demos
import Flipbook
import FlipbookTestSupport
import Testing
#if canImport(Glibc)
  import Glibc
#endif

/// The README's gallery (`docs/gallery/NAME.gif`) is what the current code renders, byte for
/// byte: rendering is deterministic, so any difference means the gallery is stale.
@Suite struct GalleryTests {
  static let gallery = FixtureFiles.repository + "docs/gallery"

  @Test(arguments: Demo.all.map(\.name))
  func committedGIFIsWhatTheCodeRenders(_ name: String) throws {
    let committed = "\(Self.gallery)/\(name).gif"
    guard FixtureFiles.exists(committed) else {
      Issue.record(
        "\(committed) is missing: run scripts/demo (or flipbook demo --all -o docs/gallery/) and commit docs/gallery"
      )
      return
    }
    let folder = FixtureFiles.temporaryFolder()
    let fresh = "\(folder)/\(name).gif"
    _ = try Export.gif(Demo.named(name)!.recipe, to: fresh)
    let expected = try AtomicFile.read(committed), actual = try AtomicFile.read(fresh)
    if expected == actual {
      unlink(fresh)
      rmdir(folder)
      return
    }
    Issue.record(
      Comment(
        rawValue: """
          docs/gallery/\(name).gif (\(expected.count) bytes) is not what the code renders (\(actual.count) bytes, in \(fresh)). \
          Refresh the gallery with scripts/demo (or: swift run -c release flipbook demo --all -o docs/gallery/), \
          look at the GIFs, and commit docs/gallery.
          """))
  }

  @Test(arguments: Demo.all.map(\.name))
  func committedWebPIsWhatTheCodeRenders(_ name: String) throws {
    let committed = "\(Self.gallery)/\(name).webp"
    guard FixtureFiles.exists(committed) else {
      Issue.record("\(committed) is missing: run scripts/demo and commit docs/gallery")
      return
    }
    let folder = FixtureFiles.temporaryFolder()
    let fresh = "\(folder)/\(name).webp"
    _ = try Export.webp(Demo.named(name)!.recipe, to: fresh)
    let expected = try AtomicFile.read(committed), actual = try AtomicFile.read(fresh)
    // A Bool, not the arrays: a failing `#expect(a == b)` diffs the two byte arrays, which
    // takes minutes for a GIF or WebP.
    let same = expected == actual
    #expect(same, "docs/gallery/\(name).webp is not what the code renders: run scripts/demo")
    unlink(fresh)
    rmdir(folder)
  }

  @Test(arguments: Demo.all.map(\.name))
  func readmeStatesEachWebPsSize(_ name: String) throws {
    // "<b>NAME</b>: ..., N KiB, lossless WebP M KiB"
    let readme = FixtureFiles.text(FixtureFiles.repository + "README.md")
    let kib = Int(
      (Double(try AtomicFile.read("\(Self.gallery)/\(name).webp").count) / 1024).rounded())
    let line = readme.split(separator: "\n").first { $0.contains("<b>\(name)</b>:") } ?? ""
    #expect(
      line.contains("lossless WebP \(kib) KiB"),
      "README.md should say \(name).webp is \(kib) KiB: \(line)")
  }

  @Test(arguments: Demo.all.map(\.name))
  func readmeStatesEachGIFsSize(_ name: String) throws {
    // The README's gallery says "<b>NAME</b>: ..., N KiB"; N is the committed GIF's size, rounded.
    let readme = FixtureFiles.text(FixtureFiles.repository + "README.md")
    let bytes = try AtomicFile.read("\(Self.gallery)/\(name).gif").count
    let kib = Int((Double(bytes) / 1024).rounded())
    guard let line = readme.split(separator: "\n").first(where: { $0.contains("<b>\(name)</b>:") })
    else {
      Issue.record("README.md has no gallery entry for \(name)")
      return
    }
    #expect(line.contains(" \(kib) KiB"), "README.md should say \(name).gif is \(kib) KiB: \(line)")
  }
}
