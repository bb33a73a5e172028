"""Dark dice with coloured pips (red or gold pips on a black die): in grey, the glare on such
a die is as bright as its pips. What a highlight leaves of a colour (its redness and
yellowness) tells glare from ink, and a die left unread is looked at again in its pips'
colour alone."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.body_colour import InkAxis, glare_free, ink_axis
from reader.camera.frame_reader import read_frame
from reader.camera.render import COLD, DARK_LOOKS, LOOKS, NEUTRAL, TABLES, WARM, RenderDie, Scene, render
from tests.test_camera_light_dice import read_row

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def samples(bgr: tuple[float, float, float], light: tuple[float, float, float] = NEUTRAL) -> np.ndarray:
    """A few noisy pixels of one colour under light of the given channel gains."""
    rng = np.random.default_rng(5)
    return np.clip(np.array(bgr) * light + rng.normal(0, 3, (12, 3)), 0, 255)


def axis_of(look: str, light: tuple[float, float, float] = NEUTRAL) -> InkAxis | None:
    die = {**LOOKS, **DARK_LOOKS}[look]
    return ink_axis(samples(die.ink, light), samples(die.body, light))


def test_white_light_added_leaves_the_glare_free_colour() -> None:
    colour = np.array([40.0, 40.0, 210.0])
    assert np.allclose(glare_free(colour + 90), glare_free(colour))


@pytest.mark.parametrize("look", ["black/red", "black/gold"])
def test_glare_on_a_dark_die_is_body_and_a_glared_pip_is_ink(look: str) -> None:
    die = DARK_LOOKS[look]
    axis = axis_of(look)
    assert axis is not None
    glare, glared_pip = np.array(die.body) + 110, np.clip(np.array(die.ink) + 40, 0, 255)
    assert abs(float(axis.share(glare))) < 0.15
    assert float(axis.share(glared_pip)) > 0.7


def test_white_pips_on_a_red_die_differ_in_colour() -> None:
    axis = axis_of("red")
    assert axis is not None
    # glare on the red body is no white pip
    assert float(axis.share(np.array(LOOKS["red"].body) + 50)) < 0.15


@pytest.mark.parametrize("look", ["white", "black", "grey"])
@pytest.mark.parametrize("light", [NEUTRAL, WARM])
def test_neutral_dice_give_colour_no_say_even_under_tinted_light(look: str, light: tuple[float, float, float]) -> None:
    # warm light makes a white body redder than its black pips in proportion to its
    # brightness: that is no difference of colour
    assert axis_of(look, light) is None


@pytest.mark.parametrize("look", ["black/red", "black/gold"])
@pytest.mark.parametrize("table", ["felt", "grey"])
def test_black_dice_with_coloured_pips_under_glare_are_read(look: str, table: str) -> None:
    # dice 1 to 6 seen from above, lit with glare (in grey alone, none of the red ones was
    # read: the glare on each face counted as ink)
    read = read_row(look, table, 60.0, 20.0)
    assert sum(read.get(v) == v for v in range(1, 7)) >= 5, read
    assert all(value in (None, truth) for truth, value in read.items()), read
    # a lone pip that grey's checks fail is looked at again in its colour alone; so is one of
    # a 2 whose other pip the glare hid, and the 2 read there holds it
    assert read.get(1) == 1 and read.get(2) == 2, read


@pytest.mark.parametrize("size", [30.0, 34.0, 40.0])
def test_a_coloured_pip_beside_pips_glare_hid_is_no_1(size: float) -> None:
    # a 3 on a black die on a black mat, seen at 40 degrees: glare hides two of its red
    # pips from grey, not their red (once read as a 1)
    read = read_row("black/red", "dark", size, 40.0)
    assert all(value in (None, truth) for truth, value in read.items()), read


def test_glare_beside_a_coloured_pip_is_no_1() -> None:
    # a small black 2 with red pips, one of them spread by glare into a pale blob far bigger
    # than the other: the blob has the body's colour, the red pip on its face the ink's
    # (once the blob was read as a 1)
    dice = (RenderDie(2, "black/red", (547.6, 350.1), size=35.3, angle=72.5),
            RenderDie(5, "green", (582.8, 361.2), size=35.3, angle=72.5))
    image, truths = render(Scene(dice=dice, table=TABLES["dark"], light=COLD, brightness=1.15, tilt=14.0,
                                 glare=0.39, lamp=(-0.737, -0.183, 0.650), seed=758171225))
    for reading in read_frame(image):
        truth = min(truths, key=lambda t: math.dist(t.centre, reading.center))
        assert reading.value in (None, truth.value), (reading, truth)


def test_coloured_pips_glare_hides_from_grey_still_refuse_a_smaller_face() -> None:
    # a black 5 with red pips seen at 30 degrees: glare hides three of its pips from grey,
    # and its centre and one corner were read as a 2; the pip one step further along their
    # diagonal shows in red, ringed by the black body
    dice = (RenderDie(3, "black/gold", (1118.2, 398.4), 55.8, 46.0), RenderDie(6, "black", (873.8, 584.0), 55.8, 87.3),
            RenderDie(5, "black/red", (499.1, 146.9), 55.8, 19.9), RenderDie(5, "red", (1084.8, 570.8), 55.8, 36.2),
            RenderDie(3, "white", (791.5, 313.3), 55.8, 83.1), RenderDie(5, "black/gold", (346.5, 433.0), 55.8, 21.2),
            RenderDie(2, "yellow", (90.7, 217.4), 55.8, 34.9), RenderDie(6, "black/red", (901.1, 451.2), 55.8, 23.3))
    image, truths = render(Scene(dice=dice, table=TABLES["grey"], brightness=0.994, tilt=30.104, glare=0.3698,
                                 defocus=0.5788, noise=2.32, lamp=(-0.2715, 0.0207, 0.9622), seed=335512986))
    for reading in read_frame(image):
        truth = min(truths, key=lambda t: math.dist(t.centre, reading.center))
        assert reading.value in (None, truth.value), (reading, truth)


def _black_die_red_pips(pips: list[tuple[int, int]], glare_at: tuple[int, int], glare_radius: float,
                        glare: float) -> np.ndarray:
    """A black die turned 45 degrees on a dark table, its red pips at ``pips``, with a
    highlight of ``glare`` grey levels at its peak (a Gaussian spot of ``glare_radius``)."""
    image = np.full((480, 640, 3), (60, 58, 56), np.float32)
    corners = cv2.boxPoints(((320, 240), (110, 110), 45)).astype(np.int32)
    cv2.fillConvexPoly(image, corners, (28, 28, 30))
    for pip in pips:
        cv2.circle(image, pip, 9, (40, 40, 215), -1, cv2.LINE_AA)
    body = np.zeros((480, 640), np.float32)
    cv2.fillConvexPoly(body, corners, 1.0)
    ys, xs = np.mgrid[:480, :640]
    spot = np.exp(-((xs - glare_at[0]) ** 2 + (ys - glare_at[1]) ** 2) / (2 * glare_radius ** 2))
    image += (glare * spot * body)[..., None] + np.random.default_rng(0).normal(0, 2, image.shape)
    return cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0)


@pytest.mark.parametrize("glare_radius", [12.0, 15.0])
def test_a_pip_whose_partner_glare_joined_is_no_1(glare_radius: float) -> None:
    # a 2 along the die's horizontal diagonal, its left pip joined to a highlight in one
    # pale blob; the blob's rim keeps the pip's red (once the right pip was read as a 1,
    # at the first look and again on the crop)
    image = _black_die_red_pips([(282, 240), (358, 240)], (295, 240), glare_radius, 200.0)
    assert all(reading.value in (None, 2) for reading in read_frame(image))


@pytest.mark.parametrize("glare_at", [(280, 240), (270, 240)])
def test_a_1_beside_a_highlight_is_still_read(glare_at: tuple[int, int]) -> None:
    image = _black_die_red_pips([(320, 240)], glare_at, 15.0, 160.0)
    assert [reading.value for reading in read_frame(image)] == [1]


def test_a_highlight_brighter_than_a_dark_die_s_coloured_pips_is_no_pip() -> None:
    """Black dice with red and gold pips (``render_labelled.py --seed 303 --colours black/gold
    black/red``, scene 27): a highlight over a 2's and a 4's empty middles is lighter in grey
    than their red pips, past the ink's level, where grey alone had the last word: it was
    taken for ink, and a die went unread. Its colour is the light's, not the ink's: every
    die of the scene is read, and read right."""
    image, truths = render(nth_scene(303, 27, tuple(sorted(DARK_LOOKS))))
    readings = read_frame(as_saved(image))
    values = []
    for truth in truths:
        near = [r.value for r in readings if math.dist(r.center, truth.centre) < 15]
        values.append(near[0] if near else None)
    assert values == [t.value for t in truths]
