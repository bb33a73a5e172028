"""Two dice of one colour side by side, each showing 1: their pips lie as far apart as a
2's printed small, and are linked as one. The 2 is refused where its face does not go on
beyond its empty corners; each pip is then read as a 1 of its own where it sits at the
centre of a body of its own. A real 2 refused that way stays a 2."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "colours", "pair"), [
    (1805, 12, ("black/red", "black/gold"), ((1099, 138), (1051, 152))),  # black dice, red 1s, 18 degrees
    (1801, 5, None, ((911, 268), (951, 313))),                            # green dice, white 1s, 40 degrees
])
def test_two_touching_1s_are_read_as_two_dice(seed: int, index: int, colours: tuple[str, ...] | None,
                                              pair: tuple[tuple[int, int], ...]) -> None:
    """``render_labelled.py --seed SEED [--colours ...]``, scene INDEX: both 1s are read
    (both went unread), and no 2 is read between them."""
    scene = nth_scene(seed, index, colours) if colours else nth_scene(seed, index)
    image, truths = render(scene)
    assert sorted(t.value for t in truths if any(math.dist(t.centre, p) < 2 for p in pair)) == [1, 1]
    readings = read_frame(as_saved(image))
    for where in pair:
        assert [r.value for r in readings if math.dist(r.center, where) < 15] == [1]
    middle = ((pair[0][0] + pair[1][0]) / 2, (pair[0][1] + pair[1][1]) / 2)
    assert not [r for r in readings if math.dist(r.center, middle) < 15]


@pytest.mark.parametrize(("seed", "index", "where"), [(21, 48, (961, 588)), (21, 64, (703, 509)),
                                                    (301, 37, (825, 291))])
def test_a_2_refused_as_two_1s_is_not_split(seed: int, index: int, where: tuple[int, int]) -> None:
    """``render_labelled.py --seed SEED``, scene INDEX: the 2 at ``where`` is refused as the
    1s of two touching dice (beyond its empty corners the face's grey does not go on: pips
    printed small, a highlight), but neither of its pips sits at the centre of a body of
    its own: it is not read as two 1s, and a closer look reads the 2."""
    image, truths = render(nth_scene(seed, index))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [2]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 40] == [2]
