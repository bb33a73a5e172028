"""Small dice (20-36 pixels across on a 1280x720 frame): a frame sized at half size on small
light dice cut out whole (they look like big pips there, their own pips too small to show)
is searched at full size, and a small lone pip is judged by its own size, not by the blob
its blurred rim makes when it is cut nearer the table than its face."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from reader.camera.frame_reader import SearchScale, read_frame
from reader.camera.reading import DieReading, ReadStatus
from reader.camera.render import DARK_LOOKS, LOOKS, TABLES, DieTruth, RenderDie, Scene, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import LIGHTS, random_scene  # noqa: E402


def _sized_on_dice() -> Scene:
    """Five small dice on a pale blue table, the 17th frame of ``render_labelled.py --seed 93
    --die-size 20-30``: at half size its orange and white dice are the clearest blobs, about
    three pixels in radius, so it was reduced to half size, where no die showed its pips."""
    rng = np.random.default_rng(93)
    scenes = [random_scene(rng, (1280, 720), sorted({*LOOKS, *DARK_LOOKS}), sorted(TABLES), sorted(LIGHTS), None,
                           0.0, (20.0, 30.0)) for _ in range(17)]
    return scenes[-1]


def _matched(readings: list[DieReading], truths: list[DieTruth]) -> list[tuple[int, int]]:
    """(value shown, value read) of every die read, matched to the nearest die shown."""
    return [(min(truths, key=lambda t: math.dist(r.center, t.centre)).value, r.value)
            for r in readings if r.status is ReadStatus.OK]


def test_a_frame_sized_on_whole_small_dice_is_searched_at_full_size() -> None:
    image, truths = render(_sized_on_dice())
    memo = SearchScale()
    pairs = _matched(read_frame(image, None, memo), truths)
    assert memo.scale == 1.0  # and so is the camera's next frame
    assert all(shown == read for shown, read in pairs), pairs
    assert len(pairs) >= 4, pairs


def _lone_one(colour: str, table: str, size: float, glare: float) -> Scene:
    return Scene(dice=(RenderDie(1, colour, (400.0, 300.0), size, 20.0),), table=TABLES[table], tilt=20.0,
                 glare=glare, defocus=0.5, seed=5)


@pytest.mark.parametrize("scene", [_lone_one("green", "dark", 26.0, 0.1), _lone_one("orange", "felt", 30.0, 0.3)],
                         ids=["green-on-dark", "orange-on-felt"])
def test_the_pip_of_a_small_1_is_not_taken_for_a_die_holding_pips(scene: Scene) -> None:
    # the light die stands out from the table whole: its white pip, cut halfway between the
    # table and its ink, takes in its blurred rim, and read out to most of that radius
    # its inside was far from one level
    image, truths = render(scene)
    readings = read_frame(image)
    assert [(r.value, r.status) for r in readings] == [(1, ReadStatus.OK)]
    assert math.dist(readings[0].center, truths[0].centre) < scene.dice[0].size / 2


@pytest.mark.parametrize("table", ["dark", "felt"])
def test_small_dice_alone_are_never_read_as_another_value(table: str) -> None:
    # a small die lighter than its table, cut out whole, is one blob whose inside holds its
    # pips: it is no 1, whatever size its blob is judged by
    wrong = []
    for value in range(1, 7):
        for colour in ("white", "yellow", "orange", "green"):
            scene = Scene(dice=(RenderDie(value, colour, (400.0, 300.0), 26.0, 20.0),), table=TABLES[table],
                          tilt=20.0, glare=0.2, defocus=0.5, seed=value)
            image, _ = render(scene)
            wrong += [(value, colour, r.value) for r in read_frame(image)
                      if r.status is ReadStatus.OK and r.value != value]
    assert not wrong
