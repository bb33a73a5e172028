"""A grainy table (cork, rough wood): blobs of grain stand out from it as far as a faint
pip, and are taken as faces like any pips before the faces too faint for a die are left
out. One rounder than a die's top face took that face for its side face, and the die went
unread. Such a faint blob no longer drops a face of three pips or more; nor does a face
whose pips are much fainter take another, lying towards the camera from it, for its die's
front face."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

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


@pytest.mark.parametrize(("seed", "index", "where", "options"), [
    (2009, 11, (471, 182), {"grain": (14, 22)}),           # a grey 1 on cork, a grain blob above it
    (2010, 33, (63, 465), {"tilt": 0.0, "distance": 0.8}),  # a 1 seen from straight above
])
def test_a_1_below_a_fainter_blob_is_read(seed: int, index: int, where: tuple[int, int],
                                          options: dict[str, Any]) -> None:
    """``render_labelled.py --seed SEED`` (with ``options``), scene INDEX: the 1 at ``where``
    is read. A fainter blob lying beyond it, away from the camera, took it for its front face:
    a die's top face shows its pips at least about as clearly as its front face does."""
    image, truths = render(nth_scene(seed, index, **options))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [1]
    assert [r.value for r in read_frame(as_saved(image)) if math.dist(r.center, where) < 25] == [1]
