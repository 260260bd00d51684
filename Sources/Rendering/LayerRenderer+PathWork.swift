import CairoCanvas
import Geometry
import LayerTree

// The work of filling and stroking paths, counted before each is drawn.
//
// Cairo turns a path into edges and sweeps them down the rows they span: the time goes with the
// edges' lengths in device pixels (a random scribble of 100-pixel lines takes some 0.3 µs a pixel
// of length to stroke) and with the places they cross (some 20 ns each; a path's own edges can
// cross in every pair, so a 50,000-line scribble took 11 s to stroke alone).

extension LayerRenderer {
  /// The most path work one frame may do: 10,000,000 units (about three seconds of Cairo's
  /// filling and stroking at worst). Each fill and each stroke counts the length of its path's
  /// lines through every point and control point in device pixels (each line counted at most
  /// the canvas's width plus height: the rows it can sweep), plus its elements squared over 32
  /// (the pairs that can cross); each replicator instance, shadow pass and path-operation
  /// operand counted. A stroke of 17,800 elements alone reaches the limit.
  public static let maximumPathWorkPerFrame = 10_000_000

  /// The work of filling or stroking `path` on `canvas` (see `maximumPathWorkPerFrame`).
  package static func pathWork(of path: Path, on canvas: Canvas) -> Double {
    let m = canvas.deviceTransform
    let cap = Double(canvas.pixelWidth + canvas.pixelHeight)
    var total = 0.0
    var current = Point.zero, start = Point.zero
    func walk(_ points: Point...) {
      for p in points {
        let dx = (p.x - current.x) * m.a + (p.y - current.y) * m.c
        let dy = (p.x - current.x) * m.b + (p.y - current.y) * m.d
        let length = (dx * dx + dy * dy).squareRoot()
        // A length that overflows or is not a number counts as the most a line can sweep.
        total += length.isNaN ? cap : Swift.min(length, cap)
        current = p
      }
    }
    for element in path.elements {
      switch element {
      case .move(let p):
        current = p
        start = p
      case .line(let p): walk(p)
      case .quadCurve(let p, let c): walk(c, p)
      case .curve(let p, let c1, let c2): walk(c1, c2, p)
      case .closeSubpath: walk(start)
      }
    }
    let n = Double(path.elements.count)
    return total + n * n / 32
  }

  /// Counts `work` units of path work about to be done for `layer` against the frame's budget;
  /// refused past it, before anything is drawn.
  func chargePathWork(_ work: Double, for layer: Layer, in canvas: Canvas) throws(RenderingError) {
    canvas.dashTally.pathWork += work
    guard canvas.dashTally.pathWork <= Double(LayerRenderer.maximumPathWorkPerFrame) else {
      throw .tooMuchPathWork(layer: LayerLabel(layer))
    }
  }
}
