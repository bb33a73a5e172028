"""A grainy table (cork, rough wood): blobs of grain stand out from it as far as a faint
pip, and are taken as faces like any pips before the faces too faint for a die are left
out. One rounder than a die's top face took that face for its side face, and the die went
unread. Such a faint blob no longer drops a face of three pips or more."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("index", "where"), [(12, (681, 538)), (13, (866, 243))])
def test_a_3_on_cork_is_read(index: int, where: tuple[int, int]) -> None:
    """``render_labelled.py --seed 1809 --grain 14-22``, scene INDEX: the 3 at ``where`` is
    read (a blob of grain beside it took it for its side face)."""
    image, truths = render(nth_scene(1809, index, grain=(14, 22)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [3]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [3]
