import Geometry
import Glibc

/// PSNR between two equally sized bitmaps, over RGB.
public enum Fidelity {
  public static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
    var sum = 0.0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
      for c in 0..<3 {
        let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
        sum += d * d
      }
    }
    let mse = sum / Double(a.width * a.height * 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }
}
