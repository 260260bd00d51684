import Flipbook

/// The frames a gallery page steps through, as one PNG contact sheet (`NAME.frames.png`):
/// every `step`-th frame, `step` chosen so that the sheet holds at most `pixelBudget` pixels of
/// frames (so memory stays bounded whatever the frame count), laid out as `ContactSheet` lays
/// frames out (each captioned with its time). It rides beside an animated output in a `TeeSink`.
final class FrameSheetSink: FrameSink {
  /// Frame pixels a sheet may hold: 4 million (16 MB while it is made), so that the sheet adds
  /// little to an animation's memory; longer or larger animations show every k-th frame.
  static let pixelBudget = 4_000_000

  let path: String
  private(set) var step = 1
  private(set) var columns = 1
  private(set) var kept = 0
  /// Whether the sheet is made: one frame with its caption and padding must fit a canvas
  /// (an 8000 x 8000 frame's sheet would be 8016 x 8034 pixels, over 64 megapixels, and failed
  /// the whole output); without it the page shows the animation without stepping through it.
  private(set) var isMade = true
  private var frames: [(image: Bitmap, caption: String)] = []

  init(path: String) { self.path = path }

  /// The frame step and columns for `count` frames of `width` x `height` pixels.
  static func layout(count: Int, width: Int, height: Int) -> (step: Int, kept: Int, columns: Int) {
    let perFrame = Swift.max(1, width * height)
    let most = Swift.max(1, Swift.min(ContactSheet.maximumFrames, pixelBudget / perFrame))
    let step = (count + most - 1) / most
    let kept = (count + step - 1) / step
    // Near square, and no wider than a canvas may be.
    var columns = 1
    while columns * columns < kept { columns += 1 }
    let cell = ContactSheet.cellWidth(frameWidth: width)
    let widest = (16384 - ContactSheet.padding) / (cell + ContactSheet.padding)
    return (step, kept, Swift.max(1, Swift.min(columns, widest)))
  }

  /// What the sheet holds beside the frames in flight, in bytes: the frames it keeps (RGBA),
  /// then the sheet's canvas, its picture and its PNG while it is made (about three times the
  /// sheet's pixels, four bytes each). Counted in `Export.encoderMemory`: 256 animations
  /// rendered at once in a batch held 256 sheets, 6 GB, and aborted.
  func encoderMemory(_ plan: FramePlan) -> Int {
    let (_, kept, columns) = Self.layout(
      count: plan.frameCount, width: plan.pixelWidth, height: plan.pixelHeight)
    let sheet = ContactSheet.size(
      frameCount: kept, frameWidth: plan.pixelWidth, frameHeight: plan.pixelHeight,
      columns: columns)
    return 4 * kept * plan.pixelWidth * plan.pixelHeight + 12 * sheet.width * sheet.height
  }

  func begin(_ plan: FramePlan) throws {
    (step, kept, columns) = Self.layout(
      count: plan.frameCount, width: plan.pixelWidth, height: plan.pixelHeight)
    let one = ContactSheet.size(
      frameCount: 1, frameWidth: plan.pixelWidth, frameHeight: plan.pixelHeight, columns: 1)
    isMade =
      one.width <= Canvas.maximumSide && one.height <= Canvas.maximumSide
      && one.width * one.height <= Canvas.maximumPixelCount
    if !isMade { kept = 0 }
    frames = []
  }

  func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Bitmap? {
    let (step, isMade) = (self.step, self.isMade)
    return { bitmap, info in isMade && info.index % step == 0 ? bitmap : nil }
  }

  func add(_ frame: Bitmap?, _ info: FrameInfo) throws {
    if let frame { frames.append((image: frame, caption: ContactSheet.caption(info.time))) }
  }

  func finish() throws -> OutputSummary {
    guard isMade else { return OutputSummary(storedFrameCount: 0, byteCount: 0) }
    let sheet = try ContactSheet.make(frames, columns: columns)
    frames = []
    let png = try PNG.encode(sheet, compression: .fast)
    try AtomicFile.write(png, to: path)
    return OutputSummary(storedFrameCount: kept, byteCount: png.count)
  }

  func abort() { frames = [] }
}
