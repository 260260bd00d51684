import FileIO
import Geometry
import Glibc

/// An MP4 (H.264) or WebM (VP9) video through the `ffmpeg` program.
///
/// ffmpeg starts with the first frame, told the exact frame rate (as a fraction), size and pixel
/// format; each frame is written to its standard input raw as it is rendered (so memory stays
/// bounded), and ffmpeg writes `AtomicFile.Stream.temporaryPath`, renamed over the target only
/// when it succeeded. Odd sizes are padded (right and bottom) to even with the background. H.264
/// is yuv420p (transparent pixels shown over black); VP9 keeps alpha (yuva420p) when the
/// background is transparent. ffmpeg is asked for bit-exact output without its version in the
/// file, so a render gives the same bytes whatever the number of jobs.
public final class VideoSink: FrameSink {
  /// The video formats.
  public enum Format: String, Hashable, Sendable, CaseIterable {
    /// `.mp4`: H.264 in MP4, yuv420p (plays everywhere).
    case mp4
    /// `.webm`: VP9 in WebM, with alpha (yuva420p) when the background is transparent.
    case webm

    /// The constant rate factor used when none is chosen: 18 for H.264 (visually lossless on UI
    /// frames), 24 for VP9 (about the same look).
    public var defaultCRF: Int { self == .mp4 ? 18 : 24 }
    /// The range of rate factors the encoder takes (0 best).
    public var crfRange: ClosedRange<Int> { self == .mp4 ? 0...51 : 0...63 }
  }

  /// Why a video could not be made.
  public enum VideoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No `ffmpeg` on the PATH.
    case ffmpegMissing
    /// ffmpeg failed; what it said.
    case ffmpeg(String)
    /// A WebM with transparency of frames over `maximumAlphaPixels` (width and height in
    /// pixels): ffmpeg's memory for it is refused before it starts.
    case tooLargeForAlpha(width: Int, height: Int)

    /// A one-line message.
    public var description: String {
      switch self {
      case .ffmpegMissing:
        return
          "writing .mp4 or .webm needs the ffmpeg program, which is not on the PATH: install it"
          + " (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg)"
      case .ffmpeg(let message): return "ffmpeg: \(message)"
      case .tooLargeForAlpha(let width, let height):
        return
          "a WebM with transparency takes at most \(VideoSink.maximumAlphaPixels) pixels a "
          + "frame, \(width) x \(height) is over it (ffmpeg's two VP9 encoders, colour and alpha, need about 135 bytes a "
          + "pixel: 8000 x 8000 asked for 8.6 GB); give the scene a background, or use .mp4 or a "
          + "smaller --scale"
      }
    }
  }

  /// The video file.
  public let path: String
  /// H.264 in MP4 or VP9 in WebM.
  public let format: Format
  /// The constant rate factor (quality: lower is better and larger), or `nil` for the format's
  /// default.
  public let crf: Int?
  /// Where to look for `ffmpeg`: a `PATH`-style list of folders, or `nil` for `PATH`.
  public let searchPath: String?

  private var plan: FramePlan? = nil
  private var output: AtomicFile.Stream? = nil
  private var child: ChildProcess? = nil
  private var frameCount = 0

  /// A video sink writing `path`; `format` `nil` takes it from the extension (`.webm`, else MP4).
  public init(path: String, format: Format? = nil, crf: Int? = nil, searchPath: String? = nil) {
    self.path = path
    self.format = format ?? (path.lowercased().hasSuffix(".webm") ? .webm : .mp4)
    self.crf = crf
    self.searchPath = searchPath
  }

  /// Whether the video keeps alpha: a WebM of a scene whose background is not opaque.
  func keepsAlpha(_ plan: FramePlan) -> Bool {
    format == .webm && (plan.background.map { $0.a < 255 } ?? true)
  }

  /// ffmpeg's bytes for `plan`'s frames (see `FrameSink.encoderMemory(_:)`): another process,
  /// but the same machine's memory. About 12 a pixel for H.264, 70 for VP9 (its look-ahead
  /// within `maximumLagBytes`) and 135 for VP9 with alpha (two encoders).
  public func encoderMemory(_ plan: FramePlan) -> Int {
    let perPixel = format == .mp4 ? 12 : keepsAlpha(plan) ? 135 : 70
    return plan.pixelWidth * plan.pixelHeight * perPixel
  }

  /// Finds ffmpeg and opens the output (see `FrameSink.begin(_:)`); ffmpeg starts with the
  /// first frame.
  public func begin(_ plan: FramePlan) throws {
    if keepsAlpha(plan), plan.pixelWidth * plan.pixelHeight > VideoSink.maximumAlphaPixels {
      throw VideoError.tooLargeForAlpha(width: plan.pixelWidth, height: plan.pixelHeight)
    }
    guard ChildProcess.find("ffmpeg", path: searchPath) != nil else {
      throw VideoError.ffmpegMissing
    }
    self.plan = plan
  }

  /// Each frame as the raw bytes ffmpeg reads: RGBA (alpha kept) or RGB over the background
  /// (transparent pixels over black), padded to even sizes.
  public func frameWork() throws -> @Sendable (Bitmap, FrameInfo) throws -> [UInt8] {
    guard let plan else { preconditionFailure("VideoSink.frameWork before begin") }
    let alpha = keepsAlpha(plan)
    let pad = alpha ? RGBA8(0, 0, 0, 0) : (plan.background ?? RGBA8(0, 0, 0, 255))
    return { bitmap, _ in VideoSink.raw(bitmap, alpha: alpha, pad: pad) }
  }

  static func raw(_ bitmap: Bitmap, alpha: Bool, pad: RGBA8) -> [UInt8] {
    let (w, h) = (bitmap.width, bitmap.height)
    let (W, H) = (w + w % 2, h + h % 2)
    let channels = alpha ? 4 : 3
    var out = [UInt8](repeating: 0, count: W * H * channels)
    let padding = alpha ? [pad.r, pad.g, pad.b, pad.a] : [pad.r, pad.g, pad.b]
    bitmap.pixels.withUnsafeBufferPointer { p in
      out.withUnsafeMutableBufferPointer { o in
        for y in 0..<H {
          for x in 0..<W {
            let j = (y * W + x) * channels
            guard x < w && y < h else {
              for c in 0..<channels { o[j + c] = padding[c] }
              continue
            }
            let i = (y * w + x) * 4
            if alpha {
              (o[j], o[j + 1], o[j + 2], o[j + 3]) = (p[i], p[i + 1], p[i + 2], p[i + 3])
            } else {
              // Over black: premultiply (rounded), as an opaque viewer shows it.
              let a = UInt32(p[i + 3])
              for c in 0..<3 { o[j + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255) }
            }
          }
        }
      }
    }
    return out
  }

  /// The frame rate as the fraction ffmpeg takes (`30/1`, `2997/100`, `60000/1001`): the
  /// simplest fraction within a billionth of `fps` (`simplestFraction`, at most 1,000,000 below
  /// the line), so that every frame's time is its own. A rate rounded to thousandths (1.0005 fps
  /// passed as 1.001) made ffmpeg drop frames from the file and play others at another speed
  /// (0.0105 as 0.011). It is given as the input's rate and the output's: from the input's
  /// alone, ffmpeg 5.1 timed an MP4's frames at 1/1 for 2001/2000 or 97573/97561.
  package static func rate(_ fps: Double) -> String {
    let (p, q) = simplestFraction(
      approximating: fps, maximumNumerator: Double(Int32.max), maximumDenominator: 1_000_000)
    return "\(Int(p))/\(Int(q))"
  }

  /// ffmpeg's arguments for a `plan` video written to `target`.
  /// The most pixels a frame of a WebM with transparency may have: 32,000,000. ffmpeg encodes
  /// the colour and the alpha with two VP9 encoders, about 135 bytes a pixel together even
  /// looking no frame ahead (8000 x 8000 asked for 8.6 GB, 13.5 GB at libvpx's default lag),
  /// so larger ones are refused before ffmpeg starts; opaque frames (one encoder, about 70
  /// bytes a pixel) take the frame size limit.
  public static let maximumAlphaPixels = 32_000_000

  /// How many frames libvpx looks ahead by default (its `lag_in_frames`).
  public static let defaultLagFrames = 25

  /// The most bytes of frames libvpx may hold ahead: 256 MiB (4:2:0 frames, 1.5 bytes a pixel,
  /// and as much again, 1 byte a pixel, for the alpha encoder's).
  public static let maximumLagBytes = 1 << 28

  /// The frames libvpx looks ahead for `width` x `height` frames: its default of 25, or fewer
  /// (down to 0) so that they fit `maximumLagBytes`.
  public static func lagFrames(width: Int, height: Int, alpha: Bool) -> Int {
    let frameBytes = width * height * (alpha ? 5 : 3) / 2
    return min(defaultLagFrames, maximumLagBytes / max(1, frameBytes))
  }

  func arguments(_ plan: FramePlan, target: String) -> [String] {
    let alpha = keepsAlpha(plan)
    let (w, h) = (plan.pixelWidth + plan.pixelWidth % 2, plan.pixelHeight + plan.pixelHeight % 2)
    var args = [
      "-hide_banner", "-loglevel", "error", "-y",
      "-f", "rawvideo", "-pixel_format", alpha ? "rgba" : "rgb24", "-video_size", "\(w)x\(h)",
      "-framerate", VideoSink.rate(plan.fps), "-i", "pipe:0", "-r", VideoSink.rate(plan.fps),
      "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact",
      "-vf", "scale=out_color_matrix=bt709:out_range=tv",
      "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range",
      "tv",
    ]
    switch format {
    case .mp4:
      args += [
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "\(crf ?? format.defaultCRF)",
        "-preset", "slow", "-tune", "animation", "-movflags", "+faststart", "-f", "mp4",
      ]
    case .webm:
      args += [
        "-c:v", "libvpx-vp9", "-pix_fmt", alpha ? "yuva420p" : "yuv420p",
        "-crf", "\(crf ?? format.defaultCRF)", "-b:v", "0", "-row-mt", "1",
      ]
      // libvpx holds up to 25 frames ahead (its lag buffers, one set for the colour and one for
      // the alpha): for an 8000 x 8000 frame that asked for more than 8 GB and failed. Large
      // frames are looked ahead fewer, within `maximumLagBytes`; smaller ones keep the default.
      let lag = VideoSink.lagFrames(width: w, height: h, alpha: alpha)
      if lag < VideoSink.defaultLagFrames { args += ["-lag-in-frames", "\(lag)"] }
      args += ["-f", "webm"]
    }
    return args + [target]
  }

  /// Pipes a frame to ffmpeg, in frame order, starting it with the first (see
  /// `FrameSink.add(_:_:)`).
  public func add(_ frame: [UInt8], _ info: FrameInfo) throws {
    if child == nil {
      guard let plan, let ffmpeg = ChildProcess.find("ffmpeg", path: searchPath) else {
        throw VideoError.ffmpegMissing
      }
      let output = try AtomicFile.Stream(path: path)
      self.output = output
      do {
        let started = try ChildProcess(ffmpeg, arguments(plan, target: output.temporaryPath))
        output.writtenBy(process: started.pid)
        child = started
      } catch let failure as ChildProcess.Failure {
        throw VideoError.ffmpeg(failure.description)
      }
    }
    do {
      try child?.write(frame)
    } catch let failure as ChildProcess.Failure {
      throw VideoError.ffmpeg(
        failure.description.replacingAll(output?.temporaryPath ?? path, with: path))
    }
    frameCount += 1
  }

  /// Waits for ffmpeg and renames its file over the target (see `FrameSink.finish()`).
  public func finish() throws -> OutputSummary {
    guard let child, let output else { throw VideoError.ffmpeg("no frame was rendered") }
    let message = child.finishWithMessage()
    output.helperEnded()
    // ffmpeg names the temporary file it was given: said as the output the user asked for.
    if let message {
      throw VideoError.ffmpeg(message.replacingAll(output.temporaryPath, with: path))
    }
    var info = stat()
    let bytes = stat(output.temporaryPath, &info) == 0 ? Int(info.st_size) : 0
    try output.commit()
    self.child = nil
    self.output = nil
    return OutputSummary(storedFrameCount: frameCount, byteCount: bytes)
  }

  /// Stops ffmpeg and removes its file (see `FrameSink.abort()`).
  public func abort() {
    child?.terminate()
    child = nil
    output?.helperEnded()
    output?.abort()
    output = nil
  }
}

extension String {
  /// `self` with every occurrence of `target` (not empty) replaced by `replacement`.
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
