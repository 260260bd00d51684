// Checks of the `animations` and `dynamics` sections: their keys, kinds and references. The
// values are applied by the animation and dynamics readers; until those exist, a scene that
// uses them is still read strictly, so a typo is an error today rather than a surprise later.

extension SceneReader {
  static let timingKeys = [
    "type", "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses",
    "fillMode", "removedOnCompletion", "timingFunction",
  ]
  static let propertyKeys = ["keyPath", "additive", "cumulative"]
  static let basicKeys = ["fromValue", "toValue", "byValue"]
  static let keyframeKeys = [
    "values", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues", "biasValues",
    "path", "rotationMode",
  ]
  static let springKeys = ["mass", "stiffness", "damping", "initialVelocity", "allowsOverdamping"]

  func validateAnimations(_ json: JSONValue, at place: String) {
    guard let list = array(json, at: place) else { return }
    for (i, item) in list.enumerated() { validateAnimation(item, at: "\(place)[\(i)]") }
  }

  private func validateAnimation(_ json: JSONValue, at place: String) {
    guard case .object(let entries) = json else {
      report(place, "expected an animation (an object), found \(json.kindDescription)")
      return
    }
    guard let typeValue = entries.first(where: { $0.key == "type" })?.value else {
      report(place + ".type", "missing required key (\"basic\", \"keyframe\", \"group\" or \"spring\")")
      return
    }
    guard let type = string(typeValue, at: place + ".type") else { return }
    let allowed: [String]
    switch type {
    case "basic": allowed = SceneReader.timingKeys + SceneReader.propertyKeys + SceneReader.basicKeys
    case "keyframe": allowed = SceneReader.timingKeys + SceneReader.propertyKeys + SceneReader.keyframeKeys
    case "group": allowed = SceneReader.timingKeys + ["animations"]
    case "spring": allowed = SceneReader.timingKeys + SceneReader.propertyKeys + SceneReader.basicKeys + SceneReader.springKeys
    default:
      report(place + ".type", "unknown animation type \"\(type)\" (expected \"basic\", \"keyframe\", \"group\" or \"spring\")")
      return
    }
    guard let f = fields(json, at: place, allowed: allowed, what: "an animation") else { return }
    for key in ["beginTime", "timeOffset", "repeatDuration", "speed"] {
      if let v = f[key] { _ = number(v, at: f.place(key)) }
    }
    for key in ["duration", "repeatDuration"] {
      if let v = f[key] { _ = nonNegative(v, at: f.place(key)) }
    }
    for key in ["autoreverses", "removedOnCompletion", "additive", "cumulative", "allowsOverdamping"] {
      if let v = f[key] { _ = bool(v, at: f.place(key)) }
    }
    if let v = f["repeatCount"], v != .string("infinity") {
      if case .string(let s) = v {
        report(f.place("repeatCount"), "expected a number or \"infinity\", found \"\(s)\"")
      } else {
        _ = nonNegative(v, at: f.place("repeatCount"))
      }
    }
    if let v = f["fillMode"], let s = string(v, at: f.place("fillMode")), !["removed", "forwards", "backwards", "both"].contains(s) {
      report(f.place("fillMode"), "unknown value \"\(s)\" (expected one of \"removed\", \"forwards\", \"backwards\", \"both\")")
    }
    if type != "group" {
      if let v = f["keyPath"] {
        _ = string(v, at: f.place("keyPath"))
      } else {
        report(f.place("keyPath"), "missing required key")
      }
    }
    if type == "group", let v = f["animations"] { validateAnimations(v, at: f.place("animations")) }
  }

  static let behaviorKeys: [String: [String]] = [
    "gravity": ["items", "magnitude", "angle", "direction"],
    "attachment": ["item", "toItem", "anchor", "length", "damping", "frequency", "offset", "toOffset"],
    "collision": ["items", "mode", "translatesReferenceBoundsIntoBoundary", "boundaries"],
    "itemBehavior": [
      "items", "elasticity", "friction", "density", "resistance", "angularResistance", "allowsRotation", "anchored",
      "addLinearVelocity", "addAngularVelocity",
    ],
    "push": ["items", "mode", "pushDirection", "angle", "magnitude", "beginTime", "endTime", "targetOffset"],
    "snap": ["item", "snapPoint", "damping"],
    "composite": ["behaviors"],
  ]

  func validateDynamics(_ json: JSONValue, at place: String) {
    guard let f = fields(json, at: place, allowed: ["behaviors"], what: "a dynamics section") else { return }
    if let v = f["behaviors"] { validateBehaviors(v, at: f.place("behaviors")) }
  }

  private func validateBehaviors(_ json: JSONValue, at place: String) {
    guard let list = array(json, at: place) else { return }
    for (i, item) in list.enumerated() {
      let p = "\(place)[\(i)]"
      guard case .object(let entries) = item else {
        report(p, "expected a behavior (an object), found \(item.kindDescription)")
        continue
      }
      guard let typeValue = entries.first(where: { $0.key == "type" })?.value, let type = string(typeValue, at: p + ".type") else {
        if !entries.contains(where: { $0.key == "type" }) { report(p + ".type", "missing required key") }
        continue
      }
      guard let keys = SceneReader.behaviorKeys[type] else {
        let known = SceneReader.behaviorKeys.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        report(p + ".type", "unknown behavior type \"\(type)\" (expected one of \(known))")
        continue
      }
      guard let b = fields(item, at: p, allowed: ["type"] + keys, what: "a behavior") else { continue }
      if let v = b["items"], let items = array(v, at: b.place("items")) {
        for (j, name) in items.enumerated() { checkItem(name, at: "\(b.place("items"))[\(j)]") }
      }
      for key in ["item", "toItem"] {
        if let v = b[key] { checkItem(v, at: b.place(key)) }
      }
      if type == "push", b["pushDirection"] != nil, b["angle"] != nil || b["magnitude"] != nil {
        report(b.place("pushDirection"), "give the push either as pushDirection or as angle and magnitude, not both")
      }
      if let v = b["density"] { _ = nonNegative(v, at: b.place("density")) }
      if type == "composite", let v = b["behaviors"] { validateBehaviors(v, at: b.place("behaviors")) }
    }
  }

  private func checkItem(_ json: JSONValue, at place: String) {
    guard let name = string(json, at: place) else { return }
    if topLevelNames.contains(name) { return }
    if nestedNames.contains(name) {
      report(place, "layer \"\(name)\" is not a top-level layer (dynamics items must be entries of the scene's layers)")
    } else {
      report(place, "no layer is named \"\(name)\"")
    }
  }
}
