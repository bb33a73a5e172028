"""Dice whose pips are printed big (a radius of an eighth of the face's side, as on casino
dice, against about a twelfth on a typical die): a lone pip's face measured as a typical
die's, in pip radii, reaches past its edges onto its side faces, whose pips then seemed
to lie on it."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.dice_finder import DEFAULT_SPACING_RADII, FACE_HALF
from reader.camera.die_body import face_half
from reader.camera.frame_reader import read_frame
from reader.camera.pip_groups import group_pips
from reader.camera.pips import find_pips
from reader.camera.reading import ReadStatus
from reader.camera.render import DARK_LOOKS, LOOKS, TABLES, DieTruth, RenderDie, Scene, render
from rendered_places import REACH, assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402

#: Pip radius of the big-pipped dice, in face sides.
BIG_PIPS = 0.125
NAMES = ("purple", "orange", "black", "red", "blue", "black/gold", "black/red", "green", "white", "yellow")


def _ones(seed: int, names: tuple[str, ...] = NAMES, pip_radius: float = BIG_PIPS) -> tuple[np.ndarray, list[DieTruth]]:
    """A frame of 1s 56 px across, one of each look in ``names``, under a camera 20 to 40
    degrees from straight down (which shows the dice's side faces and their pips), and
    where each die's top face shows."""
    rng = np.random.default_rng(seed)
    looks = {**LOOKS, **DARK_LOOKS}
    dice = tuple(RenderDie(1, name, (200 + 220 * (i % 5), 220 + 260 * (i // 5)), 56.0, float(rng.uniform(0, 90)),
                           look=replace(looks[name], pip_radius=pip_radius))
                 for i, name in enumerate(names))
    return render(Scene(dice=dice, table=TABLES["felt"], tilt=float(rng.uniform(20, 40)), seed=seed))


def test_ones_with_big_pips_are_read() -> None:
    """Six frames of ten 1s: 20 of the 60 were read before the face was measured from the
    die's body; now 43. No die reads as anything but a 1 (a side face read beside its
    top face would)."""
    values = [r.value for seed in range(6) for r in read_frame(_ones(seed)[0]) if r.status is ReadStatus.OK]
    assert set(values) <= {1}
    assert len(values) >= 40


def test_a_big_ones_front_face_is_no_die() -> None:
    """An orange 1 whose pip a highlight spreads to 1.6 times the size of its front face's
    pips (a 5) is one die: the front face is its side face, not another die's top."""
    image, truths = _ones(0)
    (orange,) = [t for t in truths if t.colour == "orange"]
    x0, y0, x1, y1 = orange.box
    grown = max(x1 - x0, y1 - y0)  # (the die's front face lies within a face's side below its top)
    near = [(r.status, r.value) for r in read_frame(image)
            if x0 - grown <= r.center[0] <= x1 + grown and y0 - grown <= r.center[1] <= y1 + grown]
    assert near == [(ReadStatus.OK, 1)]


@pytest.mark.parametrize("seed", range(3))
def test_a_big_pipped_face_measures_smaller_in_pip_radii(seed: int) -> None:
    """The body round a big lone pip ends nearer, in pip radii, than a typical die's face
    does; round a typical die's 1, no nearer."""
    halves = {}
    for radius in (BIG_PIPS, 0.085):
        image, _ = _ones(seed, ("white",), radius)
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        pips = find_pips(grey)
        # (the top face's pip: the roundest and biggest; its side faces' are slivers)
        group = max((g for g in group_pips(pips, grey) if len(g.pips) == 1),
                    key=lambda g: g.pips[0].radius * g.pips[0].roundness)
        halves[radius] = face_half(group.pips[0], group.squash, grey, pips)
    assert halves[BIG_PIPS] < FACE_HALF * DEFAULT_SPACING_RADII <= halves[0.085]


def test_a_big_pipped_6_whose_rows_join_is_read_with_its_middle_pips() -> None:
    """The ninth scene of ``bench/render_labelled.py --seed 921 --pip-size 0.1-0.13``: an
    orange 6 touching a red one, pips 0.13 of the side, read on an image of half the size.
    Each row of three pips is one region at half its contrast, so the region is cut again
    nearer the ink. Cut there, the middle pip's ring runs over its neighbours' rims, which
    lie short of that level; what the first cut found inked (the rims too) is left out of
    it, and the middle pip stands out from its face like the others."""
    image, truths = render(nth_scene(921, 8, pip_sizes=(0.1, 0.13)))
    readings = [r for r in read_frame(as_saved(image)) if r.status is ReadStatus.OK]
    for truth in truths:
        near = [r for r in readings if math.dist(r.center, truth.centre) < 20]
        assert [r.value for r in near] == [truth.value], (truth, near)


@pytest.mark.parametrize(("value", "table"), [(2, "wood"), (6, "felt")])
def test_the_body_round_a_big_pipped_faces_pips_is_its_own(value: int, table: str) -> None:
    """A white 2 or 6, pips 0.13 of the side, 80 px across: a corner pip's rim lies a
    third of its radius from the face's edge. The body's colour is read on a ring nearer
    such a pip than 2.2 radii, which would run over the table: read there, the 2's body
    was the table's colour (its face beyond its empty corners then stood out from it, as
    two touching dice's 1s' table does), and the 6's corner pips lay on bodies of other
    colours than its middle ones'."""
    look = replace(LOOKS["white"], pip_radius=0.13)
    dice = (RenderDie(value, "white", (640.0, 360.0), 80.0, look=look),)
    image, _ = render(Scene(dice=dice, table=TABLES[table], tilt=10.0, seed=value))
    assert [(r.status, r.value) for r in read_frame(as_saved(image))] == [(ReadStatus.OK, value)]


def test_two_touching_big_pipped_4s_are_two_faces() -> None:
    """``render_labelled.py --seed 1807 --pip-size 0.1-0.13``, scene 57: two yellow 4s side
    by side, 44 degrees oblique. Their big pips sit so near the edges that each die's inner
    column lies nearer the other die's than its own outer column, and the eight pips are
    linked as one group; no split of it lay 2.4 offsets apart (the nearest pip 2.3), so it
    was cut at its weakest links into a 6-pip non-face and two lone pips, and neither die
    was found. Eight pips are no one face: the split of two 4s is taken. The left 4 is
    read; the right one, whose centre lies within 1.6 of the left one's half-sides as its
    pip offsets measure them, is still taken for a face of the left die (missed), and
    nothing there is read as another number."""
    truths, readings = render_and_read(nth_scene(1807, 57, pip_sizes=(0.1, 0.13)))
    assert_read_at(truths, readings, (1001, 597), 4)
    assert [r.value for r in readings if math.dist(r.center, (1061, 604)) < REACH] in ([], [4])
