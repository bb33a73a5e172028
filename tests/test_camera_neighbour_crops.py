"""A closer look at a doubtful die reads the crop round it, and that crop often shows its
neighbours too. A die read there that is not the doubt's own used to be thrown away; a
neighbouring doubt whose guessed box reached over a die read already was then passed over,
and its die was missed. Such a doubt now takes the die the other crop read, when that die
holds every pip the doubt was seen with and lies off every die read; where no crop read
one, its own crop is read. A die read on any crop is taken if it lies off every read die's
face (touching dice's boxes hold each other's centres): further than half the read die's box
side from its centre, which a side face of that die, read on the crop, is not; and if it
holds none of that die's pips (a crop may read a die out of a small 1's pip and one on its
front face, centred just off the 1's face)."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest

from reader.camera.reading import ReadStatus
from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


def test_a_die_read_on_its_neighbours_crop_is_kept() -> None:
    """``render_labelled.py --seed 2405 --colours black/red black/gold``, scene 41: two
    black dice with red pips touching, each showing 4, a highlight swelling one pip of the
    left one. The first look refused both; the right one's crop, read in the red ink alone,
    read both 4s, and the left one's doubt (a lone pip inside the right die's box) was passed
    over. Both are read now."""
    truths, readings = render_and_read(nth_scene(2405, 41, colours=("black/red", "black/gold")))
    assert_read_at(truths, readings, (831, 547), 4)
    assert_read_at(truths, readings, (907, 525), 4)


def test_a_die_read_beside_an_unreadable_one_does_not_take_its_place() -> None:
    """``render_labelled.py --seed 915 --pip-size 0.055-0.075 --colours black/red
    black/gold``, scene 31: a 4 left unreadable, and beside it a 2 seen so steeply that one
    of its pips, alone, is read as a 1 on a closer look. That 1 does not hold the 4's four
    pips: the 4 stays unreadable, not replaced by a 1."""
    truths, readings = render_and_read(nth_scene(915, 31, colours=("black/red", "black/gold"),
                                                 pip_sizes=(0.055, 0.075)))
    assert [t.value for t in truths if math.dist(t.centre, (570, 317)) < 15] == [4]
    near = [r for r in readings if math.dist(r.center, (560, 300)) < 40]
    assert [(r.value, r.status) for r in near] == [(None, ReadStatus.UNREADABLE)]


def test_a_die_read_on_a_later_crop_replaces_the_doubt_it_accounts_for() -> None:
    """``render_labelled.py --seed 2206 --pip-size 0.055-0.075``, scene 5: a 6 whose pips
    the first look saw as two doubts, one left unreadable (a lone pip), the other a
    tentative die. The tentative one's crop reads the 6, which holds the unreadable one's
    pip and used to be refused for lying in its box: the 6 is read, and no unreadable die
    is reported beside it."""
    truths, readings = render_and_read(nth_scene(2206, 5, pip_sizes=(0.055, 0.075)))
    assert [t.value for t in truths if math.dist(t.centre, (851, 346)) < 15] == [6]
    assert [(r.value, r.status) for r in readings if math.dist(r.center, (851, 346)) < 30] == [(6, ReadStatus.OK)]


def test_a_doubt_inside_a_touching_dies_box_is_read_on_its_crop() -> None:
    """``render_labelled.py --seed 1805 --colours black/red black/gold``, scene 6: black dice
    touching. A 1, its red pip swollen by a highlight (a tentative doubt), lies inside the
    upright box round a read 3's face; a 4 left unreadable (ambiguous) lies inside a read
    6's. Both were passed over and missed; their own crops read them."""
    truths, readings = render_and_read(nth_scene(1805, 6, colours=("black/red", "black/gold")))
    assert_read_at(truths, readings, (514, 421), 1)
    assert_read_at(truths, readings, (653, 161), 4)


def test_an_unreadable_die_beside_a_read_one_is_read_on_its_crop() -> None:
    """``render_labelled.py --seed 1802``, scene 7: a 2 seen at 38 degrees, left unreadable
    (ambiguous) on the first look, its guessed box holding the centre of a 6 read beside it.
    It was passed over and missed; its crop reads it."""
    truths, readings = render_and_read(nth_scene(1802, 7))
    assert_read_at(truths, readings, (818, 446), 2)


def test_a_die_read_on_its_crop_inside_a_read_dies_box_is_kept() -> None:
    """``render_labelled.py --seed 1801``, scene 39: a black die's red 6 left unreadable
    beside a read 2 whose box holds the 6's centre; ``--seed 1805 --colours black/red
    black/gold``, scene 4: a black die's red 5 (a tentative doubt) whose centre a touching
    read 4's box holds. Their crops read them, and both were refused for lying in the read
    die's box; both lie off its face."""
    truths, readings = render_and_read(nth_scene(1801, 39))
    assert_read_at(truths, readings, (1051, 327), 6)
    truths, readings = render_and_read(nth_scene(1805, 4, colours=("black/red", "black/gold")))
    assert_read_at(truths, readings, (1082, 356), 5)


def test_a_die_holding_a_read_ones_pip_is_no_die() -> None:
    """``render_labelled.py --seed 3402``, scene 32, seen at 40 degrees: a small die's 1
    (its box 29 by 25 pixels), read, and a doubt on its front face. The doubt's crop reads a
    2 out of the 1's pip and a pip of the front face, centred 13 pixels off, just beyond half
    the 1's box; it holds the 1's pip, so it is refused: the 1 is read alone."""
    truths, readings = render_and_read(nth_scene(3402, 32))
    assert_read_at(truths, readings, (830, 277), 1, reach=40)


@pytest.mark.parametrize(("seed", "index", "options", "read_die", "side_face"), [
    (3511, 54, {"blur": 14.0}, ((756, 206), 5), (779, 236)),
    (3514, 49, {"colours": ("yellow", "grey", "orange")}, ((824, 410), 3), (802, 442)),
])
def test_a_read_dies_side_face_on_a_crop_is_no_die(seed: int, index: int, options: dict[str, Any],
                                                   read_die: tuple[tuple[int, int], int],
                                                   side_face: tuple[int, int]) -> None:
    """``render_labelled.py --seed 3511 --blur 14``, scene 54: a black die's yellow 5, read,
    and a doubt on its front face (four pips) inside the 5's box; ``--seed 3514 --colours
    yellow grey orange``, scene 49: an orange die's 3, read, and a doubt on its side face
    (one pip). Each doubt's crop reads its side face as a die (a 4, a 1), centred 0.47 and
    0.49 of the read die's box side from its centre: within half of it, so refused (half the
    side face's own smaller box let them through)."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert_read_at(truths, readings, *read_die)
    assert_read_at(truths, readings, side_face, None)
