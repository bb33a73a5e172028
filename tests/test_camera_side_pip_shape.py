"""A 1 on a die whose pips are printed big: its die is smaller, in pip radii, than a
typical die, so a typical face round the 1 reaches over its edges onto its side faces and
their pips. A side face's pip, printed as clearly as the 1 but smaller and foreshortened
another way, is no stray on the 1's face (``face_checks._stray_pip``): the 1 is read (it
was missed). A faint mark shaped otherwise still counts as a stray."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def test_a_1_beside_its_side_faces_big_pips_is_read() -> None:
    """``render_labelled.py --seed 2307 --pip-size 0.1-0.13``, scene 57: the purple die at
    (802, 579) shows 1, the pips of its side faces beside it; it is read as a 1."""
    image, truths = render(nth_scene(2307, 57, pip_sizes=(0.1, 0.13)))
    where = (802, 579)
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [1]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 30] == [1]


def test_a_faint_mark_shaped_otherwise_still_counts() -> None:
    """``render_labelled.py --seed 1816 --tilt 30 --die-size 30-40 --pip-size 0.055-0.11``,
    scene 18: the small die at (763, 616) shows 2, a faint mark beside one of its pips; that
    pip is never read as a 1."""
    image, truths = render(nth_scene(1816, 18, tilt=30, die_sizes=(30, 40), pip_sizes=(0.055, 0.11)))
    where = (763, 616)
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [2]
    readings = read_frame(as_saved(image))
    assert 1 not in [r.value for r in readings if math.dist(r.center, where) < 15]
