"""The d6 reader on real photos that show no pip d6: a black dice tray on a grainy wooden
table, seen from above, with a numbered die in it (``../shared/data/numeral-tower``, never
copied into the repository; the test skips when it is absent). Every reading there is a
false detection: the wood's grain, dust on the tray, the tray's rim."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from reader.camera.frame_reader import read_frame

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "data" / "numeral-tower"
NAMES = [f"D6_A_{face}.jpg" for face in range(1, 7)] + ["background_1.jpg"]


def test_a_tray_on_a_wooden_table_shows_few_dice_that_are_not_there() -> None:
    """Before the surface's grain was looked at, these seven photos showed 30 dice read with
    a value and 193 unreadable ones; now 5 and 3."""
    if not PHOTOS.is_dir():
        pytest.skip("shared numeral-tower photos not present")
    readings = [r for name in NAMES for r in read_frame(cv2.imread(str(PHOTOS / name)))]
    assert sum(r.value is not None for r in readings) <= len(NAMES)
    assert len(readings) <= 2 * len(NAMES)
