import Animations
import Geometry

/// Why an animation was refused when it was added to a layer: its key path is not one Flipbook
/// animates, or a value it carries is of a kind the key path does not take.
///
/// Found from the property table (`LayerKeyPath`), so the message names the key path, the kind
/// of value it takes and, for an unknown key path, the nearest key path that exists:
///
///     animation "fade": unknown key path "opactiy" (did you mean "opacity"? It takes scalar
///     values: Double)
public struct AnimationKeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Hashable, Sendable {
    /// The key path is not an animatable property of the table nor a component of one.
    case unknownKeyPath
    /// A value (`fromValue`, `toValue`, `byValue` or one of `values`) is of kind `found`.
    case wrongValueKind(found: AnimationValueKind, role: String)
    /// A keyframe `path` (which moves a point) on a key path that takes another kind.
    case pathOnNonPointKeyPath
  }

  /// The key the animation was added under, if any.
  public var animationKey: String?
  /// The key path as the animation spells it.
  public var keyPath: String
  /// What is wrong.
  public var problem: Problem
  /// The kind of value the key path takes (`nil` for an unknown key path).
  public var expectedKind: AnimationValueKind?
  /// The animatable key path nearest to `keyPath` by edit distance, for an unknown key path.
  public var nearestKeyPath: String?

  /// A one-line message naming the key path, the kind it takes and the nearest valid name.
  public var description: String {
    let prefix = animationKey.map { "animation \"\($0)\": " } ?? "animation: "
    switch problem {
    case .unknownKeyPath:
      var text = prefix + "unknown key path \"\(keyPath)\""
      if let nearest = nearestKeyPath, let kind = LayerKeyPath(nearest)?.valueKind {
        text += " (did you mean \"\(nearest)\"? It takes \(kind.describe))"
      }
      return text + "; Flipbook animates: \(LayerKeyPath.allNames.joined(separator: ", "))"
    case .wrongValueKind(let found, let role):
      let expected = expectedKind.map(\.describe) ?? "?"
      return prefix + "key path \"\(keyPath)\" takes \(expected), but \(role) is "
        + "\(AnimationKeyPathError.article(found)) \(found.rawValue) value"
    case .pathOnNonPointKeyPath:
      let expected = expectedKind.map(\.describe) ?? "?"
      return prefix + "a keyframe path moves a point, but key path \"\(keyPath)\" takes \(expected)"
        + " (a path is for \"position\" or \"anchorPoint\")"
    }
  }

  static func article(_ kind: AnimationValueKind) -> String {
    kind == .image ? "an" : "a"
  }
}

extension AnimationValueKind {
  /// The kind as messages name it, with the Swift type that carries it: "point values (Point)".
  var describe: String {
    switch self {
    case .scalar: return "scalar values (Double)"
    case .point: return "point values (Point)"
    case .size: return "size values (Size)"
    case .rect: return "rect values (Rect)"
    case .color: return "color values (Color)"
    case .transform: return "transform values (Transform3D)"
    case .path: return "path values (Path)"
    case .image: return "image values (Image)"
    case .bool: return "bool values (Bool)"
    case .colors: return "color lists ([Color])"
    case .numbers: return "number lists ([Double])"
    case .filters: return "filter lists ([LayerFilter])"
    case .text: return "text values (String)"
    }
  }
}

extension LayerKeyPath {
  /// Checks `animation` (and, in a group, every animation inside it) against the property table:
  /// each key path must be one Flipbook animates and each value of the kind it takes.
  ///
  /// `Layer.add(_:forKey:)` runs this check; call it yourself to find a mistake before adding.
  /// - Parameter key: the key the animation is (to be) added under, for the message.
  /// - Throws: `AnimationKeyPathError` for the first problem found.
  public static func check(
    _ animation: any Animation, key: String? = nil
  ) throws(AnimationKeyPathError) {
    if let group = animation as? AnimationGroup {
      for inner in group.animations { try check(inner, key: key) }
      return
    }
    guard let property = animation as? any PropertyAnimation else { return }
    let name = property.keyPath
    guard let keyPath = LayerKeyPath(name) else {
      throw AnimationKeyPathError(
        animationKey: key, keyPath: name, problem: .unknownKeyPath, expectedKind: nil,
        nearestKeyPath: nearest(to: name))
    }
    let kind = keyPath.valueKind
    func fail(_ problem: AnimationKeyPathError.Problem) -> AnimationKeyPathError {
      AnimationKeyPathError(
        animationKey: key, keyPath: name, problem: problem, expectedKind: kind, nearestKeyPath: nil)
    }
    var values: [(String, AnimationValue?)] = []
    if let a = animation as? BasicAnimation {
      values = [("fromValue", a.fromValue), ("toValue", a.toValue), ("byValue", a.byValue)]
    } else if let a = animation as? SpringAnimation {
      values = [("fromValue", a.fromValue), ("toValue", a.toValue), ("byValue", a.byValue)]
    } else if let a = animation as? KeyframeAnimation {
      if let path = a.path, !path.isEmpty, kind != .point { throw fail(.pathOnNonPointKeyPath) }
      // The role is named only for the value at fault (naming each took a sixth of reading a
      // time-remapped Lottie precomposition, whose animations hold 2,000 values each).
      if let i = a.values.firstIndex(where: { $0.kind != kind }) {
        throw fail(.wrongValueKind(found: a.values[i].kind, role: "values[\(i)]"))
      }
    }
    for (role, value) in values {
      if let value, value.kind != kind {
        throw fail(.wrongValueKind(found: value.kind, role: role))
      }
    }
  }

  /// The animatable key path nearest to `name` (Levenshtein distance, case-insensitive).
  static func nearest(to name: String) -> String? {
    allNames.min { distance($0, name) < distance($1, name) }
  }

  private static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased().utf8), b = Array(b.lowercased().utf8)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
