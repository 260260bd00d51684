import SceneFiles

/// The layers an animation builds, counted from its JSON before anything is built or sampled:
/// each layer once, and a precomposition layer once more for every layer of its asset (again
/// for the assets inside it), so that precompositions referenced many times over are refused
/// at once rather than after minutes of building and time remapping.
extension LottieReader {
  /// Whether the composition `layers` (at `place`) builds at most
  /// `LottieFormat.maximumLayerCount` layers, precomposition instances included; when it builds
  /// more, the problem is reported at the layer whose instances pass the limit.
  func layerCountIsWithinLimit(_ layers: JSONValue, at place: String) -> Bool {
    let limit = LottieFormat.maximumLayerCount
    var counted: [String: Int] = [:]
    var inProgress: Set<String> = []

    /// The layers one layer list builds (saturating past the limit); `overflow` is told the
    /// index of the layer where the running total passes it.
    func count(_ json: JSONValue, overflow: ((Int) -> Void)? = nil) -> Int {
      guard case .array(let items) = json else { return 0 }
      var total = 0
      for (i, item) in items.enumerated() {
        guard case .object(let entries) = item else { continue }
        let f = Fields(entries: entries, place: "")
        if f.flag("hd") { continue }  // hidden layers are not built
        total += 1
        if case .number(0)? = f["ty"], let id = f.string("refId") {
          total += instances(of: id)
        }
        if total > limit {
          overflow?(i)
          return limit + 1
        }
      }
      return total
    }

    /// The layers one instance of asset `id` builds (0 for a missing asset or a cycle, which the
    /// builder reports), counted once.
    func instances(of id: String) -> Int {
      if let known = counted[id] { return known }
      guard !inProgress.contains(id), inProgress.count < LottieFormat.maximumPrecompositionDepth,
        case .object(let entries)? = assets[id]?.json,
        let layers = Fields(entries: entries, place: "")["layers"]
      else { return 0 }
      inProgress.insert(id)
      let n = count(layers)
      inProgress.remove(id)
      counted[id] = n
      return n
    }

    var passed: Int? = nil
    _ = count(layers) { passed = $0 }
    guard let passed else { return true }
    report(
      "\(place)[\(passed)]",
      "the animation builds more than \(limit) layers (each precomposition's layers counted "
        + "once for every layer that shows it), the limit")
    return false
  }
}
