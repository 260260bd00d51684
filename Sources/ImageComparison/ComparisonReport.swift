import FileIO
import Geometry
import ImageEncoding
import Pages

/// Turns a comparison (expected and actual frames and their differences) into an item of the
/// comparison page (`Pages.ComparisonPage`), writing its pictures as PNG files or embedding
/// them: what `GoldenTesting`'s failure report and `flipbook diff -o report.html` share.
public enum ComparisonReport {
  /// Where an item's pictures go.
  public enum Pictures: Sendable {
    /// PNG files named `<prefix>expected-00000.png`, ... in `folder` (made if missing), linked
    /// from the page as `<urlPrefix><name>`.
    case files(folder: String, prefix: String, urlPrefix: String)
    /// `data:` URLs inside the page (one self-contained file).
    case embedded
  }

  /// The most frames an item steps through: a window of this many around the frame that
  /// differs most (all of them for shorter animations).
  public static let maximumFrames = 300

  /// The item for `title`, `message` and the frames compared (`times` in seconds, one per
  /// frame; the shortest of the three lists counts), opening on the frame with the most
  /// differing pixels.
  public static func item(
    title: String, message: String, expected: [Bitmap], actual: [Bitmap], diffs: [ImageDiff],
    times: [Double], pictures: Pictures
  ) throws -> ComparisonPage.Item {
    let count = Swift.min(expected.count, actual.count, diffs.count)
    guard count > 0 else {
      return ComparisonPage.Item(
        title: title, message: message, frames: [], worst: 0, frameCount: 0)
    }
    let worst =
      (0..<count).max { a, b in
        diffs[a].differingPixels < diffs[b].differingPixels
          || (diffs[a].differingPixels == diffs[b].differingPixels && a > b)
      } ?? 0
    let start = Swift.max(0, Swift.min(worst - maximumFrames / 2, count - maximumFrames))
    let shown = start..<Swift.min(count, start + maximumFrames)
    if case .files(let folder, _, _) = pictures { try AtomicFile.makeFolder(folder) }
    var frames: [ComparisonPage.Frame] = []
    for k in shown {
      func picture(_ bitmap: Bitmap, _ kind: String) throws -> String {
        let png = try PNG.encode(bitmap, compression: .fast)
        switch pictures {
        case .embedded: return HTML.dataURL(png, type: "image/png")
        case .files(let folder, let prefix, let urlPrefix):
          let name = prefix + kind + "-" + Self.number(k) + ".png"
          try AtomicFile.write(png, to: folder + "/" + name)
          return urlPrefix + HTML.urlPath(name)
        }
      }
      frames.append(
        ComparisonPage.Frame(
          expected: try picture(expected[k], "expected"), actual: try picture(actual[k], "actual"),
          difference: try picture(diffs[k].heatmap(over: expected[k]), "difference"),
          time: k < times.count ? times[k] : 0, differingPixels: diffs[k].differingPixels))
    }
    return ComparisonPage.Item(
      title: title, message: message, frames: frames, worst: worst - shown.lowerBound,
      frameCount: count, firstFrame: shown.lowerBound)
  }

  /// `00042` for 42.
  static func number(_ k: Int) -> String {
    let digits = String(k)
    return String(repeating: "0", count: Swift.max(0, 5 - digits.count)) + digits
  }
}
