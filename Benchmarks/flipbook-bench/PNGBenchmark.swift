import CPNGShim
import Flipbook

/// Frames of the fixture scenes, rendered once, for the encoder benchmarks.
func benchmarkFrames(scale: Double = 2, count: Int = 24) -> [Canvas] {
  var frames: [Canvas] = []
  for name in ["radar-pulses", "animation-kinds", "readme-animated"] {
    guard let scene = try? SceneFormat.load(contentsOf: "Fixtures/scenes/\(name).json") else {
      print("run the benchmarks from the repository's root (Fixtures/ not found)")
      return []
    }
    for i in 0..<count / 3 {
      if let frame = try? scene.makeFrame(at: Double(i) * 0.25, scale: scale) {
        frames.append(frame)
      }
    }
  }
  return frames
}

/// Cairo's own PNG writer against Flipbook's, on the same rendered frames (the time includes
/// reading the canvas out as a bitmap for Flipbook's, which Cairo's does internally).
func pngBenchmark() {
  let frames = benchmarkFrames()
  guard !frames.isEmpty else { return }
  var cairoBytes = 0
  let cairo = median(iterations: 5) { _ in
    cairoBytes = frames.reduce(0) { $0 + cairoPNGByteCount($1.makeBitmap()) }
  }
  print(
    "png-cairo                 \(format(cairo / Double(frames.count))) ms per frame  \(cairoBytes / frames.count) bytes per frame  (\(frames.count) frames, 2x)"
  )
  for compression in PNG.Compression.allCases {
    var bytes = 0
    let ms = median(iterations: 5) { _ in
      bytes = frames.reduce(0) {
        $0 + ((try? PNG.encode($1.makeBitmap(), compression: compression).count) ?? 0)
      }
    }
    print(
      "png-\(compression.rawValue.padded(22))\(format(ms / Double(frames.count))) ms per frame  \(bytes / frames.count) bytes per frame  (\(format(ms / cairo)) x Cairo's time, \(format(Double(bytes) / Double(cairoBytes))) x its bytes)"
    )
  }
}

/// The grid of libpng settings the PNG.Compression presets were chosen from.
func pngGridBenchmark() {
  let frames = benchmarkFrames()
  guard !frames.isEmpty else { return }
  let bitmaps = frames.map { $0.makeBitmap() }
  var cairoBytes = 0
  let cairo = median(iterations: 3) { _ in
    cairoBytes = frames.reduce(0) { $0 + cairoPNGByteCount($1.makeBitmap()) }
  }
  let filters: [(String, Int32)] = [
    ("none", 0x08), ("sub", 0x10), ("up", 0x20), ("paeth", 0x80), ("all", 0xF8),
  ]
  let strategies: [(String, Int32)] = [("default", 0), ("filtered", 1), ("rle", 3)]
  for level in [1, 2, 3, 6, 9] {
    for (fname, f) in filters {
      for (sname, st) in strategies {
        var bytes = 0
        let ms = median(iterations: 3) { _ in
          bytes = 0
          for b in bitmaps {
            b.pixels.withUnsafeBufferPointer { p in
              var total = 0
              _ = withUnsafeMutablePointer(to: &total) { counter in
                flipbook_png_encode(
                  p.baseAddress, Int32(b.width), Int32(b.height), b.width * 4, b.isOpaque ? 1 : 0,
                  Int32(level), f, st,
                  { ctx, _, n in
                    ctx!.assumingMemoryBound(to: Int.self).pointee += n; return 0
                  }, counter, nil, 0)
              }
              bytes += total
            }
          }
        }
        print(
          "level \(level) \(fname.padded(6)) \(sname.padded(9)) time \(format(ms / cairo)) x  bytes \(format(Double(bytes) / Double(cairoBytes))) x"
        )
      }
    }
  }
}
