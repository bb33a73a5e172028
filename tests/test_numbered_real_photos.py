"""Real photos (numeral-tower, beside the repository): teach from them, read other views.

Skipped when ``../shared/data/numeral-tower`` is absent. Every reading must be right or
unreadable; nearly all must be read.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.numbered.frame import read_numbered
from reader.camera.numbered.kinds import value_of
from reader.camera.numbered.teaching import single_die, teach_from_photos
from reader.camera.reading import ReadStatus

TOWER = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "numeral-tower"

pytestmark = pytest.mark.skipif(not (TOWER / "labels.csv").is_file(), reason="numeral-tower photos not present")


def _rows(kind: str) -> list[dict[str, str]]:
    with (TOWER / "labels.csv").open(encoding="utf-8") as handle:
        return [r for r in csv.DictReader(handle) if r["die"] == kind]


def _turned(image: np.ndarray, angle: float, scale: float) -> np.ndarray:
    """The photo turned about its die and rescaled, the gaps filled with the tray's colour."""
    blob = single_die(image, "photo")
    m = cv2.getRotationMatrix2D(blob.centre, angle, scale)
    tray = tuple(float(v) for v in np.median(image[int(blob.y) + 90:int(blob.y) + 110, int(blob.x) - 60:int(blob.x) + 60]
                                             .reshape(-1, 3), axis=0))
    return cv2.warpAffine(image, m, image.shape[1::-1], borderValue=tray)


def _read(image: np.ndarray, model) -> int | None:
    readings = read_numbered(image, None, {model.kind}, [model])
    return readings[0].value if len(readings) == 1 and readings[0].status is ReadStatus.OK else None


@pytest.mark.parametrize("kind", ["d20", "d00"])
def test_a_taught_die_reads_turned_and_rescaled_views_of_its_photos(kind: str) -> None:
    rows = _rows(kind)
    model = teach_from_photos([(TOWER / r["file"], int(r["shown"])) for r in rows], kind)
    rng = np.random.default_rng(3)
    wrong, read, total = [], 0, 0
    for row in rows[::2]:
        image = cv2.imread(str(TOWER / row["file"]))
        value = _read(_turned(image, rng.uniform(20, 340), rng.uniform(0.8, 1.2)), model)
        truth = value_of(kind, int(row["shown"]))
        total += 1
        read += value is not None
        if value is not None and value != truth:
            wrong.append((row["file"], truth, value))
    assert not wrong
    assert read >= total - 1


def test_a_d4_taught_from_sets_a_to_c_reads_sets_d_and_e() -> None:
    rows = _rows("d4")
    model = teach_from_photos([(TOWER / r["file"], int(r["shown"])) for r in rows if r["set"] in "ABC"], "d4")
    results = [(int(r["shown"]), _read(cv2.imread(str(TOWER / r["file"])), model)) for r in rows if r["set"] in "DE"]
    assert all(value in (None, truth) for truth, value in results)
    assert sum(value == truth for truth, value in results) >= 7
