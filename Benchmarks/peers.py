"""GIF peers and fidelity for scripts/bench.

  peers.py photo OUT.png                 writes the photographic test image (seeded, deterministic)
  peers.py pillow FRAMES/ FPS OUT.gif    encodes PNG frames with Pillow (optimize=True)
  peers.py fidelity FRAMES/ A.gif ...    PSNR (mean, worst) and SSIM (mean) of each GIF's frames,
                                         composited as a viewer shows them, against FRAMES/
"""
import glob
import json
import sys

import numpy as np
from PIL import Image, ImageSequence


def photo(path):
    rng = np.random.default_rng(7)
    h, w = 360, 480
    y, x = np.mgrid[0:h, 0:w] / np.array([h, w])[:, None, None]
    img = np.zeros((h, w, 3))
    # Smooth gradients and soft blobs: thousands of colors, like a photograph.
    img[..., 0] = 0.5 + 0.5 * np.sin(3.1 * x + 1.7 * y)
    img[..., 1] = 0.5 + 0.5 * np.sin(2.3 * y - 1.1 * x + 1.0)
    img[..., 2] = 0.5 + 0.4 * np.cos(4.0 * x * y + 0.5)
    for _ in range(24):
        cx, cy, r = rng.random(), rng.random(), 0.05 + 0.15 * rng.random()
        color = rng.random(3)
        weight = np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (r * r))[..., None]
        img = img * (1 - 0.6 * weight) + color * 0.6 * weight
    img += rng.normal(0, 0.015, img.shape)  # grain
    Image.fromarray((np.clip(img, 0, 1) * 255).round().astype(np.uint8), "RGB").save(path)


def frames(folder):
    return [np.asarray(Image.open(p).convert("RGB"), dtype=np.float64) for p in sorted(glob.glob(folder + "/frame-*.png"))]


def pillow(folder, fps, out):
    images = [Image.open(p).convert("RGB") for p in sorted(glob.glob(folder + "/frame-*.png"))]
    images[0].save(out, save_all=True, append_images=images[1:], duration=int(round(1000 / float(fps))), loop=0, optimize=True)


def decoded(path):
    im = Image.open(path)
    return [np.asarray(f.convert("RGB"), dtype=np.float64) for f in ImageSequence.Iterator(im)]


def ssim(a, b):
    from scipy.ndimage import uniform_filter

    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    values = []
    for ch in range(3):
        x, y = a[..., ch], b[..., ch]
        mx, my = uniform_filter(x, 7), uniform_filter(y, 7)
        vx = uniform_filter(x * x, 7) - mx * mx
        vy = uniform_filter(y * y, 7) - my * my
        cxy = uniform_filter(x * y, 7) - mx * my
        values.append(np.mean(((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))))
    return float(np.mean(values))


def fidelity(folder, gifs):
    source = frames(folder)
    result = {}
    for path in gifs:
        shown = decoded(path)
        # A GIF may merge identical neighbours into one frame with the summed delay: compare
        # each source frame with the GIF frame showing at its time.
        if len(shown) != len(source):
            im = Image.open(path)
            durations = [f.info.get("duration", 0) for f in ImageSequence.Iterator(im)]
            frame_ms = sum(durations) / len(source)
            ends = np.cumsum(durations)
            shown = [shown[min(int(np.searchsorted(ends, i * frame_ms + 1e-6, side="right")), len(shown) - 1)] for i in range(len(source))]
        psnrs, ssims, lossless = [], [], True
        for a, b in zip(shown, source):
            mse = np.mean((a - b) ** 2)
            lossless &= mse == 0
            psnrs.append(99.0 if mse == 0 else 10 * np.log10(255 * 255 / mse))
            ssims.append(ssim(a, b))
        result[path] = {"psnr_mean": float(np.mean(psnrs)), "psnr_worst": float(np.min(psnrs)), "ssim": float(np.mean(ssims)), "lossless": bool(lossless)}
    print(json.dumps(result))


def same_frames(folder, animations):
    """Checks that each lossless animation decodes (Pillow) to exactly the PNG frames, RGBA, with
    identical neighbouring frames possibly merged; exits 1 naming the first that does not."""
    expected = [Image.open(p).convert("RGBA").tobytes() for p in sorted(glob.glob(folder + "/frame-*.png"))]
    unique = [f for i, f in enumerate(expected) if i == 0 or f != expected[i - 1]]
    for path in animations:
        got = [f.convert("RGBA").tobytes() for f in ImageSequence.Iterator(Image.open(path))]
        if got != expected and got != unique:
            sys.exit(f"{path}: decoded frames differ from the rendered frames")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "photo":
        photo(sys.argv[2])
    elif command == "pillow":
        pillow(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "same-frames":
        same_frames(sys.argv[2], sys.argv[3:])
    elif command == "fidelity":
        fidelity(sys.argv[2], sys.argv[3:])
