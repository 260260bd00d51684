import Pages
import SceneFiles

/// `OUTDIR/index.html`: the batch's gallery, made from its manifest alone. Every animation as
/// a card (its first output inline: images as `<img>`, videos as `<video>`; name, pixel size,
/// duration, frame count, bytes per format; warnings and errors in the card), a filter box, and
/// a click that opens the animation large with a frame stepper over its frame sheet. It links
/// outputs by relative path, embeds the manifest for its script, loads nothing from the
/// network, and works from the file system and on a phone. Render times are left out, so two
/// runs over the same inputs write the same page.
public enum GalleryPage {
  /// The page for `manifest`.
  public static func html(_ manifest: Manifest) -> String {
    let failed = manifest.animations.filter { $0.error != nil }.count
    let total = manifest.animations.reduce(0) { $0 + $1.outputs.reduce(0) { $0 + $1.bytes } }
    var body = "<header>\n<h1>Flipbook batch</h1>\n<p class=\"muted\" id=\"summary\">"
    body += "\(manifest.animations.count) animation\(manifest.animations.count == 1 ? "" : "s")"
    if failed > 0 { body += ", <span class=\"bad\">\(failed) failed</span>" }
    body += " · \(HTML.escape(HTML.bytes(total))) · formats "
    body += HTML.escape(manifest.formats.joined(separator: ", "))
    body += " · Flipbook \(HTML.escape(manifest.flipbookVersion))</p>\n"
    body += """
      <p><input type="search" id="filter" placeholder="Filter by name" aria-label="Filter by name">
      <label><input type="checkbox" id="only-errors"> only problems</label>
      <span class="muted" id="shown"></span></p>
      </header>
      <main id="cards">

      """
    for (index, entry) in manifest.animations.enumerated() {
      body += card(entry, index: index)
    }
    body += """
      </main>
      <div id="viewer" hidden role="dialog" aria-modal="true" aria-labelledby="viewer-title">
      <div class="panel">
      <p class="bar"><b id="viewer-title"></b>
      <button id="close" aria-label="Close">Close</button></p>
      <div id="viewer-preview"></div>
      <div id="stepper">
      <canvas id="frame" class="checker"></canvas>
      <p class="bar"><button id="previous" aria-label="Previous frame">◀</button>
      <input type="range" id="scrub" min="0" value="0" aria-label="Frame">
      <button id="next" aria-label="Next frame">▶</button>
      <span id="frame-label"></span></p>
      </div>
      <p id="no-frames" class="muted" hidden>No frame sheet for this animation.</p>
      </div>
      </div>
      <script type="application/json" id="manifest">
      """
    // The manifest for the script, as manifest.json holds it (its texts within
    // `Manifest.maximumTextLength`), without the measured times.
    var shown = manifest
    for a in shown.animations.indices {
      for o in shown.animations[a].outputs.indices {
        shown.animations[a].outputs[o].renderSeconds = 0
      }
    }
    body += HTML.scriptSafe(shown.json.serialized())
    body += "</script>"
    return HTML.page(
      title: "Flipbook batch: \(MessageText.counted(manifest.animations.count, "animation"))",
      style: style, body: body,
      script: script)
  }

  /// One animation's card.
  static func card(_ entry: Manifest.Entry, index: Int) -> String {
    let problem = entry.error != nil || !entry.warnings.isEmpty
    let failed = entry.error != nil ? " failed" : ""
    var html = "<article class=\"card\(failed)\" data-index=\"\(index)\""
    html += " data-name=\"\(HTML.escape(entry.name.lowercased()))\""
    html += " data-problem=\"\(problem)\">\n"
    if let shown = entry.outputs.first {
      let src = HTML.escape(HTML.urlPath(shown.file))
      let label = HTML.escape("Open \(entry.name) large")
      html += "<button class=\"preview checker\" aria-label=\"\(label)\">"
      if shown.format == "mp4" || shown.format == "webm" {
        html += "<video src=\"\(src)\" muted loop autoplay playsinline></video>"
      } else {
        html += "<img src=\"\(src)\" alt=\"\(HTML.escape(entry.name))\" loading=\"lazy\">"
      }
      html += "</button>\n"
    }
    html += "<h2>\(HTML.escape(entry.name))</h2>\n<p class=\"muted facts\">"
    var facts: [String] = []
    if let w = entry.width, let h = entry.height { facts.append("\(w)×\(h) px") }
    if let d = entry.duration { facts.append(HTML.seconds(d)) }
    if let n = entry.frameCount { facts.append(MessageText.counted(n, "frame")) }
    html += HTML.escape(facts.joined(separator: " · ")) + "</p>\n"
    if !entry.outputs.isEmpty {
      html += "<ul class=\"formats\">"
      for output in entry.outputs {
        html += "<li><a href=\"\(HTML.escape(HTML.urlPath(output.file)))\">"
        html += "\(HTML.escape(output.format))</a> \(HTML.escape(HTML.bytes(output.bytes)))</li>"
      }
      html += "</ul>\n"
    }
    // Shown with each line cut (`MessageText.lines`): a merged shard's error may be long.
    for warning in entry.warnings {
      html += "<p class=\"warning\">⚠ \(HTML.escape(MessageText.lines(warning)))</p>\n"
    }
    if let error = entry.error {
      html += "<p class=\"error\" role=\"alert\">✖ \(HTML.escape(MessageText.lines(error)))</p>\n"
    }
    html += "<p class=\"muted input\">\(HTML.escape(entry.input))</p>\n</article>\n"
    return html
  }

  static let style = """
    header { max-width: 1200px; margin: 0 auto; }
    .bad { color: var(--bad); font-weight: 600; }
    #cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 12px;
      max-width: 1200px; margin: 0 auto; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px;
      padding: 10px;
      min-width: 0; }
    .card.failed { border-color: var(--bad); }
    .card h2 { font-size: 15px; margin: 8px 0 2px; overflow-wrap: anywhere; }
    .card p { margin: 2px 0; }
    .preview { display: flex; align-items: center; justify-content: center; width: 100%; padding: 0;
      height: 200px; border-radius: 8px; overflow: hidden; }
    .preview img, .preview video { max-height: 200px; object-fit: contain; }
    .formats { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap;
      gap: 4px 12px; }
    .input { font-size: 12px; overflow-wrap: anywhere; }
    #viewer { position: fixed; inset: 0; background: rgba(0,0,0,.6); overflow: auto;
      padding: 16px; }
    #viewer .panel { background: var(--card); border-radius: 12px; padding: 12px; max-width: 960px;
      margin: 0 auto; }
    .bar { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
    #close { margin-left: auto; }
    #scrub { flex: 1; min-width: 120px; }
    #viewer-preview img, #viewer-preview video, #frame { display: block; margin: 8px auto;
      width: 100%; max-width: 640px; max-height: 70vh; object-fit: contain; }
    .hidden { display: none; }
    """

  static let script = """
    const manifest = JSON.parse(document.getElementById('manifest').textContent);
    const cards = Array.from(document.querySelectorAll('.card'));
    const filter = document.getElementById('filter');
    const onlyErrors = document.getElementById('only-errors');
    function applyFilter() {
      const words = filter.value.toLowerCase().split(/\\s+/).filter(w => w);
      let shown = 0;
      for (const card of cards) {
        const name = card.dataset.name;
        const ok = words.every(w => name.includes(w)) &&
          (!onlyErrors.checked || card.dataset.problem === 'true');
        card.classList.toggle('hidden', !ok);
        if (ok) shown++;
      }
      document.getElementById('shown').textContent = shown + ' of ' + cards.length + ' shown';
    }
    filter.addEventListener('input', applyFilter);
    onlyErrors.addEventListener('change', applyFilter);
    applyFilter();

    const viewer = document.getElementById('viewer');
    const canvas = document.getElementById('frame');
    const scrub = document.getElementById('scrub');
    const label = document.getElementById('frame-label');
    const sheetImage = new Image();
    let current = null, frame = 0;
    const PADDING = 8, CAPTION = 18;
    function drawFrame() {
      const entry = current, sheet = entry && entry.frames;
      if (!sheet) return;
      frame = Math.max(0, Math.min(sheet.count - 1, frame));
      scrub.value = frame;
      const w = entry.width, h = entry.height + CAPTION;
      const x = PADDING + (frame % sheet.columns) * (entry.width + PADDING);
      const y = PADDING + Math.floor(frame / sheet.columns) * (h + PADDING);
      canvas.width = w; canvas.height = h;
      const context = canvas.getContext('2d');
      context.imageSmoothingEnabled = false;
      context.clearRect(0, 0, w, h);
      if (sheetImage.complete && sheetImage.naturalWidth)
        context.drawImage(sheetImage, x, y, w, h, 0, 0, w, h);
      const index = frame * sheet.step;
      label.textContent = 'frame ' + (index + 1) + ' of ' + entry.frameCount + ' · ' +
        (Math.round(index / entry.fps * 1000) / 1000) + ' s';
      canvas.dataset.frame = String(frame);
    }
    sheetImage.addEventListener('load', drawFrame);
    function open(index) {
      current = manifest.animations[index];
      frame = 0;
      document.getElementById('viewer-title').textContent = current.name;
      const preview = document.getElementById('viewer-preview');
      preview.replaceChildren();
      const shown = current.outputs[0];
      if (shown) {
        const video = shown.format === 'mp4' || shown.format === 'webm';
        const element = document.createElement(video ? 'video' : 'img');
        if (video) {
          element.muted = true; element.loop = true; element.autoplay = true;
          element.controls = true;
        }
        element.src = encodeURI(shown.file).replace(/[?#:]/g, encodeURIComponent);
        element.className = 'checker';
        preview.appendChild(element);
      }
      const sheet = current.frames;
      document.getElementById('stepper').hidden = !sheet;
      document.getElementById('no-frames').hidden = !!sheet;
      if (sheet) {
        scrub.max = sheet.count - 1;
        sheetImage.src = encodeURI(sheet.file).replace(/[?#:]/g, encodeURIComponent);
        drawFrame();
      }
      viewer.hidden = false;
      document.getElementById('close').focus();
    }
    function close() { viewer.hidden = true; current = null; }
    for (const card of cards) {
      const button = card.querySelector('.preview');
      if (button) button.addEventListener('click', () => open(Number(card.dataset.index)));
    }
    document.getElementById('close').addEventListener('click', close);
    viewer.addEventListener('click', e => { if (e.target === viewer) close(); });
    document.getElementById('previous').addEventListener('click', () => { frame--; drawFrame(); });
    document.getElementById('next').addEventListener('click', () => { frame++; drawFrame(); });
    scrub.addEventListener('input', () => { frame = Number(scrub.value); drawFrame(); });
    document.addEventListener('keydown', e => {
      if (viewer.hidden) return;
      if (e.key === 'Escape') close();
      if (e.key === 'ArrowLeft') { frame--; drawFrame(); }
      if (e.key === 'ArrowRight') { frame++; drawFrame(); }
    });

    window.pageChecks.push(['every animation has a card', () =>
      cards.length === manifest.animations.length || cards.length + ' cards']);
    window.pageChecks.push(['errors show', () => {
      const failed = manifest.animations.filter(a => a.error).length;
      const shown = Array.from(document.querySelectorAll('.card .error'))
        .filter(e => e.offsetParent !== null).length;
      return shown === failed || shown + ' of ' + failed + ' errors visible';
    }]);
    window.pageChecks.push(['the filter hides what does not match', () => {
      if (!cards.length) return true;
      filter.value = cards[0].dataset.name + '-no-such-name';
      applyFilter();
      const none = cards.every(c => c.classList.contains('hidden'));
      filter.value = cards[0].dataset.name;
      applyFilter();
      const first = !cards[0].classList.contains('hidden');
      filter.value = ''; applyFilter();
      return (none && first) || 'filter failed';
    }]);
    window.pageChecks.push(['a click opens the viewer and the stepper steps', () => {
      const withSheet = cards.find(c => manifest.animations[c.dataset.index].frames);
      if (!withSheet) return true;
      withSheet.querySelector('.preview').click();
      if (viewer.hidden) return 'viewer did not open';
      const entry = manifest.animations[withSheet.dataset.index];
      document.getElementById('next').click();
      const stepped = canvas.dataset.frame === String(Math.min(1, entry.frames.count - 1));
      document.getElementById('previous').click();
      const back = canvas.dataset.frame === '0';
      const size = canvas.width === entry.width;
      if (location.search.indexOf('keep-open') < 0) close();
      return (stepped && back && size) || ('stepper: ' + stepped + back + size);
    }]);
    """
}
