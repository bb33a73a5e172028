"""A die whose pips do not read (motion blur) is still reported, unreadable, where its body
shows: a region apart from the table, of the size and colour of a die read in the frame
(``pipless_dice``). Only dice read with two pips or more stand for the frame's dice there:
a speck of a grainy table read as a 1 has its body in the table's own colour, and the
table's patches of that size passed as dice (six in one rendered frame)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from reader.camera.frame_reader import read_frame
from reader.camera.reading import ReadStatus
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def test_a_speck_read_as_a_1_does_not_make_the_table_dice() -> None:
    """``render_labelled.py --seed 2309 --grain 14-22``, scene 8: dice on a grainy table,
    every one read right; no unreadable die is reported away from them."""
    image, truths = render(nth_scene(2309, 8, grain=(14, 22)))
    readings = read_frame(as_saved(image))
    for truth in truths:
        assert [r.value for r in readings if math.dist(r.center, truth.centre) < 15] == [truth.value]
    phantoms = [r.center for r in readings if r.status is ReadStatus.UNREADABLE
                and min(math.dist(r.center, t.centre) for t in truths) > 40]
    assert phantoms == []
