"""Accuracy of the numbered-dice reader (d4 to d20, d00): teach, then read other views.

Usage:
  python bench/numbered_accuracy.py tower [DIR]      numeral-tower photos: teach each die from its
                                                     photos (d4: sets A-C), read moved, turned,
                                                     rescaled and relit copies (d4: of sets D-E)
  python bench/numbered_accuracy.py rendered         rendered dice: teach one view per face, read others
  python bench/numbered_accuracy.py folders --die d20 --teach DIR --read DIR
                                                     teach from one folder, read another (either
                                                     layout: DIR/17/*.jpg or labels.csv file,shown)

Prints per die kind: views read, correct, wrong, unreadable, accuracy, and the confusion
matrix (rows: true number, columns: number read, "?" = unreadable); then (tower, rendered) the
outline classes seen per kind (reader.camera.numbered.shape; the tower's d6 photos included),
how many were of a class the kind shows, and how many of those were sure enough to rule kinds out.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.faces import SHOWN, FaceModel  # noqa: E402
from reader.camera.numbered.finder import find_dice  # noqa: E402
from reader.camera.numbered.frame import read_numbered  # noqa: E402
from reader.camera.numbered.kinds import value_of  # noqa: E402
from reader.camera.numbered.shape import KINDS_OF, SURE_SHAPE, DieShape, classify  # noqa: E402
from reader.camera.numbered.teaching import (View, build_model, labelled_photos, single_die,  # noqa: E402
                                             teach_from_photos, view_of)
from reader.camera.reading import ReadStatus  # noqa: E402
from reader.camera.render_numbered import FONTS, NumberedLook, PlacedDie, render_table  # noqa: E402

TOWER = Path(__file__).resolve().parents[2] / "shared" / "data" / "numeral-tower"


@dataclass
class Tally:
    """Readings of one die kind: the confusion of true value against value read (None = unreadable)."""

    confusion: Counter = field(default_factory=Counter)

    def add(self, truth: int, read: int | None) -> None:
        self.confusion[(truth, read)] += 1

    @property
    def total(self) -> int:
        return sum(self.confusion.values())

    @property
    def correct(self) -> int:
        return sum(n for (t, r), n in self.confusion.items() if t == r)

    @property
    def unreadable(self) -> int:
        return sum(n for (_, r), n in self.confusion.items() if r is None)

    @property
    def wrong(self) -> int:
        return self.total - self.correct - self.unreadable


@dataclass
class Shapes:
    """Outline classes seen per true kind: (kind, class or None when not one die, sure) -> count."""

    seen: Counter = field(default_factory=Counter)

    def add(self, kind: str, image: np.ndarray) -> None:
        """Classify the outline of the one die ``image`` should show."""
        blobs = find_dice(image)
        verdict = classify(blobs[0].contour, blobs[0].elongation) if len(blobs) == 1 else None
        self.seen[(kind, verdict.shape if verdict else None, bool(verdict and verdict.confidence >= SURE_SHAPE))] += 1

    def report(self) -> str:
        """Rows: true kind; columns: outline class; right: of a class the kind shows; sure: past SURE_SHAPE."""
        classes = list(DieShape)
        lines = ["shape  true\\seen " + " ".join(f"{c.value:>8}" for c in classes)
                 + "     none    right  sure-right  sure-wrong"]
        for kind in dict.fromkeys(k for k, _, _ in self.seen):
            mine = [(shape, sure, n) for (k, shape, sure), n in self.seen.items() if k == kind]
            per_class: Counter = Counter()
            for shape, _, n in mine:
                per_class[shape] += n
            right = sum(n for shape, _, n in mine if shape is not None and kind in KINDS_OF[shape])
            sure_right = sum(n for shape, sure, n in mine if sure and kind in KINDS_OF[shape])
            sure_wrong = sum(n for shape, sure, n in mine if sure and kind not in KINDS_OF[shape])
            lines.append(f"       {kind:>9} " + " ".join(f"{per_class[c] or '.':>8}" for c in classes)
                         + f" {per_class[None] or '.':>8} {100 * right / sum(per_class.values()):7.2f}%"
                         f"  {sure_right:>10}  {sure_wrong:>10}")
        return "\n".join(lines)


def read_one(image: np.ndarray, model: FaceModel) -> int | None:
    """The value read from a one-die image (``None`` when unreadable or not exactly one die)."""
    readings = read_numbered(image, None, {model.kind}, [model])
    if len(readings) != 1 or readings[0].status is not ReadStatus.OK:
        return None
    return readings[0].value


def moved_view(image: np.ndarray, centre: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """``image`` turned about the die, rescaled (0.7-1.3), moved, slightly tilted and relit."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D(centre, rng.uniform(0, 360), rng.uniform(0.7, 1.3))
    m[:, 2] += (w / 2 - centre[0] + rng.uniform(-200, 200), h / 2 - centre[1] + rng.uniform(-200, 200))
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    tilt = cv2.getPerspectiveTransform(corners, (corners + rng.uniform(-0.015, 0.015, (4, 2)) * [w, h])
                                       .astype(np.float32))
    cx, cy, r = int(centre[0]), int(centre[1]), 120
    around = np.concatenate([image[max(0, cy - r - 10):max(0, cy - r), max(0, cx - r):cx + r].reshape(-1, 3),
                             image[cy + r:cy + r + 10, max(0, cx - r):cx + r].reshape(-1, 3)])
    border = tuple(float(v) for v in np.median(around, axis=0))
    out = cv2.warpPerspective(image, tilt @ np.vstack([m, [0, 0, 1]]), (w, h), borderValue=border)
    gain, gamma = rng.uniform(0.7, 1.3), rng.uniform(0.8, 1.25)
    lut = np.clip(255 * (np.arange(256) / 255.0) ** gamma * gain, 0, 255).astype(np.uint8)
    return cv2.LUT(out, lut)


def tower(folder: Path, copies: int, seed: int) -> tuple[dict[str, Tally], Shapes]:
    """numeral-tower: teach from the photos, read moved copies (d4: teach A-C, read D-E)."""
    rows = list(csv.DictReader((folder / "labels.csv").open(encoding="utf-8")))
    rng = np.random.default_rng(seed)
    tallies: dict[str, Tally] = {}
    shapes = Shapes()
    for kind in SHOWN:
        mine = [r for r in rows if r["die"] == kind]
        teach = [r for r in mine if kind != "d4" or r["set"] in "ABC"]
        read = [r for r in mine if kind != "d4" or r["set"] in "DE"]
        model = teach_from_photos([(folder / r["file"], int(r["shown"])) for r in teach], kind)
        tally = tallies.setdefault(kind, Tally())
        for r in read:
            image = cv2.imread(str(folder / r["file"]))
            truth = value_of(kind, int(r["shown"]))
            if kind == "d4":
                tally.add(truth, read_one(image, model))
                shapes.add(kind, image)
            blob = single_die(image, r["file"])
            for _ in range(copies):
                moved = moved_view(image, blob.centre, rng)
                tally.add(truth, read_one(moved, model))
                shapes.add(kind, moved)
    for r in rows:
        if r["die"] == "d6":  # not read by this reader, but its outline must not pass for a numbered die's
            image = cv2.imread(str(folder / r["file"]))
            shapes.add("d6", image)
            blob = single_die(image, r["file"])
            for _ in range(copies):
                shapes.add("d6", moved_view(image, blob.centre, rng))
    return tallies, shapes


def rendered_sets() -> Iterator[tuple[str, NumberedLook]]:
    """A few dice sets per kind: colours, fonts, weights, 6/9 marks, d4 conventions."""
    looks = [NumberedLook((40, 40, 190), (235, 235, 235), FONTS[0], 3, "underline", "vertex"),
             NumberedLook((200, 120, 30), (20, 20, 20), FONTS[2], 2, "dot", "edge"),
             NumberedLook((40, 200, 230), (30, 30, 30), FONTS[1], 4, "dot", "vertex"),
             NumberedLook((230, 230, 230), (40, 40, 160), FONTS[3], 2, "underline", "edge")]
    for kind in SHOWN:
        for look in looks:
            yield kind, look


def rendered(copies: int, seed: int) -> tuple[dict[str, Tally], Shapes]:
    """Teach each rendered set from one upright view per face, read turned, moved, resized views."""
    rng = np.random.default_rng(seed)
    tallies: dict[str, Tally] = {}
    shapes = Shapes()
    for kind, look in rendered_sets():
        labelled: list[tuple[int, View]] = []
        for shown in SHOWN[kind]:
            image = render_table([PlacedDie(kind, shown, look, 640, 360, 0.0, 90.0)], seed=int(rng.integers(1 << 30)))
            labelled.append((shown, view_of(image, single_die(image, f"{kind} {shown}"))))
        model = build_model(kind, None, labelled)
        tally = tallies.setdefault(kind, Tally())
        for shown in SHOWN[kind]:
            for _ in range(copies):
                die = PlacedDie(kind, shown, look, rng.uniform(150, 1130), rng.uniform(120, 600),
                                rng.uniform(0, 360), rng.uniform(70, 110))
                image = render_table([die], light=rng.uniform(0.75, 1.2), seed=int(rng.integers(1 << 30)))
                tally.add(value_of(kind, shown), read_one(image, model))
                shapes.add(kind, image)
    return tallies, shapes


def folders(kind: str, teach_dir: Path, read_dir: Path) -> dict[str, Tally]:
    """Teach ``kind`` from one labelled folder and read every photo of another."""
    model = teach_from_photos(labelled_photos(teach_dir, kind), kind)
    tally = Tally()
    for path, shown in labelled_photos(read_dir, kind):
        image = cv2.imread(str(path))
        tally.add(value_of(kind, shown), read_one(image, model) if image is not None else None)
    return {kind: tally}


def report(tallies: dict[str, Tally]) -> str:
    """Per kind: counts, accuracy and the confusion matrix."""
    lines = []
    total = Tally()
    for kind, tally in tallies.items():
        total.confusion.update(tally.confusion)
        lines.append(f"{kind:4} views {tally.total:5}  correct {tally.correct:5}  wrong {tally.wrong:3}  "
                     f"unreadable {tally.unreadable:3}  accuracy {100 * tally.correct / max(1, tally.total):6.2f}%  "
                     f"wrong {100 * tally.wrong / max(1, tally.total):5.2f}%")
        truths = sorted({t for t, _ in tally.confusion})
        reads = sorted({r for _, r in tally.confusion if r is not None}) + [None]
        lines.append("      true\\read " + " ".join(f"{'?' if r is None else r:>3}" for r in reads))
        for t in truths:
            lines.append(f"      {t:>9} " + " ".join(f"{tally.confusion.get((t, r), 0) or '.':>3}" for r in reads))
    lines.append(f"all  views {total.total:5}  correct {total.correct:5}  wrong {total.wrong:3}  "
                 f"unreadable {total.unreadable:3}  accuracy {100 * total.correct / max(1, total.total):6.2f}%")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["tower", "rendered", "folders"])
    parser.add_argument("folder", nargs="?", type=Path, default=TOWER)
    parser.add_argument("--copies", type=int, default=5, help="views read per photo / per rendered face")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--die", default="d20")
    parser.add_argument("--teach", type=Path)
    parser.add_argument("--read", type=Path)
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    shapes = None
    if args.mode == "tower":
        tallies, shapes = tower(args.folder, args.copies, args.seed)
    elif args.mode == "rendered":
        tallies, shapes = rendered(args.copies, args.seed)
    else:
        if args.teach is None or args.read is None:
            parser.error("folders needs --teach DIR and --read DIR")
        tallies = folders(args.die, args.teach, args.read)
    print(report(tallies))
    if shapes is not None:
        print(shapes.report())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
