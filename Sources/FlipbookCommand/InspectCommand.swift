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
      throw ValidationError(
        "--step must be a number of seconds greater than 0, found \(MessageText.number(step))")
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
      // Times, both ends included: the steps that fit and one (1,000,000 steps made 1,000,001
      // times, and were let through).
      let steps = InspectCommand.steps(from: from, to: to, step: step)
      if steps >= 1_000_000 {
        throw ValidationError(
          "--from/--to/--step asks for \(MessageText.number((steps + 1).rounded(.down))) times, "
            + "more than the 1,000,000 inspect prints: a larger --step or a shorter range")
      }
    }
  }

  /// How many steps of `step` lie from `from` to `to`: halves are subtracted, so that the ends
  /// of the number line (`--from -1e308 --to 1e308`) do not overflow.
  static func steps(from: Double, to: Double, step: Double) -> Double {
    // Halves only where the difference overflows: halving subnormal numbers loses them
    // (`--from 5e-324 --to 1e-323 --step 5e-324` counted an infinity of steps).
    let direct = (to - from) / step
    return direct.isFinite ? direct : (to / 2 - from / 2) / (step / 2)
  }

  /// `from + i * step`, computed from halves when the direct sum overflows (each time from
  /// `i`, never accumulated).
  static func time(_ i: Int, from: Double, step: Double) -> Double {
    let t = from + Double(i) * step
    return t.isFinite ? t : 2 * (from / 2 + Double(i) * (step / 2))
  }

  /// The asked times, in order: every `--time`, then the range: `from + i * step` for `i` from
  /// 0 to the steps that fit (counted once, checked by `validate`), up to `to` within 1e-9 s
  /// (or half a step, when that is less: a step of 1e-311 printed a time past `--to`).
  var times: [Double] {
    var out = time
    if let from, let to, let step {
      let last = Int(InspectCommand.steps(from: from, to: to, step: step).rounded(.up))
      let slack = Swift.min(1e-9, step / 2)
      for i in 0...Swift.max(0, last) {
        let t = InspectCommand.time(i, from: from, step: step)
        if !(t <= to + slack) { break }
        out.append(t)
      }
    }
    return out
  }

  /// The most one `inspect` prints, in units (`Inspection.printedUnits(of:)`: one a key, a
  /// number, a character of text, a path element's command): 64,000,000, some 577,000 states
  /// of plain layers (about 111 units and 600 bytes each; 1,000,000 of them took 20 s and
  /// printed 613 MB) or 213 times of a 100,000-element path (about 190 MB). Counting layer
  /// states alone let one shape layer of a 100,000-element path print 0.9 MB a state: 1,001
  /// times printed 891 MB in 140 s, and the 1,000,000 times a range may ask for would have
  /// printed 890 GB.
  static let maximumPrintedUnits = 64_000_000

  /// Why printing `times` times of `unitsPerTime` units each (`Inspection.scenePrintedUnits`)
  /// is refused, or `nil`: more than `maximumPrintedUnits` in all. One time always prints (the
  /// scene's own limits bound it).
  static func printingProblem(times: Int, unitsPerTime: Int) -> String? {
    let (total, overflow) = times.multipliedReportingOverflow(by: unitsPerTime)
    guard times > 1 && (overflow || total > maximumPrintedUnits) else { return nil }
    let fitting = Swift.max(1, maximumPrintedUnits / Swift.max(1, unitsPerTime))
    return "\(times) times of \(unitsPerTime) units each (keys, numbers, characters, path "
      + "elements) would print more than the limit of \(maximumPrintedUnits) units: ask for at "
      + "most \(fitting) time\(fitting == 1 ? "" : "s") (--time, --step)"
  }

  func run() throws {
    // Times are printed in the order asked; a scene shows any time in any order.
    let loaded = try loadScene(scene, strict: strict)
    let times = self.times
    // Counted before a line is printed.
    if let problem = InspectCommand.printingProblem(
      times: times.count, unitsPerTime: Inspection.scenePrintedUnits(loaded))
    {
      throw CommandFailure(message: "\(scene): \(problem)")
    }
    // A time past what the scene may simulate is refused before a line is printed too (the
    // lines before it were printed, then the command failed).
    if let limit = loaded.simulatedTimeLimit, let late = times.first(where: { $0 > limit }) {
      throw CommandFailure(
        message: "\(MessageText.path(scene)): "
          + SceneError.simulatedTimeTooLong(requested: late, limit: limit).description)
    }
    for t in times {
      let line = try failing(scene) { try Inspection.line(for: loaded, at: t) }
      print(line)
    }
  }
}
