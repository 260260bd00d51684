"""Lottie fidelity and speed against the reference renderers (run by scripts/bench --lottie).

  lottie_compare.py [--samples DIR] [--flipbook BIN] [--frames N] [--limit N] [--timing N]
                    [--report FILE] [--only SUBSTRING] [--cache DIR] [--pairs DIR]
                    [--cached-only]

For each Lottie file under DIR (default ~/.cache/flipbook/lottie-samples; scripts/lottie-samples
fills it), N frames (default 6) spread over [ip, op) are rendered at the file's w x h by
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
names them per file).

Timing (the first --timing files, default 10, that Flipbook reads): lottie2gif (pyrlottie's
binary, which writes IN.json.gif) against `flipbook render FILE -o out.gif`: wall time, bytes,
and the PSNR of each GIF's decoded frames against rlottie's, composited over mid-grey (so a
missing transparency or dark edges cost), with whether the GIF is transparent; and rlottie's
time per frame.
Prints a Markdown report (also written to --report).

The references' frames are cached (--cache, default ~/.cache/flipbook/lottie-refs; keyed by the
file's path, size, modification time and the sampled frames), so a second run costs only
Flipbook's frames (--cached-only skips the files whose references are not cached yet, for a
quick run over what an earlier run rendered). --pairs DIR writes, for each frame the references agree on and Flipbook does
not match, rlottie | Flipbook | difference side by side (a PNG per frame) to look at.
"""
import argparse
import glob
import hashlib
import io
import json
import os
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
PER_FILE_SECONDS = 60  # python-lottie can take very long on big files: give up on the file


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


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
        `n`) and draws the layer whole (Issues/issue_1603.json)."""
    found = set()

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


def cache_entry(cache, path, frames, w, h):
    """Where the references' frames of this file and these frames are cached."""
    st = os.stat(path)
    key = hashlib.sha256(repr((os.path.abspath(path), st.st_size, st.st_mtime_ns, frames, w, h))
                         .encode()).hexdigest()[:32]
    return os.path.join(cache, key + ".npz")


def cached_references(cache, path, frames, w, h, ip):
    """rlottie's and python-lottie's frames and rlottie's seconds per frame, from the cache when
    this file and these frames were rendered before (a failure is not cached)."""
    entry = cache_entry(cache, path, frames, w, h)
    if os.path.exists(entry):
        with np.load(entry) as z:
            return list(z["a"].astype(np.int16)), list(z["b"].astype(np.int16)), list(z["s"])
    ref_a, seconds = render_rlottie(path, frames, w, h, ip)
    ref_b = render_python_lottie(path, frames, w, h)
    os.makedirs(cache, exist_ok=True)
    tmp = entry + ".tmp.npz"
    np.savez_compressed(tmp, a=np.array(ref_a, np.uint8), b=np.array(ref_b, np.uint8),
                        s=np.array(seconds))
    os.replace(tmp, entry)
    return ref_a, ref_b, seconds


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


def render_flipbook(binary, path, times, w, h, workdir):
    """Flipbook's frames, or (None, reason) while it cannot read the file."""
    images = []
    for i, t in enumerate(times):
        out = os.path.join(workdir, "flipbook-%d.png" % i)
        r = subprocess.run(
            [binary, "frame", path, "--time", repr(t), "-o", out],
            capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            first = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
            return None, first[:160]
        rgba = np.asarray(Image.open(out).convert("RGBA"))
        if rgba.shape[:2] != (h, w):
            return None, "frame is %dx%d, expected %dx%d" % (rgba.shape[1], rgba.shape[0], w, h)
        images.append(premultiplied(rgba))
    return images, None


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


def gif_fidelity(gif_path, lottie_path):
    """(PSNR in dB over mid-grey, transparent?) of a GIF against rlottie's frames: each of
    rlottie's N frames n (from ip) is compared with the GIF frame showing at the fraction n / N
    of the GIF's whole duration (by its delays: encoders merge identical frames, and round
    delays, lottie2gif to 30 ms at 30 fps), composited over grey, so that dark fringes and
    missing transparency both cost."""
    import rlottie_python as rl
    from PIL import ImageSequence

    anim = rl.LottieAnimation.from_file(lottie_path)
    w, h = anim.lottie_animation_get_size()
    total = anim.lottie_animation_get_totalframe()
    gif = Image.open(gif_path)
    transparent = "transparency" in gif.info
    shown, starts, t = [], [], 0.0
    for frame in ImageSequence.Iterator(gif):
        a = np.asarray(frame.convert("RGBA").resize((w, h)), dtype=np.float64)
        alpha = a[..., 3:4] / 255
        shown.append(a[..., :3] * alpha + 128 * (1 - alpha))
        starts.append(t)
        t += frame.info.get("duration", 0) / 1000
    errors = []
    k = 0
    for n in range(total):
        time_n = (n + 0.5) / total * t
        while k + 1 < len(starts) and starts[k + 1] <= time_n:
            k += 1
        raw = np.frombuffer(anim.lottie_animation_render(frame_num=n), np.uint8).reshape(h, w, 4)
        ref = raw[..., [2, 1, 0, 3]].astype(np.float64)  # premultiplied
        ref_on_grey = ref[..., :3] + 128 * (1 - ref[..., 3:4] / 255)
        errors.append(((ref_on_grey - shown[k]) ** 2).mean())
    mse = statistics.mean(errors) if errors else float("nan")
    psnr = float("inf") if mse == 0 else 10 * np.log10(255 ** 2 / mse)
    return psnr, transparent


def time_command(args, cwd):
    start = time.perf_counter()
    r = subprocess.run(args, cwd=cwd, capture_output=True, timeout=600)
    return time.perf_counter() - start, r.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", default=os.path.expanduser("~/.cache/flipbook/lottie-samples"))
    parser.add_argument("--flipbook", default=".build/release/flipbook")
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--timing", type=int, default=10)
    parser.add_argument("--only", default="")
    parser.add_argument("--report", default=".build/bench/lottie-report.md")
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/flipbook/lottie-refs"))
    parser.add_argument("--pairs", default="")
    parser.add_argument("--cached-only", action="store_true")
    parser.add_argument(
        "--lottie2gif", default=os.path.expanduser("~/.cache/flipbook/bin/lottie2gif"))
    opts = parser.parse_args()

    files = sorted(glob.glob(os.path.join(opts.samples, "**", "*.json"), recursive=True))
    files = [f for f in files if opts.only in f]
    if not files:
        sys.exit("no Lottie files in %s: run scripts/lottie-samples to fill it" % opts.samples)
    if opts.limit:
        files = files[: opts.limit]
    signal.signal(signal.SIGALRM, on_alarm)
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
        signal.alarm(PER_FILE_SECONDS)
        try:
            ref_a, ref_b, seconds = cached_references(opts.cache, path, frames, w, h, ip)
        except Timeout:
            rows.append((name, "skipped: references took over %d s" % PER_FILE_SECONDS, "", "", ""))
            continue
        except Exception as e:
            rows.append((name, "skipped: a reference failed (%s)" % type(e).__name__, "", "", ""))
            continue
        finally:
            signal.alarm(0)
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
            fb, why = render_flipbook(opts.flipbook, path, times, w, h, work)
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
                if len(timed) < opts.timing:
                    timed.append(path)
        else:
            fb_cell = "skipped"
            flipbook_note = flipbook_note or "no Flipbook binary at %s" % opts.flipbook
        rows.append((name, "%d/%d" % (sum(agree), len(frames)),
                     "%.2f" % (1000 * statistics.mean(seconds)), fb_cell, "%dx%d" % (w, h),
                     ", ".join(unsupported_features(doc) + reference_gaps(doc)) or "-"))
        print("%-60s references agree %s  flipbook %s" % (name, rows[-1][1], fb_cell),
              file=sys.stderr)

    out = ["# Lottie: Flipbook against rlottie where rlottie and python-lottie agree", ""]
    out.append("Tolerance: a pixel differs when its premultiplied RGBA is more than %d levels "
               "from all of the other render's 3 x 3 neighbourhood (both ways); a frame matches "
               "when at most %.1f%% of its pixels differ." % (MAX_DIFF, 100 * MAX_FRACTION))
    out.append("")
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
        out.append("rlottie: median %.2f ms per frame." % median)

    if timed and os.path.exists(opts.lottie2gif):
        out += ["", "GIFs: wall time, bytes, and PSNR of the decoded frames against rlottie's over "
                "mid-grey (T: the GIF has transparency).", "",
                "| file | lottie2gif s | flipbook render .gif s | lottie2gif bytes "
                "| Flipbook bytes | lottie2gif dB | Flipbook dB |",
                "|---|---|---|---|---|---|---|"]
        ratios = []
        for path in timed:
            d = tempfile.mkdtemp(dir=work)
            local = os.path.join(d, "in.json")
            shutil.copy(path, local)
            size_arg = "%dx%d" % (int(is_lottie(path)["w"]), int(is_lottie(path)["h"]))
            t_ref, rc_ref = time_command([opts.lottie2gif, "in.json", size_arg], d)
            render = [os.path.abspath(opts.flipbook), "render", "in.json", "-o", "out.gif",
                      "--quiet"]
            t_fb, rc_fb = time_command(render, d)
            if rc_ref == 0 and rc_fb == 0:
                ratios.append(t_fb / t_ref)
            def size(name):
                full = os.path.join(d, name)
                return str(os.path.getsize(full)) if os.path.exists(full) else "-"

            def quality(name):
                full = os.path.join(d, name)
                if not os.path.exists(full):
                    return "-"
                try:
                    psnr, transparent = gif_fidelity(full, local)
                except Exception as e:
                    return "(%s)" % type(e).__name__
                return "%.1f%s" % (psnr, " T" if transparent else "")
            out.append("| %s | %.2f%s | %.2f%s | %s | %s | %s | %s |" % (
                os.path.relpath(path, opts.samples), t_ref, "" if rc_ref == 0 else " (failed)",
                t_fb, "" if rc_fb == 0 else " (failed)", size("in.json.gif"), size("out.gif"),
                quality("in.json.gif"), quality("out.gif")))
        if ratios:
            out.append("")
            out.append("Median Flipbook / lottie2gif time: %.2f" % statistics.median(ratios))
    elif not timed:
        out.append("")
        out.append("Timing against lottie2gif: skipped (Flipbook read none of the files).")
    shutil.rmtree(work, ignore_errors=True)
    text = "\n".join(out) + "\n"
    os.makedirs(os.path.dirname(opts.report) or ".", exist_ok=True)
    with open(opts.report, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
