import SceneFiles

/// The layers and keyframes an animation builds, counted from its JSON before anything is built
/// or sampled: each layer once, and a precomposition layer once more for every layer of its
/// asset (again for the assets inside it), its keyframes likewise, so that precompositions
/// referenced many times over are refused at once rather than after minutes of building and
/// time remapping.
extension LottieReader {
  /// What a layer list builds: layers and keyframes, each saturating past its limit.
  private struct BuildCount {
    var layers = 0
    var keyframes = 0

    /// Whether either count is past its limit (`LottieFormat.maximumLayerCount`,
    /// `maximumKeyframesPerFile`).
    var isOverLimit: Bool {
      layers > LottieFormat.maximumLayerCount || keyframes > LottieFormat.maximumKeyframesPerFile
    }

    /// Adds `other`, saturating just past the limits (so that counts never overflow).
    mutating func add(_ other: BuildCount) {
      layers = Swift.min(layers + other.layers, LottieFormat.maximumLayerCount + 1)
      keyframes = Swift.min(
        keyframes + other.keyframes, LottieFormat.maximumKeyframesPerFile + 1)
    }
  }

  /// Whether the composition `layers` (at `place`) builds at most
  /// `LottieFormat.maximumLayerCount` layers and `maximumKeyframesPerFile` keyframes,
  /// precomposition instances included; when it builds more, the problem is reported at the
  /// layer whose instances pass the limit.
  func buildIsWithinLimits(_ layers: JSONValue, at place: String) -> Bool {
    var counted: [String: BuildCount] = [:]
    var inProgress: Set<String> = []

    /// What one layer list builds; `overflow` is told the index of the layer where the
    /// running total passes a limit.
    func count(_ json: JSONValue, overflow: ((Int) -> Void)? = nil) -> BuildCount {
      guard case .array(let items) = json else { return BuildCount() }
      var total = BuildCount()
      for (i, item) in items.enumerated() {
        guard case .object(let entries) = item else { continue }
        let f = Fields(entries: entries, place: "")
        if f.flag("hd") { continue }  // hidden layers are not built
        total.add(BuildCount(layers: 1, keyframes: Self.keyframes(in: item)))
        if case .number(0)? = f["ty"], let id = f.string("refId") {
          total.add(instances(of: id))
        }
        if total.isOverLimit {
          overflow?(i)
          return total
        }
      }
      return total
    }

    /// What one instance of asset `id` builds (nothing for a missing asset or a cycle, which
    /// the builder reports), counted once.
    func instances(of id: String) -> BuildCount {
      if let known = counted[id] { return known }
      guard !inProgress.contains(id), inProgress.count < LottieFormat.maximumPrecompositionDepth,
        case .object(let entries)? = assets[id]?.json,
        let layers = Fields(entries: entries, place: "")["layers"]
      else { return BuildCount() }
      inProgress.insert(id)
      let n = count(layers)
      inProgress.remove(id)
      counted[id] = n
      return n
    }

    var passed: Int? = nil
    let total = count(layers) { passed = $0 }
    guard let passed else { return true }
    if total.layers > LottieFormat.maximumLayerCount {
      report(
        "\(place)[\(passed)]",
        "the animation builds more than \(LottieFormat.maximumLayerCount) layers (each "
          + "precomposition's layers counted once for every layer that shows it), the limit")
    } else {
      report(
        "\(place)[\(passed)]",
        "the animation builds more than \(LottieFormat.maximumKeyframesPerFile) keyframes (each "
          + "precomposition's counted once for every layer that shows it), the limit")
    }
    return false
  }

  /// The keyframes in a layer's JSON, a precomposition's asset aside: every list under a `k`
  /// whose first item is an object with `t` or `s`, as `animated` reads keyframes.
  static func keyframes(in layer: JSONValue) -> Int {
    var total = 0
    var pending = [layer]
    while let value = pending.popLast() {
      switch value {
      case .array(let items):
        pending.append(contentsOf: items)
      case .object(let entries):
        for (key, value) in entries {
          if key == "k", case .array(let items) = value, case .object(let first)? = items.first,
            first.contains(where: { $0.key == "t" || $0.key == "s" })
          {
            total += items.count
          }
          pending.append(value)
        }
      default:
        break
      }
    }
    return total
  }
}
