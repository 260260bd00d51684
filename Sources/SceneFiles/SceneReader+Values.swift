import Geometry
import LayerTree

/// An object's entries, checked against the keys allowed at its place.
struct Fields {
  let place: String
  let entries: [(key: String, value: JSONValue)]

  subscript(key: String) -> JSONValue? {
    entries.first(where: { $0.key == key })?.value
  }

  func place(_ key: String) -> String {
    let key = SceneReader.shortened(key, to: 40)
    return place.isEmpty ? key : "\(place).\(key)"
  }
}

extension SceneReader {
  /// The entries of an object, after reporting its unknown keys (with a suggestion when one is
  /// close to an allowed key, or else `elsewhere`'s note on what kind of object the key belongs
  /// to: a layer that forgot `"type": "shape"` is told its `fillColor` is a shape layer's key).
  func fields(
    _ json: JSONValue, at place: String, allowed: [String], what: String,
    elsewhere: (String) -> String? = { _ in nil }
  ) -> Fields? {
    guard case .object(let entries) = json else {
      report(
        place.isEmpty ? "" : place, "expected \(what) (an object), found \(json.kindDescription)")
      return nil
    }
    let f = Fields(place: place, entries: entries)
    for (key, _) in entries where !allowed.contains(key) {
      let suggestion = allowed.min { editDistance($0, key) < editDistance($1, key) }
      if let s = suggestion, editDistance(s, key) <= 2 {
        report(f.place(key), "unknown key (did you mean \"\(s)\"?)")
      } else if let note = elsewhere(key) {
        report(f.place(key), "unknown key \(note)")
      } else {
        report(f.place(key), "unknown key")
      }
    }
    return f
  }

  func number(_ json: JSONValue, at place: String) -> Double? {
    guard case .number(let x) = json else {
      report(place, "expected a number, found \(json.kindDescription)")
      return nil
    }
    guard x.isFinite else {
      report(place, "number is out of range")
      return nil
    }
    return x
  }

  func positive(_ json: JSONValue, at place: String) -> Double? {
    guard let x = number(json, at: place) else { return nil }
    guard x > 0 else {
      report(place, "must be greater than 0, found \(format(x))")
      return nil
    }
    return x
  }

  func nonNegative(_ json: JSONValue, at place: String) -> Double? {
    guard let x = number(json, at: place) else { return nil }
    guard x >= 0 else {
      report(place, "must not be negative, found \(format(x))")
      return nil
    }
    return x
  }

  /// A number from 0 to `most`; `nil`, reported, otherwise.
  func nonNegative(_ json: JSONValue, atMost most: Double, at place: String) -> Double? {
    guard let x = nonNegative(json, at: place) else { return nil }
    guard x <= most else {
      report(place, "must be at most \(format(most)), found \(format(x))")
      return nil
    }
    return x
  }

  /// `x` as the 32-bit `Float` Core Animation stores `speed`, `repeatCount` and timing-function
  /// control points in (timing.md §0); `nil`, reported, when it would become infinite or, not
  /// 0, become 0: 1e39 made a speed of infinity (the animation vanished) and 1e-50 one of 0.
  func float(_ x: Double, at place: String) -> Float? {
    let f = Float(x)
    if f.isInfinite {
      report(
        place,
        "\(format(x)) is past the 32-bit Float it is stored as (at most "
          + "\(Float.greatestFiniteMagnitude) in magnitude)")
      return nil
    }
    if f == 0 && x != 0 {
      report(
        place,
        "\(format(x)) would be 0 in the 32-bit Float it is stored as (the smallest is "
          + "\(Float.leastNonzeroMagnitude))")
      return nil
    }
    return f
  }

  func unit(_ json: JSONValue, at place: String) -> Double? {
    guard let x = number(json, at: place) else { return nil }
    guard (0...1).contains(x) else {
      report(place, "must be from 0 to 1, found \(format(x))")
      return nil
    }
    return x
  }

  /// A list of colors, `.some(nil)` for `null`.
  func colorList(_ json: JSONValue, at place: String) -> [Color]?? {
    if json == .null { return .some(nil) }
    guard let items = array(json, at: place) else { return nil }
    var out: [Color] = []
    for (i, item) in items.enumerated() {
      guard let c = color(item, at: "\(place)[\(i)]") else { return nil }
      guard let c else {
        report("\(place)[\(i)]", "expected a color, found null")
        return nil
      }
      out.append(c)
    }
    return .some(out)
  }

  func integer(_ json: JSONValue, at place: String) -> Int? {
    guard let x = number(json, at: place) else { return nil }
    guard x == x.rounded(), abs(x) < 1e15 else {
      report(place, "expected a whole number, found \(format(x))")
      return nil
    }
    return Int(x)
  }

  func bool(_ json: JSONValue, at place: String) -> Bool? {
    guard case .bool(let b) = json else {
      report(place, "expected true or false, found \(json.kindDescription)")
      return nil
    }
    return b
  }

  func string(_ json: JSONValue, at place: String) -> String? {
    guard case .string(let s) = json else {
      report(place, "expected a string, found \(json.kindDescription)")
      return nil
    }
    return s
  }

  /// A text layer's string: a string of at most `TextLayer.maximumStringLength` characters and
  /// `TextLayer.maximumParagraphCount` lines.
  func textString(_ json: JSONValue, at place: String) -> String? {
    guard let s = string(json, at: place) else { return nil }
    if let excess = TextLayer.limitExcess(of: s) {
      report(place, TextLayer.limitMessage(characters: excess.characters, lines: excess.lines))
      return nil
    }
    if let depth = TextLayer.isolateDepthExcess(of: s) {
      report(place, TextLayer.isolateDepthMessage(depth))
      return nil
    }
    return s
  }

  func array(_ json: JSONValue, at place: String) -> [JSONValue]? {
    guard case .array(let items) = json else {
      report(place, "expected a list, found \(json.kindDescription)")
      return nil
    }
    return items
  }

  /// A list of exactly `count` numbers, described as `shape` in messages.
  func numbers(_ json: JSONValue, at place: String, count: Int, shape: String) -> [Double]? {
    guard case .array(let items) = json, items.count == count else {
      report(place, "expected \(shape), found \(describeShape(json))")
      return nil
    }
    var out: [Double] = []
    for (i, item) in items.enumerated() {
      guard let x = number(item, at: "\(place)[\(i)]") else { return nil }
      out.append(x)
    }
    return out
  }

  /// A list of numbers whose length is in `counts`.
  func numbers(
    _ json: JSONValue, at place: String, counts: ClosedRange<Int>, shape: String
  ) -> [Double]? {
    guard case .array(let items) = json, counts.contains(items.count) else {
      report(place, "expected \(shape), found \(describeShape(json))")
      return nil
    }
    return numbers(json, at: place, count: items.count, shape: shape)
  }

  /// The operations a transform list may hold, for messages.
  static let transformOperations =
    "{\"translate\": [tx, ty, tz]}, {\"scale\": [sx, sy, sz]}, {\"rotate\": angle}, "
    + "{\"rotate\": [angle, x, y, z]}, {\"rotateX\": angle}, {\"rotateY\": angle}, "
    + "{\"perspective\": d}, {\"matrix\": [a, b, c, d, tx, ty]} or {\"matrix3d\": [m11, ..., m44]}"

  /// The names of the transform operations, for messages.
  static let operationNames =
    "\"translate\", \"scale\", \"rotate\", \"rotateX\", \"rotateY\", \"perspective\", "
    + "\"matrix\" or \"matrix3d\""

  func describeShape(_ json: JSONValue) -> String {
    if case .array(let items) = json { return "a list of \(items.count)" }
    return json.kindDescription
  }

  func point(_ json: JSONValue, at place: String) -> Point? {
    numbers(json, at: place, count: 2, shape: "[x, y]").map { Point(x: $0[0], y: $0[1]) }
  }

  func size(_ json: JSONValue, at place: String) -> Size? {
    guard let n = numbers(json, at: place, count: 2, shape: "[width, height]") else { return nil }
    guard n[0] >= 0, n[1] >= 0 else {
      report(
        place, "width and height must not be negative, found [\(format(n[0])), \(format(n[1]))]")
      return nil
    }
    return Size(width: n[0], height: n[1])
  }

  func rect(_ json: JSONValue, at place: String) -> Rect? {
    guard let n = numbers(json, at: place, count: 4, shape: "[x, y, width, height]") else {
      return nil
    }
    guard n[2] >= 0, n[3] >= 0 else {
      report(
        place, "width and height must not be negative, found \(format(n[2])) x \(format(n[3]))")
      return nil
    }
    // Its far corner must be a double too: `[1e308, 0, 1e308, 10]` ends past one, and the
    // layer vanished without a word.
    guard (n[0] + n[2]).isFinite, (n[1] + n[3]).isFinite else {
      report(
        place,
        "its far corner (x + width, y + height) passes the largest number a double holds "
          + "(about 1.8e308)")
      return nil
    }
    return Rect(x: n[0], y: n[1], width: n[2], height: n[3])
  }

  /// A color, `.some(nil)` for `null`, `nil` when wrong (reported).
  func color(_ json: JSONValue, at place: String) -> Color?? {
    switch json {
    case .null:
      return .some(nil)
    case .string(let s):
      guard let c = Color(hex: s) else {
        report(place, "expected a color \"#rgb\", \"#rrggbb\" or \"#rrggbbaa\", found \"\(s)\"")
        return nil
      }
      return .some(c)
    case .array:
      guard let n = numbers(json, at: place, count: 4, shape: "a color [r, g, b, a]") else {
        return nil
      }
      if let i = n.firstIndex(where: { !(0...1).contains($0) }) {
        let name = ["red", "green", "blue", "alpha"][i]
        report(place, "color components must be in 0...1, found \(name) \(format(n[i]))")
        return nil
      }
      return .some(Color(red: n[0], green: n[1], blue: n[2], alpha: n[3]))
    default:
      report(place, "expected a color (\"#rrggbb\" or [r, g, b, a]), found \(json.kindDescription)")
      return nil
    }
  }

  func choice<T: RawRepresentable & CaseIterable>(
    _ json: JSONValue, at place: String, _ type: T.Type
  ) -> T?
  where T.RawValue == String {
    guard let s = string(json, at: place) else { return nil }
    guard let value = T(rawValue: s) else {
      let options = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      report(place, "unknown value \"\(s)\" (expected one of \(options))")
      return nil
    }
    return value
  }

  /// A transform operation list (`null` or `[]` for the identity).
  func transform(_ json: JSONValue, at place: String) -> Transform3D? {
    if json == .null { return .identity }
    guard let ops = array(json, at: place) else { return nil }
    var t = Transform3D.identity
    for (i, op) in ops.enumerated() {
      let opPlace = "\(place)[\(i)]"
      guard case .object(let entries) = op, entries.count == 1,
        let (key, value) = entries.first.map({ ($0.key, $0.value) })
      else {
        report(opPlace, "expected one operation: " + SceneReader.transformOperations)
        return nil
      }
      let valuePlace = "\(opPlace).\(key)"
      switch key {
      case "translate":
        guard
          let n = numbers(value, at: valuePlace, counts: 2...3, shape: "[tx, ty] or [tx, ty, tz]")
        else { return nil }
        t = t.translated(x: n[0], y: n[1], z: n.count > 2 ? n[2] : 0)
      case "scale":
        if case .number = value {
          guard let s = number(value, at: valuePlace) else { return nil }
          t = t.scaled(x: s, y: s)
        } else {
          guard
            let n = numbers(
              value, at: valuePlace, counts: 2...3, shape: "a number, [sx, sy] or [sx, sy, sz]")
          else { return nil }
          t = t.scaled(x: n[0], y: n[1], z: n.count > 2 ? n[2] : 1)
        }
      case "rotate":
        if case .array = value {
          guard let n = numbers(value, at: valuePlace, count: 4, shape: "angle or [angle, x, y, z]")
          else { return nil }
          t = t.rotated(n[0], x: n[1], y: n[2], z: n[3])
        } else {
          guard let a = number(value, at: valuePlace) else { return nil }
          t = t.rotated(a)
        }
      case "rotateX":
        guard let a = number(value, at: valuePlace) else { return nil }
        t = t.rotated(a, x: 1, y: 0, z: 0)
      case "rotateY":
        guard let a = number(value, at: valuePlace) else { return nil }
        t = t.rotated(a, x: 0, y: 1, z: 0)
      case "perspective":
        guard let d = number(value, at: valuePlace) else { return nil }
        guard d != 0 else {
          report(valuePlace, "the eye's distance must not be 0")
          return nil
        }
        t = Transform3D.perspective(distance: d).concatenating(t)
      case "matrix":
        guard let n = numbers(value, at: valuePlace, count: 6, shape: "[a, b, c, d, tx, ty]") else {
          return nil
        }
        t = Transform3D(AffineTransform(a: n[0], b: n[1], c: n[2], d: n[3], tx: n[4], ty: n[5]))
          .concatenating(t)
      case "matrix3d":
        guard let n = numbers(value, at: valuePlace, count: 16, shape: "[m11, m12, ..., m44]"),
          let m = Transform3D(entries: n)
        else { return nil }
        t = m.concatenating(t)
      default:
        report(
          valuePlace, "unknown transform operation (expected " + SceneReader.operationNames + ")")
        return nil
      }
    }
    let entries = [
      t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
      t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
    ]
    guard entries.allSatisfy(\.isFinite) else {
      report(place, "the operations overflow: the matrix they make has entries that are not finite")
      return nil
    }
    return t
  }

  /// A path: SVG path data, or one of the shape forms; `.some(nil)` for `null`.
  func path(_ json: JSONValue, at place: String) -> Path? {
    switch json {
    case .null:
      return nil
    case .string(let d):
      do {
        return try checkedComplexity(Path(svgPathData: d), at: place)
      } catch {
        report(place, "invalid SVG path data: \(error)")
        return nil
      }
    case .object(let entries):
      let keys = Set(entries.map(\.key))
      if keys.contains("rect") {
        guard let f = fields(json, at: place, allowed: ["rect"], what: "a path"),
          let r = rect(f["rect"]!, at: f.place("rect"))
        else { return nil }
        return Path(rect: r)
      }
      if keys.contains("ellipseIn") {
        guard let f = fields(json, at: place, allowed: ["ellipseIn"], what: "a path"),
          let r = rect(f["ellipseIn"]!, at: f.place("ellipseIn"))
        else { return nil }
        return Path(ellipseIn: r)
      }
      if keys.contains("roundedRect") {
        guard
          let f = fields(
            json, at: place, allowed: ["roundedRect", "cornerRadius"], what: "a path"),
          let r = rect(f["roundedRect"]!, at: f.place("roundedRect"))
        else { return nil }
        let radius = f["cornerRadius"].flatMap { nonNegative($0, at: f.place("cornerRadius")) } ?? 0
        return Path(roundedRect: r, cornerRadius: radius)
      }
      if keys.contains("arc") {
        guard let f = fields(json, at: place, allowed: ["arc"], what: "a path"),
          let a = fields(
            f["arc"]!, at: f.place("arc"),
            allowed: ["center", "radius", "startAngle", "endAngle", "clockwise"], what: "an arc")
        else { return nil }
        var ok = true
        func need(_ key: String) -> JSONValue? {
          if let v = a[key] { return v }
          report(a.place(key), "missing required key")
          ok = false
          return nil
        }
        let center = need("center").flatMap { point($0, at: a.place("center")) }
        let radius = need("radius").flatMap { nonNegative($0, at: a.place("radius")) }
        let start = need("startAngle").flatMap { number($0, at: a.place("startAngle")) }
        let end = need("endAngle").flatMap { number($0, at: a.place("endAngle")) }
        let clockwise = a["clockwise"].flatMap { bool($0, at: a.place("clockwise")) } ?? true
        guard ok, let center, let radius, let start, let end else { return nil }
        return Path(
          arcCenter: center, radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
      }
      if keys.contains("subpaths") {
        guard let f = fields(json, at: place, allowed: ["subpaths"], what: "a path"),
          let list = array(f["subpaths"]!, at: f.place("subpaths"))
        else { return nil }
        var out = Path()
        for (i, item) in list.enumerated() {
          if let p = path(item, at: "\(f.place("subpaths"))[\(i)]") { out.addPath(p) }
        }
        return checkedComplexity(out, at: place)
      }
      report(
        place,
        "expected SVG path data or an object with \"rect\", \"ellipseIn\", \"roundedRect\", \"arc\" or \"subpaths\""
      )
      return nil
    default:
      report(
        place, "expected a path (SVG path data or a shape object), found \(json.kindDescription)")
      return nil
    }
  }
}

/// A number as a person writes it: `2`, `0.5`, `1e-07`.
func format(_ x: Double) -> String { shortestNumber(x) }

/// The Levenshtein distance between two keys, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.lowercased().utf8), b = Array(b.lowercased().utf8)
  // No key is that long: a long string is no typo of one (and would cost length x length).
  if a.count > 64 || b.count > 64 { return Swift.max(a.count, b.count) }
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      current[j] = Swift.min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
