import ArgumentParser
import Flipbook

/// `flipbook inspect SCENE --time S [--time S2 ...] [--from A --to B --step S]`: the values every
/// layer shows at the asked times, one JSON object per line.
struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract:
      "Print every layer's values at the asked times, one JSON object per line (JSON Lines).",
    discussion: """
      Layers are listed in drawing order: depth first, a layer before its sublayers, siblings \
      sorted by zPosition. Numbers are printed in shortest round-trip form. --from/--to/--step \
      asks for from + i * step, up to and including --to (within 1e-9 s).
      """)

  @Flag(name: .long, help: strictHelp) var strict = false

  @Argument(help: "The scene file or Lottie animation (.json, .lottie).")
  var scene: String

  @Option(
    name: .long, parsing: .unconditionalSingleValue,
    help: "A time to inspect, in seconds; repeat for several.", transform: decimal)
  var time: [Double] = []

  @Option(
    name: .long, parsing: .unconditional, help: "The first time of a range, in seconds.",
    transform: decimal)
  var from: Double?

  @Option(
    name: .long, parsing: .unconditional, help: "The last time of a range, in seconds (included).",
    transform: decimal)
  var to: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: "The step between the times of a range, in seconds.", transform: decimal)
  var step: Double?

  func validate() throws {
    let range = [from, to, step].compactMap { $0 }
    if !range.isEmpty && range.count != 3 {
      throw ValidationError("--from, --to and --step go together")
    }
    if let step, !(step > 0 && step.isFinite) {
      throw ValidationError("--step must be greater than 0")
    }
    if let from, let to, to < from { throw ValidationError("--to must not be before --from") }
    if time.isEmpty && range.isEmpty {
      throw ValidationError("ask for at least one time: --time S, or --from A --to B --step S")
    }
    if !(time + range).allSatisfy(\.isFinite) {
      throw ValidationError("times must be finite numbers of seconds")
    }
    if let from, let to, let step {
      // A step below the spacing of doubles at the range's largest time does not advance it
      // (1e25 + 1 is 1e25): the same time was asked for endlessly.
      let largest = Swift.max(from.magnitude, to.magnitude)
      if step < largest.ulp {
        throw ValidationError(
          "--step \(MessageText.number(step)) is too small to advance a time of "
            + "\(MessageText.number(largest)) s: times there are "
            + "\(MessageText.number(largest.ulp)) s apart at the least")
      }
      if InspectCommand.steps(from: from, to: to, step: step) > 1_000_000 {
        throw ValidationError("--from/--to/--step asks for more than 1,000,000 times")
      }
    }
  }

  /// How many steps of `step` lie from `from` to `to`: halves are subtracted, so that the ends
  /// of the number line (`--from -1e308 --to 1e308`) do not overflow.
  static func steps(from: Double, to: Double, step: Double) -> Double {
    (to / 2 - from / 2) / (step / 2)
  }

  /// `from + i * step`, computed from halves when the direct sum overflows (each time from
  /// `i`, never accumulated).
  static func time(_ i: Int, from: Double, step: Double) -> Double {
    let t = from + Double(i) * step
    return t.isFinite ? t : 2 * (from / 2 + Double(i) * (step / 2))
  }

  /// The asked times, in order: every `--time`, then the range: `from + i * step` for `i` from
  /// 0 to the steps that fit (counted once, checked by `validate`), up to `to` within 1e-9 s.
  var times: [Double] {
    var out = time
    if let from, let to, let step {
      let last = Int(InspectCommand.steps(from: from, to: to, step: step).rounded(.up))
      for i in 0...Swift.max(0, last) {
        let t = InspectCommand.time(i, from: from, step: step)
        if !(t <= to + 1e-9) { break }
        out.append(t)
      }
    }
    return out
  }

  /// The most layer states one `inspect` prints (times asked for, times the layers each line
  /// holds): about 600 MB of output and 20 s (100 times of 10,000 layers took 19.6 s; the
  /// 1,000,000 times allowed of that scene would have printed 6 TB).
  static let maximumLayerStates = 1_000_000

  /// The layers a line of `scene` holds: every layer, sublayers and masks included.
  static func layerCount(_ scene: Scene) -> Int {
    func count(_ layer: Layer) -> Int {
      1 + layer.sublayers.reduce(0) { $0 + count($1) } + (layer.mask.map(count) ?? 0)
    }
    return scene.layers.reduce(0) { $0 + count($1) }
  }

  func run() throws {
    // Times are printed in the order asked; a scene shows any time in any order.
    let loaded = try loadScene(scene, strict: strict)
    let times = self.times
    let layers = InspectCommand.layerCount(loaded)
    if times.count > 1 && times.count * layers > InspectCommand.maximumLayerStates {
      throw CommandFailure(
        message: "\(scene): \(times.count) times of \(layers) layers would print "
          + "\(times.count * layers) layer states, more than the limit of "
          + "\(InspectCommand.maximumLayerStates): ask for fewer times (--time, --step)")
    }
    for t in times {
      let line = try failing(scene) { try Inspection.line(for: loaded, at: t) }
      print(line)
    }
  }
}
