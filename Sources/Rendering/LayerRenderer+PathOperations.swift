import CairoCanvas
import Geometry
import LayerTree

// A shape layer whose subpaths combine by a path operation (`ShapeLayer.pathOperation`, for
// Lottie's merge paths): drawn by compositing each operand's coverage in a group.

extension LayerRenderer {
  /// Fills and strokes `path`'s subpaths combined by `shape.pathOperation`.
  ///
  /// The fill: in a group, the first operand opaque, then each next one with the operation's
  /// operator (union over, subtract destination out, intersect destination in, exclude xor);
  /// the group is composited with the fill colour's alpha. The stroke: each operand's stroke
  /// (of the part `strokeStart`...`strokeEnd` selects of the whole path) kept only where that
  /// operand bounds the result, by removing the others' insides (union, and the first operand
  /// of a subtraction), or keeping only their insides (intersection, and the first operand
  /// for the subtracted ones); with exclusion every outline bounds the result.
  func drawCombinedShape(_ shape: ShapeProperties, path: Path, in canvas: Canvas) {
    let operands = path.subpaths
    let operation = shape.pathOperation
    let rule = shape.fillRule
    if let fill = shape.fillColor, fill.alpha > 0 {
      let opaque = fill.opaque
      canvas.drawInTransparencyGroup(opacity: fill.alpha) {
        for (i, operand) in operands.enumerated() {
          canvas.fill(
            operand, with: opaque, rule: rule,
            compositing: i == 0 ? .normal : operation.operandCompositing)
        }
      }
    }
    guard let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0 else { return }
    let pieces = path.subpathsTrimmed(from: shape.strokeStart, to: shape.strokeEnd)
    let opaque = stroke.opaque
    let style = shape.strokeStyle
    canvas.drawInTransparencyGroup(opacity: stroke.alpha) {
      for (i, piece) in pieces.enumerated() where !piece.isEmpty {
        canvas.drawInTransparencyGroup(opacity: 1) {
          canvas.stroke(piece, with: opaque, style: style)
          for (j, other) in operands.enumerated() where j != i {
            guard let keep = operation.keepsOutline(of: i, insideOperand: j) else { continue }
            canvas.fill(
              other, with: opaque, rule: rule, compositing: keep ? .destinationIn : .destinationOut)
          }
        }
      }
    }
  }
}

extension PathOperation {
  /// The operator that combines an operand after the first with what the earlier ones made.
  var operandCompositing: CompositingFilter {
    switch self {
    case .none, .union: return .normal
    case .subtract: return .destinationOut
    case .intersect: return .destinationIn
    case .exclude: return .xor
    }
  }

  /// Whether operand `i`'s outline bounds the result only inside operand `j` (`true`), only
  /// outside it (`false`), or either way (`nil`).
  func keepsOutline(of i: Int, insideOperand j: Int) -> Bool? {
    switch self {
    case .none, .exclude: return nil
    case .union: return false
    case .intersect: return true
    case .subtract: return i != 0 && j == 0
    }
  }
}

extension Color {
  /// The colour at full opacity.
  var opaque: Color { Color(red: red, green: green, blue: blue, alpha: 1) }
}
