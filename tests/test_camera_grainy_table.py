"""Grainy tables (cork, rough wood, a speckled mat): blobs of grain stand out from their
surroundings as far as a faint pip does, and a few of them together fit a 1 or a 2. A die's
pips must stand out from it by several times the table's texture."""

from __future__ import annotations

import math

import cv2
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.pips import search_pips
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, Scene, render, scatter

COLOURS = ("white", "red", "blue", "green", "yellow", "black", "purple", "grey")
GRAINY = 18.0


def _table(seed: int) -> tuple[int, int, int]:
    return TABLES[sorted(TABLES)[seed % len(TABLES)]]


def test_texture_tells_a_grainy_table_from_a_plain_one() -> None:
    """The search reports how far the image's median pixel stands out from its neighbourhood."""
    plain = render(Scene(table=_table(1), grain=6.0, seed=1))[0]
    grainy = render(Scene(table=_table(1), grain=GRAINY, seed=1))[0]
    texture = [search_pips(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)).texture for image in (plain, grainy)]
    assert texture[1] >= 2 * texture[0] > 0


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_an_empty_grainy_table_shows_no_dice(seed: int) -> None:
    """Before the texture was looked at, each of these tables showed 22 to 37 dice, 1 to 5 of
    them read as a number."""
    image = render(Scene(table=_table(seed), grain=GRAINY, seed=seed))[0]
    assert read_frame(image) == []


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_dice_on_a_grainy_table_are_read_and_nothing_else(seed: int) -> None:
    """Eight dice on a grainy table: each reading is a die's, and right; before, 26 to 40
    readings came out, 10 or 11 of them numbers, 7 or 8 of them right."""
    dice = scatter(8, (1280, 720), die_size=60.0, seed=seed, colours=COLOURS)
    image, truths = render(Scene(dice=dice, table=_table(seed), grain=GRAINY, seed=seed, tilt=(seed * 9) % 40))
    readings = read_frame(image)
    assert len(readings) <= len(truths)
    for reading in readings:
        truth = min(truths, key=lambda t: math.dist(reading.center, t.centre))
        assert math.dist(reading.center, truth.centre) < 20
        assert reading.status is not ReadStatus.OK or reading.value == truth.value
    assert sum(r.status is ReadStatus.OK for r in readings) >= 7
