"""Seen obliquely, a die's front face may look as clear as its top face. Where the first look
refuses a lone blob beyond a face (away from the camera), that face is left unread: the blob
may be its die's top face. When the closer look at the die reads a 1 in that blob, the 1 is
the die's top face and the face its front face: the die is read as the 1, not as the face."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "top", "front"), [
    (2208, 10, (331, 368), (338, 411)),   # black die, red 1 in a highlight, a 4 in front (was read as a 4)
    (2108, 41, (223, 358), (231, 389)),   # green die, white 1 in a highlight, a 3 in front (was unreadable)
])
def test_a_1_in_a_highlight_read_beyond_its_front_face(seed: int, index: int, top: tuple[int, int],
                                                       front: tuple[int, int]) -> None:
    """``render_labelled.py --seed SEED --glare 0.4-0.6``, scene INDEX: a die whose top face
    shows 1 under a highlight (the first look refuses it) and whose front face is seen
    below it. The die is read once, as a 1; its front face is not read."""
    image, truths = render(nth_scene(seed, index, glare=(0.4, 0.6)))
    assert [t.value for t in truths if math.dist(t.centre, top) < 15] == [1]
    readings = read_frame(as_saved(image))
    near = [r.value for r in readings if min(math.dist(r.center, top), math.dist(r.center, front)) < 25]
    assert near == [1]
