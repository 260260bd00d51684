import Geometry

/// Median cut over a weighted color histogram, refined by k-means, both in Oklab.
enum Quantizer {
  struct Bin {
    var color: Oklab
    var weight: Float
  }

  /// At most `count` colors that represent `bins` well.
  static func palette(for bins: [Bin], count: Int) -> [RGBA8] {
    guard !bins.isEmpty else { return [RGBA8(0, 0, 0, 255)] }
    if bins.count <= count { return unique(bins.map { $0.color.srgb }) }
    var centroids = medianCut(bins, count: count)
    for _ in 0..<4 { centroids = kMeansStep(bins, centroids) }
    return unique(centroids.map(\.srgb))
  }

  static func unique(_ colors: [RGBA8]) -> [RGBA8] {
    var seen = Set<RGBA8>()
    return colors.filter { seen.insert($0).inserted }
  }

  /// Splits the box with the largest weighted variance at the weighted median of its widest
  /// axis until there are `count` boxes; returns their weighted means.
  static func medianCut(_ bins: [Bin], count: Int) -> [Oklab] {
    struct Box {
      var members: [Int]
      var error: Float
    }
    func stats(_ members: [Int]) -> (mean: Oklab, error: Float, axis: Int) {
      var w: Float = 0, sl: Float = 0, sa: Float = 0, sb: Float = 0
      for i in members {
        let b = bins[i]
        w += b.weight
        sl += b.weight * b.color.l
        sa += b.weight * b.color.a
        sb += b.weight * b.color.b
      }
      let mean = Oklab(l: sl / w, a: sa / w, b: sb / w)
      var vl: Float = 0, va: Float = 0, vb: Float = 0
      for i in members {
        let b = bins[i]
        vl += b.weight * (b.color.l - mean.l) * (b.color.l - mean.l)
        va += b.weight * (b.color.a - mean.a) * (b.color.a - mean.a)
        vb += b.weight * (b.color.b - mean.b) * (b.color.b - mean.b)
      }
      let axis = vl >= va && vl >= vb ? 0 : (va >= vb ? 1 : 2)
      return (mean, vl + va + vb, axis)
    }
    var boxes = [Box(members: Array(bins.indices), error: stats(Array(bins.indices)).error)]
    while boxes.count < count {
      guard let worst = boxes.indices.max(by: { boxes[$0].error < boxes[$1].error }),
        boxes[worst].members.count > 1, boxes[worst].error > 0
      else { break }
      let box = boxes.remove(at: worst)
      let axis = stats(box.members).axis
      func value(_ i: Int) -> Float {
        let c = bins[i].color
        return axis == 0 ? c.l : (axis == 1 ? c.a : c.b)
      }
      let sorted = box.members.sorted { value($0) < value($1) }
      let total = sorted.reduce(Float(0)) { $0 + bins[$1].weight }
      var running: Float = 0
      var cut = 1
      for (k, i) in sorted.enumerated() {
        running += bins[i].weight
        if running >= total / 2 {
          cut = Swift.min(Swift.max(k + 1, 1), sorted.count - 1)
          break
        }
      }
      let left = Array(sorted[..<cut]), right = Array(sorted[cut...])
      boxes.append(Box(members: left, error: stats(left).error))
      boxes.append(Box(members: right, error: stats(right).error))
    }
    return boxes.map { stats($0.members).mean }
  }

  /// One Lloyd iteration: every bin to its nearest centroid, centroids to their weighted means.
  static func kMeansStep(_ bins: [Bin], _ centroids: [Oklab]) -> [Oklab] {
    var sums = [(Float, Float, Float, Float)](repeating: (0, 0, 0, 0), count: centroids.count)
    for bin in bins {
      var best = 0
      var bestDistance = Float.infinity
      for (j, c) in centroids.enumerated() {
        let d = bin.color.distanceSquared(c)
        if d < bestDistance {
          bestDistance = d
          best = j
        }
      }
      let w = bin.weight
      sums[best].0 += w * bin.color.l
      sums[best].1 += w * bin.color.a
      sums[best].2 += w * bin.color.b
      sums[best].3 += w
    }
    return centroids.indices.map { j in
      let s = sums[j]
      return s.3 > 0 ? Oklab(l: s.0 / s.3, a: s.1 / s.3, b: s.2 / s.3) : centroids[j]
    }
  }
}
