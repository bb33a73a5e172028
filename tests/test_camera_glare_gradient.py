"""Two light pips of one face, a highlight between them: the face between them is lit
towards the ink's level, and their path stays on the body only if the light along it
changes smoothly (no step, as at a seam between two dice). Under a lamp close to a glossy
die the light falls off faster than ``MAX_GLARE_STEP`` once allowed (0.15 of the pips'
contrast between points two pixels apart: these measured 0.17 and 0.19), the two pips were
not linked, each alone is no 1 beside the other, and the die was missed; it is read."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("index", "where"), [(6, (1140, 399)), (36, (259, 403))])
def test_a_2_across_a_fading_highlight_is_read(index: int, where: tuple[int, int]) -> None:
    """``render_labelled.py --seed 2308 --glare 0.4-0.6``, scene INDEX: the red die at
    ``where`` shows 2, a highlight between its white pips; it is read as a 2."""
    image, truths = render(nth_scene(2308, index, glare=(0.4, 0.6)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [2]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 15] == [2]
