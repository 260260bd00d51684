import CairoCanvas
import LayerTree

extension SceneReader {
  /// Reports a text layer whose font resolves to no installed face (visual-effects.md §5: an
  /// unknown font is refused before anything is drawn, naming the layer and the font).
  func checkFont(of layer: TextLayer, at place: String) {
    guard TextLayout.resolvedFace(forFontNamed: layer.font) == nil else { return }
    let name = layer.name.map { "layer \"\($0)\"" } ?? "this layer"
    report(
      place,
      "unknown font \"\(layer.font)\" for \(name) (no installed face has that family, PostScript "
        + "or Family-Style name; scripts/setup installs Liberation, DejaVu and WenQuanYi Micro Hei)"
    )
  }
}
