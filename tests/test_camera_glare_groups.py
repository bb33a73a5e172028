"""Pips of one glossy face whose surroundings a highlight lights unevenly are grouped into
one face; pips whose surroundings differ by a step (a seam between two dice, an edge onto
another face) are not."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.body_colour import BodyColours
from reader.camera.frame_reader import read_frame
from reader.camera.pip_groups import (MAX_GLARE_RING_DIFFERENCE, MAX_RING_DIFFERENCE, MIN_GLARED_PATH_BODY,
                                      MIN_PATH_BODY, group_pips)
from reader.camera.pips import find_pips
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, RenderDie, Scene, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402

#: Grey levels of the two pips' surroundings, and of their ink.
NEAR, FAR, INK = 150.0, 126.0, 30.0


def _two_pips(between: str, gap: float = 26.0, seed: int = 0) -> np.ndarray:
    """Two dark pips side by side on a light body whose level falls from ``NEAR`` round the
    left pip to ``FAR`` round the right one: smoothly across the path between them
    (``"ramp"``, a highlight), at once half-way (``"step"``, the edge onto another face or
    die), or at once with a faint dark line there (``"seam"``, two touching dice)."""
    h, w = 120, 160
    x = np.arange(w, dtype=float)[None, :].repeat(h, 0)
    left, right = w / 2 - gap / 2, w / 2 + gap / 2
    if between == "ramp":
        grey = NEAR + (FAR - NEAR) * np.clip((x - left) / (right - left), 0, 1)
    else:
        grey = np.where(x < w / 2, NEAR, FAR)
        if between == "seam":
            grey = np.where(np.abs(x - w / 2) < 1.0, FAR - 20, grey)
    grey = cv2.GaussianBlur(grey, (0, 0), 0.8)
    for cx in (left, right):
        cv2.circle(grey, (round(cx * 16), round(h / 2 * 16)), round(3.2 * 16), INK, -1, cv2.LINE_AA, shift=4)
    grey += np.random.default_rng(seed).normal(0, 1.5, grey.shape)
    return np.clip(grey, 0, 255).astype(np.uint8)


def _pips_and_groups(between: str, seed: int) -> tuple[list, list]:
    grey = _two_pips(between, seed=seed)
    pips = find_pips(grey)
    assert len(pips) == 2, pips
    return pips, group_pips(pips, grey)


def _ring_gap(pips: list) -> float:
    """The pips' surroundings' difference, as a fraction of their mean contrast."""
    return abs(pips[0].ring - pips[1].ring) / ((pips[0].contrast + pips[1].contrast) / 2)


@pytest.mark.parametrize("seed", range(3))
def test_pips_across_a_smooth_change_of_light_form_one_face(seed: int) -> None:
    pips, groups = _pips_and_groups("ramp", seed)
    # the surroundings differ more than an evenly lit face's do, as much as a highlight makes them
    assert MAX_RING_DIFFERENCE < _ring_gap(pips) <= MAX_GLARE_RING_DIFFERENCE
    assert [len(g.pips) for g in groups] == [2]


@pytest.mark.parametrize("between", ["step", "seam"])
@pytest.mark.parametrize("seed", range(3))
def test_pips_either_side_of_a_step_in_light_stay_apart(between: str, seed: int) -> None:
    """The same difference between the pips' surroundings, but made at once half-way."""
    pips, groups = _pips_and_groups(between, seed)
    assert MAX_RING_DIFFERENCE < _ring_gap(pips) <= MAX_GLARE_RING_DIFFERENCE
    assert sorted(len(g.pips) for g in groups) == [1, 1]


@pytest.mark.parametrize(("colour", "size", "angle", "tilt"), [
    ("orange", 40.0, 7.0, 0.0), ("orange", 40.0, 42.0, 20.0), ("orange", 48.0, 56.0, 20.0),
    ("orange", 48.0, 77.0, 0.0), ("grey", 48.0, 56.0, 0.0), ("green", 48.0, 7.0, 20.0)])
def test_glossy_two_with_a_highlight_between_its_pips_is_read(colour: str, size: float, angle: float,
                                                              tilt: float) -> None:
    """A 2 on felt, its highlight lying across the face between its pips (which lights one
    pip's surroundings well above the other's), is read as a 2 and as nothing else."""
    die = RenderDie(2, colour, (640.0, 360.0), size, angle)
    image, _ = render(Scene(dice=(die,), table=TABLES["felt"], tilt=tilt, glare=0.4, seed=int(angle)))
    readings = read_frame(image)
    assert [(r.status, r.value) for r in readings] == [(ReadStatus.OK, 2)], readings


def test_a_smeared_dies_top_and_front_pips_are_no_two() -> None:
    """A green 1 still sliding, seen at 40 degrees: the smear blurs the edge between its top
    face and its front face (a 2) into a smooth change of light, like a highlight's. Pips
    smeared by motion are not linked across such a change: the top pip and a front pip
    never read as a 2."""
    die = RenderDie(1, "green", (568.5, 103.8), 54.3, 72.5, blur=9.8, blur_angle=116.9)
    scene = Scene(dice=(die,), size=(1280, 720), table=TABLES["felt"], light=(0.8, 1.0, 1.15), brightness=1.09,
                  tilt=39.6, glare=0.28, defocus=0.4, noise=1.87, seed=923599196, lamp=(-0.3, 0.5, 0.82))
    image, _ = render(scene)
    assert all(r.value in (None, 1) for r in read_frame(image))


@pytest.mark.parametrize("frame", range(6))
def test_a_red_face_lit_unevenly_is_one_face_when_its_pips_lie_close(frame: int) -> None:
    # a red 3 searched at a reduced size, its diagonal pips so close that the path between
    # them crosses almost no body to show the highlight's slope: the red round each pip,
    # which glare does not change, shows them on one die
    die = RenderDie(3, "red", (958.9, 412.0), 56, 8.0)
    image, _ = render(Scene(dice=(die,), seed=21, frame=frame, tilt=8))
    factor = 1.72
    grey = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (round(1280 / factor), round(720 / factor)),
                      interpolation=cv2.INTER_LINEAR)
    groups = group_pips(find_pips(grey), grey, BodyColours(image, 1280 / grey.shape[1]))
    near = [len(g.pips) for g in groups if any(math.dist((p.x * factor, p.y * factor), die.centre) < 30
                                               for p in g.pips)]
    assert 3 in near, near


@pytest.mark.parametrize("seed", [0, 4])
def test_threes_of_small_dice_in_a_highlight_are_read(seed: int) -> None:
    """Ten grey 3s 40 px across under strong glare: a pip in the highlight is lighter than the
    others and its surroundings brighter, and the face between pips this close is too short
    to show the light changing smoothly, so no two of its pips were linked. Lit apart as a
    highlight lights them, three such pips now make a 3: 3 of 10 were read, now 9 or 10."""
    rng = np.random.default_rng(seed)
    dice = tuple(RenderDie(3, "grey", (200 + 220 * i, 250 + 200 * j), 40.0, float(rng.uniform(0, 90)))
                 for i in range(5) for j in range(2))
    image, _ = render(Scene(dice=dice, table=TABLES["wood"], glare=0.5, tilt=10.0, seed=seed))
    values = [r.value for r in read_frame(image) if r.status is ReadStatus.OK]
    assert set(values) <= {3}
    assert len(values) >= 8


#: A dark die's body, its light ink, and the peak a highlight between its two pips reaches.
DARK_BODY, LIGHT_INK, PEAK = 70.0, 235.0, 150.0


def _light_pips(between: str, seed: int) -> list:
    """Two light pips 30 px apart on a dark body, with between them a highlight (a soft
    hump of light up to ``PEAK``, ``"highlight"``) or a light table showing between two
    dice (a band as light, entered at once at their edges, ``"table"``); the groups their
    pips form."""
    h, w = 120, 160
    y, x = np.mgrid[:h, :w].astype(float)
    if between == "highlight":
        grey = DARK_BODY + (PEAK - DARK_BODY) * np.exp(-((x - w / 2) ** 2 + (y - h / 2) ** 2) / (2 * 6.0 ** 2))
    else:
        grey = np.where(np.abs(x - w / 2) < 4, PEAK, DARK_BODY)
        grey = cv2.GaussianBlur(grey, (0, 0), 0.8)
    for cx in (w / 2 - 15, w / 2 + 15):
        cv2.circle(grey, (round(cx * 16), round(h / 2 * 16)), round(3.2 * 16), LIGHT_INK, -1, cv2.LINE_AA, shift=4)
    grey += np.random.default_rng(seed).normal(0, 1.5, grey.shape)
    grey = np.clip(grey, 0, 255).astype(np.uint8)
    pips = find_pips(grey)
    assert len(pips) == 2 and not pips[0].dark, pips
    # the path between them comes nearer the ink than a plain face lets it
    path_body = (LIGHT_INK - PEAK) / (LIGHT_INK - DARK_BODY)
    assert MIN_GLARED_PATH_BODY < path_body < MIN_PATH_BODY
    return group_pips(pips, grey)


@pytest.mark.parametrize("seed", range(3))
def test_light_pips_either_side_of_a_highlight_form_one_face(seed: int) -> None:
    assert [len(g.pips) for g in _light_pips("highlight", seed)] == [2]


@pytest.mark.parametrize("seed", range(3))
def test_light_pips_either_side_of_a_light_table_stay_apart(seed: int) -> None:
    assert [len(g.pips) for g in _light_pips("table", seed)] == [1, 1]


@pytest.mark.parametrize(("index", "where"), [(2, (779, 277)), (43, (1054, 558))])
def test_a_dark_or_colourful_2_with_a_highlight_between_its_light_pips_is_read(index: int,
                                                                               where: tuple[int, int]) -> None:
    """``render_labelled.py --seed 1908 --glare 0.4-0.6``, scene INDEX: the 2 at ``where``
    (white pips on a blue and on a purple die, a highlight between them lifting the face
    part way to the ink) is read; before, its pips were never linked and both were refused
    as 1s."""
    image, truths = render(nth_scene(1908, index, glare=(0.4, 0.6)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [2]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [2]
