import Animations
import Geometry
import LayerTree
import SceneFiles

/// The layers repeaters make drawn each frame, held to `SceneFormat.maximumDrawnLayers` as the
/// scene reader holds replicators: 4,000 precomposition instances of a 1,000-copy repeater hung
/// a frame. A repeater's copies are layers of their own, so they are counted before they are
/// made.
extension LottieReader {
  /// The layers `layer` draws a frame: itself, and its sublayers and mask once per instance of a
  /// replicator (`instanceCount` times).
  static func drawnLayers(_ layer: Layer) -> Int {
    let inner =
      layer.sublayers.reduce(0) { $0 + drawnLayers($1) } + (layer.mask.map(drawnLayers) ?? 0)
    let copies = (layer as? ReplicatorLayer).map { Swift.max(1, $0.instanceCount) } ?? 1
    return 1 + copies * inner
  }

  /// Adds what the repeater built as `stack` draws to the file's count; false, reported once
  /// at `place`, past the limit.
  func countDrawnLayers(_ stack: Layer, at place: String) -> Bool {
    let limit = SceneFormat.maximumDrawnLayers
    guard drawnLayerCount <= limit else { return false }
    drawnLayerCount += Self.drawnLayers(stack)
    guard drawnLayerCount <= limit else {
      reportDrawnLayers(at: place)
      return false
    }
    return true
  }

  /// Whether `count` copies of the layers `content` holds, each placed by two layers of its own,
  /// fit in what is left of the file's count: checked before the copies are made, so that
  /// nested repeaters are refused before they build what they would draw. False, reported once
  /// at `place`, when they do not fit.
  func copiesFit(of content: Layer, count: Int, at place: String) -> Bool {
    let limit = SceneFormat.maximumDrawnLayers
    guard drawnLayerCount <= limit else { return false }
    let each = Self.drawnLayers(content) + 1
    guard count <= (limit - drawnLayerCount) / each else {
      reportDrawnLayers(at: place)
      drawnLayerCount = limit + 1
      return false
    }
    return true
  }

  /// The path elements the shape layers under `layer` fill or stroke, each at its largest (its
  /// path, or an animation's largest value), once per replicator instance.
  static func pathElements(_ layer: Layer) -> Int {
    var own = 0
    if let shape = layer as? ShapeLayer {
      own = shape.path?.elements.count ?? 0
      for (_, animation) in layer.animations {
        let values = (animation as? KeyframeAnimation)?.values ?? []
        for case .path(let p?) in values { own = Swift.max(own, p.elements.count) }
      }
    }
    let inner =
      layer.sublayers.reduce(0) { $0 + pathElements($1) } + (layer.mask.map(pathElements) ?? 0)
    let copies = (layer as? ReplicatorLayer).map { Swift.max(1, $0.instanceCount) } ?? 1
    return own + copies * inner
  }

  /// Whether `count` copies of the paths `content` draws fit the file's
  /// `maximumRepeatedPathElements` (a repeater after the styles it copies: each copy's paths
  /// are presented and drawn every frame, and 1,000 copies of an animated 50,000-element path
  /// took 6 GB for a frame, counted by nothing). False, reported once at `place`, when not.
  func copiedPathsFit(of content: Layer, count: Int, at place: String) -> Bool {
    guard repeatedPathElements <= Self.maximumRepeatedPathElements else { return false }
    let elements = Self.pathElements(content)
    let (total, overflow) = elements.multipliedReportingOverflow(by: count)
    repeatedPathElements =
      overflow ? Int.max / 2 : repeatedPathElements + Swift.min(total, Int.max / 4)
    guard repeatedPathElements <= Self.maximumRepeatedPathElements else {
      report(
        place,
        "repeaters make more than \(Self.maximumRepeatedPathElements) path elements in all, "
          + "the limit (\(count) copies here of paths of \(elements) elements)")
      return false
    }
    return true
  }

  private func reportDrawnLayers(at place: String) {
    report(
      place,
      "the animation draws more than \(SceneFormat.maximumDrawnLayers) layers a frame (each "
        + "repeater copy counted), the limit")
  }
}
