import ArgumentParser
import Demos
import Flipbook

#if canImport(Glibc)
  import Glibc
#endif

/// `flipbook demo NAME -o OUT`, `flipbook demo --all -o FOLDER/`, `flipbook demo --list`: the
/// built-in seed demos, rendered with `render`'s output rules and flags.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract:
      "Render a built-in demo (radar, cradle, waves, spinner, cat, counter, shimmer, activity, lift, flip), or all of them.",
    discussion: """
      Output rules and flags are render's. --all writes FOLDER/NAME.gif for every demo; --list \
      prints each demo's name and a one-line description.
      """)

  @Argument(help: "The demo's name (see --list).")
  var name: String?

  @Flag(name: .long, help: "Render every demo into the -o folder, as NAME.gif.")
  var all = false

  @Flag(name: .long, help: "List the demos and stop.")
  var list = false

  @OptionGroup var output: OutputOptions

  func validate() throws {
    if list {
      guard name == nil, !all else {
        throw ValidationError("--list takes no demo name and no --all")
      }
      return
    }
    guard let path = output.output else {
      throw ValidationError("Missing expected argument '--output <output>'")
    }
    if all {
      guard name == nil else { throw ValidationError("give a demo name or --all, not both") }
      guard OutputOptions.kind(of: path).map({ $0 == .folder }) ?? true else {
        throw ValidationError("--all writes one GIF per demo: -o must be a folder, not '\(path)'")
      }
      try output.checkFormatOptions(for: .gif)
      return
    }
    guard let name else {
      throw ValidationError("name a demo (one of \(Self.names)), or use --all or --list")
    }
    guard Demo.named(name) != nil else {
      throw ValidationError("no demo called '\(name)'; the demos are \(Self.names)")
    }
    try OutputOptions.checkKind(of: path)
    try output.checkFormatOptions(for: OutputOptions.kind(of: path) ?? .folder)
  }

  static var names: String { Demo.all.map(\.name).joined(separator: ", ") }

  func run() throws {
    if list {
      for demo in Demo.all { print("\(demo.name) \(demo.summary)") }
      return
    }
    let path = output.output ?? ""
    let demos = all ? Demo.all : Demo.all.filter { $0.name == name }
    // A folder --all makes is removed again when a demo fails before any is written in it.
    let made = all && access(path, F_OK) != 0
    if all { try failing(path, output: path) { try AtomicFile.makeFolder(path) } }
    do {
      try render(demos, to: path)
    } catch {
      if made && AtomicFile.names(in: path).isEmpty { rmdir(path) }
      throw error
    }
  }

  /// Renders `demos` to `path` (a folder with --all, else the file).
  private func render(_ demos: [Demo], to path: String) throws {
    for demo in demos {
      let target = all ? join(path, demo.name + ".gif") : path
      try output.render(name: demo.name, to: target) { duration in
        guard let duration else { return demo.recipe }
        return SceneRecipe {
          let scene = try demo.recipe.make()
          scene.duration = duration
          scene.durationSource = "--duration"
          return scene
        }
      }
    }
  }

  private func join(_ folder: String, _ file: String) -> String {
    folder.hasSuffix("/") ? folder + file : folder + "/" + file
  }
}
