/// How different two images may be and still match: a per-pixel perceptual threshold, whether
/// anti-aliased edge pixels are forgiven, and how many differing pixels a match allows.
///
/// ```swift
/// .exact                                   // every pixel identical
/// .antialiasing                            // pixelmatch's default: edges may move by a fraction
/// Tolerance(threshold: 0.2, maxDifferingRatio: 0.001)
/// ```
public struct Tolerance: Hashable, Sendable, CustomStringConvertible {
  /// The largest perceptual color difference a pixel may have and still count as equal, 0...1
  /// on pixelmatch's scale (0: any change counts; 0.1: the default; 1: nothing counts).
  public var threshold: Double
  /// Whether pixels that differ only because an edge moved by a fraction of a pixel are
  /// forgiven (pixelmatch's anti-aliasing detection).
  public var ignoresAntialiasing: Bool
  /// How many differing pixels a match allows (per frame for GIFs).
  public var maxDifferingPixels: Int
  /// The share of all pixels (0...1) that may differ in a match, or `nil` to use only
  /// `maxDifferingPixels`. A match needs only one of the two limits to hold.
  public var maxDifferingRatio: Double?
  /// Whether every byte counts, whatever the threshold: a pixel differs when any of its four
  /// bytes does, the color under a fully transparent pixel too (`.exact`). Otherwise a pixel
  /// differs only when its perceptual difference exceeds `threshold`, also at 0, as pixelmatch
  /// compares: two transparent pixels of other hidden colors look alike.
  public var comparesBytes = false

  /// Creates a tolerance; the defaults are `.antialiasing`'s.
  public init(
    threshold: Double = 0.1, ignoresAntialiasing: Bool = true, maxDifferingPixels: Int = 0,
    maxDifferingRatio: Double? = nil
  ) {
    precondition((0...1).contains(threshold), "threshold must be in 0...1, got \(threshold)")
    precondition(maxDifferingPixels >= 0, "maxDifferingPixels must not be negative")
    precondition(
      maxDifferingRatio.map { (0...1).contains($0) } ?? true, "maxDifferingRatio must be in 0...1")
    self.threshold = threshold
    self.ignoresAntialiasing = ignoresAntialiasing
    self.maxDifferingPixels = maxDifferingPixels
    self.maxDifferingRatio = maxDifferingRatio
  }

  /// Every pixel identical, byte for byte.
  public static let exact: Tolerance = {
    var tolerance = Tolerance(threshold: 0, ignoresAntialiasing: false)
    tolerance.comparesBytes = true
    return tolerance
  }()

  /// Colors within pixelmatch's default threshold (0.1) and anti-aliased edge pixels forgiven;
  /// no other pixel may differ. What golden tests of rendered animations want: a shape shifted
  /// by 0.3 px matches, a 10 x 10 area recolored by 40 levels does not.
  public static let antialiasing = Tolerance()

  /// Whether `differing` pixels out of `total` are within the limits.
  ///
  /// The share is compared as `differing / total <= ratio`, so exactly the ratio passes: 29 of
  /// 100 pixels is the same double as 0.29, where `0.29 * 100` rounds below 29.
  public func allows(differing: Int, of total: Int) -> Bool {
    if differing <= maxDifferingPixels { return true }
    if let ratio = maxDifferingRatio, total > 0 {
      return Double(differing) / Double(total) <= ratio
    }
    return false
  }

  public var description: String {
    var parts = [
      comparesBytes ? "byte for byte" : "threshold \(threshold)",
      ignoresAntialiasing ? "anti-aliasing forgiven" : "anti-aliasing counted",
      "at most \(maxDifferingPixels) differing pixels",
    ]
    if let maxDifferingRatio { parts.append("or \(maxDifferingRatio * 100)% of them") }
    return parts.joined(separator: ", ")
  }
}
