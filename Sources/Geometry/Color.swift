/// An sRGB color with straight (not premultiplied) alpha, each component in 0...1.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  /// The red component, 0...1.
  public var red: Double
  /// The green component, 0...1.
  public var green: Double
  /// The blue component, 0...1.
  public var blue: Double
  /// The opacity, 0 (transparent) ... 1 (opaque).
  public var alpha: Double

  /// Creates a color from components in 0...1.
  @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
  }

  /// Creates a gray with `white` for each of red, green and blue.
  @inlinable public init(white: Double, alpha: Double = 1) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  /// Parses the scene file's hex forms: `#rgb`, `#rrggbb` or `#rrggbbaa`; `nil` otherwise.
  public init?(hex: String) {
    var digits = Array(hex.utf8)
    guard digits.first == UInt8(ascii: "#") else { return nil }
    digits.removeFirst()
    func value(_ c: UInt8) -> Int? {
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a")) + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
      default: return nil
      }
    }
    let nibbles = digits.compactMap(value)
    guard nibbles.count == digits.count else { return nil }
    switch nibbles.count {
    case 3:
      self.init(
        red: Double(nibbles[0] * 17) / 255, green: Double(nibbles[1] * 17) / 255,
        blue: Double(nibbles[2] * 17) / 255)
    case 6, 8:
      var bytes: [Double] = stride(from: 0, to: nibbles.count, by: 2).map {
        Double(nibbles[$0] * 16 + nibbles[$0 + 1]) / 255
      }
      if bytes.count == 3 { bytes.append(1) }
      self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes[3])
    default:
      return nil
    }
  }

  /// Opaque black, the default border color.
  public static let black = Color(white: 0)
  /// Opaque white.
  public static let white = Color(white: 1)
  /// Fully transparent black.
  public static let clear = Color(white: 0, alpha: 0)
  /// UIKit's `gray` (0.5 white).
  public static let gray = Color(white: 0.5)
  /// Opaque pure red.
  public static let red = Color(red: 1, green: 0, blue: 0)
  /// Opaque pure green.
  public static let green = Color(red: 0, green: 1, blue: 0)
  /// Opaque pure blue.
  public static let blue = Color(red: 0, green: 0, blue: 1)
  /// UIKit's `yellow` (1, 1, 0).
  public static let yellow = Color(red: 1, green: 1, blue: 0)

  /// The same color with its alpha multiplied by `factor`.
  public func multiplyingAlpha(by factor: Double) -> Color {
    Color(red: red, green: green, blue: blue, alpha: alpha * factor)
  }

  /// `[r, g, b, a]`, for messages.
  public var description: String { "[\(red), \(green), \(blue), \(alpha)]" }
}
