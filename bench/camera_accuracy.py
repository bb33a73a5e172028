"""Accuracy of the camera reader on labelled photographs.

Usage: python bench/camera_accuracy.py [LABELLED_DIR...] [--no-dice PHOTO_DIR...] [--csv] [--scale F]
[--time-frame IMAGE...]

A labelled folder holds either images with a YOLO ``.txt`` beside each one (``CLASS CX CY W
H`` per die, relative coordinates, CLASS = face value - 1, the box enclosing the top face's
pip pattern), or a ``labels.csv`` with a ``file,shown`` header and one die per image. A
reading matches a labelled die when its centre lies inside the label box grown by
``GROW``; for one-die CSV images the reading nearest the image centre is the match. A
reading that matches no die but lies within one face side of a die left unmatched is that
die's side face, read in its top face's place: it counts as that die's (wrong) reading.
The other readings that match no die (false detections) are counted with how many of them
carry a value and, of those, how many lie within one face side of a labelled die: a die
counted twice (its side face read as a die of its own, or touching dice read as one).
``--csv`` also prints one line per labelled die (file, label, read, status, reason) and
per false detection (label 0). ``--no-dice PHOTO_DIR...`` also reads every image of those
folders as showing no pip d6 at all (numbered dice in a tray on a wooden table, say): every
reading there is a false detection. ``--scale F`` reads every image enlarged F times (bicubic),
which takes frames of 600 pixels and more through the reader's reduced-size search. ``--time-frame IMAGE...`` also times full reads of those
images set side by side and scaled onto a 1280x720 frame (single-threaded; wall and CPU
medians).

The loading, matching and tallying functions are meant to be reused for other die types.
"""

from __future__ import annotations

import argparse
import signal
import csv
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reader.camera.reading import DieReading, ReadStatus  # noqa: E402

GROW = 1.5
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


@dataclass(frozen=True)
class LabelledDie:
    """One die a person labelled: the value shown and, when known, its box (x0, y0, x1, y1
    as fractions of the image's width and height)."""

    value: int
    box: tuple[float, float, float, float] | None


@dataclass(frozen=True)
class LabelledImage:
    path: Path
    dice: tuple[LabelledDie, ...]


@dataclass
class Tally:
    """Counts over many images; ``confusion[(truth, read)]`` with read None = unreadable."""

    dice: int = 0
    correct: int = 0
    wrong: int = 0
    unreadable: int = 0
    missed: int = 0
    false_detections: int = 0
    false_read: int = 0     # false detections with a value
    false_beside: int = 0   # ... lying within one face side of a labelled die
    confusion: dict[tuple[int, int | None], int] = field(default_factory=dict)
    wrong_cases: list[str] = field(default_factory=list)
    rows: list[tuple[str, int, str, str, str]] = field(default_factory=list)

    def add_false(self, image: Path, reading: DieReading, beside: bool) -> None:
        """A reading that matches no labelled die; ``beside``: it lies within one face side of
        one (read with a value, that die is counted twice: a side face read as a die of its
        own, or two touching dice read as one between them)."""
        self.false_detections += 1
        if reading.status is ReadStatus.OK:
            self.false_read += 1
            self.false_beside += beside
        self.rows.append((image.name, 0, "" if reading.value is None else str(reading.value),
                          f"false {reading.status.value} at ({reading.center[0]:.0f} {reading.center[1]:.0f})",
                          reading.reason or ""))

    def add(self, image: Path, truth: LabelledDie, reading: DieReading | None) -> None:
        self.dice += 1
        if reading is None:
            self.missed += 1
            self.rows.append((image.name, truth.value, "", "missed", ""))
            return
        read = reading.value if reading.status is ReadStatus.OK else None
        self.confusion[(truth.value, read)] = self.confusion.get((truth.value, read), 0) + 1
        if read is None:
            self.unreadable += 1
        elif read == truth.value:
            self.correct += 1
        else:
            self.wrong += 1
            self.wrong_cases.append(f"{image.name}: {truth.value} read as {read} at "
                                    f"({reading.center[0]:.0f}, {reading.center[1]:.0f})")
        self.rows.append((image.name, truth.value, "" if read is None else str(read),
                          reading.status.value, reading.reason or ""))


def load_folder(folder: Path) -> list[LabelledImage]:
    """Every labelled image of a folder (CSV layout if ``labels.csv`` exists, else YOLO); a
    folder holding none, only folders (a set's ``train/`` and ``valid/``), gives theirs."""
    table = folder / "labels.csv"
    if table.exists():
        with table.open(newline="") as fh:
            return [LabelledImage(folder / row["file"], (LabelledDie(int(row["shown"]), None),))
                    for row in csv.DictReader(fh)]
    out = []
    for image in sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
        label = image.with_suffix(".txt")
        if label.exists():
            out.append(LabelledImage(image, tuple(_yolo_dice(label))))
    if not out:
        out = [image for sub in sorted(p for p in folder.iterdir() if p.is_dir()) for image in load_folder(sub)]
    return out


def load_without_dice(folder: Path) -> list[LabelledImage]:
    """Every image of a folder, as showing no pip d6."""
    return [LabelledImage(image, ()) for image in sorted(folder.iterdir()) if image.suffix.lower() in IMAGE_SUFFIXES]


def _yolo_dice(label: Path) -> Iterable[LabelledDie]:
    for line in label.read_text().split("\n"):
        parts = line.split()
        if len(parts) == 5:
            cls, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
            yield LabelledDie(cls + 1, (cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))


def match(dice: tuple[LabelledDie, ...], readings: list[DieReading],
          shape: tuple[int, ...]) -> tuple[list[DieReading | None], list[DieReading]]:
    """Pair labelled dice with readings, nearest pairs first over the whole image (a reading
    pairs with a die when its centre lies in the die's grown box; a die of a one-die CSV
    image takes the reading nearest the image's centre); then each die still unpaired takes
    a reading left over within one face side of it (the reading's own box): a side face read
    in place of the die's top face, which counts as that die's reading (wrong, since a side
    face never shows the top's value), not as a missed die and a false detection. Returns
    each die's reading (None: missed) and the readings left unpaired."""
    h, w = shape[:2]
    candidates = []
    for d, die in enumerate(dice):
        if die.box is None:
            target, reach = (w / 2, h / 2), (np.inf, np.inf)
        else:
            x0, y0, x1, y1 = die.box[0] * w, die.box[1] * h, die.box[2] * w, die.box[3] * h
            target, reach = ((x0 + x1) / 2, (y0 + y1) / 2), ((x1 - x0) * GROW / 2, (y1 - y0) * GROW / 2)
        for r, reading in enumerate(readings):
            dx, dy = reading.center[0] - target[0], reading.center[1] - target[1]
            if abs(dx) <= reach[0] and abs(dy) <= reach[1]:
                candidates.append((float(np.hypot(dx, dy)), d, r))
    pairs: list[DieReading | None] = [None] * len(dice)
    free = set(range(len(readings)))
    for _, d, r in sorted(candidates):
        if pairs[d] is None and r in free:
            pairs[d] = readings[r]
            free.remove(r)
    # a reading left over beside a die left unpaired is that die's side face read in place of
    # its top face (a die's neighbours are paired already): it is that die's reading, wrong
    displaced = []
    for d, die in enumerate(dice):
        if pairs[d] is None:
            for r in free:
                if (apart := face_side_apart(die, readings[r], shape)) is not None:
                    displaced.append((apart, d, r))
    for _, d, r in sorted(displaced):
        if pairs[d] is None and r in free:
            pairs[d] = readings[r]
            free.remove(r)
    return pairs, [readings[r] for r in sorted(free)]


def face_side_apart(die: LabelledDie, reading: DieReading, shape: tuple[int, ...]) -> float | None:
    """How far (pixels) a reading's centre lies from a labelled die's, if within one face
    side (the reading's own box) of it; None if further, or the die has no box."""
    if die.box is None:
        return None
    h, w = shape[:2]
    box = reading.box
    apart = float(np.hypot(reading.center[0] - (die.box[0] + die.box[2]) / 2 * w,
                           reading.center[1] - (die.box[1] + die.box[3]) / 2 * h))
    return apart if apart <= max(box[2] - box[0], box[3] - box[1]) else None


def evaluate(images: list[LabelledImage], reader: Callable[[np.ndarray], list[DieReading]],
             tally: Tally | None = None) -> tuple[Tally, list[float]]:
    """Run ``reader`` on every image; returns the tally and the per-image times (ms)."""
    tally = tally or Tally()
    times = []
    for item in images:
        image = cv2.imread(str(item.path))
        start = time.perf_counter()
        readings = reader(image)
        times.append((time.perf_counter() - start) * 1000)
        pairs, extra = match(item.dice, readings, image.shape)
        for reading in extra:
            tally.add_false(item.path, reading,
                            any(face_side_apart(die, reading, image.shape) is not None for die in item.dice))
        for die, reading in zip(item.dice, pairs):
            tally.add(item.path, die, reading)
    return tally, times


def report(tally: Tally, values: Iterable[int]) -> str:
    """Human summary: rates, the confusion matrix (truth rows), and the wrong readings."""
    n = max(tally.dice, 1)
    pct = lambda k: f"{k} ({100 * k / n:.2f}%)"  # noqa: E731
    lines = [f"dice: {tally.dice}  correct: {pct(tally.correct)}  wrong: {pct(tally.wrong)}  "
             f"unreadable: {pct(tally.unreadable)}  missed: {pct(tally.missed)}  "
             f"false detections: {tally.false_detections} ({tally.false_read} with a value, "
             f"{tally.false_beside} of them beside a labelled die)"]
    values = list(values)
    lines.append("truth\\read " + " ".join(f"{v:>5}" for v in values) + "  unread  missed")
    missed_by = {}
    for row in tally.rows:
        if row[3] == "missed":
            missed_by[row[1]] = missed_by.get(row[1], 0) + 1
    for t in values:
        cells = " ".join(f"{tally.confusion.get((t, r), 0):>5}" for r in values)
        lines.append(f"{t:>10} {cells}  {tally.confusion.get((t, None), 0):>6}  {missed_by.get(t, 0):>6}")
    lines.extend(f"wrong: {case}" for case in tally.wrong_cases)
    return "\n".join(lines)


def enlarged(reader: Callable[[np.ndarray], list[DieReading]], factor: float) -> Callable[[np.ndarray], list[DieReading]]:
    """``reader`` run on images enlarged ``factor`` times, its readings mapped back."""

    def read(image: np.ndarray) -> list[DieReading]:
        big = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        return [replace(r, center=(r.center[0] / factor, r.center[1] / factor),
                        box=tuple(int(round(v / factor)) for v in r.box)) for r in reader(big)]

    return read


def time_frame(images: list[np.ndarray], reader: Callable[[np.ndarray], list[DieReading]],
               runs: int = 30) -> tuple[int, float, float]:
    """Dice read and the median wall and CPU milliseconds of ``reader`` on ``images`` set
    side by side and scaled to fit a 1280x720 frame (the rest filled with their median colour)."""
    height = min(img.shape[0] for img in images)
    row = np.hstack([cv2.resize(img, (round(img.shape[1] * height / img.shape[0]), height)) for img in images])
    scale = min(1280 / row.shape[1], 720 / row.shape[0])
    scaled = cv2.resize(row, (round(row.shape[1] * scale), round(row.shape[0] * scale)), interpolation=cv2.INTER_CUBIC)
    frame = np.empty((720, 1280, 3), np.uint8)
    frame[:] = np.median(scaled.reshape(-1, 3), axis=0)
    y0, x0 = (720 - scaled.shape[0]) // 2, (1280 - scaled.shape[1]) // 2
    frame[y0:y0 + scaled.shape[0], x0:x0 + scaled.shape[1]] = scaled
    count = len(reader(frame))
    wall, cpu = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        reader(frame)
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return count, float(np.median(wall) * 1000), float(np.median(cpu) * 1000)


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # piped into head: stop quietly
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, metavar="LABELLED_DIR")
    parser.add_argument("--no-dice", type=Path, nargs="+", default=[], metavar="PHOTO_DIR",
                        help="also read the images of these folders, which show no pip d6: every reading is false")
    parser.add_argument("--csv", action="store_true", help="also print one CSV line per labelled die")
    parser.add_argument("--scale", type=float, default=1.0, metavar="F",
                        help="read the images enlarged F times (positions are mapped back)")
    parser.add_argument("--time-frame", type=Path, nargs="+", metavar="IMAGE",
                        help="also time reads of the IMAGEs side by side on a 1280x720 frame")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    from reader.camera.frame_reader import read_frame

    reader = read_frame if args.scale == 1.0 else enlarged(read_frame, args.scale)
    if not args.folders and not args.no_dice:
        parser.error("give a labelled folder, or --no-dice with a folder of photos")
    tally = Tally()
    times: list[float] = []
    for folder, loader in [(f, load_folder) for f in args.folders] + [(f, load_without_dice) for f in args.no_dice]:
        if not folder.is_dir():
            parser.error(f"{folder} is no folder")
        images = loader(folder)
        if not images:
            parser.error(f"{folder} holds no labelled images (YOLO .txt beside each, or a labels.csv)"
                         if loader is load_folder else f"{folder} holds no images")
        _, t = evaluate(images, reader, tally)
        times.extend(t)
    if args.csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(["file", "label", "read", "status", "reason"])
        writer.writerows(tally.rows)
    print(report(tally, range(1, 7)))
    if times:
        print(f"images: {len(times)}  median read time: {np.median(times):.1f} ms  p95: {np.percentile(times, 95):.1f} ms")
    if args.time_frame:
        count, wall, cpu = time_frame([cv2.imread(str(p)) for p in args.time_frame], read_frame)
        names = " + ".join(p.name for p in args.time_frame)
        print(f"1280x720 frame from {names}: {count} dice read, median {wall:.1f} ms wall, {cpu:.1f} ms CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
