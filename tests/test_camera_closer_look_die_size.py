"""A die left unread by the first look is read again on a crop round it. A crop round a lone
pip seldom holds a face of several pips, which is what shows how big the dice are; there
the frame's dice tell it (``frame_reader._die_offset``), as the first look's own dice told
the first look: a 1's die is about as big as the others."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def test_a_pip_of_a_2_printed_small_is_no_1_on_a_closer_look() -> None:
    """``render_labelled.py --seed 2006 --pip-size 0.055-0.075``, scene 7: a black die with
    small red pips shows 2, one pip far towards each corner. The first look refuses the
    lone pip as a 1; on the crop round it, neither the black body nor the table beside it
    shows where the die ends, and the pip passed as centred on its die. A 1's die as big as
    the frame's others reaches past the die's far edge, which the rays see: no 1 there."""
    where = (1091, 307)
    image, truths = render(nth_scene(2006, 7, pip_sizes=(0.055, 0.075)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [2]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 40 and r.value is not None] in ([], [2])


def test_a_small_die_shows_its_1_on_a_closer_look() -> None:
    """``render_labelled.py --seed 1803 --die-size 24-36``, scene 21: a small blue die
    shows 1, its front face (a 4) below it as light as its top. On the crop round the pip,
    the rays towards the camera run on over the front face; knowing the die's size (the
    frame's dice), the reader lets those rays pass, as the first look does, and reads the
    1."""
    where = (526, 204)
    image, truths = render(nth_scene(1803, 21, die_sizes=(24, 36)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [1]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [1]
