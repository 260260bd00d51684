import Flipbook

/// The GIF encoder's second pass alone (color mapping, frame comparison, choosing pixels, LZW
/// coding) on 60 prerendered 640 x 640 frames of the radar fixture, with a palette too small to
/// be exact (so the nearest-color cache and dithering run), plain and pipelined; and drawing a
/// 512 x 512 image into a canvas, which converts it to a Cairo surface once per canvas.
/// These time the unsafe-buffer loops of `GIF.ColorMapper` and the canvas's surface cache.
func gifEncodeBenchmark() {
  guard let scene = try? SceneFormat.load(contentsOf: "Fixtures/scenes/radar-pulses.json") else {
    print("gif-encode: run from the package folder (needs Fixtures/scenes/radar-pulses.json)")
    return
  }
  let frames = (0..<60).compactMap {
    try? scene.makeFrame(at: Double($0) / 25, scale: 2).makeBitmap()
  }
  let builder = GIF.PaletteBuilder()
  for frame in frames { builder.add(GIF.FrameHistogram(frame)) }
  for (name, colors) in [("exact", 256), ("64-colors", 64)] {
    let palette = builder.makePalette(maxColors: colors)
    for pipelined in [false, true] {
      var bytes = 0
      let ms = median(iterations: 5) { _ in
        bytes = 0
        guard
          let encoder = try? GIF.Encoder(
            width: frames[0].width, height: frames[0].height, palette: palette,
            options: GIF.Options(maxColors: colors), pipelined: pipelined,
            output: { bytes += $0.count })
        else { return }
        for frame in frames { try? encoder.add(frame, delay: 4) }
        try? encoder.finish()
      }
      let label = "gif-encode-\(name)\(pipelined ? "-pipelined" : "")"
      print(
        "\(label.padded(33))\(format(ms / Double(frames.count))) ms per 640x640 frame  (\(bytes) bytes)"
      )
    }
  }
}

func imageDrawBenchmark() {
  var bitmap = Bitmap(width: 512, height: 512)
  for i in stride(from: 0, to: bitmap.pixels.count, by: 4) {
    bitmap.pixels[i] = UInt8(i / 4 % 256)
    bitmap.pixels[i + 1] = UInt8(i / 2048 % 256)
    bitmap.pixels[i + 2] = 128
    bitmap.pixels[i + 3] = UInt8(128 + i / 4 % 128)
  }
  guard let canvas = try? Canvas(pixelWidth: 512, pixelHeight: 512) else { return }
  let ms = median(iterations: 200) { _ in canvas.draw(bitmap, in: Rect(0, 0, 512, 512)) }
  print("image-draw-512".padded(33) + "\(format(ms)) ms per draw of a 512x512 translucent image")
}
