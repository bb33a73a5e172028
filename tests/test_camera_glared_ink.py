"""A highlight over a dark pip lifts its ink, not its surroundings (light already): the
pip stands out from the face less than its partner does, and the two were not linked as
one face's pips (``pip_groups.MIN_CONTRAST_RATIO``). Two dark pips lit alike round them
and shaped alike are linked down to ``MIN_GLARED_INK_RATIO``: the 2 is read (each pip
alone was refused as a 1, and the die was missed). A side face's strokes, fainter and
flatter than the top face's pips, stay apart: the 4 beside them is read where it is."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "options", "where", "value"), [
    (2308, 33, {"glare": (0.4, 0.6)}, (863, 391), 2),       # grey die, one pip under the highlight
    (2110, 30, {"tilt": 0, "distance": 0.8}, (658, 613), 4),  # white die, a side face's strokes above
])
def test_a_dark_pip_under_a_highlight_joins_its_face(seed: int, index: int, options: dict[str, object],
                                                     where: tuple[int, int], value: int) -> None:
    """``render_labelled.py --seed SEED [options]``, scene INDEX: the die at ``where``
    shows ``value`` and is read as that, at its place."""
    image, truths = render(nth_scene(seed, index, **options))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [value]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 15] == [value]
