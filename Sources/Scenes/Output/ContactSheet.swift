import CairoCanvas
import FileIO
import Geometry
import ImageEncoding

/// A contact sheet (filmstrip): frames in a grid, each with its caption (its time) under it, on
/// white: for documentation, and as a one-image golden of a whole animation.
public enum ContactSheet {
  /// The space around and between cells, in pixels.
  public static let padding = 8
  /// The height of a caption line under each frame, in pixels.
  public static let captionHeight = 18
  /// The most frames one sheet shows.
  public static let maximumFrames = 1000
  /// The narrowest a cell is, in pixels: wide enough for a caption such as `-10.125 s` (about
  /// 52 pixels), so that frames narrower than their captions do not have their captions drawn
  /// over one another; they are centred in their cells. A longer caption is cut at its cell.
  public static let minimumCellWidth = 56

  /// The width of a cell holding frames at most `frameWidth` pixels wide, in pixels.
  public static func cellWidth(frameWidth: Int) -> Int { Swift.max(frameWidth, minimumCellWidth) }

  /// Lays `frames` out `columns` to a row, left to right then top to bottom, each over its
  /// caption, at one pixel per pixel.
  ///
  /// - Throws: `CanvasError.sizeOutOfRange` when the sheet would be over the canvas limits.
  public static func make(
    _ frames: [(image: Bitmap, caption: String)], columns: Int
  ) throws -> Bitmap {
    precondition(columns >= 1, "a sheet needs at least one column")
    precondition(frames.count <= maximumFrames, "a sheet shows at most \(maximumFrames) frames")
    let widest = frames.map(\.image.width).max() ?? 0
    let cellWidth = cellWidth(frameWidth: widest)
    let inset = Double((cellWidth - widest) / 2)
    let cellHeight = (frames.map(\.image.height).max() ?? 0) + captionHeight
    let columns = Swift.max(1, Swift.min(columns, frames.count))
    let (width, height) = size(
      frameCount: frames.count, frameWidth: cellWidth, frameHeight: cellHeight - captionHeight,
      columns: columns)
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height)
    canvas.clear(to: .white)
    for (k, frame) in frames.enumerated() {
      let cellX = Double(padding + (k % columns) * (cellWidth + padding))
      let (x, y) = (cellX + inset, Double(padding + (k / columns) * (cellHeight + padding)))
      let rect = Rect(x, y, Double(frame.image.width), Double(frame.image.height))
      canvas.draw(frame.image, in: rect)
      canvas.stroke(
        Path(rect: Rect(x - 0.5, y - 0.5, rect.width + 1, rect.height + 1)),
        with: Color(white: 0.8), style: StrokeStyle(lineWidth: 1))
      let captionTop = y + Double(frame.image.height)
      canvas.withSavedState {
        canvas.clip(
          to: Path(rect: Rect(cellX, captionTop, Double(cellWidth), Double(captionHeight))))
        canvas.drawLabel(
          frame.caption,
          centeredAt: Point(
            cellX + Double(cellWidth) / 2, captionTop + Double(captionHeight) / 2 + 1),
          size: 11, color: Color(white: 0.25))
      }
    }
    return canvas.makeBitmap()
  }

  /// The pixel size of a sheet of `frameCount` frames of at most `frameWidth` x `frameHeight`,
  /// `columns` to a row (cells at least `minimumCellWidth` wide).
  public static func size(
    frameCount: Int, frameWidth: Int, frameHeight: Int, columns: Int
  ) -> (width: Int, height: Int) {
    let columns = Swift.max(1, Swift.min(columns, frameCount))
    let rows = (frameCount + columns - 1) / columns
    let width = padding + columns * (cellWidth(frameWidth: frameWidth) + padding)
    let height = padding + Swift.max(rows, 1) * (frameHeight + captionHeight + padding)
    return (width, height)
  }

  /// A sheet of `scene` at `times` (seconds, shown in the order given), captioned with the
  /// times, at the scene's scale or `scale` (rendered through a `ContactSheetSink`).
  public static func make(
    _ recipe: SceneRecipe, times: [Double], columns: Int, scale: Double? = nil
  ) throws -> Bitmap {
    let sink = ContactSheetSink(nil, columns: columns)
    _ = try Export.render(recipe, at: times, scale: scale, into: sink)
    return sink.sheet ?? Bitmap(width: 0, height: 0)
  }

  /// A sheet over the canvas limits (`Canvas.maximumSide`, `Canvas.maximumPixelCount`), refused
  /// before its frames are rendered.
  public struct TooLarge: Error, Hashable, Sendable, CustomStringConvertible {
    /// The frames asked for, and their pixel size.
    public var frameCount: Int, frameWidth: Int, frameHeight: Int
    /// The sheet's pixel size.
    public var width: Int, height: Int
    /// Whether the frames are shown at their own pixel size (a GIF's), so that no smaller scale
    /// can be asked for and none is suggested.
    public var framesAtOwnSize = false

    /// One line: the sheet's size, the limits and what to change, naming `sheet`'s options.
    public var description: String {
      "a sheet of \(frameCount) frames of \(frameWidth) x \(frameHeight) pixels would be "
        + "\(width) x \(height) pixels, over the limits (\(Canvas.maximumSide) pixels a side, "
        + "\(Canvas.maximumPixelCount / 1_000_000) megapixels): show fewer frames (--times), "
        + (framesAtOwnSize ? "or " : "at a smaller scale (--scale), or ")
        + "in other columns (--columns)"
    }
  }

  /// A time as a caption: `0 s`, `0.25 s`, `1.5 s` (shortest form, at most 3 decimals); a
  /// time under half a millisecond but not 0 as it is (`1e-07 s`), so that no frame of another
  /// instant is captioned `0 s`.
  public static func caption(_ time: Double) -> String {
    if time != 0, abs(time) < 0.0005 { return shortestNumber(time) + " s" }
    // Past 10^15 s no millisecond is held anyway (and time x 1000 overflowed past 1.8e305,
    // captioned "inf s"): the time as it is.
    guard abs(time) < 1e15 else { return shortestNumber(time) + " s" }
    let rounded = (time * 1000).rounded() / 1000
    if rounded == rounded.rounded() && abs(rounded) < 1e15 { return "\(Int(rounded)) s" }
    return "\(rounded) s"
  }
}

/// A contact sheet as a frame sink: the frames it gets, in order, each captioned with its time
/// (`ContactSheet.caption`), laid out by `ContactSheet.make(_:columns:)` and written as a PNG.
public final class ContactSheetSink: FrameSink {
  /// Where the sheet's PNG goes (`nil`: nowhere, only `sheet`).
  public let destination: ByteDestination?
  /// Frames per row.
  public let columns: Int
  /// The sheet, once `finish()` has run.
  public private(set) var sheet: Bitmap? = nil
  /// The sheet's PNG bytes, once written to a `.memory` destination.
  public private(set) var bytes: [UInt8] = []
  private var frames: [(image: Bitmap, caption: String)] = []

  /// A sheet sink writing its PNG to `destination`, `columns` frames to a row.
  public init(_ destination: ByteDestination?, columns: Int) {
    precondition(columns >= 1, "a sheet needs at least one column")
    self.destination = destination
    self.columns = columns
  }

  /// At most `ContactSheet.maximumFrames`.
  public var frameLimit: Int? { ContactSheet.maximumFrames }

  /// Takes the plan (see `FrameSink.begin(_:)`).
  ///
  /// - Throws: `ContactSheet.TooLarge` when the sheet the plan makes would be over the canvas
  ///   limits, before any frame is rendered.
  public func begin(_ plan: FramePlan) throws {
    frames = []
    let (width, height) = ContactSheet.size(
      frameCount: plan.frameCount, frameWidth: plan.pixelWidth, frameHeight: plan.pixelHeight,
      columns: columns)
    guard width <= Canvas.maximumSide, height <= Canvas.maximumSide,
      width * height <= Canvas.maximumPixelCount
    else {
      throw ContactSheet.TooLarge(
        frameCount: plan.frameCount, frameWidth: plan.pixelWidth, frameHeight: plan.pixelHeight,
        width: width, height: height)
    }
  }

  /// The output pass's per-frame work, on the rendering threads (see `FrameSink.frameWork()`).
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> Bitmap {
    { bitmap, _ in bitmap }
  }

  /// Takes a prepared frame, in frame order (see `FrameSink.add(_:_:)`).
  public func add(_ frame: Bitmap, _ info: FrameInfo) throws {
    frames.append((image: frame, caption: ContactSheet.caption(info.time)))
  }

  /// Completes and commits the output (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    let sheet = try ContactSheet.make(frames, columns: columns)
    self.sheet = sheet
    frames = []
    guard let destination else { return OutputSummary(storedFrameCount: 1, byteCount: 0) }
    let png = try PNG.encode(sheet)
    let output = try destination.makeOutput()
    try output.write(png)
    try output.commit()
    if destination == .memory { bytes = png }
    return OutputSummary(storedFrameCount: 1, byteCount: png.count)
  }
}
