// swift-tools-version: 6.0
// Flipbook: Core Animation's model on Linux, rendered by Cairo to PNG frames and animated GIFs.
//
// Dependencies point one way, down this list (see README "Architecture"):
//   flipbook -> FlipbookCommand -> Demos -> Flipbook (umbrella) -> LottieFiles -> SceneFiles -> Scenes
//   FlipbookCommand -> Batch (flipbook batch) -> Flipbook, Parallelism, Pages (HTML pages)
//   GoldenTesting -> ImageComparison -> Pages (the comparison page)
//   Scenes (scenes, frame renderer, frame sinks, Export) -> Rendering, ImageEncoding, Dynamics, FileIO
//   Rendering -> LayerTree, CairoCanvas;  LayerTree -> Animations, Dynamics -> Geometry;  CairoCanvas -> CCairo, Geometry
//   ImageEncoding (PNG, GIF, WebP, APNG) -> CPNGShim, CGIF, CWebP, CZlib, Geometry, FileIO;  FileIO -> nothing
// Only FileIO opens files for writing; CairoCanvas and Rendering never touch the file system.
import PackageDescription

let package = Package(
  name: "Flipbook",
  products: [
    .library(name: "Flipbook", targets: ["Flipbook"]),
    .library(name: "Demos", targets: ["Demos"]),
    .library(name: "GoldenTesting", targets: ["GoldenTesting"]),
    .executable(name: "flipbook", targets: ["flipbook"]),
  ],
  dependencies: [
    // The only package dependency: the command line (design.md "Dependencies").
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // System libraries from Debian (scripts/setup installs them).
    .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    // Text: PangoCairo (layout, HarfBuzz shaping) over a private fontconfig set; CairoCanvas only.
    // Its flags come from the package's own pkg-config file: pkg-config's `pangocairo` adds
    // `-pthread`, which SwiftPM drops with a warning on every build (the file says why it is
    // not needed); the libraries are linked by the module map.
    .systemLibrary(
      name: "CPangoCairo",
      pkgConfig: Context.packageDirectory + "/Sources/CPangoCairo/flipbook-pangocairo.pc",
      providers: [.apt(["libpango1.0-dev"])]),
    .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
    // Animated WebP: libwebp's encoder, libwebpmux's animation encoder, libwebpdemux's decoder.
    .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
    // zlib for APNG's image data and chunk CRCs (our own chunk writer and reader).
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    // libpng behind a C shim that keeps its setjmp/longjmp error handling inside C.
    .target(name: "CPNGShim", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
    // libjpeg (Debian's libjpeg62-turbo-dev) behind a C shim that keeps its longjmp inside C:
    // the JPEG pictures Lottie files embed.
    .target(name: "CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),

    // Pure Swift, no Foundation.
    // Files written whole or not at all (temporary beside the target, then rename; removed on
    // SIGINT/SIGTERM/SIGHUP), whole-file reads with a size limit, byte outputs (file or memory).
    .target(name: "FileIO"),
    .target(name: "Geometry"),
    // The one work-queue helper (ordered jobs with back-pressure, a serial pipeline stage,
    // parallel bands), on Dispatch and Synchronization only.
    .target(name: "Parallelism"),
    .target(name: "Animations", dependencies: ["Geometry"]),
    .target(name: "LayerTree", dependencies: ["Geometry", "Animations", "Dynamics"]),
    // UIKit-Dynamics-style simulation over plain items; knows nothing of layers.
    .target(name: "Dynamics", dependencies: ["Geometry", "Parallelism"]),
    // PNG (libpng, the one PNG reader and writer) and GIF (our quantizer, ditherer and frame
    // optimizer; giflib bit-streams), to bytes, memory or files; animated WebP (libwebp) and
    // APNG (our chunk writer and reader over zlib).
    .target(
      name: "ImageEncoding",
      dependencies: [
        "Geometry", "CPNGShim", "CJPEGShim", "CGIF", "FileIO", "Parallelism", "CWebP", "CZlib",
      ]),

    // The only importer of Cairo; pixels in memory only (no files).
    .target(
      name: "CairoCanvas", dependencies: ["CCairo", "CPangoCairo", "Geometry", "Parallelism"]),
    .target(
      name: "Rendering", dependencies: ["LayerTree", "CairoCanvas", "Geometry", "Parallelism"]),
    .target(
      name: "Scenes",
      dependencies: [
        "Rendering", "LayerTree", "Animations", "CairoCanvas", "Geometry", "ImageEncoding",
        "Dynamics", "FileIO", "Parallelism",
      ]),
    .target(
      name: "SceneFiles",
      dependencies: [
        "Scenes", "LayerTree", "Animations", "Dynamics", "CairoCanvas", "Geometry", "ImageEncoding",
        "FileIO",
      ]),
    // Lottie (Bodymovin) JSON and dotLottie archives onto the layer tree (docs/lottie.md), and
    // the one way a SCENE is opened (scene file or Lottie, by content).
    .target(
      name: "LottieFiles",
      dependencies: [
        "SceneFiles", "Scenes", "LayerTree", "Animations", "CairoCanvas", "Geometry",
        "ImageEncoding", "FileIO", "CZlib",
      ]),
    .target(
      name: "Flipbook",
      dependencies: [
        "Geometry", "Animations", "LayerTree", "CairoCanvas", "ImageEncoding", "Dynamics",
        "Rendering", "Scenes", "SceneFiles", "LottieFiles", "FileIO",
      ]),
    // Image comparison (pixelmatch's perceptual diff with anti-aliasing detection) and GIF comparison.
    .target(
      name: "ImageComparison",
      dependencies: ["Geometry", "ImageEncoding", "Parallelism", "Pages", "FileIO"]),
    // Golden-image assertions for XCTest and Swift Testing (a library for test targets).
    .target(name: "GoldenTesting", dependencies: ["Flipbook", "ImageComparison"]),
    // The five seed articles' animations, on Flipbook's public API only.
    .target(name: "Demos", dependencies: ["Flipbook"]),
    // Self-contained HTML pages (escaping, shared style, the self-test a headless browser reads).
    .target(name: "Pages"),
    // `flipbook batch`: finding inputs, content hashes, the manifest, rendering many animations
    // across cores, and the gallery page.
    .target(name: "Batch", dependencies: ["Flipbook", "Parallelism", "Pages"]),
    .target(
      name: "FlipbookCommand",
      dependencies: [
        "Flipbook", "Demos", "ImageComparison", "Batch", "Pages",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    .executableTarget(name: "flipbook", dependencies: ["FlipbookCommand"]),
    // Benchmarks (release builds; see BENCHMARKS.md). Not a product: built only when asked for.
    .executableTarget(
      name: "flipbook-bench",
      dependencies: ["Flipbook", "Demos", "CPNGShim", "CCairo", "ImageComparison"],
      path: "Benchmarks/flipbook-bench"),

    // Shared by the test targets: where Fixtures/ is, golden comparison and record modes.
    .target(
      name: "FlipbookTestSupport", dependencies: ["Flipbook", "GoldenTesting", "ImageComparison"],
      path: "Tests/Support"),
    .testTarget(name: "FileIOTests", dependencies: ["FileIO", "FlipbookTestSupport"]),
    .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
    .testTarget(name: "ParallelismTests", dependencies: ["Parallelism"]),
    .testTarget(name: "AnimationsTests", dependencies: ["Animations", "Scenes"]),
    .testTarget(name: "DynamicsTests", dependencies: ["Dynamics", "Demos"]),
    .testTarget(name: "LayerTreeTests", dependencies: ["LayerTree", "Dynamics"]),
    .testTarget(
      name: "ImageEncodingTests",
      dependencies: ["ImageEncoding", "CairoCanvas", "CGIF", "FileIO", "FlipbookTestSupport"]),
    .testTarget(
      name: "CairoCanvasTests", dependencies: ["CairoCanvas", "Scenes", "FlipbookTestSupport"]),
    .testTarget(name: "RenderingTests", dependencies: ["Flipbook", "FlipbookTestSupport"]),
    .testTarget(name: "ScenesTests", dependencies: ["Flipbook", "FlipbookTestSupport"]),
    .testTarget(name: "SceneFilesTests", dependencies: ["Flipbook", "FlipbookTestSupport"]),
    .testTarget(
      name: "LottieFilesTests",
      dependencies: ["LottieFiles", "Flipbook", "FlipbookTestSupport", "GoldenTesting"],
      exclude: ["__Snapshots__"]),
    .testTarget(
      name: "ImageComparisonTests",
      dependencies: ["ImageComparison", "CairoCanvas", "ImageEncoding", "Geometry", "Scenes"]),
    .testTarget(
      name: "GoldenTestingTests",
      dependencies: ["GoldenTesting", "ImageComparison", "Flipbook", "FlipbookTestSupport"],
      exclude: ["__Snapshots__"]),
    .testTarget(name: "DemosTests", dependencies: ["Demos", "Flipbook", "FlipbookTestSupport"]),
    .testTarget(
      name: "FlipbookCommandTests", dependencies: ["FlipbookCommand", "FlipbookTestSupport"]),
    .testTarget(name: "BatchTests", dependencies: ["Batch", "Flipbook", "FlipbookTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
