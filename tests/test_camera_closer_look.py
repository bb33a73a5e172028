"""The closer look at dice the first look could not read: dark dice whose coloured pips a
highlight hides in grey are read again in the pips' colour, and a die read there takes the
doubtful one's place when it is that die."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.reading import ReadStatus
from reader.camera.render import DARK_LOOKS, TABLES, DieTruth, RenderDie, Scene, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def _read_right(image: np.ndarray, truths: list[DieTruth], wanted: list[DieTruth],
                reach: float) -> tuple[list[int | None], list[int | None]]:
    """For each of the ``wanted`` truths, the value read nearest its centre (None: none
    read within ``reach``), and the values read that are not their nearest die's: wrong."""
    readings = read_frame(image)
    got = []
    for truth in wanted:
        near = [r for r in readings if math.dist(r.center, truth.centre) < reach]
        got.append(near[0].value if near and near[0].status is ReadStatus.OK else None)
    wrong = [r.value for r in readings if r.status is ReadStatus.OK
             and min(truths, key=lambda t: math.dist(t.centre, r.center)).value != r.value]
    return got, wrong


def test_touching_dark_dice_whose_pips_glare_hides_are_read_in_their_pips_colour() -> None:
    """The ninth scene of ``bench/render_labelled.py --seed 915 --pip-size 0.055-0.075
    --colours black/red black/gold``: two touching black 5s with red pips, turned 45 degrees
    against the view, each with its middle pip under a highlight as bright as the pips in
    grey. Their pips form no face, and their bodies (one, touching) are reported as a die
    with no readable face; the pips found on that body tell the ink's colour, in which the
    closer look finds every pip and reads both dice."""
    image, truths = render(nth_scene(915, 8, ["black/red", "black/gold"], pip_sizes=(0.055, 0.075)))
    image = as_saved(image)
    fives = [t for t in truths if t.value == 5 and math.dist(t.centre, (709, 221)) < 40]
    assert len(fives) == 2
    got, wrong = _read_right(image, truths, fives, 20)
    assert got == [5, 5], got
    assert not wrong, wrong


@pytest.mark.parametrize(("glare", "pip_radius"), [(0.6, 0.075), (0.8, 0.06), (0.8, 0.075)])
def test_a_dark_6_read_closer_whose_face_holds_every_pip_seen_is_read(glare: float, pip_radius: float) -> None:
    """A black 6 with red pips under strong glare: grey shows some of its pips, which form
    no face. Read again in red, the 6's face holds every pip seen, though its centre lies
    off the box of what grey saw; it is that die."""
    look = replace(DARK_LOOKS["black/red"], pip_radius=pip_radius)
    dice = (RenderDie(6, "black/red", (640.0, 360.0), 56.0, 20.0, look=look),)
    image, truths = render(Scene(dice=dice, table=TABLES["grey"], tilt=12.0, glare=glare, seed=6))
    got, wrong = _read_right(image, truths, truths, 28)
    assert got == [6], got
    assert not wrong, wrong
