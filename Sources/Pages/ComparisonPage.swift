/// The comparison report: expected, actual and their difference side by side, a swipe and a
/// flicker view, and for animations a frame stepper that opens on the frame that differs most.
/// One generator for every comparison page: `GoldenTesting`'s `.build/golden-failures/index.html`
/// (every failing golden of the run) and `flipbook diff -o report.html` (one comparison).
public enum ComparisonPage {
  /// One frame's three pictures (URLs: relative paths or `data:` URLs).
  public struct Frame: Sendable, Equatable {
    /// The expected picture, the actual one, and the difference heatmap.
    public var expected: String, actual: String, difference: String
    /// When the frame shows, in seconds (0 for a still image).
    public var time: Double
    /// Pixels that differ in this frame.
    public var differingPixels: Int

    /// Creates a frame.
    public init(
      expected: String, actual: String, difference: String, time: Double,
      differingPixels: Int
    ) {
      (self.expected, self.actual, self.difference) = (expected, actual, difference)
      (self.time, self.differingPixels) = (time, differingPixels)
    }
  }

  /// One comparison.
  public struct Item: Sendable, Equatable {
    /// Its name (the golden's path, or the two files compared).
    public var title: String
    /// What differs (the failure message).
    public var message: String
    /// The frames shown (one for a still image).
    public var frames: [Frame]
    /// The index in `frames` of the frame that differs most (shown first).
    public var worst: Int
    /// The frame count of the animation (frames beyond the shown ones are not stepped).
    public var frameCount: Int
    /// The animation's index of `frames[0]` (counted from 0): the shown frames are a window of
    /// a longer animation when it is not 0 or they are fewer than `frameCount`.
    public var firstFrame: Int

    /// Creates an item.
    public init(
      title: String, message: String, frames: [Frame], worst: Int, frameCount: Int,
      firstFrame: Int = 0
    ) {
      (self.title, self.message, self.frames, self.worst, self.frameCount) =
        (title, message, frames, worst, frameCount)
      self.firstFrame = firstFrame
    }
  }

  /// One item as an HTML section (pages are made of these; `GoldenTesting` keeps each
  /// failure's section in a file beside its pictures and joins them into the run's page).
  public static func section(_ item: Item) -> String {
    let worst = item.frames.indices.contains(item.worst) ? item.worst : 0
    let frame = item.frames.isEmpty ? nil : item.frames[worst]
    var html = "<section class=\"item\" data-worst=\"\(worst)\" "
    html += "data-first=\"\(item.firstFrame)\" data-count=\"\(item.frameCount)\">\n"
    html += "<h2>\(HTML.escape(item.title))</h2>\n"
    html += "<pre class=\"error\">\(HTML.escape(item.message))</pre>\n"
    guard let frame else { return html + "</section>\n" }
    html += """
      <p class="bar views" role="group" aria-label="View">
      <button class="view" data-view="side" aria-pressed="true">Side by side</button>
      <button class="view" data-view="swipe" aria-pressed="false">Swipe</button>
      <button class="view" data-view="flicker" aria-pressed="false">Flicker</button>
      </p>
      <div class="side">
      <figure><img class="expected checker" src="\(HTML.escape(frame.expected))" alt="expected">\
      <figcaption>expected</figcaption></figure>
      <figure><img class="actual checker" src="\(HTML.escape(frame.actual))" alt="actual">\
      <figcaption>actual</figcaption></figure>
      <figure><img class="difference checker" src="\(HTML.escape(frame.difference))" \
      alt="difference"><figcaption>difference (red: differs, yellow: anti-aliasing)</figcaption>\
      </figure>
      </div>
      <div class="swipe" hidden><div class="stack checker">
      <img class="under" alt="expected">
      <img class="over" alt="actual"></div>
      <input type="range" class="swiper" min="0" max="100" value="50" aria-label="Swipe">
      <p class="muted">left of the line: expected · right: actual</p></div>
      <div class="flicker" hidden><div class="stack checker">
      <img class="flick" alt="expected or actual"></div>
      <p class="muted">showing <b class="flick-label">expected</b></p></div>

      """
    if item.frameCount > 1 || item.frames.count > 1 {
      html += """
        <p class="bar stepper"><button class="previous" aria-label="Previous frame">◀</button>
        <input type="range" class="scrub" min="0" max="\(item.frames.count - 1)" \
        value="\(worst)" aria-label="Frame">
        <button class="next" aria-label="Next frame">▶</button>
        <span class="frame-label"></span></p>

        """
      if item.frames.count < item.frameCount {
        let last = item.firstFrame + item.frames.count - 1
        html +=
          "<p class=\"muted window\">showing frames \(item.firstFrame) to \(last) of "
          + "\(item.frameCount) (from 0), those about the one that differs most</p>\n"
      }
    }
    // Each picture once: the frame shown first is in the figures above (the script reads it
    // there), the hidden views take theirs from the script; a 3000 x 3000 report held each
    // picture three times (345 MB, 24 s to write).
    html += "<script type=\"application/json\" class=\"frames\">"
    html += HTML.scriptSafe(framesJSON(item.frames, leavingOut: worst))
    html += "</script>\n</section>\n"
    return html
  }

  /// A whole page of `sections` (from `section(_:)`), titled `title`; `summary` under the title.
  public static func page(title: String, summary: String, sections: [String]) -> String {
    var body = "<h1>\(HTML.escape(title))</h1>\n<p class=\"muted\">\(HTML.escape(summary))</p>\n"
    body += "<main>\n" + sections.joined() + "</main>\n"
    return HTML.page(title: title, style: style, body: body, script: script)
  }

  /// The page for `items`.
  public static func html(title: String, summary: String, items: [Item]) -> String {
    page(title: title, summary: summary, sections: items.map(section))
  }

  /// The frames as the page's script reads them (`e`, `a`, `d`: the pictures' URLs, `t` the
  /// time, `n` the differing pixels); frame `leftOut`'s pictures are empty, as the figures
  /// hold them.
  static func framesJSON(_ frames: [Frame], leavingOut leftOut: Int? = nil) -> String {
    func quoted(_ s: String) -> String {
      var out = "\""
      for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where c.value < 0x20: out += " "
        default: out.unicodeScalars.append(c)
        }
      }
      return out + "\""
    }
    let items = frames.enumerated().map { i, f in
      let (e, a, d) = i == leftOut ? ("", "", "") : (f.expected, f.actual, f.difference)
      return "{\"e\":\(quoted(e)),\"a\":\(quoted(a)),\"d\":\(quoted(d)),"
        + "\"t\":\(HTML.decimal(f.time, places: 6)),\"n\":\(f.differingPixels)}"
    }
    return "[" + items.joined(separator: ",") + "]"
  }

  static let style = """
    main { max-width: 1400px; margin: 0 auto; }
    .item { background: var(--card); border: 1px solid var(--line); border-radius: 12px;
      padding: 12px; margin: 12px 0; }
    .item h2 { font-size: 16px; margin: 0 0 6px; overflow-wrap: anywhere; }
    .bar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
    .side { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 8px; }
    figure { margin: 0; text-align: center; }
    figure img { display: block; margin: 0 auto; width: 100%; max-width: 480px; }
    figcaption { font-size: 13px; color: var(--muted); }
    .stack { position: relative; display: inline-block; line-height: 0; width: min(100%, 480px); }
    .stack img { width: 100%; }
    .stack .over { position: absolute; left: 0; top: 0; }
    .swiper { width: 100%; max-width: 480px; display: block; }
    .scrub { flex: 1; min-width: 120px; max-width: 480px; }
    pre.error { max-height: 12em; overflow: auto; }
    """

  static let script = """
    for (const item of document.querySelectorAll('.item')) {
      const data = item.querySelector('script.frames');
      if (!data) continue;
      const frames = JSON.parse(data.textContent);
      let index = Number(item.dataset.worst), showActual = false;
      const worst = index;
      const q = s => item.querySelector(s);
      // The frame shown first has its pictures in the figures only.
      const first = frames[index];
      first.e = first.e || q('.expected').getAttribute('src');
      first.a = first.a || q('.actual').getAttribute('src');
      first.d = first.d || q('.difference').getAttribute('src');
      function show() {
        index = Math.max(0, Math.min(frames.length - 1, index));
        const f = frames[index];
        q('.expected').src = f.e; q('.actual').src = f.a; q('.difference').src = f.d;
        q('.under').src = f.e; q('.over').src = f.a;
        q('.flick').src = showActual ? f.a : f.e;
        item.dataset.frame = String(index);
        const label = q('.frame-label');
        if (label) {
          // The animation's frame number, from 0 as the summary counts it.
          const n = Number(item.dataset.first || 0) + index;
          const count = Number(item.dataset.count || frames.length);
          label.textContent = 'frame ' + n + ' of 0–' + (count - 1) + ' · ' + f.t +
            ' s · ' + f.n + ' pixels differ' + (index === worst ? ' · differs most' : '');
          q('.scrub').value = index;
        }
      }
      function swipe() {
        const v = q('.swiper').value;
        q('.over').style.clipPath = 'inset(0 0 0 ' + v + '%)';
      }
      q('.swiper').addEventListener('input', swipe);
      swipe();
      let timer = null;
      for (const button of item.querySelectorAll('.view')) {
        button.addEventListener('click', () => {
          const view = button.dataset.view;
          for (const b of item.querySelectorAll('.view'))
            b.setAttribute('aria-pressed', String(b === button));
          for (const v of ['side', 'swipe', 'flicker']) q('.' + v).hidden = v !== view;
          item.dataset.view = view;
          if (timer) { clearInterval(timer); timer = null; }
          if (view === 'flicker') timer = setInterval(() => {
            showActual = !showActual;
            q('.flick-label').textContent = showActual ? 'actual' : 'expected';
            show();
          }, 500);
        });
      }
      if (q('.previous')) {
        q('.previous').addEventListener('click', () => { index--; show(); });
        q('.next').addEventListener('click', () => { index++; show(); });
        q('.scrub').addEventListener('input', () => { index = Number(q('.scrub').value); show(); });
      }
      show();
    }
    window.pageChecks.push(['every failure shows its message', () => {
      const items = Array.from(document.querySelectorAll('.item'));
      return items.every(i => i.querySelector('pre.error').offsetParent !== null &&
        i.querySelector('pre.error').textContent.length > 0) || 'a message is hidden';
    }]);
    window.pageChecks.push(['the views switch', () => {
      const item = document.querySelector('.item .view') && document.querySelector('.item');
      if (!item) return true;
      item.querySelector('[data-view=swipe]').click();
      const swipe = !item.querySelector('.swipe').hidden && item.querySelector('.side').hidden;
      item.querySelector('[data-view=flicker]').click();
      const flicker = !item.querySelector('.flicker').hidden;
      item.querySelector('[data-view=side]').click();
      return (swipe && flicker && !item.querySelector('.side').hidden) || 'views did not switch';
    }]);
    window.pageChecks.push(['an animation opens on the frame that differs most and steps', () => {
      const item = Array.from(document.querySelectorAll('.item'))
        .find(i => i.querySelector('.next'));
      if (!item) return true;
      const frames = JSON.parse(item.querySelector('script.frames').textContent);
      const most = frames.reduce((m, f, i) => f.n > frames[m].n ? i : m, 0);
      if (item.dataset.frame !== String(most))
        return 'opened on ' + item.dataset.frame + ', not ' + most;
      item.querySelector('.previous').click();
      const back = item.dataset.frame === String(Math.max(0, most - 1));
      item.querySelector('.next').click();
      return (back && item.dataset.frame === String(most)) || 'stepper did not step';
    }]);
    """
}
