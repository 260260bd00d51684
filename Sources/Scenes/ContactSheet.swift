import CairoCanvas
import Geometry

/// A contact sheet (filmstrip): frames in a grid, each with its caption (its time) under it, on
/// white: for documentation, and as a one-image golden of a whole animation.
public enum ContactSheet {
  /// The space around and between cells, in pixels.
  public static let padding = 8
  /// The height of a caption line under each frame, in pixels.
  public static let captionHeight = 18
  /// The most frames one sheet shows.
  public static let maximumFrames = 1000

  /// Lays `frames` out `columns` to a row, left to right then top to bottom, each over its
  /// caption, at one pixel per pixel.
  ///
  /// - Throws: `CanvasError.sizeOutOfRange` when the sheet would be over the canvas limits.
  public static func make(_ frames: [(image: Bitmap, caption: String)], columns: Int) throws -> Bitmap {
    precondition(columns >= 1, "a sheet needs at least one column")
    precondition(frames.count <= maximumFrames, "a sheet shows at most \(maximumFrames) frames")
    let cellWidth = frames.map(\.image.width).max() ?? 0
    let cellHeight = (frames.map(\.image.height).max() ?? 0) + captionHeight
    let columns = Swift.max(1, Swift.min(columns, frames.count))
    let rows = (frames.count + columns - 1) / columns
    let width = padding + columns * (cellWidth + padding)
    let height = padding + Swift.max(rows, 1) * (cellHeight + padding)
    let canvas = try Canvas(pixelWidth: width, pixelHeight: height)
    canvas.clear(to: .white)
    for (k, frame) in frames.enumerated() {
      let x = Double(padding + (k % columns) * (cellWidth + padding))
      let y = Double(padding + (k / columns) * (cellHeight + padding))
      let rect = Rect(x, y, Double(frame.image.width), Double(frame.image.height))
      canvas.draw(frame.image, in: rect)
      canvas.stroke(Path(rect: Rect(x - 0.5, y - 0.5, rect.width + 1, rect.height + 1)), with: Color(white: 0.8), style: StrokeStyle(lineWidth: 1))
      canvas.drawLabel(
        frame.caption, centeredAt: Point(x + Double(cellWidth) / 2, y + Double(frame.image.height) + Double(captionHeight) / 2 + 1),
        size: 11, color: Color(white: 0.25))
    }
    return canvas.makeBitmap()
  }

  /// A sheet of `scene` at `times` (seconds, shown in the order given), captioned with the
  /// times, at the scene's scale or `scale`.
  public static func make(_ recipe: SceneRecipe, times: [Double], columns: Int, scale: Double? = nil) throws -> Bitmap {
    var frames: [(Bitmap, String)] = []
    var scene = try recipe.make()
    for time in times {
      if scene.hasTimeline && time < scene.modelTime { scene = try recipe.make() }
      frames.append((try scene.makeFrame(at: time, scale: scale).makeBitmap(), caption(time)))
    }
    return try make(frames.map { (image: $0.0, caption: $0.1) }, columns: columns)
  }

  /// A time as a caption: `0 s`, `0.25 s`, `1.5 s` (shortest form, at most 3 decimals).
  public static func caption(_ time: Double) -> String {
    let rounded = (time * 1000).rounded() / 1000
    if rounded == rounded.rounded() { return "\(Int(rounded)) s" }
    return "\(rounded) s"
  }
}
