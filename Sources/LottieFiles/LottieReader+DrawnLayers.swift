import LayerTree
import SceneFiles

/// The layers repeaters make drawn each frame, held to `SceneFormat.maximumDrawnLayers` as the
/// scene reader holds replicators: 4,000 precomposition instances of a 1,000-copy repeater hung
/// a frame.
extension LottieReader {
  /// The layers `layer` draws a frame: itself, and its sublayers and mask once per instance of a
  /// replicator (`instanceCount` times).
  static func drawnLayers(_ layer: Layer) -> Int {
    let inner =
      layer.sublayers.reduce(0) { $0 + drawnLayers($1) } + (layer.mask.map(drawnLayers) ?? 0)
    let copies = (layer as? ReplicatorLayer).map { Swift.max(1, $0.instanceCount) } ?? 1
    return 1 + copies * inner
  }

  /// Adds what the repeater built as `replicator` draws to the file's count; false, reported
  /// once at `place`, past the limit.
  func countDrawnLayers(_ replicator: Layer, at place: String) -> Bool {
    let limit = SceneFormat.maximumDrawnLayers
    guard drawnLayerCount <= limit else { return false }
    drawnLayerCount += Self.drawnLayers(replicator)
    guard drawnLayerCount <= limit else {
      report(
        place,
        "the animation draws more than \(limit) layers a frame (each repeater copy counted), "
          + "the limit")
      return false
    }
    return true
  }
}
