"""Dice lighter than their table with lighter pips still (white pips on an orange die on a
dark mat): the lit face, cut out whole at half the pips' contrast, is no pip; its pips are
found inside it (a 1's lone pip too), and it does not count when the frame's pips are sized. A light blob
holding nothing stays one pip. A pip joined to the glare on its face is found inside the
joined blob."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.pips import find_pips, typical_pip_radius
from reader.camera.render import TABLES, RenderDie, Scene, render


def read_row(colour: str, table: str, size: float, angle: float) -> dict[int, int | None]:
    """Dice 1 to 6 of ``colour`` on ``table``, seen from above: the value read at each die
    (None: read as unreadable; absent: not found)."""
    dice = tuple(RenderDie(v, colour, (200 + 170 * (v - 1), 250 + 200 * (v % 2)), size=size, angle=angle)
                 for v in range(1, 7))
    image, truths = render(Scene(dice=dice, table=TABLES[table], seed=3))
    out: dict[int, int | None] = {}
    for reading in read_frame(image):
        for truth in truths:
            if math.dist(reading.center, truth.centre) < size / 2:
                out[truth.value] = reading.value
    return out


@pytest.mark.parametrize("size", [40.0, 48.0])
def test_light_dice_with_light_pips_on_a_dark_mat_are_read(size: float) -> None:
    read = read_row("orange", "dark", size, 15.0)
    # every die with two pips or more is read, and read right (a 1's lone pip on a light
    # face is no concern here)
    assert {v: read.get(v) for v in range(2, 7)} == {v: v for v in range(2, 7)}
    assert read.get(1) in (None, 1)


@pytest.mark.parametrize("angle", [0.0, 40.0])
def test_small_light_faces_are_never_read_as_a_1(angle: float) -> None:
    # some of these dice may go unread, but their faces are no 1's pip
    read = read_row("orange", "dark", 36, angle)
    assert all(value in (None, truth) for truth, value in read.items()), read


@pytest.mark.parametrize("angle", [0.0, 40.0])
def test_small_light_dice_on_a_dark_mat_are_searched_at_a_size_that_shows_their_pips(angle: float) -> None:
    # (their faces, cut out whole, once made the frame's pips look big: it was searched at
    # half size, where these pips are too small to measure, and no die was read)
    read = read_row("orange", "dark", 36, angle)
    assert sum(read.get(v) == v for v in range(1, 7)) >= 3, read


@pytest.mark.parametrize("angle", [0.0, 40.0])
def test_light_dice_with_glare_on_felt_are_read(angle: float) -> None:
    # the glare on an orange face lies above the level halfway between the felt and the
    # pips, and joins the pips near it: they are found inside the joined blob
    read = read_row("orange", "felt", 48, angle)
    assert all(value in (None, truth) for truth, value in read.items()), read
    assert sum(read.get(v) == v for v in range(1, 7)) >= 4, read


def ground() -> np.ndarray:
    """A dark ground, to draw light shapes on."""
    return np.full((160, 160), 40, np.uint8)


def noisy(image: np.ndarray, blur: float = 0.0) -> np.ndarray:
    """``image`` blurred (a Gaussian of ``blur`` pixels) and with a little sensor noise."""
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    noise = np.random.default_rng(5).normal(0, 2.0, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def test_a_face_holding_pips_gives_its_pips_not_itself() -> None:
    # a light die's face seen from above with a 4 on it, lighter still
    image = ground()
    cv2.rectangle(image, (64, 64), (96, 96), 165, -1)
    spots = [(-8, -8), (8, 8), (-8, 8), (8, -8)]
    for x, y in spots:
        cv2.circle(image, (80 + x, 80 + y), 3, 240, -1)
    pips = [p for p in find_pips(noisy(image), block=71) if not p.dark]
    assert len(pips) == len(spots)
    for x, y in spots:
        assert any(math.dist((p.x, p.y), (80 + x, 80 + y)) < 1.5 and p.radius < 5 for p in pips)


@pytest.mark.parametrize("blur", [0.0, 3.0])
def test_a_uniform_light_blob_stays_one_pip(blur: float) -> None:
    # (blurred, its middle is lighter than its rim: its core is no pips)
    image = ground()
    cv2.circle(image, (80, 80), 14, 165, -1)
    pips = [p for p in find_pips(noisy(image, blur), block=71) if not p.dark]
    assert len(pips) == 1
    assert math.dist((pips[0].x, pips[0].y), (80, 80)) < 1.0
    assert pips[0].radius > 10


def test_a_pip_joined_to_a_glare_patch_of_its_face_is_found() -> None:
    # a light face on a darker ground with two pips, one of them next to a patch of glare
    # lighter than the level halfway between the ground and the pips
    image = np.full((160, 160), 80.0)
    image[56:104, 56:104] = 140
    ys, xs = np.mgrid[56:104, 56:104]
    image[56:104, 56:104] += 40 * np.exp(-((xs - 84) ** 2 + (ys - 84) ** 2) / (2 * 9.0 ** 2))
    spots = [(68, 68), (92, 92)]
    for x, y in spots:
        cv2.circle(image, (x, y), 4, 240, -1)
    pips = [p for p in find_pips(noisy(image.astype(np.uint8), 0.8), block=71) if not p.dark]
    assert len(pips) == len(spots)
    for x, y in spots:
        assert any(math.dist((p.x, p.y), (x, y)) < 1.5 and 3 < p.radius < 6 for p in pips)


def faces_on_a_mat(face: int, pip: int, pip_radius: int, side: int) -> np.ndarray:
    """A dark mat (a reduced frame) with six square faces of grey ``face`` showing a 4 in
    pips of grey ``pip``, lightly blurred and noisy."""
    image = np.full((360, 640), 40, np.uint8)
    for k in range(6):
        x, y = 60 + 100 * k, 120 + 100 * (k % 2)
        cv2.rectangle(image, (x - side // 2, y - side // 2), (x + side // 2, y + side // 2), face, -1)
        for dx, dy in ((-1, -1), (1, 1), (-1, 1), (1, -1)):
            cv2.circle(image, (x + dx * side // 4, y + dy * side // 4), pip_radius, pip, -1)
    return noisy(image, 0.7)


def test_light_faces_holding_lighter_pips_are_not_taken_for_pips_when_sizing() -> None:
    # each face stands out from the mat, pips and all: it is no pip of the face's size
    radius = typical_pip_radius(faces_on_a_mat(150, 235, 2, 20), 8)
    assert radius is None or radius < 4


def test_big_pips_are_still_sized() -> None:
    radius = typical_pip_radius(faces_on_a_mat(230, 30, 6, 56), 8)
    assert radius is not None and 5 < radius < 8


def test_a_three_whose_middle_pip_sits_in_a_highlight_is_no_one() -> None:
    """A glossy yellow 3 on the dark mat: the highlight makes its middle pip paler and
    smaller than the corner pips, and the three are not grouped. The middle pip alone looks
    like a 1, but the corner pips, bigger, lie on the bigger face that their size implies."""
    dice = tuple(RenderDie(v, "yellow", (180 + 180 * (v - 1), 360), size=56, angle=10 * v) for v in range(1, 7))
    image, truths = render(Scene(dice=dice, table=TABLES["dark"], seed=1))
    for reading in read_frame(image):
        truth = min(truths, key=lambda t: math.dist(reading.center, t.centre))
        assert reading.value in (None, truth.value), (truth.value, reading)


@pytest.mark.parametrize(("colour", "table", "size"), [("white", "dark", 30.0), ("yellow", "felt", 26.0),
                                                      ("white", "grey", 26.0)])
def test_small_dice_taken_whole_for_pips_are_searched_again_at_full_size(colour: str, table: str,
                                                                         size: float) -> None:
    """Dice 26-30 px across, whose whole light bodies are sized as the frame's pips, are
    searched at half size: there a die is one light blob, its pips too small to show. The
    blob is no 1 (at full size it holds pips), and it shows that the frame must be searched
    at full size, where the dice are read."""
    read = read_row(colour, table, size, 0.0)
    assert all(value in (None, die) for die, value in read.items()), read
    assert sum(value is not None for value in read.values()) >= 4, read


@pytest.mark.parametrize(("size", "angle"), [(48.0, 15.0), (56.0, 40.0)])
def test_the_lone_pip_of_a_light_face_on_a_dark_mat_is_found(size: float, angle: float) -> None:
    """A 1 on an orange die: the die stands out from the mat as a whole, and its face, cut
    out with the pip inside it, holds no second pip to take it apart. The pip is found where
    the face's own light levels part."""
    dice = (RenderDie(1, "orange", (320, 240), size=size, angle=angle),
            RenderDie(4, "orange", (520, 240), size=size, angle=angle))
    image, truths = render(Scene(dice=dice, table=TABLES["dark"], seed=3, size=(800, 480)))
    one = truths[0].centre
    near = [p for p in find_pips(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) if math.dist((p.x, p.y), one) < size / 2]
    # the pip itself (a twelfth of the face across), not the face round it
    assert any(not p.dark and math.dist((p.x, p.y), one) < 2 and p.radius < 0.15 * size for p in near), near


@pytest.mark.parametrize(("size", "angle"), [(40.0, 0.0), (40.0, 40.0), (48.0, 15.0)])
def test_a_light_die_showing_a_1_on_a_dark_mat_is_read(size: float, angle: float) -> None:
    assert read_row("orange", "dark", size, angle).get(1) == 1


@pytest.mark.parametrize("colour", ["orange", "yellow", "green", "white"])
@pytest.mark.parametrize("size", [40.0, 56.0])
def test_light_dice_on_a_dark_mat_are_never_read_wrong(colour: str, size: float) -> None:
    # (the lighter parts of their faces, searched again, hold no pip the die does not show)
    read = read_row(colour, "dark", size, 40.0)
    assert all(value in (None, truth) for truth, value in read.items()), read
    assert sum(value == truth for truth, value in read.items()) >= 5, read
