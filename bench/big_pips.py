"""How the camera reader does on dice with big pips: rendered frames, one big-pipped die each.

Run: ``python bench/big_pips.py [--verbose]``. Each of 864 frames holds one die of orange, red,
white or blue, showing 1 to 6, its pips 0.1, 0.115 or 0.13 of its side, 80 or 95 px across,
turned 0, 20 or 35 degrees, on wood or felt, beside a green 3 and a yellow 2 with the usual
pips; the camera is 10 degrees from straight down, and each frame is JPEG-encoded as a
webcam's would be. Prints the dice read right, read wrong and not read, and (``--verbose``)
every big-pipped die not read right.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reader.camera.frame_reader import read_frame  # noqa: E402
from reader.camera.reading import ReadStatus  # noqa: E402
from reader.camera.render import LOOKS, TABLES, RenderDie, Scene, render  # noqa: E402
from render_labelled import as_saved  # noqa: E402

CASES = list(itertools.product(("orange", "red", "white", "blue"), ("wood", "felt"), (0, 20, 35),
                               (0.1, 0.115, 0.13), range(1, 7), (80, 95)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list every big-pipped die not read right")
    args = parser.parse_args()
    counts: Counter[str] = Counter()
    for seed, (colour, table, angle, pip_radius, value, size) in enumerate(CASES):
        dice = (RenderDie(value, colour, (640.0, 360.0), float(size), float(angle),
                          look=replace(LOOKS[colour], pip_radius=pip_radius)),
                RenderDie(3, "green", (400.0, 300.0), float(size), 10.0),
                RenderDie(2, "yellow", (900.0, 450.0), float(size), 30.0))
        image, truths = render(Scene(dice=dice, table=TABLES[table], tilt=10.0, seed=seed))
        readings = read_frame(as_saved(image))
        for truth in truths:
            near = [r for r in readings if math.dist(r.center, truth.centre) < size / 2]
            read = near[0].value if near and near[0].status is ReadStatus.OK else None
            counts["right" if read == truth.value else "not read" if read is None else "wrong"] += 1
            if args.verbose and read != truth.value and truth.value == value and math.dist(truth.centre, (640, 360)) < size:
                why = f"read {read}" if read is not None else near[0].reason if near else "missed"
                print(f"{colour} die on {table}, turned {angle}, pips {pip_radius}, {size} px: a {value}, {why}")
    total = sum(counts.values())
    print(f"{len(CASES)} frames, {total} dice: right {counts['right']}, wrong {counts['wrong']}, "
          f"not read {counts['not read']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
