import CairoCanvas
import Geometry
import LayerTree

/// Why a layer tree could not be drawn.
public enum RenderingError: Error, Hashable, Sendable, CustomStringConvertible {
  // Each carries the label of the layer it is about: its name and, for a layer read from a
  // scene file, its JSON path (`LayerLabel`).

  /// A text layer's `font` resolves to no installed face. Carries the layer and the font's
  /// name.
  case unknownFont(layer: LayerLabel?, font: String)
  /// A shadowed layer lies inside more than `LayerRenderer.maximumNestedShadows` shadowed
  /// layers (each shadow's shape is drawn from its whole subtree, so the work grows with the
  /// nesting). Carries the innermost layer.
  case shadowsNestedTooDeep(layer: LayerLabel?)
  /// A layer drawn offscreen in perspective lies inside more than
  /// `LayerRenderer.maximumShadowsAroundPlanes` shadowed layers: each of them draws the plane
  /// again for its shadow's shape, and a plane's offscreen pixels are not shared between those
  /// passes, so the work doubles with every level. Carries the plane.
  case planeInsideTooManyShadows(layer: LayerLabel?)
  /// An offscreen canvas the layer needs (its plane in perspective, or its shadow's shape)
  /// could not be made: more pixels than a canvas may have even at the least density, or no
  /// memory for it. Carries the layer and the canvas's reason.
  case offscreenUnavailable(layer: LayerLabel?, reason: String)
  /// A shape layer's stroke would draw more than `StrokeStyle.maximumDashCount` dashes (its
  /// path's length over its dash pattern's, animated to that or built in Swift; a scene file
  /// or Lottie file with such a static stroke is refused when read). Carries the layer and
  /// about how many dashes.
  case tooManyDashes(layer: LayerLabel?, count: Double)
  /// The strokes of one frame would draw more than `StrokeStyle.maximumDashCountPerFrame`
  /// dashes together. Carries the layer whose stroke passes the limit.
  case tooManyDashesInFrame(layer: LayerLabel?)
  /// The frame's offscreen groups (opacity, blend modes, filters, masks, replicator tints,
  /// shadows' shapes) would hold more than `LayerRenderer.maximumGroupPixelsPerFrame` pixels
  /// together. Carries the layer whose group passes the limit.
  case tooMuchOffscreenWork(layer: LayerLabel?)
  /// The frame's filters would go over more than `LayerRenderer.maximumFilterPixelsPerFrame`
  /// pixels together (each filter over its group's pixels, each shadow's blur over its
  /// shape's). Carries the layer whose filters or shadow pass the limit.
  case tooMuchFilterWork(layer: LayerLabel?)
  /// The groups open at once, one inside another, would hold more than
  /// `LayerRenderer.maximumOpenGroupPixels` pixels (memory, where the per-frame budget is
  /// time). Carries the layer whose group passes the limit.
  case tooMuchOffscreenMemory(layer: LayerLabel?)
  /// The fills and strokes of one frame's paths would do more than
  /// `LayerRenderer.maximumPathWorkPerFrame` units of work together (their elements, lengths
  /// in pixels and the places their lines can cross). Carries the layer whose path passes the
  /// limit.
  case tooMuchPathWork(layer: LayerLabel?)
  /// A text layer's string (set from Swift or animated: a scene or Lottie file's is refused
  /// when read) has more than `TextLayer.maximumStringLength` characters (Unicode scalars) or
  /// `TextLayer.maximumParagraphCount` lines, which Pango lays out in time that grows with
  /// their square. Carries the layer and the string's characters and lines.
  case textTooLong(layer: LayerLabel?, characters: Int, lines: Int)
  /// The text layers of one frame would draw more than `TextLayout.maximumCharactersPerFrame`
  /// characters together (each replicator instance counted, with the work of wrapped lines,
  /// paragraphs, tabs, mixed directions and each font size the frame lays text out in counted as
  /// characters: `TextLayout.Tally`, and stroked text as many times more as
  /// `Canvas.TextStroke.costFactor(fontSize:)` says). Carries the layer that passes it.
  case tooMuchTextInFrame(layer: LayerLabel?)

  /// One frame would draw more than `LayerRenderer.maximumDrawnLayersPerFrame` layers (each
  /// layer once for every replicator instance and shadow pass that draws it): a replicator's
  /// count animated or set from Swift past what the scene reader refuses. Carries the layer
  /// that passes it.
  case tooManyLayersInFrame(layer: LayerLabel?)

  /// An animation's value at the frame's time is not finite: values set from Swift whose
  /// interpolation overflows (-1e308 to 1e308 has no finite midpoint), or a cumulative
  /// animation's offset after very many cycles. Refused rather than drawn as nothing (Core
  /// Animation's render server draws no such layer, without a word); the scene and Lottie
  /// readers refuse values past `AnimationValue.maximumMagnitude` before this can happen.
  /// Carries the layer and the animated key path.
  case animationNotFinite(layer: LayerLabel?, keyPath: String)

  /// A text layer's string (set from Swift or animated: a scene or Lottie file's is refused
  /// when read) nests bidirectional isolates deeper than `TextLayer.maximumIsolateDepth`, on
  /// which the bidi library crashed. Carries the layer and the depth.
  case isolatesTooDeep(layer: LayerLabel?, depth: Int)

  /// A layer with animations has a time that is not finite at the frame's instant: its own
  /// and its superlayers' `speed`, `beginTime` and `timeOffset` together overflow (nine nested
  /// speeds of 3.4e38), so its animations cannot be evaluated. Refused rather than drawn at
  /// its model values without a word. Carries the layer.
  case layerTimeNotFinite(layer: LayerLabel?)

  /// An animation's own time is not finite at the frame's instant where that decides what it
  /// shows: its and its groups' `beginTime`, `speed` and `timeOffset` together overflow (a
  /// `beginTime` of -1e308 at a speed of 3.4e38, or nine nested groups of speed 3.4e38, the
  /// animation repeating forever). Refused rather than drawn at the model value without a word
  /// (`MediaTiming.State.isTimeFinite`), or a cumulative animation's cycle count (the time
  /// over its duration) does. Carries the layer and the animated key path.
  case animationTimeNotFinite(layer: LayerLabel?, keyPath: String)

  /// A layer with animations in a replicator's delayed instance has a time that is not finite
  /// because the instance is `instance × instanceDelay` seconds earlier, past the largest
  /// `Double` (10,000 instances of a delay of 1e305). Carries the layer, the replicator, the
  /// first instance whose time overflows and the delay.
  case instanceTimeNotFinite(
    layer: LayerLabel?, replicator: LayerLabel?, instance: Int, instanceDelay: Double)

  /// A layer's transform in the frame (its own, its superlayers' and the pixel density
  /// together) multiplies areas by more than the largest `Double`, about 1.8e308 (a scale of
  /// 1e155 on each side): Cairo takes no such transform, so the layer, which would cover the
  /// frame, cannot be drawn. Refused rather than left out without a word. Carries the layer.
  case transformTooLarge(layer: LayerLabel?)
  /// The layer's transform in the frame shrinks areas below what Cairo's transforms hold
  /// (a determinant under 1e-100) while what the layer draws still spans pixels: a layer of
  /// 5e51 points scaled by 1e-50 into a 50-point square was left out without a word.
  case transformTooSmall(layer: LayerLabel?)

  /// A one-line message.
  public var description: String {
    switch self {
    case .unknownFont(let name, let font):
      return "\(LayerLabel.text(name)) uses the font \"\(font)\", "
        + "which resolves to no installed face (scripts/setup installs Liberation, DejaVu and WenQuanYi Micro Hei)"
    case .shadowsNestedTooDeep(let name):
      return
        "\(LayerLabel.text(name)) has a shadow inside more than "
        + "\(LayerRenderer.maximumNestedShadows) other shadowed layers, past the limit"
    case .planeInsideTooManyShadows(let name):
      return
        "\(LayerLabel.text(name)) is drawn in perspective inside more than "
        + "\(LayerRenderer.maximumShadowsAroundPlanes) shadowed layers, past the limit (each "
        + "shadow draws the plane again, so the work doubles with each one)"
    case .tooManyDashes(let name, let count):
      // An estimate past 10^15 (infinite, for an overflowing path length) as a bound.
      let about = count < 1e15 ? "about \(Int(count.rounded()))" : "more than 10^15"
      return
        "\(LayerLabel.text(name)) would stroke \(about) dashes "
        + "(its path's length over its dash pattern's), over the limit of "
        + "\(StrokeStyle.maximumDashCount)"
    case .tooManyDashesInFrame(let name):
      return
        "the frame would stroke more than \(StrokeStyle.maximumDashCountPerFrame) dashes, the "
        + "limit, at \(LayerLabel.text(name)) (every stroke's dashes "
        + "counted, for each replicator instance and shadow)"
    case .tooMuchOffscreenWork(let name):
      return
        "the frame would composite more than \(LayerRenderer.maximumGroupPixelsPerFrame / 1_000_000) "
        + "million offscreen pixels, the limit, at \(LayerLabel.text(name)) "
        + "(each group for opacity, blend mode, filters, mask, replicator color or shadow counted "
        + "at its size in the frame, for each replicator instance)"
    case .tooMuchOffscreenMemory(let name):
      return
        "the frame would hold more than \(LayerRenderer.maximumOpenGroupPixels / 1_000_000) "
        + "million offscreen pixels at once, the limit, at \(LayerLabel.text(name)) (groups "
        + "for opacity, blend mode, filters, masks (a content and its mask) or shadows' shapes "
        + "nested inside one another, each at its size in the frame)"
    case .tooMuchFilterWork(let name):
      return
        "the frame's filters would go over more than "
        + "\(LayerRenderer.maximumFilterPixelsPerFrame / 1_000_000) million pixels, the limit, at "
        + "\(LayerLabel.text(name)) (each filter over its layer's group and each shadow's "
        + "blur over its shape, at its size in the frame, for each replicator instance)"
    case .tooMuchPathWork(let name):
      return
        "the frame's paths and pictures would take more than "
        + "\(LayerRenderer.maximumPathWorkPerFrame / 1_000_000) million units of work to fill, "
        + "stroke and draw, the limit, at \(LayerLabel.text(name)) (each fill and stroke counts "
        + "its path's elements, its length in pixels, the places its lines can cross and the "
        + "pixels a fill covers, and each picture, background and border the pixels it covers, "
        + "for each replicator instance, shadow and path operand)"
    case .textTooLong(let name, let characters, let lines):
      return
        "\(LayerLabel.text(name)) has a string of \(characters) characters in \(lines) lines, "
        + "over the limit of \(TextLayer.maximumStringLength) characters and "
        + "\(TextLayer.maximumParagraphCount) lines"
    case .tooMuchTextInFrame(let name):
      return
        "the frame's text layers would draw more than "
        + "\(TextLayout.maximumCharactersPerFrame / 1_000_000) million characters, the limit, at "
        + "\(LayerLabel.text(name)) (every text layer's string, for each replicator instance, and "
        + "the work of its wrapped lines, paragraphs, tabs, mixed directions and font sizes counted as "
        + "characters; stroked text 1 + 2 x its stroke width over its size times)"
    case .tooManyLayersInFrame(let name):
      return
        "the frame would draw more than \(LayerRenderer.maximumDrawnLayersPerFrame) layers, the "
        + "limit, at \(LayerLabel.text(name)) (each layer once for every replicator instance "
        + "that draws it, as its count is at the frame's time)"
    case .animationNotFinite(let name, let keyPath):
      return
        "the animation of \"\(keyPath)\" at \(LayerLabel.text(name)) gives a value that is not "
        + "finite at this time (the span between its values overflows; values within 10^15 in "
        + "magnitude keep it finite)"
    case .isolatesTooDeep(let name, let depth):
      return "\(LayerLabel.text(name)) has \(TextLayer.isolateDepthMessage(depth))"
    case .layerTimeNotFinite(let name):
      return
        "\(LayerLabel.text(name)) has animations but no finite time at this instant: its and its "
        + "superlayers' speed, beginTime and timeOffset together overflow"
    case .instanceTimeNotFinite(let name, let replicator, let instance, let delay):
      let delay = String(shortestNumber(delay).filter { $0 != "+" })  // 1e305, not 1e+305
      return
        "\(LayerLabel.text(name)) has animations but no finite time at this instant: it is in "
        + "instance \(instance) of the replicator \(LayerLabel.text(replicator)), shown "
        + "\(instance) x its instanceDelay of \(delay) s earlier, past the largest time a Double "
        + "holds (1.8e308 s)"
    case .animationTimeNotFinite(let name, let keyPath):
      return
        "the animation of \"\(keyPath)\" at \(LayerLabel.text(name)) has no finite time at this "
        + "instant: its and its groups' beginTime, speed and timeOffset together overflow, or, "
        + "for a cumulative animation, its cycle count (the time over its duration) does"
    case .transformTooLarge(let name):
      return
        "\(LayerLabel.text(name)) is scaled past what can be drawn: its transform in the frame "
        + "stretches by more than about 1.3e154 or multiplies areas by more than 1.8e308, the "
        + "most Cairo's transforms hold"
    case .transformTooSmall(let name):
      return
        "\(LayerLabel.text(name)) is scaled past what can be drawn: its transform in the frame "
        + "shrinks areas below 1e-100 (each side by about 1e-50), the least Cairo's transforms "
        + "hold, while what it draws still spans pixels (give it smaller geometry and a smaller "
        + "scale down)"
    case .offscreenUnavailable(let name, let reason):
      return
        "\(LayerLabel.text(name)) needs an offscreen canvas that cannot "
        + "be made: \(reason)"
    }
  }
}

/// The layer an error names: its name and, for a layer read from a scene file, its JSON path.
/// A string literal makes a label with that name and no place.
public struct LayerLabel: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The layer's `name`, if any.
  public var name: String?
  /// Where the layer was read from (its JSON path in a scene file), if known.
  public var place: String?

  /// A label of a name and a place.
  public init(name: String?, place: String? = nil) { (self.name, self.place) = (name, place) }

  /// A label with this name and no place.
  public init(stringLiteral name: String) { self.init(name: name) }

  /// The label of `layer`; `nil` when it has neither a name nor a place.
  init?(_ layer: Layer) {
    guard layer.name != nil || layer.sourcePlace != nil else { return nil }
    self.init(name: layer.name, place: layer.sourcePlace)
  }

  /// `layer 'name' (layers[2])`, `layer 'name'`, `layer layers[2]` or `layer (unnamed)`; the
  /// name quoted as the readers quote values (control characters escaped, cut to 40
  /// characters: a name holding a newline split the message, an escape sequence coloured the
  /// terminal), a place longer than 200 characters cut in its middle, as the readers cut theirs.
  public var description: String {
    switch (name.map(SourcePlace.quoted), place.map(SourcePlace.shortened)) {
    case (let name?, let place?): return "layer '\(name)' (\(place))"
    case (let name?, nil): return "layer '\(name)'"
    case (nil, let place?): return "layer \(place)"
    case (nil, nil): return "layer (unnamed)"
    }
  }

  static func text(_ label: LayerLabel?) -> String { (label ?? LayerLabel(name: nil)).description }
}

extension RenderingError {
  /// What a presented layer (`p`, its properties) carries that cannot be shown, or `nil`: an
  /// animation whose value is not finite (`animationNotFinite`), a layer time that is not
  /// finite (`layerTimeNotFinite`) or an animation's own time that is not finite
  /// (`animationTimeNotFinite`). The renderer refuses such a layer when it draws it (a hidden
  /// one, and its subtree, are not drawn); `flipbook inspect` refuses the same layers, so that
  /// it does not print the model values the frame would refuse.
  package static func presentationProblem(
    of layer: Layer, properties p: LayerProperties
  ) -> RenderingError? {
    if let keyPath = p.nonFiniteAnimation {
      return .animationNotFinite(layer: LayerLabel(layer), keyPath: keyPath)
    }
    if p.timeNotFinite {
      guard let delayed = p.instanceTimeOverflow else {
        return .layerTimeNotFinite(layer: LayerLabel(layer))
      }
      let replicator =
        delayed.name != nil || delayed.place != nil
        ? LayerLabel(name: delayed.name, place: delayed.place) : nil
      return .instanceTimeNotFinite(
        layer: LayerLabel(layer), replicator: replicator, instance: delayed.instance,
        instanceDelay: delayed.instanceDelay)
    }
    if let keyPath = p.animationTimeNotFinite {
      return .animationTimeNotFinite(layer: LayerLabel(layer), keyPath: keyPath)
    }
    return nil
  }

  /// The first `presentationProblem(of:properties:)` in a presented tree, in tree order (each
  /// layer before its mask and sublayers, a replicator's delayed instances after), skipping hidden layers and their subtrees as drawing
  /// does; `nil` when none.
  package static func firstPresentationProblem(in layer: Layer) -> RenderingError? {
    let p = layer.properties
    guard !p.isHidden else { return nil }
    if let problem = presentationProblem(of: layer, properties: p) { return problem }
    if let mask = layer.mask, let problem = firstPresentationProblem(in: mask) { return problem }
    for sublayer in layer.sublayers {
      if let problem = firstPresentationProblem(in: sublayer) { return problem }
    }
    // A replicator's delayed instances are its sublayers presented at other times: each drawn
    // as they are.
    if let replicator = layer as? ReplicatorLayer {
      for instance in replicator.delayedInstances {
        for sublayer in instance {
          if let problem = firstPresentationProblem(in: sublayer) { return problem }
        }
      }
    }
    return nil
  }
}
