"""Lottie fidelity and speed against the reference renderers (run by scripts/bench --lottie).

  lottie_compare.py [--samples DIR] [--flipbook BIN] [--bench BIN] [--frames N] [--limit N]
                    [--timing N] [--rounds N] [--report FILE] [--only SUBSTRING] [--cache DIR]
                    [--pairs DIR] [--cached-only] [--skip-fidelity] [--memory-gb G]
                    [--lottie2gif BIN] [--gif-tools LIST] [--gif-tools-max-mpx M]
                    [--timing-min-mpx M] [--timing-max-mpx M] [--speed-only]

BENCHMARKS.md's Lottie sections give the commands of each recorded run.

FIDELITY. For each Lottie file under DIR (default ~/.cache/flipbook/lottie-samples;
scripts/lottie-samples fills it), N frames (default 6) spread over [ip, op) are rendered at the
file's w x h by
  - rlottie (PyPI rlottie-python): premultiplied BGRA, converted here to premultiplied RGBA;
  - python-lottie (PyPI lottie) to SVG, rasterised by cairosvg: straight RGBA, premultiplied here;
  - Flipbook: `flipbook frame FILE --time T` with T = (frame - ip) / fr (Lottie's time mapping),
    on the frames the references agree on only (nothing else is judged), skipped with a note
    while `flipbook` does not read Lottie files.
rlottie renders whole frames only, so the sampled frames are whole frame numbers.

Two renders MATCH on a frame when at most MAX_FRACTION of the pixels differ, where a pixel
differs when the largest difference of its premultiplied R, G, B, A (0-255) from every pixel of
the other render's 3 x 3 neighbourhood around it, taken both ways, is above MAX_DIFF: a one
pixel shift of an anti-aliased edge is forgiven, a wrong colour, shape or place is not.
The references AGREE on a frame when rlottie's and python-lottie's renders match; Flipbook is
judged against rlottie on those frames only, and the target's figure counts only the files that
use no feature lottie.md leaves out (expressions, 3D layers, cameras, other effects: a column
names them per file) and no feature both references draw wrongly (reference_gaps).

TIMING AND GIFS (the first --timing files, default 10, that rlottie reads, of more than
--timing-min-mpx and at most --timing-max-mpx megapixels x frames (w x h x (op - ip) / 10^6);
--timing 0 for none), each file copied alone into a scratch folder (a file rlottie reports no
size or frames for is left out: lottie2gif writes an empty GIF of it):
  - end to end, --rounds rounds (default 3), the two tools alternating which goes first, the
    fastest round of each kept, wall time and CPU time (user + system, all threads):
    `lottie2gif in.json WxH` (pyrlottie's binary: every frame rlottie numbers, 0 to op - ip,
    at its fixed delay of 100 / fr centiseconds rounded) against `flipbook render in.json -o
    out.gif --quiet` (frames at i / fr for i = 0 ..< op - ip); both at the file's w x h;
    Flipbook on its default threads (the cores), lottie2gif on one;
  - time per frame, --rounds rounds alternating: rlottie-python's lottie_animation_render of
    every frame 0 ..< op - ip at w x h (a new buffer each; rlottie rasterises on its own
    thread pool) against `flipbook-bench lottie-frames` (the same frames, scale 1, one
    thread, a new canvas each); both exclude reading the file; the fastest round of each, in
    wall time and in CPU time (on a shared machine the CPU time is the steadier figure);
  - (not with --speed-only) once each, on files up to --gif-tools-max-mpx, the other GIF tools
    a user would pick (--gif-tools): rlottie-python's save_animation (Pillow's GIF writer, at
    most 50 fps), rlottie frames written as PNGs (un-premultiplied) then ffmpeg's palettegen +
    paletteuse, and python-lottie's `lottie_convert.py` (cairosvg frames, Pillow's writer);
  - (not with --speed-only) every GIF is decoded frame by frame (one frame in memory at a
    time) against rlottie's frames: for each rlottie frame n of the op - ip, the GIF frame
    showing at the fraction (n + 1/2) / (op - ip) of the GIF's whole duration (encoders merge
    identical frames and round delays) is compared, both composited over white (lottie2gif's
    background): FIDELITY
    is the PSNR in dB over all those pixels. Against the frames the GIF was made from
    (rlottie's for lottie2gif, rlottie-python and ffmpeg; Flipbook's own, a PNG-folder render,
    for Flipbook; none for python-lottie): TRANSPARENCY is the share of the source's fully
    transparent pixels the GIF leaves transparent; DARK EDGES, on the source's partly covered
    pixels (0 < alpha < 255) that the GIF draws opaque, how much darker the GIF's colour is
    than the straight colour (premultiplied / alpha), as a share of how much darker the
    premultiplied colour is (luminance, summed over all such pixels): 0 is no dark fringe, 1
    is the premultiplied colour drawn opaque (as over black).

Every renderer runs in a child process with a memory cap (--memory-gb, default 4, by
setrlimit(RLIMIT_AS)) and a time limit; a file a tool cannot handle within them is reported
with the reason and left out of the medians, and the harness holds at most one file's frames.
Prints a Markdown report (also written to --report).

The references' frames are cached (--cache, default ~/.cache/flipbook/lottie-refs; keyed by the
file's path, size, modification time and the sampled frames), so a second run costs only
Flipbook's frames (--cached-only skips the files whose references are not cached yet, for a
quick run over what an earlier run rendered). --pairs DIR writes, for each frame the references
agree on and Flipbook does not match, rlottie | Flipbook | difference side by side (a PNG per
frame) to look at.
"""
import argparse
import glob
import hashlib
import io
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

MAX_DIFF = 40  # levels of 255, premultiplied, after the 3 x 3 neighbourhood forgiveness
MAX_FRACTION = 0.005  # of the frame's pixels
REFERENCE_SECONDS = 60  # python-lottie can take very long on big files: give up on the file
TOOL_SECONDS = 300  # any one GIF tool or Flipbook command on one file
GIF_TOOLS = ("rlottie-python", "ffmpeg", "python-lottie")


def is_lottie(path):
    try:
        with open(path, "rb") as f:
            doc = json.loads(f.read())
    except Exception:
        return None
    keys = ("v", "fr", "ip", "op", "w", "h", "layers")
    if isinstance(doc, dict) and all(k in doc for k in keys):
        return doc
    return None


# Effect types (`ef[].ty`) lottie.md lists: tint, fill, tritone, drop shadow, Gaussian blur;
# 5 is an expression control (it draws nothing).
SUPPORTED_EFFECTS = {20, 21, 23, 25, 29, 5}


def unsupported_features(doc):
    """The features lottie.md does not list that the file uses: expressions, 3D layers, cameras,
    other effects. The fidelity target counts only files without any."""
    found = set()

    def visit(v, key=None):
        if isinstance(v, dict):
            if isinstance(v.get("x"), str) and "k" in v:
                found.add("expressions")
            if v.get("ddd") == 1 and "ty" in v:
                found.add("3D layers")
            if v.get("ty") == 13 and "ks" in v:
                found.add("cameras")
            if "ks" in v:  # a layer: its effects (an effect's own "ef" lists its parameters)
                for e in v.get("ef") or []:
                    if isinstance(e, dict) and e.get("ty") not in SUPPORTED_EFFECTS:
                        found.add("effect %s" % e.get("ty"))
            for k, x in v.items():
                if k != "ef":
                    visit(x, k)
        elif isinstance(v, list):
            for x in v:
                visit(x, key)

    visit(doc.get("layers", []))
    for asset in doc.get("assets") or []:
        visit(asset.get("layers", []) if isinstance(asset, dict) else [])
    return sorted(found)


# Effects lottie.md lists that change pixels (5, an expression control, draws nothing).
DRAWN_EFFECTS = {20, 21, 23, 25, 29}


def reference_gaps(doc):
    """Features lottie.md lists that neither reference draws as the format (and lottie-web)
    does, so that where the references agree they agree on the wrong picture. Frames of such
    files are counted apart from the target's figure. Each was checked on a hand-written file
    (BENCHMARKS.md):
      - merge paths other than plain merge (`mm` 2 to 5): both draw the paths unmerged, a
        subtraction as a union;
      - layer effects (drop shadow, Gaussian blur, fill, tint, tritone): both draw the layer
        without them;
      - a layer whose masks are all of mode none (`n`): both draw nothing of it, where
        lottie-web leaves such masks out (its MaskElement only masks when some mode is not
        `n`) and draws the layer whole (Issues/issue_1603.json);
      - time remapping (`tm`) to a time past the animation's duration (`op - ip` frames) or
        before 0: rlottie clamps the remapped frame to that range (its frameAtPos), and
        python-lottie's SVG export ignores `tm` (and `st`, and the in and out points of a
        precomposition's layers), where lottie-web shows the precomposition at `tm` x `fr`
        however far (success.json: both show the dots of its first second throughout)."""
    found = set()
    try:
        frames = float(doc["op"]) - float(doc["ip"])
        rate = float(doc["fr"])
    except (KeyError, TypeError, ValueError):
        frames, rate = float("inf"), 0.0

    def remap_values(tm):
        k = tm.get("k") if isinstance(tm, dict) else None
        if isinstance(k, (int, float)):
            return [k]
        values = []
        for key in k if isinstance(k, list) else []:
            if isinstance(key, dict):
                for v in (key.get("s"), key.get("e")):
                    v = v[0] if isinstance(v, list) and v else v
                    if isinstance(v, (int, float)):
                        values.append(v)
            elif isinstance(key, (int, float)):
                values.append(key)
        return values

    def visit_items(v):
        if isinstance(v, dict):
            if v.get("ty") == "mm" and v.get("mm", 1) != 1:
                found.add("merge paths (references draw them unmerged)")
            for x in v.values():
                visit_items(x)
        elif isinstance(v, list):
            for x in v:
                visit_items(x)

    def visit_layers(layers):
        for layer in layers or []:
            if not isinstance(layer, dict):
                continue
            visit_items(layer.get("shapes"))
            if any(v * rate > frames + 0.5 or v < 0 for v in remap_values(layer.get("tm"))):
                found.add("time remapping past the animation's end (rlottie clamps it)")
            masks = [m for m in layer.get("masksProperties") or [] if isinstance(m, dict)]
            if masks and all(m.get("mode") == "n" for m in masks):
                found.add("masks of mode none (references hide the layer)")
            for e in layer.get("ef") or []:
                if isinstance(e, dict) and e.get("ty") in DRAWN_EFFECTS and e.get("en", 1) != 0:
                    found.add("effects (references draw none)")

    visit_layers(doc.get("layers"))
    for asset in doc.get("assets") or []:
        if isinstance(asset, dict):
            visit_layers(asset.get("layers"))
    return sorted(found)


def premultiplied(rgba):
    a = rgba[..., 3:4].astype(np.float64) / 255
    out = rgba.astype(np.float64)
    out[..., :3] *= a
    return np.rint(out).astype(np.int16)


def render_rlottie(path, frames, w, h, ip):
    import rlottie_python as rl

    anim = rl.LottieAnimation.from_file(path)
    total = anim.lottie_animation_get_totalframe()
    images, seconds = [], []
    for f in frames:
        n = min(max(0, int(round(f - ip))), max(0, total - 1))
        start = time.perf_counter()
        raw = anim.lottie_animation_render(frame_num=n, width=w, height=h)
        seconds.append(time.perf_counter() - start)
        bgra = np.frombuffer(raw, np.uint8).reshape(h, w, 4)
        # rlottie's buffers are premultiplied BGRA (ARGB32 in memory): swap to RGBA, keep them
        # premultiplied.
        images.append(bgra[..., [2, 1, 0, 3]].astype(np.int16))
    return images, seconds


def render_python_lottie(path, frames, w, h):
    import cairosvg
    from lottie.exporters.svg import export_svg
    from lottie.parsers.tgs import parse_tgs

    anim = parse_tgs(path)
    images = []
    for f in frames:
        svg = io.StringIO()
        export_svg(anim, svg, f)
        png = cairosvg.svg2png(bytestring=svg.getvalue().encode(), output_width=w, output_height=h)
        rgba = np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))
        images.append(premultiplied(rgba))
    return images


class Outcome:
    """What a child process did: wall seconds, CPU seconds (user and system, its threads and
    children together), exit status, why it failed (None when it did not), standard output."""

    def __init__(self, seconds, cpu, code, reason, stdout):
        self.seconds, self.cpu, self.code = seconds, cpu, code
        self.reason, self.stdout = reason, stdout


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_limited(args, timeout, memory_bytes, cwd=None):
    """Runs `args` in its own process group under a memory cap (RLIMIT_AS) and a time limit
    (the group is killed when it runs over): an exploding tool fails alone, with a reason."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    start, cpu = time.perf_counter(), children_cpu()
    child = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=limit, start_new_session=True)
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        return Outcome(timeout, None, None, "took over %d s" % timeout, b"")
    seconds, cpu = time.perf_counter() - start, children_cpu() - cpu
    if child.returncode == 0:
        return Outcome(seconds, cpu, 0, None, out)
    text = err.decode(errors="replace")
    cap = "over the %g GiB memory cap" % (memory_bytes / 2 ** 30)
    if any(s in text for s in ("MemoryError", "bad_alloc", "Cannot allocate", "out of memory")):
        reason = cap
    elif child.returncode < 0:
        reason = "killed by signal %d (%s?)" % (-child.returncode, cap)
    else:
        lines = [x for x in text.strip().splitlines() if x.strip()]
        reason = (lines[-1] if lines else "exit %d" % child.returncode)[:160]
    return Outcome(seconds, cpu, child.returncode, reason, out)


def run_child(task, timeout, memory_bytes):
    """Runs a task of this script (`--child`) in a limited child process; its JSON answer, or
    (None, reason)."""
    r = run_limited([sys.executable, os.path.abspath(__file__), "--child", json.dumps(task)],
                    timeout, memory_bytes)
    if r.reason:
        return None, r.reason
    try:
        return json.loads(r.stdout.decode().strip().splitlines()[-1]), None
    except (ValueError, IndexError):
        return None, "no answer"


def cache_entry(cache, path, frames, w, h):
    """Where the references' frames of this file and these frames are cached."""
    st = os.stat(path)
    key = hashlib.sha256(repr((os.path.abspath(path), st.st_size, st.st_mtime_ns, frames, w, h))
                         .encode()).hexdigest()[:32]
    return os.path.join(cache, key + ".npz")


def child_references(task):
    """(child) rlottie's and python-lottie's frames of a file, written to the cache."""
    path, frames, w, h, ip, entry = (task[k] for k in ("path", "frames", "w", "h", "ip", "entry"))
    ref_a, seconds = render_rlottie(path, frames, w, h, ip)
    ref_b = render_python_lottie(path, frames, w, h)
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    tmp = entry + ".%d.tmp.npz" % os.getpid()
    np.savez_compressed(tmp, a=np.array(ref_a, np.uint8), b=np.array(ref_b, np.uint8),
                        s=np.array(seconds))
    os.replace(tmp, entry)
    return {}


def cached_references(cache, path, frames, w, h, ip, memory_bytes):
    """rlottie's and python-lottie's frames and rlottie's seconds per frame, from the cache when
    this file and these frames were rendered before, else rendered by a limited child (a
    failure is not cached): (a, b, seconds) or (None, reason)."""
    entry = cache_entry(cache, path, frames, w, h)
    if not os.path.exists(entry):
        task = {"kind": "references", "path": path, "frames": frames, "w": w, "h": h, "ip": ip,
                "entry": entry}
        _, why = run_child(task, REFERENCE_SECONDS, memory_bytes)
        if why:
            return None, why
    with np.load(entry) as z:
        return (list(z["a"].astype(np.int16)), list(z["b"].astype(np.int16)), list(z["s"])), None


def render_flipbook(binary, path, times, w, h, workdir, memory_bytes):
    """Flipbook's frames, or (None, reason) while it cannot read the file."""
    images = []
    for i, t in enumerate(times):
        out = os.path.join(workdir, "flipbook-%d.png" % i)
        r = run_limited([binary, "frame", path, "--time", repr(t), "-o", out], TOOL_SECONDS,
                        memory_bytes)
        if r.reason:
            return None, r.reason
        rgba = np.asarray(Image.open(out).convert("RGBA"))
        if rgba.shape[:2] != (h, w):
            return None, "frame is %dx%d, expected %dx%d" % (rgba.shape[1], rgba.shape[0], w, h)
        images.append(premultiplied(rgba))
    return images, None


def child_rlottie_frames(task):
    """(child) rlottie's time per frame over every frame 0 ..< op - ip at w x h, the file read
    before the clock starts."""
    anim = rlottie_animation(task["path"])
    w, h = anim.lottie_animation_get_size()
    count = max(1, min(task["count"], anim.lottie_animation_get_totalframe()))
    start, cpu = time.perf_counter(), time.process_time()
    for n in range(count):
        anim.lottie_animation_render(frame_num=n, width=w, height=h)
    return {"frame_ms": 1000 * (time.perf_counter() - start) / count,
            "cpu_ms": 1000 * (time.process_time() - cpu) / count, "frames": count}


def rlottie_animation(path):
    """rlottie-python's animation of `path`, refusing one rlottie does not read (it then
    reports no size and no frames rather than failing)."""
    import rlottie_python as rl

    anim = rl.LottieAnimation.from_file(path)
    w, h = anim.lottie_animation_get_size()
    if w <= 0 or h <= 0 or anim.lottie_animation_get_totalframe() <= 0:
        raise ValueError("rlottie does not read the file")
    return anim


def child_rlottie_gif(task):
    """(child) rlottie-python's own GIF export (Pillow's writer), as its README shows it."""
    import rlottie_python as rl

    rl.LottieAnimation.from_file(task["path"]).save_animation(task["out"])
    return {}


def child_rlottie_pngs(task):
    """(child) every frame 0 ..< op - ip as PNGs, un-premultiplied (straight RGBA), for ffmpeg."""
    anim = rlottie_animation(task["path"])
    w, h = anim.lottie_animation_get_size()
    count = max(1, min(task["count"], anim.lottie_animation_get_totalframe()))
    for n in range(count):
        raw = np.frombuffer(anim.lottie_animation_render(frame_num=n), np.uint8).reshape(h, w, 4)
        rgba = raw[..., [2, 1, 0, 3]].astype(np.float32)
        a = rgba[..., 3:4]
        rgba[..., :3] = np.where(a > 0, rgba[..., :3] * 255 / np.maximum(a, 1), 0)
        Image.fromarray(np.clip(np.rint(rgba), 0, 255).astype(np.uint8), "RGBA").save(
            os.path.join(task["dir"], "f%05d.png" % n), compress_level=1)
    return {}


def luminance(rgb):
    return rgb[..., 0] * 0.2126 + rgb[..., 1] * 0.7152 + rgb[..., 2] * 0.0722


def child_gif_stats(task):
    """(child) a GIF against rlottie's frames, one frame of each in memory at a time: fidelity
    (PSNR over white), transparency and dark edges as the module's comment defines them."""
    from PIL import ImageSequence

    anim = rlottie_animation(task["path"])
    w, h = anim.lottie_animation_get_size()
    count = max(1, min(task["count"], anim.lottie_animation_get_totalframe()))
    gif = Image.open(task["gif"])
    delays = [max(0, f.info.get("duration", 0)) for f in ImageSequence.Iterator(gif)]
    if not any(delays):
        delays = [1] * len(delays)
    total = float(sum(delays))
    frames = ImageSequence.Iterator(gif)
    k, end, shown = -1, 0.0, None
    sq, pixels, clear, kept_clear, dark, full, edges = 0.0, 0, 0, 0, 0.0, 0.0, 0
    for n in range(count):
        when = (n + 0.5) / count * total
        while shown is None or (end <= when and k + 1 < len(delays)):
            k += 1
            frame = frames[k]
            end += delays[k]
            g = np.asarray(frame.convert("RGBA"), dtype=np.float32)
            if g.shape[:2] != (h, w):
                g = np.asarray(frame.convert("RGBA").resize((w, h)), dtype=np.float32)
            shown = g
        raw = np.frombuffer(anim.lottie_animation_render(frame_num=n), np.uint8).reshape(h, w, 4)
        ref = raw[..., [2, 1, 0, 3]].astype(np.float32)  # premultiplied
        # The frames the GIF was made from, for transparency and edges: rlottie's, or the
        # tool's own (task["source"], straight RGBA PNGs in order) when it did not use rlottie.
        source = ref
        if task.get("source", "-") != "-":
            names = sorted(os.listdir(task["source"]))
            i = min(len(names) - 1, int((n + 0.5) / count * len(names)))
            straight = np.asarray(Image.open(os.path.join(task["source"], names[i]))
                                  .convert("RGBA"), dtype=np.float32)
            if straight.shape[:2] == (h, w):
                source = straight.copy()
                source[..., :3] *= straight[..., 3:4] / 255
        ra = ref[..., 3] / 255
        ga = shown[..., 3] / 255
        ref_white = ref[..., :3] + 255 * (1 - ra[..., None])
        gif_white = shown[..., :3] * ga[..., None] + 255 * (1 - ga[..., None])
        sq += float(((ref_white - gif_white) ** 2).sum())
        pixels += ref_white.size
        zero = source[..., 3] == 0
        clear += int(zero.sum())
        kept_clear += int((zero & (shown[..., 3] == 0)).sum())
        edge = (source[..., 3] > 0) & (source[..., 3] < 255) & (shown[..., 3] == 255)
        if edge.any():
            premul = source[edge][:, :3]
            straight = premul * 255 / source[edge][:, 3:4]
            dark += float((luminance(straight) - luminance(shown[edge][:, :3])).sum())
            full += float((luminance(straight) - luminance(premul)).sum())
            edges += int(edge.sum())
    mse = sq / max(1, pixels)
    return {
        "psnr": 99.0 if mse == 0 else float(10 * np.log10(255 ** 2 / mse)),
        "frames": len(delays),
        "transparent": kept_clear / clear if clear else None,
        # Only for a transparent GIF of a file with transparent pixels, and enough partly
        # covered ones.
        "dark_edges": (dark / full if kept_clear and full > 0 and edges >= 100
                       and task.get("source") != "-" else None),
        "edge_pixels": edges,
    }


CHILD_TASKS = {
    "references": child_references,
    "rlottie-reads": lambda task: rlottie_animation(task["path"]) and {},
    "rlottie-frames": child_rlottie_frames,
    "rlottie-gif": child_rlottie_gif,
    "rlottie-pngs": child_rlottie_pngs,
    "gif-stats": child_gif_stats,
}


def write_pair(folder, name, frame, reference, flipbook):
    """rlottie | Flipbook | differing pixels (red), each over a checkerboard, as one PNG."""
    h, w, _ = reference.shape
    d = np.maximum(neighbourhood_distance(reference, flipbook),
                   neighbourhood_distance(flipbook, reference)) > MAX_DIFF
    yy, xx = np.mgrid[0:h, 0:w]
    board = np.where(((yy // 8 + xx // 8) % 2)[..., None] == 0, 204, 255).astype(np.float64)

    def over(img):
        a = img[..., 3:4].astype(np.float64) / 255
        return img[..., :3] + board * (1 - a)

    diff = np.where(d[..., None], np.array([255.0, 0, 0]), over(flipbook) * 0.3 + 178)
    row = np.concatenate([over(reference), np.full((h, 4, 3), 0.0), over(flipbook),
                          np.full((h, 4, 3), 0.0), diff], axis=1)
    os.makedirs(folder, exist_ok=True)
    safe = name.replace("/", "_").replace(".json", "")
    Image.fromarray(np.clip(row, 0, 255).astype(np.uint8)).save(
        os.path.join(folder, "%s-f%g.png" % (safe, frame)))


def neighbourhood_distance(a, b):
    """Per pixel: min over b's 3 x 3 neighbourhood of the max channel difference from a."""
    h, w, _ = a.shape
    pad = np.pad(b, ((1, 1), (1, 1), (0, 0)), mode="edge")
    best = None
    for dy in range(3):
        for dx in range(3):
            d = np.abs(a - pad[dy:dy + h, dx:dx + w]).max(axis=2)
            best = d if best is None else np.minimum(best, d)
    return best


def differing_fraction(a, b):
    d = np.maximum(neighbourhood_distance(a, b), neighbourhood_distance(b, a))
    return float((d > MAX_DIFF).mean())


def matches(a, b):
    return differing_fraction(a, b) <= MAX_FRACTION


def time_file(path, opts, work, memory_bytes):
    """The timing and GIF figures of one file (a dict; "why" names what failed)."""
    doc = is_lottie(path)
    w, h = int(doc["w"]), int(doc["h"])
    count = max(1, int(round(float(doc["op"]) - float(doc["ip"]))))
    mpx = w * h * count / 1e6
    d = tempfile.mkdtemp(dir=work)
    shutil.copy(path, os.path.join(d, "in.json"))
    local = os.path.join(d, "in.json")
    row = {"file": os.path.relpath(path, opts.samples), "size": "%dx%d" % (w, h),
           "frames": count, "why": {}, "gif": {}, "seconds": {}, "cpu": {}, "frame_ms": {},
           "frame_cpu_ms": {},
           "clean": not unsupported_features(doc) and not reference_gaps(doc)}
    # A file rlottie does not read (it reports no size or frames) has no reference: lottie2gif
    # writes an empty GIF of it at once.
    _, why = run_child({"kind": "rlottie-reads", "path": local}, TOOL_SECONDS, memory_bytes)
    if why:
        row["why"]["rlottie"] = why
        shutil.rmtree(d, ignore_errors=True)
        return row
    lottie2gif = [opts.lottie2gif, "in.json", "%dx%d" % (w, h)]
    render = [os.path.abspath(opts.flipbook), "render", "in.json", "-o", "out.gif", "--quiet"]
    bench = [os.path.abspath(opts.bench), "lottie-frames", local, "1"]
    ends = {"lottie2gif": [], "flipbook": []}
    cpus = {"lottie2gif": [], "flipbook": []}
    per_frame = {"rlottie": [], "flipbook": []}
    per_frame_cpu = {"rlottie": [], "flipbook": []}
    for r in range(max(1, opts.rounds)):
        order = [("lottie2gif", lottie2gif), ("flipbook", render)]
        for name, args in order if r % 2 == 0 else order[::-1]:
            if name in row["why"]:
                continue
            out = run_limited(args, TOOL_SECONDS, memory_bytes, cwd=d)
            if out.reason:
                row["why"][name] = out.reason
            else:
                ends[name].append(out.seconds)
                cpus[name].append(out.cpu)
        steps = [("rlottie", None), ("flipbook", bench)]
        for name, args in steps if r % 2 == 0 else steps[::-1]:
            key = name + " frames"
            if key in row["why"] or (name == "flipbook" and not os.path.exists(opts.bench)):
                continue
            if args is None:
                answer, why = run_child({"kind": "rlottie-frames", "path": local, "count": count},
                                        TOOL_SECONDS, memory_bytes)
                value, cpu = (answer["frame_ms"], answer["cpu_ms"]) if answer else (None, None)
            else:
                out = run_limited(args, TOOL_SECONDS, memory_bytes)
                why, value, cpu = out.reason, None, None
                if not why:
                    words = out.stdout.decode().split()
                    value = float(words[words.index("frame") + 1])
                    cpu = float(words[words.index("cpu") + 1])
            if why:
                row["why"][key] = why
            else:
                per_frame[name].append(value)
                per_frame_cpu[name].append(cpu)
    row["seconds"] = {k: min(v) for k, v in ends.items() if v}
    row["cpu"] = {k: min(v) for k, v in cpus.items() if v}
    row["frame_ms"] = {k: min(v) for k, v in per_frame.items() if v}
    row["frame_cpu_ms"] = {k: min(v) for k, v in per_frame_cpu.items() if v}
    gifs = {"lottie2gif": "in.json.gif", "flipbook": "out.gif"}
    # The other GIF tools, once each (the slow ones on files up to a size).
    others = [] if opts.speed_only else opts.gif_tools
    if opts.gif_tools_max_mpx and mpx > opts.gif_tools_max_mpx:
        row["why"]["other GIF tools"] = "not run: %.0f megapixel-frames, over %g" % (
            mpx, opts.gif_tools_max_mpx)
        others = []
    if "rlottie-python" in others:
        start = time.perf_counter()
        _, why = run_child({"kind": "rlottie-gif", "path": local,
                            "out": os.path.join(d, "rlottie-python.gif")},
                           TOOL_SECONDS, memory_bytes)
        if why:
            row["why"]["rlottie-python"] = why
        else:
            row["seconds"]["rlottie-python"] = time.perf_counter() - start
            gifs["rlottie-python"] = "rlottie-python.gif"
    if "ffmpeg" in others and shutil.which("ffmpeg"):
        start = time.perf_counter()
        pngs = os.path.join(d, "pngs")
        os.makedirs(pngs)
        _, why = run_child({"kind": "rlottie-pngs", "path": local, "dir": pngs, "count": count},
                           TOOL_SECONDS, memory_bytes)
        if not why:
            out = run_limited(
                ["ffmpeg", "-v", "error", "-y", "-framerate", repr(float(doc["fr"])), "-i",
                 os.path.join(pngs, "f%05d.png"), "-vf",
                 "split[a][b];[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse",
                 "-loop", "0", os.path.join(d, "ffmpeg.gif")], TOOL_SECONDS, memory_bytes)
            why = out.reason
        shutil.rmtree(pngs, ignore_errors=True)
        if why:
            row["why"]["ffmpeg"] = why
        else:
            row["seconds"]["ffmpeg"] = time.perf_counter() - start
            gifs["ffmpeg"] = "ffmpeg.gif"
    if "python-lottie" in others and shutil.which("lottie_convert.py"):
        out = run_limited(["lottie_convert.py", "in.json", "python-lottie.gif"], TOOL_SECONDS,
                          memory_bytes, cwd=d)
        if out.reason:
            row["why"]["python-lottie"] = out.reason
        else:
            row["seconds"]["python-lottie"] = out.seconds
            gifs["python-lottie"] = "python-lottie.gif"
    # Flipbook's own frames (PNGs, straight RGBA), which its GIF's edges are measured against.
    own = os.path.join(d, "frames") + "/"
    if not opts.speed_only and "flipbook" not in row["why"]:
        out = run_limited([os.path.abspath(opts.flipbook), "render", "in.json", "-o", own,
                           "--quiet", "--png-compression", "fast"], TOOL_SECONDS, memory_bytes,
                          cwd=d)
        if out.reason:
            row["why"]["flipbook frames"] = out.reason
    for tool, name in gifs.items():
        full = os.path.join(d, name)
        if opts.speed_only or tool in row["why"] or not os.path.exists(full):
            continue
        task = {"kind": "gif-stats", "path": local, "gif": full, "count": count}
        if tool == "flipbook" and os.path.isdir(own):
            task["source"] = own
        elif tool == "python-lottie":
            task["source"] = "-"  # its own frames are not at hand: no edge figure
        stats, why = run_child(task, TOOL_SECONDS, memory_bytes)
        if why:
            row["why"][tool + " GIF"] = why
            continue
        stats["bytes"] = os.path.getsize(full)
        row["gif"][tool] = stats
    shutil.rmtree(d, ignore_errors=True)
    return row


def cell(value, fmt):
    return "-" if value is None else fmt % value


def timing_report(rows, tools):
    """The timing and GIF tables and their medians (Markdown lines)."""
    out = ["", "## Speed", "",
           "End to end: the fastest of the rounds of each tool, wall time and CPU time (user + "
           "system of all its threads); per frame: the fastest round's mean over the file's "
           "op - ip frames (rlottie's CPU time includes its rasteriser threads; Flipbook draws "
           "a frame on one thread). Ratios are Flipbook / reference.", "",
           "| file | size | frames | lottie2gif s | flipbook render s | wall ratio "
           "| CPU ratio | rlottie ms/frame | Flipbook ms/frame | per-frame ratio "
           "| per-frame CPU ratio |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    ratios = {"wall": ([], []), "cpu": ([], []), "frame": ([], []), "frame_cpu": ([], [])}

    def ratio(values, key):
        a, b = values.get("flipbook"), values.get(key)
        return a / b if a is not None and b else None

    for r in rows:
        s, f = r["seconds"], r["frame_ms"]
        found = {"wall": ratio(s, "lottie2gif"), "cpu": ratio(r.get("cpu", {}), "lottie2gif"),
                 "frame": ratio(f, "rlottie"),
                 "frame_cpu": ratio(r.get("frame_cpu_ms", {}), "rlottie")}
        for k, v in found.items():
            if v is not None:
                ratios[k][0].append(v)
                if r["clean"]:
                    ratios[k][1].append(v)
        out.append("| %s%s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["file"], "" if r["clean"] else " (*)", r["size"], r["frames"],
            cell(s.get("lottie2gif"), "%.2f"), cell(s.get("flipbook"), "%.2f"),
            cell(found["wall"], "%.2f"), cell(found["cpu"], "%.2f"),
            cell(f.get("rlottie"), "%.3f"), cell(f.get("flipbook"), "%.3f"),
            cell(found["frame"], "%.2f"), cell(found["frame_cpu"], "%.2f")))
    out += ["", "(*): the file uses a feature lottie.md does not list or one the references do "
            "not draw (rlottie draws less there: no effects, for one).", ""]
    names = {"wall": "Flipbook / lottie2gif end to end, wall time",
             "cpu": "Flipbook / lottie2gif end to end, CPU time",
             "frame": "Flipbook / rlottie time per frame, wall time",
             "frame_cpu": "Flipbook / rlottie time per frame, CPU time"}
    for k, name in names.items():
        for label, values in (("all files", ratios[k][0]), ("files without (*)", ratios[k][1])):
            if values:
                bound = 1.5 if k.startswith("frame") else 1
                out.append("- Median %s, %s: **%.2f** over %d files (%d at most %gx)." % (
                    name, label, statistics.median(values), len(values),
                    sum(1 for x in values if x <= bound), bound))
    failures = [(r["file"], k, v) for r in rows for k, v in sorted(r["why"].items())]
    if failures:
        out += ["", "Left out (tool: reason):", ""]
        out += ["- %s: %s: %s" % f for f in failures]

    out += ["", "## GIFs", "",
            "Per tool: bytes, PSNR over white against rlottie's frames (dB), share of rlottie's "
            "transparent pixels left transparent, dark-edge index (0 none, 1 premultiplied "
            "drawn opaque), seconds end to end (once; lottie2gif and Flipbook: the fastest "
            "round).", ""]
    out.append("| file | " + " | ".join(tools) + " |")
    out.append("|---|" + "---|" * len(tools))
    for r in rows:
        cells = []
        for t in tools:
            g = r["gif"].get(t)
            if not g:
                cells.append("-")
                continue
            cells.append("%d B, %.1f dB, %s, %s, %s s" % (
                g["bytes"], g["psnr"],
                cell(None if g["transparent"] is None else 100 * g["transparent"], "%.0f%%"),
                cell(g["dark_edges"], "%.2f"), cell(r["seconds"].get(t), "%.2f")))
        out.append("| %s%s | %s |" % (r["file"], "" if r["clean"] else " (*)", " | ".join(cells)))
    for label, chosen in (("all files", rows), ("files without (*)", [r for r in rows if r["clean"]])):
        out += gif_medians(label, chosen, tools)
    return out


def gif_medians(label, rows, tools):
    """Each GIF tool against Flipbook over `rows` (Markdown lines)."""
    out = ["", "Medians, %s, each tool against Flipbook on the files both wrote a GIF of "
           "(bytes: tool / Flipbook; dB: tool - Flipbook; both: files where the tool's GIF is "
           "both smaller and more faithful); transparency and dark edges over the tool's "
           "GIFs of files with transparent pixels:" % label, "",
           "| tool | files | median bytes ratio | median dB difference | smaller | more faithful "
           "| both | median transparency | median dark-edge index |",
           "|---|---|---|---|---|---|---|---|---|"]
    for t in tools:
        pairs = [(r["gif"][t], r["gif"]["flipbook"]) for r in rows
                 if t in r["gif"] and "flipbook" in r["gif"]]
        mine = [r["gif"][t] for r in rows if t in r["gif"]]
        clear = [g["transparent"] for g in mine if g["transparent"] is not None]
        dark = [g["dark_edges"] for g in mine if g["dark_edges"] is not None]
        if not pairs:
            continue
        ratio = statistics.median(a["bytes"] / b["bytes"] for a, b in pairs)
        diff = statistics.median(a["psnr"] - b["psnr"] for a, b in pairs)
        smaller = sum(1 for a, b in pairs if a["bytes"] < b["bytes"])
        better = sum(1 for a, b in pairs if a["psnr"] > b["psnr"])
        both = sum(1 for a, b in pairs if a["bytes"] < b["bytes"] and a["psnr"] > b["psnr"])
        out.append("| %s | %d | %.2f | %+.1f | %d | %d | %d | %s | %s |" % (
            t, len(pairs), ratio, diff, smaller, better, both,
            cell(100 * statistics.median(clear) if clear else None, "%.0f%%"),
            cell(statistics.median(dark) if dark else None, "%.2f")))
    return out


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="The module's docstring (python3 -c 'import lottie_compare; "
               "help(lottie_compare)' in Benchmarks/) says what each figure is.")
    parser.add_argument("--samples", default=os.path.expanduser("~/.cache/flipbook/lottie-samples"))
    parser.add_argument("--flipbook", default=".build/release/flipbook")
    parser.add_argument("--bench", default="",
                        help="flipbook-bench (default: beside --flipbook)")
    parser.add_argument("--frames", type=int, default=6, help="sampled frames a file")
    parser.add_argument("--limit", type=int, default=0, help="the first N files only")
    parser.add_argument("--timing", type=int, default=10, help="files timed (0: none)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds a file")
    parser.add_argument("--only", default="", help="files whose path contains this")
    parser.add_argument("--report", default=".build/bench/lottie-report.md")
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/flipbook/lottie-refs"))
    parser.add_argument("--pairs", default="", help="folder for rlottie | Flipbook pictures")
    parser.add_argument("--cached-only", action="store_true",
                        help="skip files whose references are not cached")
    parser.add_argument("--skip-fidelity", action="store_true",
                        help="no Flipbook frames against the references (timing and GIFs only)")
    parser.add_argument("--memory-gb", type=float, default=4,
                        help="memory cap of every child process (GiB)")
    parser.add_argument(
        "--lottie2gif", default=os.path.expanduser("~/.cache/flipbook/bin/lottie2gif"))
    parser.add_argument("--gif-tools", default=",".join(GIF_TOOLS),
                        help="other GIF tools timed once: " + ", ".join(GIF_TOOLS))
    parser.add_argument("--gif-tools-max-mpx", type=float, default=100,
                        help="the other GIF tools only on files of at most this many megapixels "
                             "x frames (w x h x (op - ip) / 10^6; 0: no bound)")
    parser.add_argument("--speed-only", action="store_true",
                        help="time lottie2gif and Flipbook only: no other GIF tools, no GIF "
                             "fidelity (for the largest files)")
    parser.add_argument("--timing-min-mpx", type=float, default=0,
                        help="time only files of more than this many megapixels x frames")
    parser.add_argument("--timing-max-mpx", type=float, default=0,
                        help="time only files of at most this many megapixels x frames "
                             "(0: no bound)")
    parser.add_argument("--child", default="", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.child:
        task = json.loads(opts.child)
        print(json.dumps(CHILD_TASKS[task["kind"]](task)))
        return
    opts.bench = opts.bench or os.path.join(os.path.dirname(opts.flipbook), "flipbook-bench")
    opts.gif_tools = [t for t in opts.gif_tools.split(",") if t in GIF_TOOLS]
    memory_bytes = int(opts.memory_gb * 2 ** 30)

    files = sorted(glob.glob(os.path.join(opts.samples, "**", "*.json"), recursive=True))
    files = [f for f in files if opts.only in f]
    if not files:
        sys.exit("no Lottie files in %s: run scripts/lottie-samples to fill it" % opts.samples)
    if opts.limit:
        files = files[: opts.limit]
    rows, flipbook_note, timed = [], None, []
    totals = {"sampled": 0, "agree": 0, "flipbook_judged": 0, "flipbook_match": 0,
              "clean_judged": 0, "clean_match": 0}
    rlottie_frame_seconds = []
    work = tempfile.mkdtemp(prefix="flipbook-lottie-")
    for path in files:
        doc = is_lottie(path)
        name = os.path.relpath(path, opts.samples)
        if doc is None:
            continue
        try:
            w, h = int(doc["w"]), int(doc["h"])
            ip, op, fr = float(doc["ip"]), float(doc["op"]), float(doc["fr"])
        except Exception:
            rows.append((name, "bad header", "", "", ""))
            continue
        if w <= 0 or h <= 0 or w * h > 4_000_000 or op <= ip or fr <= 0:
            rows.append((name, "skipped: size or range out of bounds", "", "", ""))
            continue
        n = max(1, opts.frames)
        frames = sorted({float(int(ip + (op - ip - 1) * k / max(1, n - 1))) for k in range(n)})
        if opts.cached_only and not os.path.exists(cache_entry(opts.cache, path, frames, w, h)):
            continue
        refs, why = cached_references(opts.cache, path, frames, w, h, ip, memory_bytes)
        if refs is None:
            rows.append((name, "skipped: a reference failed (%s)" % why, "", "", ""))
            print("%-60s skipped: %s" % (name, why), file=sys.stderr)
            continue
        ref_a, ref_b, seconds = refs
        mpx = w * h * max(1, round(op - ip)) / 1e6
        if len(timed) < opts.timing and not (opts.timing_max_mpx and mpx > opts.timing_max_mpx) \
                and mpx > opts.timing_min_mpx:
            timed.append(path)
        if opts.skip_fidelity:
            continue
        rlottie_frame_seconds += seconds
        agree = [matches(a, b) for a, b in zip(ref_a, ref_b)]
        totals["sampled"] += len(frames)
        totals["agree"] += sum(agree)
        fb_cell = ""
        judged = [i for i, ok in enumerate(agree) if ok]
        if os.path.exists(opts.flipbook) and not judged:
            fb_cell = "-"  # nothing to judge: Flipbook's frames are not rendered
        elif os.path.exists(opts.flipbook):
            # Only the frames the references agree on are rendered and judged.
            times = [(frames[i] - ip) / fr for i in judged]
            fb, why = render_flipbook(opts.flipbook, path, times, w, h, work, memory_bytes)
            if fb is None:
                fb_cell = "skipped"
                flipbook_note = flipbook_note or why
            else:
                ok = 0
                for k, i in enumerate(judged):
                    if matches(fb[k], ref_a[i]):
                        ok += 1
                    elif opts.pairs:
                        write_pair(opts.pairs, name, frames[i], ref_a[i], fb[k])
                totals["flipbook_judged"] += len(judged)
                totals["flipbook_match"] += ok
                if not unsupported_features(doc) and not reference_gaps(doc):
                    totals["clean_judged"] += len(judged)
                    totals["clean_match"] += ok
                fb_cell = "%d/%d" % (ok, len(judged))
        else:
            fb_cell = "skipped"
            flipbook_note = flipbook_note or "no Flipbook binary at %s" % opts.flipbook
        rows.append((name, "%d/%d" % (sum(agree), len(frames)),
                     "%.2f" % (1000 * statistics.mean(seconds)), fb_cell, "%dx%d" % (w, h),
                     ", ".join(unsupported_features(doc) + reference_gaps(doc)) or "-"))
        print("%-60s references agree %s  flipbook %s" % (name, rows[-1][1], fb_cell),
              file=sys.stderr)
        del ref_a, ref_b, refs

    out = ["# Lottie: Flipbook against rlottie where rlottie and python-lottie agree", ""]
    if not opts.skip_fidelity:
        out += fidelity_report(rows, totals, flipbook_note, rlottie_frame_seconds)

    if timed and os.path.exists(opts.lottie2gif) and os.path.exists(opts.flipbook):
        timing_rows = []
        for path in timed:
            row = time_file(path, opts, work, memory_bytes)
            timing_rows.append(row)
            print("%-60s timed: %s" % (row["file"], ", ".join(
                "%s %.2f s" % kv for kv in sorted(row["seconds"].items()))), file=sys.stderr)
        out += timing_report(timing_rows, ["flipbook", "lottie2gif"] + opts.gif_tools)
    elif opts.timing:
        out.append("")
        out.append("Timing: skipped (no file, or no lottie2gif at %s, or no flipbook at %s)."
                   % (opts.lottie2gif, opts.flipbook))
    shutil.rmtree(work, ignore_errors=True)
    text = "\n".join(out) + "\n"
    os.makedirs(os.path.dirname(opts.report) or ".", exist_ok=True)
    with open(opts.report, "w") as f:
        f.write(text)
    print(text)


def fidelity_report(rows, totals, flipbook_note, rlottie_frame_seconds):
    """The fidelity table and its totals (Markdown lines)."""
    out = ["Tolerance: a pixel differs when its premultiplied RGBA is more than %d levels "
           "from all of the other render's 3 x 3 neighbourhood (both ways); a frame matches "
           "when at most %.1f%% of its pixels differ." % (MAX_DIFF, 100 * MAX_FRACTION), ""]
    out.append("| file | references agree (frames) | rlottie ms/frame "
               "| Flipbook matches rlottie | size "
               "| features lottie.md does not list, or the references do not draw |")
    out.append("|---|---|---|---|---|---|")
    for r in rows:
        out.append("| " + " | ".join(r + ("",) * (6 - len(r))) + " |")
    out.append("")
    s = totals
    clean = sum(1 for r in rows if len(r) == 6 and r[5] == "-")
    out.append("%d files compared, %d of them using only the features lottie.md lists and the "
               "references draw." % (sum(1 for r in rows if len(r) == 6), clean))
    if s["sampled"]:
        out.append("References agree on %d of %d sampled frames (%.1f%%)." % (
            s["agree"], s["sampled"], 100 * s["agree"] / s["sampled"]))
    if s["flipbook_judged"]:
        out.append("Flipbook matches rlottie on %d of %d of those frames (%.1f%%)." % (
            s["flipbook_match"], s["flipbook_judged"],
            100 * s["flipbook_match"] / s["flipbook_judged"]))
        if s["clean_judged"]:
            out.append("On files that use only the features lottie.md lists and both references "
                       "draw (the target's files): %d of %d (%.1f%%)." % (
                           s["clean_match"], s["clean_judged"],
                           100 * s["clean_match"] / s["clean_judged"]))
    elif flipbook_note:
        out.append("Flipbook was not compared: `flipbook frame` does not read these files yet "
                   "(it said: %s). It is compared once the Lottie reader lands." % flipbook_note)
    if rlottie_frame_seconds:
        median = 1000 * statistics.median(rlottie_frame_seconds)
        out.append("rlottie: median %.2f ms per frame (the sampled frames)." % median)
    return out


if __name__ == "__main__":
    main()
