/// A picture a layer shows as its `contents`: a bitmap and, when it came from a file, its name.
///
/// The name is what `flipbook inspect` prints for `contents` and what a scene file's `contents`
/// key said; it plays no part in drawing.
public struct Image: Hashable, Sendable {
  /// The pixels.
  public var bitmap: Bitmap
  /// Where the image came from (a scene file's path string), if anywhere.
  public var name: String?

  /// Creates an image from pixels and an optional name.
  public init(_ bitmap: Bitmap, name: String? = nil) {
    self.bitmap = bitmap
    self.name = name
  }

  /// The width in pixels.
  public var width: Int { bitmap.width }
  /// The height in pixels.
  public var height: Int { bitmap.height }
}
