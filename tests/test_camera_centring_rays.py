"""Whether a lone pip sits at its face's centre is told by rays round it, opposite ones
compared. One ray cut short (a speck, a highlight's edge, a notch) no longer makes a 1
off-centre where every other direction is clearly even; a pip off its face's centre is off
it in most directions, and still is."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.die_body import centred_on_body
from reader.camera.frame_reader import read_frame
from reader.camera.pip_groups import group_pips
from reader.camera.pips import find_pips
from reader.camera.render import render
from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def _centred(pip_y: int, notch: bool) -> bool:
    """A light die's face (120 px square) on a darker table, one dark pip at ``pip_y`` on its
    middle column and, if ``notch``, a thin strip of table reaching into the face from its
    right edge to 20 px from the pip (it ends the one ray along it): whether the pip is
    found centred on its body."""
    grey = np.full((240, 240), 90, np.uint8)
    cv2.rectangle(grey, (60, 60), (180, 180), 205, -1)
    cv2.circle(grey, (120, pip_y), 7, 25, -1)
    if notch:
        cv2.rectangle(grey, (140, pip_y - 2), (185, pip_y + 2), 90, -1)
    grey = cv2.GaussianBlur(grey, (3, 3), 0)
    pips = find_pips(grey)
    (group,) = [g for g in group_pips(pips, grey) if math.dist((g.pips[0].x, g.pips[0].y), (120, pip_y)) < 3]
    return centred_on_body(group.pips[0], group.squash, grey, pips)


@pytest.mark.parametrize(("pip_y", "notch", "centred"), [
    (120, False, True), (120, True, True), (85, False, False), (85, True, False),
])
def test_one_ray_cut_short_leaves_a_centred_pip_centred(pip_y: int, notch: bool, centred: bool) -> None:
    assert _centred(pip_y, notch) is centred


def test_a_1_with_one_ray_cut_short_is_read() -> None:
    """``render_labelled.py --seed 2110 --tilt 0 --distance 0.8``, scene 16: a big grey 1
    seen from straight above; one ray from its pip ends short of the die's edge, every
    other pair of rays is even."""
    where = (460, 598)
    image, truths = render(nth_scene(2110, 16, tilt=0.0, distance=0.8))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [1]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [1]


def test_a_1_whose_even_pairs_lie_towards_the_camera_is_read() -> None:
    """``render_labelled.py --seed 1810 --tilt 0 --distance 0.8``, scene 13: a big 1 seen
    from straight above, one pair of rays off (2.7 against 6.5 pip half-lengths). Of the
    other seven pairs, all even, five have their farther end towards the camera and are not
    asked (it may lie on the die's front face): the two left were too few to excuse the one
    off, and the 1 was reported unreadable."""
    truths, readings = render_and_read(nth_scene(1810, 13, tilt=0.0, distance=0.8))
    assert_read_at(truths, readings, (710, 622), 1)
