"""Write rendered table scenes as a labelled folder that ``bench/camera_accuracy.py`` measures.

Usage: python bench/render_labelled.py OUT_DIR [--images N] [--tilt DEG] [--seed S]
       [--colours NAME...] [--table NAME...] [--light neutral|warm|cold] [--size WxH] [--blur PX]
       [--die-size MIN-MAX] [--pip-size MIN-MAX] [--glare MIN-MAX] [--grain MIN-MAX] [--fine-grain MIN-MAX]

Each scene becomes ``scene_NNN_tiltTT.jpg`` (TT = the camera tilt in degrees) and a ``.txt``
beside it with one YOLO line ``CLASS CX CY W H`` per die (CLASS = value - 1; the box encloses
the top face's pips grown by one pip radius; relative coordinates): the layout of the real
photos in ``shared/data/d6-webcam``. d6 dice are rendered as cubes, so an oblique camera sees
side faces with pips that must not be read.

By default the scenes mix every table, every white balance, tilts from 0 to 45 degrees, lamps
from overhead to low, 3-8 dice of every colour (dark dice with coloured pips included) with
some of them touching. ``--tilt``, ``--table``, ``--light`` and ``--colours`` fix one of these;
``--blur`` smears the dice as if they were still moving; ``--die-size`` sets how big they look;
``--glare`` how strong the highlights on their top faces are, ``--grain`` how grainy the table is
in blotches, ``--fine-grain`` in a fine wood or cork grain with knots.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reader.camera.render import (COLD, DARK_LOOKS, LOOKS, NEUTRAL, PIP_RADIUS, TABLES, WARM,  # noqa: E402
                                  DieTruth, RenderDie, Scene, render)

LIGHTS = {"neutral": NEUTRAL, "warm": WARM, "cold": COLD}
#: The JPEG quality the scenes are saved with.
JPEG_QUALITY = 90
TOUCHING = 0.3  # chance that a die is laid against the one placed before it


def place_dice(rng: np.random.Generator, size: tuple[int, int], count: int, colours: Sequence[str],
               die_size: float) -> tuple[RenderDie, ...]:
    """``count`` dice of random values and ``colours`` that do not overlap; some pairs lie side by side."""
    w, h = size
    border = die_size * 1.4
    placed: list[RenderDie] = []
    paired = False  # the last die lies against the one before it (pairs, never rows)
    for _ in range(count * 200):
        if len(placed) == count:
            break
        angle = float(rng.uniform(0, 90))
        partner = placed[-1] if placed and not paired and rng.random() < TOUCHING else None
        if partner is not None:
            # against one side of the previous die, turned like it: the faces meet
            angle = partner.angle
            side = math.radians(angle + 90 * int(rng.integers(4)))
            gap = die_size * float(rng.uniform(1.0, 1.06))
            x, y = partner.centre[0] + gap * math.cos(side), partner.centre[1] - gap * math.sin(side)
        else:
            x, y = rng.uniform(border, w - border), rng.uniform(border, h - border * 1.2)
        inside = border <= x <= w - border and border <= y <= h - border * 1.2
        apart = all(d is partner or math.dist((x, y), d.centre) > die_size * 1.6 for d in placed)
        if inside and apart:
            paired = partner is not None
            placed.append(RenderDie(int(rng.integers(1, 7)), colours[int(rng.integers(len(colours)))], (x, y),
                                    die_size, angle))
    return tuple(placed)


def random_scene(rng: np.random.Generator, size: tuple[int, int], colours: Sequence[str], tables: Sequence[str],
                 lights: Sequence[str], tilt: float | None, blur: float = 0.0,
                 die_sizes: tuple[float, float] | None = None, pip_sizes: tuple[float, float] | None = None,
                 glare: tuple[float, float] = (0.0, 0.4), grain: tuple[float, float] | None = None,
                 distance: float = Scene.distance, fine_grain: tuple[float, float] | None = None) -> Scene:
    """One table scene with every free choice drawn from ``rng``; with ``blur``, each die is
    smeared by motion over up to that many pixels, in a direction of its own; ``die_sizes``
    bounds the dice's size in pixels (default: 6% to 11% of the image's short side), and
    ``pip_sizes`` their pips' radius in face sides, drawn per die (default: every die's pips
    of the usual size); ``glare`` bounds the highlights' strength and ``grain`` the table
    texture's amplitude in grey levels (default: the renderer's, drawing nothing, so the
    scenes of a seed stay what they were), ``fine_grain`` that of a grainy table's fine
    texture (default: none, drawing nothing); ``distance`` is the camera's (see :class:`Scene`)."""
    low, high = die_sizes or (0.06 * min(size), 0.11 * min(size))
    die_size = float(rng.uniform(low, high))
    dice = place_dice(rng, size, int(rng.integers(3, 9)), colours, die_size)
    if blur > 0:
        dice = tuple(replace(d, blur=float(rng.uniform(0, blur)), blur_angle=float(rng.uniform(0, 180)))
                     for d in dice)
    if pip_sizes is not None:
        dice = tuple(replace(d, look=replace(d.appearance, pip_radius=float(rng.uniform(*pip_sizes)))) for d in dice)
    elevation = math.radians(rng.uniform(35, 85))
    azimuth = rng.uniform(0, 2 * math.pi)
    lamp = (math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth), math.sin(elevation))
    return Scene(dice=dice, size=size, table=TABLES[tables[int(rng.integers(len(tables)))]],
                 light=LIGHTS[lights[int(rng.integers(len(lights)))]], brightness=float(rng.uniform(0.8, 1.15)),
                 tilt=float(rng.uniform(0, 45)) if tilt is None else tilt, glare=float(rng.uniform(*glare)),
                 defocus=float(rng.uniform(0, 0.8)), noise=float(rng.uniform(1.5, 3.5)),
                 seed=int(rng.integers(1 << 30)), lamp=lamp,
                 grain=Scene.grain if grain is None else float(rng.uniform(*grain)), distance=distance,
                 fine_grain=0.0 if fine_grain is None else float(rng.uniform(*fine_grain)))


def yolo_lines(truth: Sequence[DieTruth], size: tuple[int, int]) -> list[str]:
    """One ``CLASS CX CY W H`` line per die: the top face's pip box (its outline box when it has
    no pips), relative to the image."""
    w, h = size
    lines = []
    for t in truth:
        x0, y0, x1, y1 = t.pips or t.box
        lines.append(f"{t.value - 1} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
                     f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    return lines


def as_saved(image: np.ndarray) -> np.ndarray:
    """``image`` as it reads back from the JPEG file :func:`write_scene` saves it in."""
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1], cv2.IMREAD_COLOR)


def nth_scene(seed: int, index: int, colours: Sequence[str] = tuple(sorted({*LOOKS, *DARK_LOOKS})),
              tilt: float | None = None, lights: Sequence[str] = tuple(sorted(LIGHTS)),
              size: tuple[int, int] = (1280, 720), **options: Any) -> Scene:
    """Scene ``index`` (from 0) of ``render_labelled.py --seed SEED`` with these ``--colours``,
    ``--tilt``, ``--light`` (``lights``: the one given, or all) and ``--size``, and the other options
    (``options``: :func:`random_scene`'s keywords, such as ``pip_sizes``, ``glare`` or
    ``grain``) as given, or left as they are: one scene of a labelled set, for a test to
    render alone."""
    rng = np.random.default_rng(seed)
    # (the scenes share one generator: those before it are drawn, and only the last kept)
    for _ in range(index + 1):
        scene = random_scene(rng, size, colours, sorted(TABLES), lights, tilt, **options)
    return scene


def write_scene(folder: Path, name: str, scene: Scene) -> list[DieTruth]:
    """Render ``scene`` as ``folder/name.jpg`` with its labels in ``folder/name.txt``."""
    image, truth = render(scene)
    cv2.imwrite(str(folder / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    (folder / f"{name}.txt").write_text("\n".join(yolo_lines(truth, scene.size)) + "\n")
    return truth


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not WIDTHxHEIGHT: {text!r}") from None
    return w, h


def _bounds(text: str) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not MIN-MAX: {text!r}") from None
    return low, high


def _span(text: str) -> tuple[float, float]:
    low, high = _bounds(text)
    if not 0 < low <= high:
        raise argparse.ArgumentTypeError(f"not 0 < MIN <= MAX: {text!r}")
    return low, high


def _share_span(text: str) -> tuple[float, float]:
    low, high = _bounds(text)
    if not 0 <= low <= high <= 1:
        raise argparse.ArgumentTypeError(f"not 0 <= MIN <= MAX <= 1: {text!r}")
    return low, high


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, metavar="OUT_DIR")
    parser.add_argument("--images", type=int, default=60, metavar="N")
    parser.add_argument("--tilt", type=float, metavar="DEG", help="every scene at this camera tilt (default 0-45)")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--colours", nargs="+", choices=sorted({*LOOKS, *DARK_LOOKS}),
                        default=sorted({*LOOKS, *DARK_LOOKS}), metavar="NAME")
    parser.add_argument("--table", nargs="+", choices=sorted(TABLES), default=sorted(TABLES), metavar="NAME")
    parser.add_argument("--light", choices=sorted(LIGHTS), help="white balance (default: a mix)")
    parser.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH")
    parser.add_argument("--blur", type=float, default=0.0, metavar="PX",
                        help="smear each die by motion over up to PX pixels (default: none)")
    parser.add_argument("--die-size", type=_span, metavar="MIN-MAX",
                        help="the dice's size in pixels (default: 6%% to 11%% of the short side)")
    parser.add_argument("--pip-size", type=_span, metavar="MIN-MAX",
                        help=f"each die's pip radius as a share of its face's side, e.g. 0.06-0.11 "
                             f"(default: {PIP_RADIUS} for every die; small pips sit nearer the edge)")
    parser.add_argument("--glare", type=_share_span, default=(0.0, 0.4), metavar="MIN-MAX",
                        help="each scene's highlight strength on the dice, 0 (none) to 1 (white) (default: 0-0.4)")
    parser.add_argument("--grain", type=_span, metavar="MIN-MAX",
                        help="each scene's table texture in grey levels, e.g. 14-22 for cork (default: 6, fine)")
    parser.add_argument("--fine-grain", type=_span, metavar="MIN-MAX",
                        help="each scene's fine table grain in grey levels, wood or cork a pixel or two across "
                             "with knots, e.g. 20-35 (default: none)")
    parser.add_argument("--distance", type=float, default=Scene.distance, metavar="D",
                        help=f"the camera's distance from the table's middle in image widths (default: "
                             f"{Scene.distance}, a narrow view; a webcam of a 60-70 degree view looking straight "
                             f"down is about 0.7-0.9 away, and sees the dice's side faces round the image's edges)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    lights = [args.light] if args.light else sorted(LIGHTS)
    dice = 0
    for i in range(args.images):
        scene = random_scene(rng, args.size, args.colours, args.table, lights, args.tilt, args.blur, args.die_size,
                             args.pip_size, args.glare, args.grain, args.distance, args.fine_grain)
        dice += len(write_scene(args.out, f"scene_{i:03d}_tilt{scene.tilt:02.0f}", scene))
    print(f"{args.out}: {args.images} images, {dice} dice")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
