import ArgumentParser
import Flipbook

/// `flipbook frame SCENE --time S -o OUT.png [--scale K]`: one frame at one time, as a PNG.
struct FrameCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "frame",
    abstract: "Render the frame at one time of a scene to a PNG file.")

  @Flag(name: .long, help: strictHelp) var strict = false

  @Argument(help: "The scene file or Lottie animation (.json, .lottie).")
  var scene: String

  @Option(
    name: .long, parsing: .unconditional,
    help: "The time to render, in seconds (any time; the duration does not bound it).",
    transform: decimal)
  var time: Double

  @Option(
    name: [.customShort("o"), .long], help: "The PNG file to write (written whole or not at all).")
  var output: String

  @Option(
    name: .long, parsing: .unconditional, help: "Pixels per point (default: the scene's scale).",
    transform: decimal)
  var scale: Double?

  @Option(name: .long, help: "PNG compression: fast, default or small (see README).")
  var pngCompression: PNG.Compression = .default

  func validate() throws {
    guard time.isFinite else { throw ValidationError("--time must be a finite number of seconds") }
    if let scale, !(scale > 0 && scale.isFinite) {
      throw ValidationError(
        "--scale must be a finite number greater than 0, found \(shortestNumber(scale))")
    }
    guard output.lowercased().hasSuffix(".png") else {
      throw ValidationError("the output of 'frame' must be a .png file, got '\(output)'")
    }
  }

  func run() throws {
    let loaded = try loadScene(scene, strict: strict)
    try refuseOutput(output, over: loaded, file: scene)
    let path = scene, strict = strict
    let recipe = SceneRecipe { try reloadScene(path, strict: strict) }
    _ = try failing(scene, output: output) {
      do {
        try Export.render(
          recipe, at: [time], scale: scale,
          into: PNGSink(.file(output), compression: pngCompression), startingWith: loaded)
      } catch let error as FrameDrawingError {
        // The one time is the user's own: said as `inspect --time` says its errors.
        throw error.underlying
      }
    }
  }
}
