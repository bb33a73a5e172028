"""Speed of the numbered-dice reader: a 1280x720 frame with five numbered dice, one thread.

Usage: python bench/numbered_speed.py [--runs N]

Models for every kind are taught from rendered views first (one per face); then the full read
(finding, top-face extraction, matching over rotations against every taught kind) is timed.
Prints the median and 95th percentile in milliseconds against the 40 ms target.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread for numpy's matrix products too

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.faces import SHOWN  # noqa: E402
from reader.camera.numbered.frame import read_numbered  # noqa: E402
from reader.camera.numbered.teaching import View, build_model, single_die, view_of  # noqa: E402
from reader.camera.reading import ReadStatus  # noqa: E402
from reader.camera.render_numbered import NumberedLook, PlacedDie, render_table  # noqa: E402

TARGET_MS = 40.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    look = NumberedLook()
    models = []
    for kind in SHOWN:
        labelled: list[tuple[int, View]] = []
        for shown in SHOWN[kind]:
            image = render_table([PlacedDie(kind, shown, look, 640, 360, 0.0, 90.0)])
            labelled.append((shown, view_of(image, single_die(image, kind))))
        models.append(build_model(kind, None, labelled))
    dice = [PlacedDie("d20", 17, look, 200, 200, 30.0, 90.0), PlacedDie("d12", 9, look, 520, 420, 200.0, 90.0),
            PlacedDie("d10", 0, look, 840, 220, 75.0, 90.0), PlacedDie("d8", 6, look, 1080, 520, 310.0, 90.0),
            PlacedDie("d4", 3, look, 330, 560, 140.0, 90.0)]
    frame = render_table(dice, seed=3)
    readings = read_numbered(frame, None, None, models)
    ok = sum(r.status is ReadStatus.OK for r in readings)
    ms = []
    for _ in range(args.runs):
        start = time.perf_counter()
        read_numbered(frame, None, None, models)
        ms.append(1000 * (time.perf_counter() - start))
    median, p95 = float(np.median(ms)), float(np.percentile(ms, 95))
    print(f"1280x720, {len(dice)} numbered dice ({len(readings)} found, {ok} read), {len(models)} kinds taught, "
          f"1 thread: median {median:.1f} ms, p95 {p95:.1f} ms (target <= {TARGET_MS:.0f} ms: "
          f"{'met' if median <= TARGET_MS else 'NOT met'})")
    print("values read:", [r.value for r in readings])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
