"""Every reading of the d6 camera reader on a corpus, one JSON line per image, so that two
versions of the reader can be compared reading by reading (a change meant only to make the
reader faster must leave every line the same).

Usage: python bench/readings_dump.py OUT.jsonl [LABELLED_DIR...] [--every N]
       python bench/readings_dump.py --compare A.jsonl B.jsonl

The corpus: the images of each LABELLED_DIR (rendered batteries from ``bench/render_labelled.py``,
say), the real photos of ``../shared/data/d6-webcam`` at their own size and every second one
enlarged 1.5 times (the reduced-size search), the photos of ``../shared/data/numeral-tower``
(no pip d6), and twelve rendered frames read in turn as a camera's (the search scale carried
from frame to frame). ``--every N`` takes every Nth image of each list, for a quicker look.
``--compare`` prints the images whose readings differ and exits 1 if any do.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402
from camera_accuracy import enlarged  # noqa: E402
from camera_speed import COLOURS  # noqa: E402

from reader.camera.colour import ColourNames  # noqa: E402
from reader.camera.frame_reader import FrameReading, read_frame  # noqa: E402
from reader.camera.reading import DieReading  # noqa: E402
from reader.camera.render import Scene, render, scatter  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _row(reading: DieReading) -> dict:
    """A reading, rounded past what float order could change."""
    return {"value": reading.value, "status": reading.status.value, "reason": reading.reason,
            "colour": reading.colour, "center": [round(c, 2) for c in reading.center],
            "box": list(reading.box), "confidence": round(float(reading.confidence), 4)}


def dump(out: Path, folders: list[Path], every: int) -> int:
    """Write the corpus's readings to ``out``; the number of images read."""
    namer = ColourNames()
    rendered = sorted(p for folder in folders for p in folder.glob("*.jpg"))[::every]
    real = sorted((SHARED / "d6-webcam").glob("*/*.jpg"))[::every]
    tower = sorted((SHARED / "numeral-tower").glob("*.jpg"))[::2 * every]
    jobs = [(p, 1.0) for p in rendered + real] + [(p, 1.5) for p in real[::2]] + [(p, 1.0) for p in tower]
    plain = partial(read_frame, namer=namer)
    with out.open("w") as lines:
        for path, scale in jobs:
            reader = plain if scale == 1.0 else enlarged(plain, scale)
            dice = [_row(r) for r in reader(cv2.imread(str(path)))]
            lines.write(json.dumps({"image": f"{path.parent.name}/{path.name}@{scale}", "dice": dice}) + "\n")
        camera = FrameReading()
        for seed in (21, 22, 23):
            dice = scatter(8, (1280, 720), die_size=56, seed=seed, colours=COLOURS)
            for frame in range(4):
                image = render(Scene(dice=dice, seed=seed, frame=frame, tilt=8 + 10 * (seed - 21)))[0]
                rows = [_row(r) for r in camera(image, namer)]
                lines.write(json.dumps({"image": f"camera{seed}/{frame}", "dice": rows}) + "\n")
    return len(jobs) + 12


def compare(first: Path, second: Path) -> int:
    """Print the images whose readings differ between two dumps; 1 if any do, else 0."""
    a = [json.loads(line) for line in first.open()]
    b = [json.loads(line) for line in second.open()]
    if [x["image"] for x in a] != [y["image"] for y in b]:
        print("the two dumps read different images")
        return 1
    differ = [(x, y) for x, y in zip(a, b) if x["dice"] != y["dice"]]
    for x, y in differ:
        print(x["image"])
        print("  -", json.dumps([d for d in x["dice"] if d not in y["dice"]]))
        print("  +", json.dumps([d for d in y["dice"] if d not in x["dice"]]))
    print(f"{len(differ)} of {len(a)} images differ")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="OUT.jsonl [LABELLED_DIR...], or A B with --compare")
    parser.add_argument("--every", type=int, default=1, metavar="N", help="every Nth image of each list")
    parser.add_argument("--compare", action="store_true", help="compare two dumps instead")
    args = parser.parse_args()
    if args.compare:
        if len(args.paths) != 2:
            parser.error("--compare takes two dumps")
        return compare(*args.paths)
    cv2.setNumThreads(1)
    print(f"{dump(args.paths[0], args.paths[1:], max(1, args.every))} images read into {args.paths[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
