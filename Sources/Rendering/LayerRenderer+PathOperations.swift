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
  /// Each piece's stroke is drawn in a group clipped to the reach of its stroke, with only the
  /// operands that can touch that box filled over it (one kept inside that cannot removes the
  /// whole piece): 1,600 subtracted squares, each filled over every other's stroke in a group
  /// of the whole frame, took 8.5 s, now 0.2 s. The pairs tested and what is left to draw are
  /// counted (`chargePathWork`, `chargeGroups`) before anything is drawn; operands all over one
  /// another still make work in the square of their count.
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
    let style = shape.strokeStyle
    // Each piece's box in device pixels (nil: unbounded, drawn as before) and the operands
    // filled over it.
    let m = canvas.deviceTransform
    let boxes = operands.map { $0.boundingBox.applying(m) }
    let reach = LayerRenderer.strokeReach(style, on: canvas)
    // Finding the operands near each piece tests every pair (some 14 ns each, a unit of path
    // work for 16): counted first, so 20,000 operands are refused before 4 × 10^8 tests.
    if strokes {
      let pairs = Double(pieces.count) * Double(Swift.max(0, operands.count - 1))
      try chargePathWork(pairs / 16, for: layer, in: canvas)
    }
    var plans: [(piece: Path, box: Rect?, others: [(Int, Bool)])] = []
    if strokes {
      for (i, piece) in pieces.enumerated() where !piece.isEmpty {
        let bounds = piece.boundingBox.applying(m)
        let box =
          reach.isFinite && bounds.minX.isFinite && bounds.maxX.isFinite
            && bounds.minY.isFinite && bounds.maxY.isFinite
          ? bounds.insetBy(dx: -reach, dy: -reach) : nil
        var others: [(Int, Bool)] = []
        var removed = false
        for j in operands.indices where j != i {
          guard let keep = operation.keepsOutline(of: i, insideOperand: j) else { continue }
          if let box, !box.intersects(boxes[j]) {
            // Outside the box: removing its inside changes nothing, keeping only its inside
            // leaves nothing of this piece.
            if keep { removed = true }
            continue
          }
          others.append((j, keep))
        }
        if !removed { plans.append((piece, box, others)) }
      }
    }
    // The fill: one group and every operand. The stroke: one group, and for each piece a group
    // (its box's pixels) with its stroke and the operands over it (those kept inside clear
    // the group around them: a group's pixels each).
    // Each operand filled covers its box's pixels, and one kept only inside (destination in,
    // an unbounded operator) every pixel of its group: 8,000 intersected circles each went
    // over the whole frame, 7.3 s counted as their outlines only.
    let groupWork = canvas.groupPixelCount / LayerRenderer.pixelsPerUnit
    var work = 0.0
    if fills {
      for (i, operand) in operands.enumerated() {
        let unbounded = i > 0 && operation.operandCompositing == .destinationIn
        work += operandWork[i]
        work += unbounded ? groupWork : LayerRenderer.fillWork(of: operand.boundingBox, on: canvas)
      }
    }
    for plan in plans {
      work += LayerRenderer.pathWork(of: plan.piece, on: canvas, stroke: style)
      let boxWork =
        plan.box.map { Double($0.width * $0.height) / LayerRenderer.pixelsPerUnit } ?? groupWork
      for (j, keep) in plan.others {
        work += operandWork[j]
        work +=
          keep
          ? Swift.min(boxWork, groupWork)
          : LayerRenderer.fillWork(of: operands[j].boundingBox, on: canvas)
      }
    }
    try chargePathWork(work, for: layer, in: canvas)
    try chargeGroups((fills ? 1 : 0) + (strokes ? 1 : 0), holding: false, for: layer, in: canvas)
    for plan in plans {
      if let box = plan.box { canvas.save(); canvas.clip(toDevicePixelsOf: box) }
      let cleared = plan.others.filter(\.1).count
      try chargeGroups(1 + cleared, holding: false, for: layer, in: canvas)
      if plan.box != nil { canvas.restore() }
    }
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
    canvas.drawInTransparencyGroup(opacity: stroke.alpha) {
      for plan in plans {
        canvas.save()
        if let box = plan.box { canvas.clip(toDevicePixelsOf: box) }
        canvas.drawInTransparencyGroup(opacity: 1) {
          canvas.stroke(plan.piece, with: opaque, style: style)
          for (j, keep) in plan.others {
            canvas.fill(
              operands[j], with: opaque, rule: rule,
              compositing: keep ? .destinationIn : .destinationOut)
          }
        }
        canvas.restore()
      }
    }
  }

  /// How far past its path a stroke in `style` can draw, in device pixels, with two pixels
  /// more for antialiasing (so a clip that far out cuts nothing): half the line width times
  /// the miter limit for mitred joins (at least √2, for square caps), at the transform's
  /// largest scale.
  static func strokeReach(_ style: StrokeStyle, on canvas: Canvas) -> Double {
    let m = canvas.deviceTransform
    let largest = Swift.max(
      (m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
    let factor = Swift.max(style.lineJoin == .miter ? style.miterLimit : 1, 2.0.squareRoot())
    return style.lineWidth / 2 * factor * largest + 2
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
