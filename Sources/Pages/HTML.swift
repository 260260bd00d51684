/// Small helpers for Flipbook's self-contained HTML pages (the batch gallery, the golden-failure
/// and diff report): escaping, numbers for people, and the pieces every page shares (its head,
/// its style, its self-test). The pages load nothing from the network and work opened from the
/// file system.
public enum HTML {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped: safe in text and in quoted attributes.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(c)
      }
    }
    return out
  }

  /// A relative file path as a URL path: each segment percent-encoded where a URL needs it
  /// (spaces, `#`, `?`, `%`, `:`, non-ASCII), slashes kept: a colon is encoded so that no
  /// file name can read as a URL scheme (`javascript:`). Escape the result for an attribute.
  public static func urlPath(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80 && (c.isLetter || c.isNumber || "-._~/!$&'()*+,;=@".contains(c)) {
        out.append(c)
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }

  /// Bytes for people: `812 B`, `12.3 KiB`, `4.5 MiB`.
  public static func bytes(_ n: Int) -> String {
    if n < 1024 { return "\(n) B" }
    let kib = Double(n) / 1024
    if kib < 1024 { return "\(decimal(kib, places: 1)) KiB" }
    return "\(decimal(kib / 1024, places: 1)) MiB"
  }

  /// Seconds for people: `2 s`, `0.25 s` (at most three decimals).
  public static func seconds(_ s: Double) -> String { "\(decimal(s, places: 3)) s" }

  /// `x` with at most `places` decimals and no trailing zeros (no locale, same everywhere).
  public static func decimal(_ x: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (x * scale).rounded()
    guard scaled.isFinite, scaled.magnitude < 1e15 else { return "\(x)" }
    let whole = Int64(scaled)
    let sign = whole < 0 ? "-" : ""
    let magnitude = whole.magnitude
    let integer = magnitude / UInt64(scale)
    var fraction = String(magnitude % UInt64(scale))
    fraction = String(repeating: "0", count: places - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return sign + String(integer) + (fraction.isEmpty ? "" : "." + fraction)
  }

  /// JSON text made safe inside a `<script>` element: `<`, `>` and `&` written as `\u003c`,
  /// `\u003e` and `\u0026`, and U+2028 and U+2029 as `\u2028` and `\u2029`, so no text in the
  /// data (an error quoting a key like `<!--<script>`, a file named `</script>`) can close the
  /// element or open a comment that swallows the rest of the page. These characters can only
  /// occur inside JSON strings, where the escapes read back as the same characters.
  public static func scriptSafe(_ json: String) -> String {
    var out = ""
    out.reserveCapacity(json.utf8.count)
    for c in json.unicodeScalars {
      switch c {
      case "<": out += "\\u003c"
      case ">": out += "\\u003e"
      case "&": out += "\\u0026"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// A whole page: doctype, a phone-friendly head with `title`, the shared style plus `style`,
  /// `body`, the shared self-test and `script`.
  public static func page(title: String, style: String, body: String, script: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escape(title))</title>
    <style>
    \(sharedStyle)
    \(style)
    </style>
    </head>
    <body>
    \(body)
    <script>
    \(selfTest)
    \(script)
    </script>
    </body>
    </html>

    """
  }

  /// The style every page shares: system fonts, readable on a phone, dark-mode aware.
  static let sharedStyle = """
    :root { color-scheme: light dark; --fg: #1d1d1f; --bg: #f5f5f7; --card: #fff; --muted: #6e6e73;
      --line: #d2d2d7; --bad: #c4161c; --badbg: #fde8e8; --warn: #8a5a00; --warnbg: #fff4d6;
      --accent: #0066cc; }
    @media (prefers-color-scheme: dark) { :root { --fg: #f5f5f7; --bg: #1d1d1f; --card: #2c2c2e;
      --muted: #a1a1a6; --line: #48484a; --bad: #ff6b6b; --badbg: #3a1d1d; --warn: #ffd479;
      --warnbg: #3a321d; --accent: #4da3ff; } }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 16px;
      font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
      color: var(--fg); background: var(--bg); }
    h1 { font-size: 22px; margin: 0 0 8px; }
    a { color: var(--accent); }
    .muted { color: var(--muted); }
    .error { color: var(--bad); background: var(--badbg); border-radius: 6px; padding: 6px 8px;
      margin: 6px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    .warning { color: var(--warn); background: var(--warnbg); border-radius: 6px; padding: 6px 8px;
      margin: 6px 0; overflow-wrap: anywhere; }
    .checker { background-color: #fff; background-image:
      linear-gradient(45deg, #ddd 25%, transparent 25%),
      linear-gradient(-45deg, #ddd 25%, transparent 25%),
      linear-gradient(45deg, transparent 75%, #ddd 75%),
      linear-gradient(-45deg, transparent 75%, #ddd 75%);
      background-size: 16px 16px; background-position: 0 0, 0 8px, 8px -8px, -8px 0; }
    button { font: inherit; padding: 6px 12px; border-radius: 8px; border: 1px solid var(--line);
      background: var(--card); color: var(--fg); cursor: pointer; min-height: 36px; }
    button[aria-pressed="true"] { background: var(--accent); color: #fff; }
    input[type=search] { font: inherit; padding: 8px 10px; border-radius: 8px; width: 100%;
      max-width: 420px; border: 1px solid var(--line); background: var(--card); color: var(--fg); }
    img, video, canvas { max-width: 100%; height: auto; image-rendering: pixelated; }
    """

  /// The self-test every page carries: opened with `#selftest` in its address, the page runs
  /// its checks (`window.pageChecks`, each `[name, function returning true or a reason]`) once
  /// every image has loaded or failed, and reports them in its title (`PASS n checks` or
  /// `FAIL ...`) and in a `<pre id="selftest">`, which a headless browser's `--dump-dom` shows.
  static let selfTest = """
    window.pageChecks = [];
    function runPageChecks() {
      const failures = [];
      const images = Array.from(document.images);
      images.forEach(img => { if (!img.complete || img.naturalWidth === 0)
        failures.push('image did not load: ' + img.getAttribute('src')); });
      for (const [name, check] of window.pageChecks) {
        let result;
        try { result = check(); } catch (e) { result = String(e); }
        if (result !== true) failures.push(name + ': ' + result);
      }
      const report = document.createElement('pre');
      report.id = 'selftest';
      report.textContent = failures.length ? 'FAIL\\n' + failures.join('\\n')
        : 'PASS ' + (window.pageChecks.length + images.length) + ' checks';
      document.body.appendChild(report);
      document.title = report.textContent.split('\\n').join(' | ');
    }
    if (location.hash === '#selftest') {
      window.addEventListener('load', () => setTimeout(runPageChecks, 50));
    }
    """
}

extension HTML {
  /// A `data:` URL of `bytes` with `type` (`image/png`): a picture inside the page itself.
  public static func dataURL(_ bytes: [UInt8], type: String) -> String {
    "data:\(type);base64," + base64(bytes)
  }

  /// RFC 4648 Base64 with padding.
  public static func base64(_ bytes: [UInt8]) -> String {
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i < bytes.count {
      let b0 = Int(bytes[i])
      let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
      let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
      out.append(table[b0 >> 2])
      out.append(table[((b0 & 3) << 4) | (b1 >> 4)])
      out.append(i + 1 < bytes.count ? table[((b1 & 15) << 2) | (b2 >> 6)] : UInt8(ascii: "="))
      out.append(i + 2 < bytes.count ? table[b2 & 63] : UInt8(ascii: "="))
      i += 3
    }
    return String(decoding: out, as: UTF8.self)
  }
}
