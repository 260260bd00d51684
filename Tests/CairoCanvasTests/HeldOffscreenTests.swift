@testable import CairoCanvas
import Geometry
import Testing

/// Issue 18, eleventh pass: offscreens held while more is drawn count among the open groups'
/// pixels (`DashTally.openGroupPixels`, held within `LayerRenderer.maximumOpenGroupPixels`):
/// 250 layers each masked by the next peaked at 2 GB, twice the limit, with a mask's content
/// not counted while its mask drew, and a shadow's shape canvas was not counted while the
/// shadowed subtree drew in it.
@Suite struct HeldOffscreenTests {
  /// A mask's content group is held while the mask draws: both count, in every mode.
  @Test(arguments: MaskMode.allCases)
  func aMasksContentCountsWhileItsMaskDraws(mode: MaskMode) throws {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 25)
    var inContent = -1.0, inMask = -1.0
    canvas.drawMasked(
      mode: mode, { inContent = canvas.dashTally.openGroupPixels },
      mask: { inMask = canvas.dashTally.openGroupPixels })
    #expect(inContent == 1_000)
    #expect(inMask == 2_000)
    #expect(canvas.dashTally.openGroupPixels == 0)
  }

  /// A shadow's shape canvas is offered to `admit` before it is made and counted while its
  /// shape draws; a refusal there makes no canvas and draws nothing.
  @Test func aShapesCanvasIsAdmittedAndCountedWhileItDraws() throws {
    let canvas = try Canvas(pixelWidth: 40, pixelHeight: 25)
    var admitted: [Int] = [], inside = -1.0
    let outcome = canvas.makeAlphaMask(
      linear: .identity, origin: Point(x: 0, y: 0), margin: 5,
      admit: { admitted.append($0) }
    ) { shape in
      inside = shape.dashTally.openGroupPixels
      shape.fill(Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)), with: .black)
    }
    // The frame grown by the margin on every side: 50 x 35.
    #expect(admitted == [1_750])
    #expect(inside == 1_750)
    #expect(canvas.dashTally.openGroupPixels == 0)
    guard case .drawn(let mask, _) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(mask.width == 10 && mask.height == 10)

    struct Refused: Error {}
    var drew = false
    #expect(throws: Refused.self) {
      _ = try canvas.makeAlphaMask(
        linear: .identity, origin: Point(x: 0, y: 0), margin: 5,
        admit: { _ throws(Refused) in throw Refused() }
      ) { _ throws(Refused) in drew = true }
    }
    #expect(!drew)
  }

  /// A shape asked for at a lower density (its blur will run there) is drawn there: a shape
  /// of 2,000 x 400 pixels at a 20th is a canvas of 100 x 20, not 800,000 pixels.
  @Test func aShapeAskedForAtALowerDensityIsDrawnThere() throws {
    let canvas = try Canvas(pixelWidth: 100, pixelHeight: 100)
    let box = Rect(x: 0, y: 0, width: 2_000, height: 400)
    var admitted: [Int] = []
    let outcome = canvas.makeAlphaMask(
      linear: .identity, origin: Point(x: 0, y: 0), margin: 50_000, content: { box },
      cutsToContent: true, density: 0.05, admit: { admitted.append($0) }
    ) { shape in
      shape.fill(Path(rect: box), with: .black)
    }
    // The box grown by 2 pixels on every side, at a 20th: 2,004 x 404 is 101 x 21.
    #expect(admitted == [101 * 21])
    guard case .drawnAtDensity(let mask, let origin, let density, _) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(density == 0.05)
    // The canvas starts 2 pixels before the box: a 10th of a pixel at a 20th.
    #expect(mask.width == 101 && mask.height == 21)
    #expect(abs(origin.x + 0.1) < 1e-9 && abs(origin.y + 0.1) < 1e-9)
    #expect(mask[50, 10] == 255 && mask[0, 10] == 230 && mask[100, 10] == 26)
  }
}
