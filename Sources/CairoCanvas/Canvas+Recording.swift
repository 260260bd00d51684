import Geometry

/// The Cairo calls a canvas made, as text: what the raw-Cairo benchmark floor
/// (`Benchmarks/cairo-replay.c`) replays to measure Cairo alone on the same work.
///
/// One operation per line: `save`, `restore`, `transform a b c d tx ty`, `clear r g b a`,
/// `path` (then `M x y`, `L x y`, `C x1 y1 x2 y2 x y`, `Z` lines and `end`) followed by
/// `fill r g b a evenOdd`, `stroke r g b a width cap join miter phase n d1 ... dn` or
/// `clip evenOdd`, `group`, `ungroup alpha`, and `image id w h x y width height` (with
/// `imagedata id w h` and hex rows the first time an image is drawn). Text is not recorded:
/// its floor is `Benchmarks/pango-labels.c`.
final class DisplayList {
  private(set) var lines: [String] = []
  private var images: [Bitmap: Int] = [:]

  func add(_ op: String, _ numbers: [Double] = []) {
    lines.append(numbers.isEmpty ? op : op + " " + numbers.map { "\($0)" }.joined(separator: " "))
  }

  func add(_ path: Path) {
    lines.append("path")
    var current = Point.zero
    for e in path.elements {
      switch e {
      case .move(let p):
        lines.append("M \(p.x) \(p.y)")
        current = p
      case .line(let p):
        lines.append("L \(p.x) \(p.y)")
        current = p
      case .quadCurve(let p, let c):
        let c1 = current + (c - current) * (2.0 / 3.0), c2 = p + (c - p) * (2.0 / 3.0)
        lines.append("C \(c1.x) \(c1.y) \(c2.x) \(c2.y) \(p.x) \(p.y)")
        current = p
      case .curve(let p, let c1, let c2):
        lines.append("C \(c1.x) \(c1.y) \(c2.x) \(c2.y) \(p.x) \(p.y)")
        current = p
      case .closeSubpath:
        lines.append("Z")
      }
    }
    lines.append("end")
  }

  func add(image: Bitmap, in rect: Rect) {
    let id: Int
    if let known = images[image] {
      id = known
    } else {
      id = images.count
      images[image] = id
      lines.append("imagedata \(id) \(image.width) \(image.height)")
      let hex = Array("0123456789abcdef".utf8)
      for y in 0..<image.height {
        var row = [UInt8]()
        row.reserveCapacity(image.width * 8)
        for x in 0..<image.width * 4 {
          let b = image.pixels[y * image.width * 4 + x]
          row.append(hex[Int(b >> 4)])
          row.append(hex[Int(b & 15)])
        }
        lines.append(String(decoding: row, as: UTF8.self))
      }
    }
    lines.append("image \(id) \(rect.minX) \(rect.minY) \(rect.width) \(rect.height)")
  }
}

extension Canvas {
  /// Starts recording the Cairo calls this canvas makes (for the benchmark floor).
  package func startRecording() {
    recording = DisplayList()
  }

  /// Stops recording and returns what was recorded, one operation per line.
  package func stopRecording() -> [String] {
    defer { recording = nil }
    return recording?.lines ?? []
  }
}
