import Geometry

/// Where a layer's contents image sits in its bounds (`CALayerContentsGravity`).
///
/// Names mean what they say on screen in y-down space: `top` is the top edge (iOS's flipped-name
/// quirk is not reproduced). The non-resizing gravities draw the image at its natural size,
/// `contentsScale` pixels per point.
public enum ContentsGravity: String, Hashable, Sendable, CaseIterable {
  /// Stretched to fill the bounds (the default).
  case resize
  /// Scaled to fit inside the bounds, keeping its aspect ratio, centered.
  case resizeAspect
  /// Scaled to cover the bounds, keeping its aspect ratio, centered (overflow shows unless
  /// `masksToBounds`).
  case resizeAspectFill
  /// Natural size, centered.
  case center
  /// Natural size, centered horizontally, at the top edge.
  case top
  /// Natural size, centered horizontally, at the bottom edge.
  case bottom
  /// Natural size, centered vertically, at the left edge.
  case left
  /// Natural size, centered vertically, at the right edge.
  case right
  /// Natural size, in the top-left corner.
  case topLeft
  /// Natural size, in the top-right corner.
  case topRight
  /// Natural size, in the bottom-left corner.
  case bottomLeft
  /// Natural size, in the bottom-right corner.
  case bottomRight

  /// The rectangle, in the layer's coordinates, that an image of `imageSize` points occupies in
  /// `bounds`.
  public func rect(forImageOfSize imageSize: Size, in bounds: Rect) -> Rect {
    let b = bounds.standardized
    let (w, h) = (imageSize.width, imageSize.height)
    switch self {
    case .resize:
      return b
    case .resizeAspect, .resizeAspectFill:
      guard w > 0, h > 0 else { return b }
      let fit =
        self == .resizeAspect ? min(b.width / w, b.height / h) : max(b.width / w, b.height / h)
      let (sw, sh) = (w * fit, h * fit)
      return Rect(x: b.midX - sw / 2, y: b.midY - sh / 2, width: sw, height: sh)
    default:
      let x: Double
      let y: Double
      switch self {
      case .left, .topLeft, .bottomLeft: x = b.minX
      case .right, .topRight, .bottomRight: x = b.maxX - w
      default: x = b.midX - w / 2
      }
      switch self {
      case .top, .topLeft, .topRight: y = b.minY
      case .bottom, .bottomLeft, .bottomRight: y = b.maxY - h
      default: y = b.midY - h / 2
      }
      return Rect(x: x, y: y, width: w, height: h)
    }
  }
}
