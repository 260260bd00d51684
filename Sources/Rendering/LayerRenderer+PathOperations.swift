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
  ///
  /// Each piece's stroke is its own group, with every other operand filled over it: the work
  /// grows with the square of the operands (1,600 subtracted squares took 8.5 s), so all of
  /// it is counted (`chargeGroups`, `chargePathWork`) before anything is drawn.
  func drawCombinedShape(
    _ shape: ShapeProperties, of layer: Layer, path: Path, in canvas: Canvas
  ) throws(RenderingError) {
    let operands = path.subpaths
    let operation = shape.pathOperation
    let rule = shape.fillRule
    let fills = (shape.fillColor?.alpha ?? 0) > 0
    let strokes = (shape.strokeColor?.alpha ?? 0) > 0 && shape.lineWidth > 0
    let pieces = strokes ? path.subpathsTrimmed(from: shape.strokeStart, to: shape.strokeEnd) : []
    let operandWork = operands.map { LayerRenderer.pathWork(of: $0, on: canvas) }
    // The fill: one group and every operand. The stroke: one group, and for each piece a group
    // with its stroke and the other operands that bound it (those kept inside clear the whole
    // group around them: a group's pixels each).
    var groups = fills ? 1 : 0
    var work = fills ? operandWork.reduce(0, +) : 0
    if strokes {
      groups += 1
      for (i, piece) in pieces.enumerated() where !piece.isEmpty {
        groups += 1
        work += LayerRenderer.pathWork(of: piece, on: canvas)
        for j in operands.indices where j != i {
          guard let keep = operation.keepsOutline(of: i, insideOperand: j) else { continue }
          work += operandWork[j]
          if keep { groups += 1 }
        }
      }
    }
    try chargePathWork(work, for: layer, in: canvas)
    try chargeGroups(groups, holding: false, for: layer, in: canvas)
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
    guard strokes, let stroke = shape.strokeColor else { return }
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
