"""Dice printed with small pips set far out on their faces (casino-style, a pip's radius
0.055-0.065 of the face's side). A 2's pips then lie 12-15 pip radii apart and a 4's
sides up to 10.5, further than the pips of the renderer's usual dice (8.7 and 6.1): they
must still be linked into one face, and a 2 must never be read as a 1."""

from __future__ import annotations

import itertools
import math
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.reading import ReadStatus
from reader.camera.render import DARK_LOOKS, LOOKS, PIP_RADIUS, TABLES, DieLook, RenderDie, Scene, draw_pips, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import LIGHTS, random_scene  # noqa: E402

#: Each die look on a table it stands out from.
TABLE_FOR = {"white": "felt", "red": "wood", "black": "grey", "black/gold": "wood", "blue": "dark", "yellow": "grey"}
VALUES = (2, 4, 6, 5)


def _row(colour: str, tilt: float, pip_radius: float, angle: float, seed: int) -> Scene:
    look = replace(LOOKS.get(colour) or DARK_LOOKS[colour], pip_radius=pip_radius)
    dice = tuple(RenderDie(value, colour, (300.0 + 250 * k, 250.0 + 80 * k), 56.0, angle + 15 * k, look=look)
                 for k, value in enumerate(VALUES))
    return Scene(dice=dice, table=TABLES[TABLE_FOR[colour]], tilt=tilt, glare=0.2, defocus=0.4, seed=seed)


CASES = [(colour, tilt, radius, 10.0 if k % 2 else 50.0, 3 + k)
         for k, (colour, tilt, radius) in enumerate(itertools.product(TABLE_FOR, (0.0, 30.0), (0.055, 0.065)))]


@pytest.mark.parametrize("colour, tilt, pip_radius, angle, seed", CASES,
                         ids=[f"{c}-tilt{t:.0f}-pips{r}" for c, t, r, _, _ in CASES])
def test_dice_with_small_pips_far_out_are_read(colour: str, tilt: float, pip_radius: float, angle: float,
                                               seed: int) -> None:
    image, truths = render(_row(colour, tilt, pip_radius, angle, seed))
    readings = read_frame(image)
    assert all(r.status is ReadStatus.OK for r in readings), [(r.value, r.reason) for r in readings]
    pairs = sorted((min(truths, key=lambda t: math.dist(t.centre, r.center)).value, r.value) for r in readings)
    assert pairs == sorted(zip(VALUES, VALUES))


@pytest.mark.parametrize("pip_radius, least, most", [(PIP_RADIUS, 8.0, 9.5), (0.055, 14.0, 16.0), (0.13, 6.0, 7.0)])
def test_the_renderer_sets_a_2s_pips_apart_by_their_size(pip_radius: float, least: float, most: float) -> None:
    """The test above means what it says: a 2's pips lie that many pip radii apart (big
    pips are set out far enough that a 6's columns do not touch)."""
    texture = np.full((400, 400, 3), 255, np.uint8)
    draw_pips(texture, 2, DieLook((255, 255, 255), (0, 0, 0), pip_radius))
    count, _, stats, centres = cv2.connectedComponentsWithStats((texture[:, :, 0] < 128).astype(np.uint8))
    assert count == 3  # the background and two pips
    radius = math.sqrt(float(stats[1:, cv2.CC_STAT_AREA].mean()) / math.pi)
    assert least <= math.dist(centres[1], centres[2]) / radius <= most


def test_a_front_face_below_two_linked_ones_is_not_read() -> None:
    """The 33rd frame of ``render_labelled.py --seed 311 --tilt 30``: two touching black dice
    show 1s, one gold and one white, 12 pip radii apart. Linked as a 2 and refused, they are
    still the lone pips they may be: the gold die's front face, a 5 seen at 30 degrees below
    its 1, is not read in its top face's place."""
    rng = np.random.default_rng(311)
    scenes = [random_scene(rng, (1280, 720), sorted({*LOOKS, *DARK_LOOKS}), sorted(TABLES), sorted(LIGHTS), 30.0)
              for _ in range(33)]
    image, truths = render(scenes[-1])
    pairs = [(min(truths, key=lambda t: math.dist(t.centre, r.center)).value, r.value) for r in read_frame(image)]
    assert all(read in (None, truth) for truth, read in pairs), pairs
    assert sum(read is not None for _, read in pairs) >= 5, pairs


#: Two touching dice showing 1s: (look, table) on which each must stay two 1s, or unread.
TOUCHING_ONES = [("blue", "grey"), ("red", "grey"), ("purple", "grey"), ("green", "wood"), ("white", "felt"),
                 ("black", "felt"), ("black/red", "grey"), ("black/gold", "felt")]


@pytest.mark.parametrize("colour, table", TOUCHING_ONES, ids=[f"{c}-on-{t}" for c, t in TOUCHING_ONES])
@pytest.mark.parametrize("angle, tilt", [(8.5, 0.0), (40.0, 25.0)])
def test_the_ones_of_two_touching_dice_are_no_2(colour: str, table: str, angle: float, tilt: float) -> None:
    """Two 1s of dice in a row lie 9-12 pip radii apart, as a small-pipped 2's pips do; the
    2's face reaches past its empty corners, where two dice in a row show their table (in
    grey, in lightness or in colour: a grey table beside blue dice is as blue in hue, but
    far paler)."""
    side, turn = 56.0, math.radians(angle)
    dice = (RenderDie(1, colour, (600.0, 336.0), side, angle),
            RenderDie(1, colour, (600.0 - side * math.sin(turn), 336.0 - side * math.cos(turn)), side, angle))
    image, _ = render(Scene(dice=dice, table=TABLES[table], tilt=tilt, glare=0.2, defocus=0.4, seed=11))
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
    values = [r.value for r in read_frame(image)]
    assert all(value in (None, 1) for value in values), values


def _casino(value: int, ink: str, centre: tuple[float, float], angle: float, pip_radius: float) -> RenderDie:
    look = replace(DARK_LOOKS[ink], pip_radius=pip_radius)
    return RenderDie(value, ink, centre, 75.97, angle, look=look)


def test_a_2_whose_pips_lie_too_far_apart_to_link_is_no_1() -> None:
    """Big black dice (76 px) with small pips (6.4% of the side), seen from 18 degrees: the
    red 2's pips lie 19 radii apart, too far to be linked, and the one left alone was read
    as a 1. A 1's die is as big as the frame's other dice, and this pip lies near one edge
    of that much: it is no 1."""
    dice = (_casino(1, "black/gold", (712.3, 136.0), 9.7, 0.0737), _casino(3, "black/gold", (725.7, 214.3), 9.7, 0.0736),
            _casino(5, "black/gold", (1062.0, 496.1), 54.8, 0.0642), _casino(4, "black/gold", (997.3, 450.3), 54.8, 0.0737),
            _casino(2, "black/gold", (240.2, 227.5), 33.8, 0.0606), _casino(2, "black/red", (216.0, 364.4), 30.4, 0.0636),
            _casino(3, "black/red", (349.4, 423.3), 10.9, 0.0737))
    scene = Scene(dice=dice, table=(92, 142, 188), light=(1.18, 1.0, 0.84), brightness=0.938, tilt=18.17, glare=0.29,
                  defocus=0.237, noise=2.39, seed=25527871, lamp=(-0.2596, 0.0156, 0.9656))
    image, truths = render(scene)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
    readings = read_frame(image)
    for reading in readings:
        if reading.status is ReadStatus.OK:
            truth = min(truths, key=lambda t: math.dist(reading.center, t.centre))
            assert reading.value == truth.value, (truth.value, reading.value, reading.center)
    assert sum(r.status is ReadStatus.OK for r in readings) >= 5
