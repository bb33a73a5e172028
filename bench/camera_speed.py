"""Milliseconds per 1280x720 frame with 8 dice on one thread: the still check and a full read.

Run: ``python bench/camera_speed.py [--frames N]``. Targets: still check <= 2 ms median,
full read (with colour naming) <= 15 ms median. The frames are rendered
(``reader.camera.render``): 8 dice of several colours, seen as cubes (their side faces show
pips too), sensor noise that differs per frame.

Two full reads are timed: a camera's frames as the camera source reads them
(``FrameReading``: the search scale found for one frame is tried first on the next), and a
frame read cold (``read_frame`` alone: the pips' size is found first, as for a photo). A
third line, with no target, reads the same dice on a wooden table of fine grain
(``Scene.fine_grain``), whose specks and knots the search must look at one by one:
``GRAINY_READS`` reads, cold.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from reader.camera.colour import ColourNames  # noqa: E402
from reader.camera.frame_reader import FrameReading, read_frame  # noqa: E402
from reader.camera.render import TABLES, Scene, render, scatter  # noqa: E402
from reader.camera.settle import SettleDetector  # noqa: E402

COLOURS = ("red", "white", "black", "blue", "green", "yellow", "white", "purple")
#: The grainy table's fine grain (grey levels) and how many reads of it are timed.
FINE_GRAIN, GRAINY_READS = 30.0, 6


def timings(run: Callable[[np.ndarray], object], frames: list[np.ndarray], repeat: int) -> list[float]:
    """Milliseconds of ``run`` on each frame, cycling through ``frames`` ``repeat`` times in all."""
    out = []
    for i in range(repeat):
        frame = frames[i % len(frames)]
        start = time.perf_counter()
        run(frame)
        out.append((time.perf_counter() - start) * 1000)
    return out


def report(name: str, ms: list[float], target: float | None) -> str:
    """One line: median and p95, against the target if there is one."""
    median = statistics.median(ms)
    p95 = float(np.percentile(ms, 95))
    if target is None:
        return f"{name:<28} median {median:6.0f} ms   p95 {p95:6.0f} ms   (no target)"
    verdict = "ok" if median <= target else "OVER TARGET"
    return f"{name:<28} median {median:6.2f} ms   p95 {p95:6.2f} ms   (target {target:g} ms median: {verdict})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="still checks to time (full reads: a fifth)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    dice = scatter(8, (1280, 720), die_size=56, seed=21, colours=COLOURS)
    frames = [render(Scene(dice=dice, seed=21, frame=i, tilt=8))[0] for i in range(6)]
    detector = SettleDetector()
    detector.is_still(frames[0])
    still = timings(detector.is_still, frames, args.frames)
    namer = ColourNames()
    camera = FrameReading()
    camera(frames[0], namer)
    live = timings(lambda f: camera(f, namer), frames, max(10, args.frames // 5))
    cold = timings(lambda f: read_frame(f, namer), frames, max(10, args.frames // 5))
    grainy = [render(Scene(dice=dice, table=TABLES["wood"], fine_grain=FINE_GRAIN, seed=21, frame=i, tilt=8))[0]
              for i in range(3)]
    slow = timings(lambda f: read_frame(f, namer), grainy, GRAINY_READS)
    found = read_frame(frames[0], namer)
    print(f"OpenCV {cv2.__version__}, Python {platform.python_version()}, 1 thread, 1280x720, 8 dice "
          f"({sum(r.value is not None for r in found)} of {len(found)} found dice read on the first frame)")
    print(report("still check (settle.py)", still, 2.0))
    print(report("full read, camera frames", live, 15.0))
    print(report("full read, cold (a photo)", cold, 15.0))
    print(report("full read, grainy wood", slow, None) + f"   ({sum(r.value is not None for r in read_frame(grainy[0], namer))} "
          f"of 8 dice read on the first frame)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
