"""A 2 or a 3 seen steeply has its die's front face just below it, and a neighbour's side face
may lie beside it. Their pips can fall where a bigger face's pips would be: one step further
along a 2's diagonal, or one step to the side of its pips. The 2 or 3 was then refused as
part of that bigger face. A pip found there that is foreshortened as a side face's pips are
no longer counts: flatter than each of the face's pips, and along another direction where
both are oval, or much flatter beside round pips. A flatter pip along the same direction
still counts, because it may be one of the face's own pips measured flat at an edge; so does
a pip rounder than the face's, whose face may be the one seen less foreshortened: the top.
Beside a face too flat to be a top face, every pip still counts."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from rendered_places import REACH, assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


def test_a_three_above_its_front_faces_pips_is_read() -> None:
    """``render_labelled.py --seed 1814 --colours yellow grey orange``, scene 20: a grey 3
    tilted 40 degrees, its pips ovals along its row (0.73 to 0.78 round). Its front face's
    pips lie a step to the side of two of them: flatter ovals (0.40 to 0.56), turned 36
    degrees or more from the row's."""
    truths, readings = render_and_read(nth_scene(1814, 20, colours=("yellow", "grey", "orange")))
    assert_read_at(truths, readings, (1002, 347), 3)


def test_a_two_beside_flat_pips_is_read() -> None:
    """``render_labelled.py --seed 1802``, scene 39: a 2 seen square-on (its pips 0.83 and
    0.90 round). One step further along its diagonal lies a pip of its front face seen
    edge-on, 0.51 round."""
    truths, readings = render_and_read(nth_scene(1802, 39))
    assert_read_at(truths, readings, (402, 279), 2)


def test_a_row_of_a_front_faces_pips_is_no_two() -> None:
    """``render_labelled.py --seed 1816 --tilt 30 --die-size 30-40``, scene 41: a black die
    with red pips, its 5 on top and a row of three pips on its front face. On a crop, two
    of the row read as a 2. The row's third pip lies one step further along, flatter (0.35
    round against 0.59 and 0.62) but oval along the same direction. It still counts, so no
    2 is read there. The 5 above it is read."""
    truths, readings = render_and_read(nth_scene(1816, 41, tilt=30, die_sizes=(30, 40)))
    assert_read_at(truths, readings, (678, 354), 5)
    assert not [t for t in truths if math.dist(t.centre, (684, 375)) < REACH]
    assert [r.value for r in readings if math.dist(r.center, (684, 375)) < REACH and r.value is not None] == []


def test_a_front_faces_two_beside_rounder_pips_is_no_two() -> None:
    """``render_labelled.py --seed 3208 --glare 0.4-0.6``, scene 5: a black die with red
    pips, its 1 on top lost in a highlight. On a crop, two pips of its front face (0.63 and
    0.70 round) make a 2, and a pip of its left face lies beside them, turned another way
    but 0.72 round: rounder than one of the 2's, so it may be a top face's. It still counts,
    and no die is read there (the 1's centre lies 30 pixels above the 2's)."""
    truths, readings = render_and_read(nth_scene(3208, 5, glare=(0.4, 0.6)))
    assert [t.value for t in truths if math.dist(t.centre, (1006, 302)) < REACH] == [1]
    assert [r.value for r in readings if math.dist(r.center, (1016, 331)) < REACH and r.value is not None] == []


def test_a_front_faces_edge_on_three_is_no_die() -> None:
    """``render_labelled.py --seed 3612 --light cold``, scene 15: a black die with white pips,
    its 2 on top, and on its front face a row of three pips seen nearly edge-on (0.38 to 0.47
    round), with a flatter pip of its left face beside the row, turned another way. A face
    that flat is no top face under a camera up to 45 degrees from straight down, so that pip
    still counts beside it: the row is read as no 3."""
    truths, readings = render_and_read(nth_scene(3612, 15, lights=("cold",)))
    assert_read_at(truths, readings, (536, 135), 2)
    assert [r.value for r in readings if math.dist(r.center, (555, 173)) < REACH and r.value is not None] == []
