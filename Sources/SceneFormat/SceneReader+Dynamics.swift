// Checks of the `dynamics` section: its keys, kinds and item references. Its behaviours are
// applied by the dynamics reader (a later issue); until then a scene using them is still read
// strictly, so a typo is an error today rather than a surprise later.

extension SceneReader {
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
