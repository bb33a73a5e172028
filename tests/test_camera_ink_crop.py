"""The closer look at a lone coloured pip, in its ink's colour alone. On a black die with red
pips, a highlight beside one pip of a 2 hides that pip in grey (it is as light as the red)
and the other was left alone. In its ink's colour the hidden pip shows, but the crop round
the lone pip reached only 13 of its radii, and in grey that pip measures small: the 2's
face ran off the crop and was refused as occluded. The ink's crop now reaches further; the
grey crop does not (that far out it holds the front face of a die read already, whose top
face it cuts off). In the ink's colour a dark table looks like the dark die, and a 2 there
is never split into two touching dice' 1s."""

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

BLACK_DICE = {"colours": ("black/red", "black/gold")}
BIG_PIPS = {"pip_sizes": (0.1, 0.13)}
GLARE = {"glare": (0.4, 0.6)}
LIGHT_DICE = {"colours": ("yellow", "grey", "orange")}


def _read_at(seed: int, index: int, where: tuple[int, int], reach: float = 30.0,
             **options: Any) -> tuple[list[int], list[int | None]]:
    """The labelled values of the dice within 12 pixels of ``where`` in scene ``index`` of
    ``render_labelled.py --seed SEED`` (with ``options``), and the values read within
    ``reach`` pixels of it (None: unreadable)."""
    image, truths = render(nth_scene(seed, index, **options))
    labels = [t.value for t in truths if math.dist(t.centre, where) < 12]
    return labels, [r.value for r in read_frame(as_saved(image)) if math.dist(r.center, where) < reach]


def test_a_2_with_one_pip_under_a_highlight_is_read() -> None:
    """``--seed 2005 --colours black/red black/gold``, scene 13: a black 2 with red pips seen
    at 36 degrees, a highlight over its upper pip."""
    assert _read_at(2005, 13, (607, 342), **BLACK_DICE) == ([2], [2])


def test_a_2_in_a_highlight_is_no_two_1s_in_the_inks_colour() -> None:
    """``--seed 2008 --glare 0.4-0.6``, scene 42: a black 2 with red pips on a dark table, a
    strong highlight between its pips. In the ink's colour the two pips lie on a body as
    dark as the table; the highlight beyond them is all that differs. It is not read as a 1
    (unreadable is right: its face does not read in grey)."""
    labels, read = _read_at(2008, 42, (1100, 221), 40.0, **GLARE)
    assert labels == [2]
    assert read and 1 not in read


@pytest.mark.parametrize(("seed", "index", "where", "options"), [
    (1914, 44, (201, 599), LIGHT_DICE),   # an orange 6 seen at 40 degrees: its front face shows 3
    (1907, 16, (1118, 422), BIG_PIPS),    # a black 5 seen at 35 degrees: its front face shows 6
])
def test_the_front_face_of_a_die_read_is_no_die(seed: int, index: int, where: tuple[int, int],
                                                options: dict[str, Any]) -> None:
    """A lone pip of a front face is looked at closer; the grey crop round it must not reach
    so far that it cuts off the top face and reads the front face as a die of its own."""
    image, truths = render(nth_scene(seed, index, **options))
    assert not any(math.dist(t.centre, where) < 25 for t in truths)  # (no die's top face lies there)
    assert not [r for r in read_frame(as_saved(image)) if math.dist(r.center, where) < 12 and r.value is not None]


def test_a_red_1_in_a_highlight_is_no_blob_in_the_inks_colour() -> None:
    """``--seed 2005 --colours black/red black/gold``, scene 8: a black 1 with a red pip in a
    highlight. Read in the ink's colour, the 1 was asked whether it holds pips at full size
    in grey, where the highlight round the red pip comes apart into blobs, and was dropped as
    a whole die taken for a pip. It is asked on the image it was found on."""
    assert _read_at(2005, 8, (833, 432), **BLACK_DICE) == ([1], [1])
