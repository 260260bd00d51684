extension Layer {
  /// Appends `layer` to `sublayers`, removing it from its current superlayer first.
  public func addSublayer(_ layer: Layer) {
    insertSublayer(layer, at: sublayers.count)
  }

  /// Inserts `layer` into `sublayers` at `index` (clamped to the valid range), removing it from
  /// its current superlayer first.
  public func insertSublayer(_ layer: Layer, at index: Int) {
    precondition(layer !== self, "A layer cannot be its own sublayer")
    var ancestor = superlayer
    while let a = ancestor {
      precondition(a !== layer, "Adding an ancestor as a sublayer would make a cycle")
      ancestor = a.superlayer
    }
    layer.removeFromSuperlayer()
    sublayers.insert(layer, at: Swift.min(Swift.max(0, index), sublayers.count))
    layer.superlayer = self
  }

  /// Inserts `layer` just below (before) `sibling`, which must be a sublayer.
  public func insertSublayer(_ layer: Layer, below sibling: Layer) {
    guard let i = sublayers.firstIndex(where: { $0 === sibling }) else {
      preconditionFailure("insertSublayer(_:below:) needs a sibling that is a sublayer")
    }
    insertSublayer(layer, at: i)
  }

  /// Inserts `layer` just above (after) `sibling`, which must be a sublayer.
  public func insertSublayer(_ layer: Layer, above sibling: Layer) {
    guard let i = sublayers.firstIndex(where: { $0 === sibling }) else {
      preconditionFailure("insertSublayer(_:above:) needs a sibling that is a sublayer")
    }
    insertSublayer(layer, at: i + 1)
  }

  /// Detaches the layer from its superlayer, if any.
  public func removeFromSuperlayer() {
    guard let parent = superlayer else { return }
    parent.sublayers.removeAll { $0 === self }
    superlayer = nil
  }

  /// The sublayers in drawing order: sorted by `zPosition`, stably, so equal values keep their
  /// order in `sublayers`.
  public var sublayersInDrawingOrder: [Layer] {
    if sublayers.count < 2 || sublayers.allSatisfy({ $0.zPosition == sublayers[0].zPosition }) {
      return sublayers
    }
    return sublayers.enumerated()
      .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
      .map(\.element)
  }

  /// The first layer named `name` in this subtree, depth first, this layer included.
  public func layer(named name: String) -> Layer? {
    if self.name == name { return self }
    for sublayer in sublayers {
      if let found = sublayer.layer(named: name) { return found }
    }
    return nil
  }
}
