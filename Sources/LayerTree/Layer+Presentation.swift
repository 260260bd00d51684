import Animations

extension Layer {
  /// What the layer and its subtree show at `time`, in the superlayer's time (scene time for a
  /// scene's layers): a new tree of copies whose properties hold every animated value
  /// (Core Animation's presentation layer). The model tree is not changed, so any instant can be
  /// computed alone and in any order.
  ///
  /// The layer's own `timing` maps `time` to its local time, which its animations and its
  /// sublayers see. Animations apply in the order they were added, each replacing the value so
  /// far (or adding to it when additive); a missing `fromValue`/`toValue` is the model value.
  public func presentation(at time: Double) -> Layer {
    var scratch: [AnimationSample] = []
    return presentation(at: time, scratch: &scratch)
  }

  /// `presentation(at:)` with one sample buffer shared by the whole tree.
  func presentation(at time: Double, scratch: inout [AnimationSample]) -> Layer {
    let local = timing.localTime(time)
    // One copy of the properties, animated in place, then moved into the presentation layer.
    var shown = properties
    var shownShape = (self as? ShapeLayer)?.shapeProperties
    if !animationEntries.isEmpty { applyAnimations(at: local, to: &shown, shape: &shownShape, scratch: &scratch) }
    let copy = type(of: self).init(presenting: shown, shape: shownShape)
    if !sublayers.isEmpty {
      copy.sublayers.reserveCapacity(sublayers.count)
      for sublayer in sublayers {
        let presented = sublayer.presentation(at: local, scratch: &scratch)
        presented.superlayer = copy
        copy.sublayers.append(presented)
      }
    }
    return copy
  }

  /// Applies the animations' samples at `localTime`, in order, to `shown` (which starts as the
  /// model's values; the model values that missing from/to ends stand for are read from `self`).
  private func applyAnimations(at localTime: Double, to shown: inout LayerProperties, shape shownShape: inout ShapeProperties?, scratch: inout [AnimationSample]) {
    scratch.removeAll(keepingCapacity: true)
    for entry in animationEntries { entry.prepared.appendSamples(at: localTime, into: &scratch) }
    guard !scratch.isEmpty else { return }
    let modelShape = shownShape
    for sample in scratch {
      let keyPath = sample.keyPath
      if keyPath.isShapeOnly {
        guard var shape = shownShape, let modelValue = modelShape?.value(for: keyPath), let underlying = shape.value(for: keyPath) else { continue }
        shape.setValue(sample.value(model: modelValue, underlying: underlying), for: keyPath)
        shownShape = shape
      } else {
        guard let modelValue = properties.value(for: keyPath), let underlying = shown.value(for: keyPath) else { continue }
        shown.setValue(sample.value(model: modelValue, underlying: underlying), for: keyPath)
        if let angle = sample.pathRotation { shown.transform = shown.transform.rotated(angle) }
      }
    }
  }

  /// Turns the model changes that `changes` makes in this layer's subtree into basic animations
  /// from the values showing at `time` to the new model values, as `UIView.animate(withDuration:)`
  /// does: each changed property of each layer already in the subtree gets an animation that
  /// begins at `time` (in that layer's own time), lasts `duration` seconds and uses
  /// `timingFunction` (Core Animation's `.default` curve unless given).
  ///
  /// - Parameter time: the instant, in this layer's superlayer's time (scene time for a scene's
  ///   root layer).
  public func animateChanges(
    at time: Double, withDuration duration: Double, timingFunction: TimingFunction = .default, _ changes: () -> Void
  ) {
    // What shows now, and the model values now, for every layer of the subtree.
    struct Before {
      let layer: Layer
      let localTime: Double
      let presented: Layer
      let model: [AnimationValue?]
    }
    var before: [Before] = []
    func record(_ layer: Layer, _ presented: Layer, parentTime: Double) {
      let local = layer.timing.localTime(parentTime)
      before.append(Before(layer: layer, localTime: local, presented: presented, model: AnimatableKeyPath.properties.map(layer.value(for:))))
      for (sublayer, presentedSublayer) in zip(layer.sublayers, presented.sublayers) {
        record(sublayer, presentedSublayer, parentTime: local)
      }
    }
    record(self, presentation(at: time), parentTime: time)
    changes()
    for entry in before {
      for (i, keyPath) in AnimatableKeyPath.properties.enumerated() {
        guard let now = entry.layer.value(for: keyPath), let old = entry.model[i], now != old,
          let shown = entry.presented.value(for: keyPath)
        else { continue }
        var animation = BasicAnimation(keyPath: keyPath.name)
        animation.fromValue = shown
        animation.toValue = now
        animation.beginTime = entry.localTime
        animation.duration = duration
        animation.timingFunction = timingFunction
        entry.layer.add(animation, forKey: nil)
      }
    }
  }
}

extension AnimatableKeyPath {
  /// The key path as Core Animation spells it (`"transform.rotation.z"`).
  public var name: String {
    switch self {
    case .opacity: return "opacity"
    case .position: return "position"
    case .positionX: return "position.x"
    case .positionY: return "position.y"
    case .bounds: return "bounds"
    case .boundsSize: return "bounds.size"
    case .boundsWidth: return "bounds.size.width"
    case .boundsHeight: return "bounds.size.height"
    case .anchorPoint: return "anchorPoint"
    case .zPosition: return "zPosition"
    case .cornerRadius: return "cornerRadius"
    case .borderWidth: return "borderWidth"
    case .borderColor: return "borderColor"
    case .backgroundColor: return "backgroundColor"
    case .hidden: return "hidden"
    case .contents: return "contents"
    case .transform: return "transform"
    case .sublayerTransform: return "sublayerTransform"
    case .transformComponent(let c, let isSublayer):
      let base = isSublayer ? "sublayerTransform." : "transform."
      switch c {
      case .scale: return base + "scale"
      case .scaleX: return base + "scale.x"
      case .scaleY: return base + "scale.y"
      case .rotation: return base + "rotation.z"
      case .translationX: return base + "translation.x"
      case .translationY: return base + "translation.y"
      }
    case .path: return "path"
    case .fillColor: return "fillColor"
    case .strokeColor: return "strokeColor"
    case .lineWidth: return "lineWidth"
    case .lineDashPhase: return "lineDashPhase"
    case .strokeStart: return "strokeStart"
    case .strokeEnd: return "strokeEnd"
    case .miterLimit: return "miterLimit"
    }
  }
}
