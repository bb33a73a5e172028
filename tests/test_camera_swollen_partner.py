"""A 2 whose pips are small for its face is not grouped; each pip alone is no 1 while a
lone pip like it lies within a 2's diagonal (``face_checks._lone_partner``). A highlight
merged with one of the two swells it out of shape: a partner bigger than the pip counts
whatever its shape, and the die is read as the 2 (it was read as a 1)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "options", "where"), [
    (1908, 35, {"glare": (0.4, 0.6)}, (354, 177)),                           # black die, yellow pips
    (2205, 41, {"colours": ("black/red", "black/gold")}, (911, 380)),        # black die, red pips
])
def test_a_2_with_a_pip_swollen_by_a_highlight_is_no_1(seed: int, index: int, options: dict[str, object],
                                                      where: tuple[int, int]) -> None:
    """``render_labelled.py --seed SEED [options]``, scene INDEX: the die at ``where``
    shows 2, one pip under a highlight; it is read as a 2, never as a 1."""
    image, truths = render(nth_scene(seed, index, **options))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [2]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 30] == [2]
