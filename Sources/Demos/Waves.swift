import Flipbook
import Glibc

/// Article 002's pull-to-refresh waves (`BingoWaveRefreshView`): a sine and a cosine wave, each a
/// shape layer whose path is recomputed on every display-link tick, the phase moving the waves
/// sideways and the amplitude breathing between its limits.
public enum Waves {
  /// The largest amplitude factor (`maxVariable`).
  public static let maxVariable = 1.6
  /// The smallest amplitude factor (`minVariable`).
  public static let minVariable = 1.0
  /// How much the amplitude factor changes per tick (`minStepLength`).
  public static let minStepLength = 0.01
  /// How far the phase moves per tick, in radians: π/20.
  ///
  /// The article's `_speed` is 0.5/π ≈ 0.159; its waves never repeat exactly, since 2π/(0.5/π)
  /// ticks is irrational. π/20 ≈ 0.157 (1.3% slower, which no eye can tell) makes the 120 ticks
  /// of one amplitude cycle hold exactly three wave periods, so the GIF loops without a jump.
  public static let speed = Double.pi / 20
  /// The amplitude multiplier from the pull distance (`_times`, which the article caps at 7).
  public static let times = 7.0
  /// The width of the view, in points.
  public static let width = 320.0
  /// The height the list has been pulled down by, which the waves' view fills, in points.
  public static let pullHeight = 72.0

  /// The model the display link advances: the article's private variables.
  final class WaveState {
    var variable = minVariable
    var increase = true
    var offsetX = 0.0

    /// `configWaveAmplitude` and the phase step of one tick.
    func tick() {
      if increase { variable += minStepLength } else { variable -= minStepLength }
      // Compare with half a step of slack: 0.01 steps in binary drift off the exact limits.
      if variable <= minVariable + minStepLength / 2 { increase = true }
      if variable >= maxVariable - minStepLength / 2 { increase = false }
      offsetX += speed
    }
  }

  /// The closed wave shape: `amplitude * f(cycle * x + phase) + offsetY` for x = 0...width in
  /// 1 pt steps, then down to `bottom` and back, as the article's `configFirstWaveLayerPath`.
  public static func wavePath(
    _ f: (Double) -> Double, amplitude: Double, phase: Double, offsetY: Double, width: Double,
    bottom: Double
  ) -> Path {
    let cycle = 2 * Double.pi / width
    var path = Path()
    path.move(to: Point(0, offsetY))
    for x in 0...Int(width) {
      let y = amplitude * f(cycle * Double(x) + phase) + offsetY
      path.addLine(to: Point(Double(x), y))
    }
    path.addLine(to: Point(width, bottom))
    path.addLine(to: Point(0, bottom))
    path.closeSubpath()
    return path
  }

  /// The waves in the gap above a list pulled down by `pullHeight`, 2 s (one amplitude cycle) at
  /// 30 frames per second, every frame on a display-link tick. Layers: `firstWave`,
  /// `secondWave`, `list`.
  public static func makeScene() -> Scene {
    let height = pullHeight + 108
    return Scene(
      size: Size(width, height), scale: 1, duration: 2, fps: 30,
      backgroundColor: Color(hex: "#f2f4f7")
    ) { scene in

      let refreshView = Layer()
      refreshView.name = "refreshView"
      refreshView.frame = Rect(0, 0, width, pullHeight)
      refreshView.masksToBounds = true
      scene.addLayer(refreshView)

      let firstWaveLayer = ShapeLayer()
      firstWaveLayer.name = "firstWave"
      firstWaveLayer.frame = refreshView.bounds
      firstWaveLayer.fillColor = Color(hex: "#9cc9f5")
      let secondWaveLayer = ShapeLayer()
      secondWaveLayer.name = "secondWave"
      secondWaveLayer.frame = refreshView.bounds
      secondWaveLayer.fillColor = Color(hex: "#2f7fd8")?.multiplyingAlpha(by: 0.85)
      refreshView.addSublayer(firstWaveLayer)
      refreshView.addSublayer(secondWaveLayer)

      addList(to: scene, top: pullHeight)

      let state = WaveState()
      // The cosine a quarter period further on, so the two waves mirror each other.
      let forward = Double.pi / 2
      scene.onFrame { _ in
        let amplitude = state.variable * times
        let waveHeight = maxVariable * times
        // The waves' middle line, two peak heights above the list.
        let offsetY = pullHeight - 2 * waveHeight
        firstWaveLayer.path = wavePath(
          sin, amplitude: amplitude, phase: state.offsetX, offsetY: offsetY, width: width,
          bottom: pullHeight)
        secondWaveLayer.path = wavePath(
          { cos($0 + forward) }, amplitude: amplitude, phase: state.offsetX, offsetY: offsetY,
          width: width, bottom: pullHeight)
        state.tick()
      }
    }
  }

  /// The rows of the pulled-down list: a title and a subtitle each.
  public static let rows = [
    ("Bingo", "Waves follow the pull, redrawn on every tick"),
    ("Flipbook", "Core Animation's model, rendered by Cairo on Linux"),
    ("Pull to refresh", "Release to load the latest articles"),
  ]

  /// The pulled-down list under the waves: white rows with an avatar, a title and a subtitle
  /// (text layers; the subtitle is truncated with an ellipsis when it does not fit).
  static func addList(to scene: Scene, top: Double) {
    let list = Layer()
    list.name = "list"
    list.frame = Rect(0, top, width, scene.size.height - top)
    list.backgroundColor = .white
    let rowHeight = 54.0
    var y = 0.0
    var row = 0
    while y < list.bounds.height {
      let avatar = Layer()
      avatar.frame = Rect(14, y + 11, 32, 32)
      avatar.cornerRadius = 16
      avatar.backgroundColor = Color(hex: "#d5dbe3")
      let (titleText, subtitleText) = rows[row % rows.count]
      let title = TextLayer()
      title.frame = Rect(58, y + 9, width - 58 - 14, 18)
      title.string = titleText
      title.font = "Helvetica-Bold"
      title.fontSize = 14
      title.foregroundColor = Color(hex: "#2b3440")
      let subtitle = TextLayer()
      subtitle.frame = Rect(58, y + 28, width - 58 - 14, 16)
      subtitle.string = subtitleText
      subtitle.fontSize = 12
      subtitle.foregroundColor = Color(hex: "#7d8794")
      subtitle.truncationMode = .end
      let separator = Layer()
      separator.frame = Rect(58, y + rowHeight - 0.5, width - 58, 0.5)
      separator.backgroundColor = Color(hex: "#e3e7ec")
      for part in [avatar, title, subtitle, separator] { list.addSublayer(part) }
      y += rowHeight
      row += 1
    }
    scene.addLayer(list)
  }
}
