import Dynamics
import Geometry
import LayerTree
import Scenes

// The `dynamics` section: UIKit Dynamics' behaviors over the scene's top-level layers.

extension SceneReader {
  static let behaviorKeys: [String: [String]] = [
    "gravity": ["items", "magnitude", "angle", "direction"],
    "attachment": [
      "item", "toItem", "anchor", "length", "damping", "frequency", "offset", "toOffset",
    ],
    "collision": ["items", "mode", "translatesReferenceBoundsIntoBoundary", "boundaries"],
    "itemBehavior": [
      "items", "elasticity", "friction", "density", "resistance", "angularResistance",
      "allowsRotation", "anchored",
      "addLinearVelocity", "addAngularVelocity",
    ],
    "push": [
      "items", "mode", "pushDirection", "angle", "magnitude", "beginTime", "endTime",
      "targetOffset",
    ],
    "snap": ["item", "snapPoint", "damping"],
    "composite": ["behaviors"],
  ]

  /// Reads the `dynamics` section into behaviors on the scene's animator.
  func readDynamics(_ json: JSONValue, at place: String, into scene: Scene) {
    guard let f = fields(json, at: place, allowed: ["behaviors"], what: "a dynamics section") else {
      return
    }
    if let v = f["behaviors"] {
      for behavior in readBehaviors(v, at: f.place("behaviors"), scene: scene) {
        scene.dynamicAnimator.addBehavior(behavior)
      }
    }
  }

  private func readBehaviors(_ json: JSONValue, at place: String, scene: Scene) -> [DynamicBehavior]
  {
    guard let list = array(json, at: place) else { return [] }
    var out: [DynamicBehavior] = []
    for (i, item) in list.enumerated() {
      if let behavior = readBehavior(item, at: "\(place)[\(i)]", scene: scene) {
        out.append(behavior)
      }
    }
    return out
  }

  private func readBehavior(_ item: JSONValue, at p: String, scene: Scene) -> DynamicBehavior? {
    guard case .object(let entries) = item else {
      report(p, "expected a behavior (an object), found \(item.kindDescription)")
      return nil
    }
    guard let typeValue = entries.first(where: { $0.key == "type" })?.value else {
      report(p + ".type", "missing required key")
      return nil
    }
    guard let type = string(typeValue, at: p + ".type") else { return nil }
    guard let keys = SceneReader.behaviorKeys[type] else {
      let known = SceneReader.behaviorKeys.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
      report(p + ".type", "unknown behavior type \"\(type)\" (expected one of \(known))")
      return nil
    }
    guard let b = fields(item, at: p, allowed: ["type"] + keys, what: "a behavior") else {
      return nil
    }
    func items() -> [Layer]? {
      guard let v = b["items"] else {
        report(b.place("items"), "missing required key")
        return nil
      }
      guard let names = array(v, at: b.place("items")) else { return nil }
      // UIKit's behaviours hold a set of items: one named twice would get the behaviour twice
      // (three times the gravity), so a repeat is refused naming where it was first listed.
      var seen: [String: Int] = [:]
      var repeated = false
      let layers = names.enumerated().compactMap { j, name -> Layer? in
        let place = "\(b.place("items"))[\(j)]"
        guard let layer = checkItem(name, at: place) else { return nil }
        if let first = seen[layer.name ?? ""] {
          report(place, "\"\(layer.name ?? "")\" is already listed, at items[\(first)]")
          repeated = true
        }
        seen[layer.name ?? ""] = seen[layer.name ?? ""] ?? j
        return layer
      }
      return layers.count == names.count && !repeated ? layers : nil
    }
    func required(_ key: String) -> JSONValue? {
      if let v = b[key] { return v }
      report(b.place(key), "missing required key")
      return nil
    }
    switch type {
    case "gravity":
      guard let layers = items() else { return nil }
      let g = GravityBehavior(items: layers)
      if let v = b["magnitude"], let x = number(v, at: b.place("magnitude")) { g.magnitude = x }
      if let v = b["angle"], let x = number(v, at: b.place("angle")) { g.angle = x }
      if let v = b["direction"], let d = point(v, at: b.place("direction")) {
        if b["magnitude"] != nil || b["angle"] != nil {
          report(
            b.place("direction"),
            "give gravity either as direction or as angle and magnitude, not both")
        }
        g.gravityDirection = d
      }
      return g
    case "attachment":
      guard let itemValue = required("item"), let layer = checkItem(itemValue, at: b.place("item"))
      else { return nil }
      let offset = b["offset"].flatMap { place($0, at: b.place("offset")) } ?? .zero
      let attachment: AttachmentBehavior
      switch (b["anchor"], b["toItem"]) {
      case (let anchor?, nil):
        guard let a = place(anchor, at: b.place("anchor")) else { return nil }
        attachment = AttachmentBehavior(item: layer, offsetFromCenter: offset, attachedToAnchor: a)
      case (nil, let other?):
        guard let otherLayer = checkItem(other, at: b.place("toItem")) else { return nil }
        // UIKit's attachment of an item to itself pulls it toward itself: nothing, or a spring
        // that fights its own offset. Refused rather than drawn as a still item.
        guard otherLayer !== layer else {
          report(b.place("toItem"), "an item cannot be attached to itself (item names it too)")
          return nil
        }
        let toOffset = b["toOffset"].flatMap { place($0, at: b.place("toOffset")) } ?? .zero
        attachment = AttachmentBehavior(
          item: layer, offsetFromCenter: offset, attachedTo: otherLayer, offsetFromCenter: toOffset)
      case (.some, .some):
        report(b.place("toItem"), "an attachment is to an anchor or to another item, not both")
        return nil
      case (nil, nil):
        report(b.place("anchor"), "missing required key (or toItem)")
        return nil
      }
      if let v = b["length"], let x = nonNegative(v, at: b.place("length")) {
        attachment.length = x
      }
      if let v = b["frequency"], let x = nonNegative(v, at: b.place("frequency")) {
        attachment.frequency = x
      }
      if let v = b["damping"], let x = nonNegative(v, at: b.place("damping")) {
        attachment.damping = x
      }
      return attachment
    case "collision":
      guard let layers = items() else { return nil }
      let c = CollisionBehavior(items: layers)
      if let v = b["mode"], let m = choice(v, at: b.place("mode"), CollisionBehavior.Mode.self) {
        c.collisionMode = m
      }
      if let v = b["translatesReferenceBoundsIntoBoundary"],
        let x = bool(v, at: b.place("translatesReferenceBoundsIntoBoundary"))
      {
        c.translatesReferenceBoundsIntoBoundary = x
      }
      if let v = b["boundaries"], let list = array(v, at: b.place("boundaries")) {
        for (k, entry) in list.enumerated() {
          let bp = "\(b.place("boundaries"))[\(k)]"
          guard
            let bf = fields(
              entry, at: bp, allowed: ["identifier", "from", "to", "path"], what: "a boundary")
          else { continue }
          let identifier = bf["identifier"].flatMap { string($0, at: bf.place("identifier")) }
          if let pathValue = bf["path"] {
            if bf["from"] != nil || bf["to"] != nil {
              report(bf.place("path"), "a boundary is a segment (from, to) or a path, not both")
            }
            if let path = path(pathValue, at: bf.place("path")).flatMap({
              withinReach($0, at: bf.place("path"))
            }) {
              c.addBoundary(withIdentifier: identifier, for: path)
            }
          } else {
            guard let fromValue = bf["from"], let toValue = bf["to"] else {
              report(bp, "a boundary needs from and to, or a path")
              continue
            }
            if let a = place(fromValue, at: bf.place("from")),
              let z = place(toValue, at: bf.place("to"))
            {
              c.addBoundary(withIdentifier: identifier, from: a, to: z)
            }
          }
          // Every step tests each segment against each item, whatever happens: past one
          // step's work the scene cannot move, so no more is built (1.2 million segments were
          // built for 9 s and 400 MB before the time was refused).
          let work = boundaryStepWork + c.boundaries.count * Swift.max(1, layers.count)
          if work > DynamicAnimator.maximumStepWork {
            report(
              bp,
              "the collision boundaries up to here have \(work) segments, each counted once for "
                + "every item of its behavior (a curve makes 16), past the "
                + "\(DynamicAnimator.maximumStepWork / 1_000_000) million a step of the simulation may test"
            )
            boundaryStepWork = work
            return c
          }
        }
        boundaryStepWork += c.boundaries.count * Swift.max(1, layers.count)
      }
      return c
    case "itemBehavior":
      guard let layers = items() else { return nil }
      let d = DynamicItemBehavior(items: layers)
      if let v = b["elasticity"], let x = nonNegative(v, at: b.place("elasticity")) {
        d.elasticity = x
      }
      if let v = b["friction"], let x = nonNegative(v, at: b.place("friction")) { d.friction = x }
      if let v = b["density"], let x = nonNegative(v, at: b.place("density")) { d.density = x }
      if let v = b["resistance"], let x = nonNegative(v, at: b.place("resistance")) {
        d.resistance = x
      }
      if let v = b["angularResistance"], let x = nonNegative(v, at: b.place("angularResistance")) {
        d.angularResistance = x
      }
      if let v = b["allowsRotation"], let x = bool(v, at: b.place("allowsRotation")) {
        d.allowsRotation = x
      }
      if let v = b["anchored"], let x = bool(v, at: b.place("anchored")) { d.isAnchored = x }
      if let v = b["addLinearVelocity"], let velocity = point(v, at: b.place("addLinearVelocity")) {
        layers.forEach { d.addLinearVelocity(velocity, for: $0) }
      }
      if let v = b["addAngularVelocity"], let w = number(v, at: b.place("addAngularVelocity")) {
        layers.forEach { d.addAngularVelocity(w, for: $0) }
      }
      return d
    case "push":
      guard let layers = items(), let modeValue = required("mode"),
        let mode = choice(modeValue, at: b.place("mode"), PushBehavior.Mode.self)
      else { return nil }
      let push = PushBehavior(items: layers, mode: mode)
      if let v = b["pushDirection"] {
        if b["angle"] != nil || b["magnitude"] != nil {
          report(
            b.place("pushDirection"),
            "give the push either as pushDirection or as angle and magnitude, not both")
        }
        if let d = point(v, at: b.place("pushDirection")) { push.pushDirection = d }
      } else {
        if let v = b["angle"], let x = number(v, at: b.place("angle")) { push.angle = x }
        if let v = b["magnitude"], let x = number(v, at: b.place("magnitude")) {
          push.magnitude = x
        }
      }
      if let v = b["beginTime"], let x = nonNegative(v, at: b.place("beginTime")) {
        push.beginTime = x
      }
      if let v = b["endTime"], let x = nonNegative(v, at: b.place("endTime")) {
        if x < push.beginTime {
          report(
            b.place("endTime"),
            "the push ends (\(format(x)) s) before it begins (beginTime \(format(push.beginTime)) s)"
          )
        } else {
          push.endTime = x
        }
      }
      if let v = b["targetOffset"], let o = place(v, at: b.place("targetOffset")) {
        push.targetOffsetFromCenter = o
      }
      return push
    case "snap":
      guard let itemValue = required("item"), let layer = checkItem(itemValue, at: b.place("item")),
        let pointValue = required("snapPoint"),
        let target = place(pointValue, at: b.place("snapPoint"))
      else { return nil }
      let snap = SnapBehavior(item: layer, snapTo: target)
      if let v = b["damping"], let x = nonNegative(v, at: b.place("damping")) {
        snap.damping = Swift.min(x, 1)
      }
      return snap
    default:  // composite
      let composite = DynamicBehavior()
      if let v = b["behaviors"] {
        for child in readBehaviors(v, at: b.place("behaviors"), scene: scene) {
          composite.addChildBehavior(child)
        }
      }
      return composite
    }
  }

  /// The top-level layer a behavior names, or `nil` (reported) for a missing or nested one.
  private func checkItem(_ json: JSONValue, at place: String) -> Layer? {
    guard let name = string(json, at: place) else { return nil }
    if let layer = topLevelLayers[name] { return layer }
    if nestedNames.contains(name) {
      report(
        place,
        "layer \"\(name)\" is not a top-level layer (dynamics items must be entries of the scene's layers)"
      )
    } else {
      report(place, "no layer is named \"\(name)\"")
    }
    return nil
  }

  /// The most a dynamics place (an attachment's anchor or offsets, a boundary's ends and path,
  /// a snap point) may lie from the origin, in points: 10^15. Farther ones overflowed the
  /// solver without a word: an anchor at 1e155 never moved its item, a boundary floor 1e154
  /// long let items fall through.
  static let maximumDynamicsCoordinate = 1e15

  /// A point of the dynamics' geometry, refused (naming `place`) past
  /// `maximumDynamicsCoordinate`.
  func place(_ json: JSONValue, at place: String) -> Point? {
    guard let p = point(json, at: place) else { return nil }
    let far = Swift.max(Swift.abs(p.x), Swift.abs(p.y))
    guard far <= Self.maximumDynamicsCoordinate else {
      report(
        place,
        "\(format(far)) is past the limit of 10^15 points for the dynamics' geometry (its "
          + "arithmetic would overflow)")
      return nil
    }
    return p
  }

  /// `path` when every point of it is within `maximumDynamicsCoordinate`, else `nil` (reported).
  func withinReach(_ path: Path, at place: String) -> Path? {
    var far = 0.0
    func reach(_ p: Point) { far = Swift.max(far, Swift.abs(p.x), Swift.abs(p.y)) }
    for element in path.elements {
      switch element {
      case .move(let p), .line(let p): reach(p)
      case .quadCurve(let p, let c):
        reach(p)
        reach(c)
      case .curve(let p, let c1, let c2):
        reach(p)
        reach(c1)
        reach(c2)
      case .closeSubpath: break
      }
    }
    guard far <= Self.maximumDynamicsCoordinate else {
      report(
        place,
        "a point \(format(far)) from the origin is past the limit of 10^15 points for the "
          + "dynamics' geometry (its arithmetic would overflow)")
      return nil
    }
    return path
  }
}
