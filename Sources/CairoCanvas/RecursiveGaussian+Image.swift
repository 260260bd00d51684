/// The recursive Gaussian over an image: eight columns, or eight rows, at a time, each set laid
/// out as interleaved lanes (`RecursiveGaussian.filter`) in a scratch buffer that stays in the
/// cache, so the image is read and written once per axis and never transposed whole.
extension RecursiveGaussian {
  /// How many `Lanes` the passes over a `width × height` image need as scratch.
  static func scratchCount(width: Int, height: Int) -> Int { 2 * Swift.max(width, height) }

  /// Blurs down each column of `image` (`width × height` floats, row by row; zero outside) in
  /// place. Eight neighbouring columns are one load per row, so they are read straight into
  /// the lanes; a last set narrower than eight is gathered one value at a time.
  func blurColumns(
    _ image: UnsafeMutablePointer<Float>, width: Int, height: Int,
    scratch: UnsafeMutablePointer<Lanes>
  ) {
    let input = scratch, output = scratch + height
    for x0 in stride(from: 0, to: width, by: 8) {
      let lanes = Swift.min(8, width - x0)
      for y in 0..<height {
        let row = image + y * width + x0
        if lanes == 8 {
          input[y] = UnsafeRawPointer(row).loadUnaligned(as: Lanes.self)
        } else {
          var v = Lanes()
          for i in 0..<lanes { v[i] = row[i] }
          input[y] = v
        }
      }
      filter(input, into: output, count: height)
      for y in 0..<height {
        let row = image + y * width + x0
        if lanes == 8 {
          UnsafeMutableRawPointer(row).storeBytes(of: output[y], as: Lanes.self)
        } else {
          for i in 0..<lanes { row[i] = output[y][i] }
        }
      }
    }
  }

  /// Blurs along each row of `image` (`width × height` floats, row by row; zero outside) in
  /// place. Eight rows at a time are turned into lanes (4 × 4 blocks transposed with vector
  /// shuffles), filtered, and turned back; a last set of fewer than eight rows, and columns past
  /// the last multiple of 4, a value at a time.
  func blurRows(
    _ image: UnsafeMutablePointer<Float>, width: Int, height: Int,
    scratch: UnsafeMutablePointer<Lanes>
  ) {
    let input = scratch, output = scratch + width
    let blocked = width / 4 * 4
    for y0 in stride(from: 0, to: height, by: 8) {
      let lanes = Swift.min(8, height - y0), top = image + y0 * width
      var x = 0
      if lanes == 8 {
        while x < blocked {
          func quad(_ i: Int) -> SIMD4<Float> {
            UnsafeRawPointer(top + i * width + x).loadUnaligned(as: SIMD4<Float>.self)
          }
          let low = transposed(quad(0), quad(1), quad(2), quad(3))
          let high = transposed(quad(4), quad(5), quad(6), quad(7))
          input[x] = Lanes(lowHalf: low.0, highHalf: high.0)
          input[x + 1] = Lanes(lowHalf: low.1, highHalf: high.1)
          input[x + 2] = Lanes(lowHalf: low.2, highHalf: high.2)
          input[x + 3] = Lanes(lowHalf: low.3, highHalf: high.3)
          x += 4
        }
      }
      for x in x..<width {
        var v = Lanes()
        for i in 0..<lanes { v[i] = top[i * width + x] }
        input[x] = v
      }
      filter(input, into: output, count: width)
      x = 0
      if lanes == 8 {
        while x < blocked {
          let o = output + x
          let low = transposed(o[0].lowHalf, o[1].lowHalf, o[2].lowHalf, o[3].lowHalf)
          let high = transposed(o[0].highHalf, o[1].highHalf, o[2].highHalf, o[3].highHalf)
          func store(_ i: Int, _ v: SIMD4<Float>) {
            UnsafeMutableRawPointer(top + i * width + x).storeBytes(of: v, as: SIMD4<Float>.self)
          }
          store(0, low.0)
          store(1, low.1)
          store(2, low.2)
          store(3, low.3)
          store(4, high.0)
          store(5, high.1)
          store(6, high.2)
          store(7, high.3)
          x += 4
        }
      }
      for x in x..<width {
        for i in 0..<lanes { top[i * width + x] = output[x][i] }
      }
    }
  }
}

/// The 4 × 4 block whose rows are `a`, `b`, `c`, `d`, transposed: element j holds every row's
/// value j. Two rounds of even/odd halves, which the compiler turns into shuffles.
@inline(__always)
private func transposed(
  _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>
) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
  let ab = SIMD8(lowHalf: a, highHalf: b), cd = SIMD8(lowHalf: c, highHalf: d)
  // (a0 a2 b0 b2 c0 c2 d0 d2) and (a1 a3 b1 b3 c1 c3 d1 d3)
  let even = SIMD8(lowHalf: ab.evenHalf, highHalf: cd.evenHalf)
  let odd = SIMD8(lowHalf: ab.oddHalf, highHalf: cd.oddHalf)
  return (even.evenHalf, odd.evenHalf, even.oddHalf, odd.oddHalf)
}
