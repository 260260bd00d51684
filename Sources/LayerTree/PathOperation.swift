/// How a shape layer's subpaths combine into the region it fills and the outline it strokes (a
/// Flipbook extension of `CAShapeLayer`, for Lottie's merge paths).
///
/// With `.none` (the default) the path is one shape, filled by its `fillRule` and stroked along
/// every subpath, as Core Animation draws it. Otherwise each subpath (each `move`) is an
/// operand filled on its own by the fill rule, and the operands combine in order: the first
/// operand, then the result combined with the second, then with the third, and so on. The stroke
/// follows the outline of the result: each operand's stroke where that operand bounds the result
/// (with a stroke cut square where two operands' outlines cross).
public enum PathOperation: String, Hashable, Sendable, CaseIterable {
  /// The whole path as one shape (Core Animation).
  case none
  /// The union of the operands.
  case union
  /// The first operand less each of the others.
  case subtract
  /// Where every operand is.
  case intersect
  /// Where an odd number of operands are (exclusive or, pairwise in order).
  case exclude
}
