import ArgumentParser
import Flipbook
import Glibc

/// `flipbook sheet SCENE|GIF -o SHEET.png [--columns N] [--times T ...]`: a contact sheet of
/// frames with their times under them.
struct SheetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sheet",
    abstract:
      "Lay frames of a scene or a GIF out in a grid, each with its time under it, as one PNG.",
    discussion: """
      By default 8 frames evenly spread over the scene's duration (a scene), or over the GIF's \
      frames (every frame when it has 12 or fewer). --times picks the times instead; for a GIF, \
      each shows the frame on screen at that time. Captions are set in DejaVu Sans \
      (scripts/setup installs it), so sheets are the same on every machine that runs the setup.
      """)

  @Flag(name: .long, help: strictHelp) var strict = false

  @Argument(help: "A scene file or Lottie animation (.json, .lottie) or an animated GIF (.gif).")
  var input: String

  @Option(name: [.customShort("o"), .long], help: "The PNG to write.")
  var output: String

  @Option(
    name: .long, parsing: .unconditional, help: "Frames per row (default 4).",
    transform: wholeNumber("in 1...100"))
  var columns: Int = 4

  @Option(
    name: .long, parsing: .upToNextOption,
    help: "The times to show, in seconds (e.g. --times 0 0.5 1).", transform: decimal)
  var times: [Double] = []

  @Option(
    name: .long, parsing: .unconditional,
    help: "Pixels per point for a scene (default: the scene's).", transform: decimal)
  var scale: Double?

  static let defaultCount = 8

  /// `arguments` with each value after `--times` attached to its own `--times=`, so that a
  /// negative time (`--times 0 -1`) reaches `validate` as a value and is refused naming the
  /// option and its range, instead of being read as an unknown option `-1`.
  static func attachingTimes(_ arguments: [String]) -> [String] {
    var out: [String] = []
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      guard argument == "--times" else {
        out.append(argument)
        if argument == "--" {
          out += arguments[i...]
          break
        }
        continue
      }
      var values: [String] = []
      while i < arguments.count, !arguments[i].hasPrefix("-") || Double(arguments[i]) != nil {
        values.append(arguments[i])
        i += 1
      }
      out += values.isEmpty ? [argument] : values.map { "--times=\($0)" }
    }
    return out
  }

  func validate() throws {
    guard output.lowercased().hasSuffix(".png") else {
      throw ValidationError("-o must name a .png file, got '\(output)'")
    }
    guard (1...100).contains(columns) else {
      throw ValidationError("--columns must be 1...100, found \(columns)")
    }
    if let bad = times.first(where: { !($0.isFinite && $0 >= 0) }) {
      throw ValidationError("--times must be times of 0 s or later, found \(shortestNumber(bad))")
    }
    guard times.count <= ContactSheet.maximumFrames else {
      throw ValidationError(
        "--times: a sheet shows at most \(ContactSheet.maximumFrames) frames, found \(times.count)")
    }
    if let scale, !(scale > 0 && scale.isFinite) {
      throw ValidationError(
        "--scale must be a finite number greater than 0, found \(shortestNumber(scale))")
    }
    if scale != nil, input.lowercased().hasSuffix(".gif") {
      throw ValidationError(
        "--scale applies to a scene: a GIF's frames are shown at their own pixel size")
    }
  }

  func run() throws {
    let sink = ContactSheetSink(.file(output), columns: columns)
    // What the file holds decides, not its name: a GIF named .png is a GIF, and another
    // picture is said to be one that sheet does not take.
    let bytes = try? AtomicFile.read(input)
    let kind = bytes.flatMap { SceneFormat.imageKind($0) }
    if let kind, kind != "GIF", let described = bytes.flatMap(SceneFormat.describedImage) {
      throw CommandFailure(
        message:
          "\(MessageText.path(input)): is \(described): sheet takes a scene file, a Lottie animation or "
          + "a GIF")
    }
    if kind == "GIF" || input.lowercased().hasSuffix(".gif") {
      // `sheet anim.png -o anim.png` of a GIF named .png replaced the GIF (twenty-sixth pass).
      try refuseOutput(output, over: [(input, "the GIF")])
      // The frames to show are chosen from the delays the blocks state, then decoded one at a
      // time and only those kept: a sheet holds its frames, not every frame of the GIF. Every
      // frame is read, so a broken one is said as the whole GIF's decoding would.
      let gif = try failing(input) { try GIF.FrameReader(try bytes ?? AtomicFile.read(input)) }
      let chosen = Self.frames(
        delays: gif.layout.delays, at: times,
        plays: GIF.plays(loopExtension: gif.layout.loopExtension))
      // The sheet's size is checked before any frame is decoded: a GIF of many big frames
      // asked for a sheet over the limits is refused at once.
      if !chosen.isEmpty {
        try failing(output, output: output) {
          do {
            try sink.begin(
              FramePlan(
                frameCount: chosen.count, fps: 100, pixelWidth: gif.width,
                pixelHeight: gif.height,
                loopCount: GIF.plays(loopExtension: gif.layout.loopExtension), jobs: 1))
          } catch var error as ContactSheet.TooLarge {
            // They are shown at their own size: no smaller scale is suggested.
            error.framesAtOwnSize = true
            throw error
          }
        }
      }
      var images: [Int: Bitmap] = [:]
      let wanted = Set(chosen.map(\.index))
      while let frame = try failing(input, { try gif.next() }) {
        if wanted.contains(gif.framesRead - 1) { images[gif.framesRead - 1] = frame.image }
      }
      // The blocks' own error (a damaged block chain) is said by the reading above.
      guard !chosen.isEmpty else {
        throw CommandFailure(message: "\(MessageText.path(input)): the GIF has no frames")
      }
      guard images.count == wanted.count else {
        throw CommandFailure(
          message:
            "\(MessageText.path(input)): the GIF has \(gif.framesRead) frames, its blocks state \(gif.layout.delays.count)"
        )
      }
      try failing(output, output: output) {
        // The GIF's frames go into the same sink a scene's would, each at the time it starts.
        let work = try sink.frameWork()
        for (i, frame) in chosen.enumerated() {
          let info = FrameInfo(index: i, time: frame.time, duration: 0)
          try sink.add(try work(images[frame.index]!, info), info)
        }
        _ = try sink.finish()
      }
    } else {
      let scene = try loadScene(input, strict: strict)
      try refuseOutput(output, over: scene, file: input)
      let path = input
      let strict = strict
      let recipe = SceneRecipe { try reloadScene(path, strict: strict) }
      let chosen =
        times.isEmpty
        ? (0..<Self.defaultCount).map { Double($0) * scene.duration / Double(Self.defaultCount) }
        : times
      _ = try failing(input, output: output) {
        try Export.render(recipe, at: chosen, scale: scale, into: sink, startingWith: scene)
      }
    }
  }

  /// The GIF's frames to show (their indices), each with the time it comes on screen: those on
  /// screen at `times`, or by default every frame (12 or fewer) or 8 spread evenly; `delays`
  /// are the frames' in hundredths of a second, as the blocks state them. A delay under 2 cs
  /// (0 or 1) is shown for 10 cs, as browsers play it (`GIF.DelayPlan` warns of the same rule
  /// when writing), so the frame picked is the one a viewer sees at that time.
  ///
  /// A GIF that plays `plays` times in all (0 forever, as `GIF.plays(loopExtension:)` counts)
  /// shows at a time past its length the frame on screen in the play that time falls in, as a
  /// viewer does; after its last play, its last frame stays.
  static func frames(
    delays: [Int], at times: [Double], plays: Int = 1
  ) -> [(index: Int, time: Double)] {
    // No frame stated, none shown (`starts[index]` trapped on a GIF of no image blocks).
    guard !delays.isEmpty else { return [] }
    var starts: [Double] = []
    var t = 0.0
    for delay in delays {
      starts.append(t)
      t += Double(delay < 2 ? 10 : delay) / 100
    }
    let length = t
    if times.isEmpty {
      let n = delays.count
      let indices = n <= 12 ? Array(0..<n) : (0..<defaultCount).map { $0 * n / defaultCount }
      return indices.map { (index: $0, time: starts[$0]) }
    }
    return times.map { time in
      // The play the time falls in; the frames of play k start k lengths later. The place in
      // the play is the remainder of a division (the play count overflowed past 5e307 s, and
      // the caption said "inf s").
      var (within, playStart) = (time, 0.0)
      if length > 0, time + 1e-9 >= length {
        let play = ((time + 1e-9) / length).rounded(.down)
        if plays > 0 && play >= Double(plays) {
          let last = starts.count - 1
          return (index: last, time: Double(plays - 1) * length + starts[last])
        }
        let remainder = fmod(time + 1e-9, length)
        (within, playStart) = (max(0, remainder - 1e-9), (time + 1e-9) - remainder)
      }
      let index = starts.lastIndex { $0 <= max(0, within) + 1e-9 } ?? 0
      return (index: index, time: playStart + starts[index])
    }
  }
}
