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

  /// `presentation(at:)` for drawing only: a layer that shows hidden, or with no opacity
  /// (unless it keeps its sublayers' depth: a transform layer, or a replicator with
  /// `preservesDepth`, whose own opacity does not hide them), is presented without its
  /// sublayers, mask and replicator instances, none of which are evaluated; and no layer's
  /// `superlayer` is set (a weak reference costs every later retain and release of the layer,
  /// and drawing walks down the tree only). What a renderer draws of the tree is the same;
  /// the work is what shows. Animations that hide most of their layers at any one time
  /// (Lottie's in and out points) are presented in a fraction of the time. Use
  /// `presentation(at:)` to read values anywhere in the tree.
  ///
  /// - Parameter sharingStaticLayers: a layer with no animations whose subtree has none either
  ///   shows its model values: the tree then holds the model layer itself, not a copy. The
  ///   tree must then only be read (drawn), never changed: a change would change the model.
  package func drawablePresentation(at time: Double, sharingStaticLayers: Bool = false) -> Layer {
    var scratch: [AnimationSample] = []
    return presentation(
      at: time, scratch: &scratch, mode: sharingStaticLayers ? .drawableSharing : .drawable)
  }

  /// Whether a presented layer draws nothing at all, its subtree included (see
  /// `drawablePresentation(at:)`).
  var drawsNothing: Bool {
    if isHidden { return true }
    guard opacity <= 0, !(self is TransformLayer) else { return false }
    return (self as? ReplicatorLayer)?.preservesDepth != true
  }

  /// What a presentation holds (see `presentation(at:)` and `drawablePresentation(at:)`).
  enum PresentationMode {
    /// Every layer, copied, with its superlayer.
    case full
    /// What draws, copied.
    case drawable
    /// What draws; static subtrees are the model's own layers.
    case drawableSharing
  }

  /// Whether the layer itself has animations (its sublayers' are not counted).
  package var hasAnimations: Bool { !animationEntries.isEmpty }

  /// Presents sublayer `index` of this layer again, into `presented` (this layer's
  /// `presentation(at:)` or `drawablePresentation(at:)` at `time`), for a sublayer whose model
  /// values something else drives over time (dynamics moves a scene's top-level layers as UIKit
  /// sets a view's `center` and `transform`): `drive` changes a copy of the sublayer's model
  /// values first, and its animations then apply on top of them, replacing or adding to them as
  /// they would to the model's, as Core Animation presents a layer whose model values change.
  ///
  /// - Parameter time: the time `presented` shows, in this layer's superlayer's time (seconds).
  package func presentSublayer(
    _ index: Int, into presented: Layer, at time: Double, drawableOnly: Bool,
    drivenBy drive: (Layer) -> Void
  ) {
    guard sublayers.indices.contains(index), presented.sublayers.indices.contains(index) else {
      return
    }
    var scratch: [AnimationSample] = []
    let shown = withoutActuallyEscaping(drive) { drive in
      sublayers[index].presentation(
        at: timing.localTime(time), scratch: &scratch, mode: drawableOnly ? .drawable : .full,
        drive: drive)
    }
    if !drawableOnly { shown.superlayer = presented }
    presented.sublayers[index] = shown
  }

  /// `presentation(at:)` with one sample buffer shared by the whole tree. `delayed`: the
  /// replicator whose delayed instance made `time` not finite, if one did. `drive` changes this
  /// layer's copied model values before its animations apply (see
  /// `presentSublayer(_:into:at:drawableOnly:drivenBy:)`).
  func presentation(
    at time: Double, scratch: inout [AnimationSample], mode: PresentationMode = .full,
    delayed: InstanceTimeOverflow? = nil, drive: ((Layer) -> Void)? = nil
  ) -> Layer {
    let local = timing.localTime(time)
    if mode == .drawableSharing, animationEntries.isEmpty, !(self is ReplicatorLayer) {
      return sharedUnlessAnimatedBelow(at: local, scratch: &scratch, delayed: delayed)
    }
    // A copy of the model values, then animated in place.
    let copy = type(of: self).init(copying: self)
    drive?(copy)
    if !animationEntries.isEmpty {
      if local.isFinite {
        applyAnimations(at: local, to: &copy.storage, scratch: &scratch)
      } else {
        copy.properties.timeNotFinite = true  // said when drawn (nine speeds of 3.4e38 overflow)
        copy.properties.instanceTimeOverflow = delayed
      }
    }
    if mode != .full && copy.drawsNothing { return copy }
    if !sublayers.isEmpty {
      copy.sublayers.reserveCapacity(sublayers.count)
      for sublayer in sublayers {
        let presented = sublayer.presentation(
          at: local, scratch: &scratch, mode: mode, delayed: delayed)
        if mode == .full { presented.superlayer = copy }
        copy.sublayers.append(presented)
      }
    }
    // The mask lives in this layer's space and time.
    if let mask {
      copy.mask = mask.presentation(at: local, scratch: &scratch, mode: mode, delayed: delayed)
    }
    // Replicator instance k shows the sublayers k × instanceDelay earlier.
    if let replicator = copy as? ReplicatorLayer, replicator.instanceCount > 1, !sublayers.isEmpty {
      let count = Swift.min(replicator.instanceCount, ReplicatorLayer.maximumInstanceCount)
      let delay = replicator.instanceDelay
      if delay == 0 {
        replicator.delayedInstances = Array(repeating: copy.sublayers, count: count - 1)
      } else {
        // Each delayed instance is its subtree presented again: built up to
        // `maximumDelayedLayers` (two nested replicators of 10,000 delayed copies built 100
        // million layers before anything was drawn); past them the rest are left out and
        // `delayedInstancesCut` says so (a renderer refuses to draw them).
        var built = 0
        var instances: [[Layer]] = []
        for k in 1..<count {
          guard built <= ReplicatorLayer.maximumDelayedLayers else {
            replicator.delayedInstancesCut = true
            break
          }
          // Past the largest Double (10,000 instances of a delay of 1e305) the instance's
          // animated layers have no finite time: said naming this replicator and its delay.
          let instanceTime = local - Double(k) * delay
          let overflow =
            local.isFinite && !instanceTime.isFinite
            ? InstanceTimeOverflow(
              name: name, place: sourcePlace, instance: k, instanceDelay: delay) : delayed
          let presented = sublayers.map { sublayer in
            let presented = sublayer.presentation(
              at: instanceTime, scratch: &scratch, mode: mode, delayed: overflow)
            if mode == .full { presented.superlayer = copy }
            return presented
          }
          for layer in presented {
            built += layer.layerCount(upTo: ReplicatorLayer.maximumDelayedLayers + 1 - built)
          }
          instances.append(presented)
        }
        replicator.delayedInstances = instances
      }
    }
    return copy
  }

  /// This layer's values at `localTime`, its own time (after its `timing`): its model values
  /// with its animations applied, what `presentation(at:)` shows of it, without copying the
  /// layer or presenting its subtree. For reading a few animated layers at many instants (a
  /// Lottie time remapping samples a precomposition's animated layers 2,000 times: presenting
  /// its whole tree of 5,000 layers each time took 14 s). `scratch` is a buffer reused between
  /// calls.
  package func animatedStorage(
    atLocalTime localTime: Double, scratch: inout [AnimationSample]
  ) -> LayerStorage {
    var shown = storage
    if !animationEntries.isEmpty {
      applyAnimations(at: localTime, to: &shown, scratch: &scratch)
    }
    return shown
  }

  /// A layer without animations (not a replicator, whose copy carries its instances) in a
  /// `.drawableSharing` presentation, its sublayers and mask presented at `local` (its own
  /// time): the model layer itself when they all are their model layers too, else a copy of
  /// it holding them.
  private func sharedUnlessAnimatedBelow(
    at local: Double, scratch: inout [AnimationSample], delayed: InstanceTimeOverflow?
  ) -> Layer {
    if drawsNothing { return self }
    var presented: [Layer]? = nil  // made when a sublayer is not its model layer
    for (i, sublayer) in sublayers.enumerated() {
      let shown = sublayer.presentation(
        at: local, scratch: &scratch, mode: .drawableSharing, delayed: delayed)
      if presented == nil, shown !== sublayer {
        presented = Array(sublayers[..<i])
        presented!.reserveCapacity(sublayers.count)
      }
      presented?.append(shown)
    }
    let shownMask = mask?.presentation(
      at: local, scratch: &scratch, mode: .drawableSharing, delayed: delayed)
    if presented == nil && shownMask === mask { return self }
    let copy = type(of: self).init(copying: self)
    copy.sublayers = presented ?? sublayers
    copy.mask = shownMask
    return copy
  }

  /// Applies the animations' samples at `localTime`, in order, to `shown` (a copy of this
  /// layer's model values, held as one value so that the layer objects are not touched per
  /// sample; the model values that missing from/to ends stand for are read from `self`).
  private func applyAnimations(
    at localTime: Double, to shown: inout LayerStorage, scratch: inout [AnimationSample]
  ) {
    scratch.removeAll(keepingCapacity: true)
    // By index: iterating the entries would copy each (its animation existential and key).
    for i in animationEntries.indices {
      animationEntries[i].prepared.appendSamples(at: localTime, into: &scratch)
    }
    for sample in scratch {
      let keyPath = LayerKeyPath(target: sample.target)
      guard keyPath.property.layerType.includes(shown) else { continue }
      // Its time overflowed (a beginTime of -1e308 at a speed of 3.4e38, repeating forever), or
      // a cumulative one's cycle count did: said when drawn, not shown as the model value.
      guard sample.isTimeFinite else {
        if shown.properties.animationTimeNotFinite == nil {
          shown.properties.animationTimeNotFinite = keyPath.name
        }
        continue
      }
      // Most animations give both their ends: then neither the model value nor the value so far
      // is read (each read goes through the table), and the sample's own kind stands in.
      let modelValue: AnimationValue?
      let underlying: AnimationValue?
      if sample.needsModel || sample.needsUnderlying {
        modelValue = keyPath.value(in: storage)
        underlying = sample.needsUnderlying ? keyPath.value(in: shown) : modelValue
      } else {
        modelValue = LayerPresentationPlaceholder.value
        underlying = modelValue
      }
      guard let modelValue, let underlying else { continue }
      let value = sample.value(model: modelValue, underlying: underlying)
      // An overflow (values built in Swift: the readers keep theirs within
      // `AnimationValue.maximumMagnitude`) is said when drawn, not drawn as nothing.
      guard value.isFinite else {
        if shown.properties.nonFiniteAnimation == nil {
          shown.properties.nonFiniteAnimation = keyPath.name
        }
        continue
      }
      keyPath.setValue(value, in: &shown)
      if let angle = sample.pathRotation {
        shown.properties.transform = shown.properties.transform.rotated(angle)
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
    at time: Double, withDuration duration: Double, timingFunction: TimingFunction = .default,
    _ changes: () -> Void
  ) {
    // What shows now, and the model values now, for every layer of the subtree.
    struct Before {
      let layer: Layer
      let localTime: Double
      let presented: Layer
      let model: [AnimationValue?]
    }
    var before: [Before] = []
    let animatable = LayerProperty.all.filter(\.isAnimatable)
    func record(_ layer: Layer, _ presented: Layer, parentTime: Double) {
      let local = layer.timing.localTime(parentTime)
      before.append(
        Before(
          layer: layer, localTime: local, presented: presented,
          model: animatable.map { $0.animationValue(of: layer) }))
      for (sublayer, presentedSublayer) in zip(layer.sublayers, presented.sublayers) {
        record(sublayer, presentedSublayer, parentTime: local)
      }
    }
    record(self, presentation(at: time), parentTime: time)
    changes()
    for entry in before {
      for (i, property) in animatable.enumerated() {
        guard let now = property.animationValue(of: entry.layer), let old = entry.model[i],
          now != old,
          let shown = property.animationValue(of: entry.presented)
        else { continue }
        var animation = BasicAnimation(keyPath: property.name)
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

/// What stands for a model value that an animation does not read.
private enum LayerPresentationPlaceholder {
  static let value = AnimationValue.scalar(0)
}

extension Layer {
  /// The layers of this subtree (itself, sublayers, masks and replicators' delayed instances,
  /// each time it appears), counted up to `limit`: past it, some number above `limit`,
  /// without walking the rest.
  func layerCount(upTo limit: Int) -> Int {
    var count = 1
    func add(_ layers: [Layer]) {
      for layer in layers where count <= limit { count += layer.layerCount(upTo: limit - count) }
    }
    add(sublayers)
    if let mask, count <= limit { count += mask.layerCount(upTo: limit - count) }
    if let replicator = self as? ReplicatorLayer {
      for instance in replicator.delayedInstances where count <= limit { add(instance) }
    }
    return count
  }
}
