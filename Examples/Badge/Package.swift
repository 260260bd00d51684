// swift-tools-version: 6.0
// A client of Flipbook, as a user's package would be: it depends on Flipbook by path (the
// repository two folders up) and tests its animation with the golden kit, in XCTest and in
// Swift Testing. scripts/test builds and runs it (see Examples/README.md).
import PackageDescription

// SwiftPM names a path dependency after its folder, not after the package's `name`: the
// checkout holding this example may be called anything (flipbook, main, wt-library, ...).
let flipbook = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "Flipbook")

let package = Package(
  name: "Badge",
  dependencies: [
    .package(path: "../..")
  ],
  targets: [
    .target(name: "Badge", dependencies: [.product(name: "Flipbook", package: flipbook)]),
    .testTarget(
      name: "BadgeTests",
      dependencies: [
        "Badge",
        .product(name: "Flipbook", package: flipbook),
        .product(name: "GoldenTesting", package: flipbook),
      ],
      exclude: ["__Snapshots__"]),
  ],
  swiftLanguageModes: [.v6]
)
