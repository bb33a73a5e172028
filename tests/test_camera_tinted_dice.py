"""Shade keeps a body's tint (its glare-free colour per unit of brightness) and glare only
pales it: a grey body under warm light is no shaded yellow one, while a colour and its
own shade, glared or not, are one body (the scenes are in test_camera_side_faces_kept)."""

from __future__ import annotations

import numpy as np
import pytest

from reader.camera.body_colour import BodyColours, colours_apart, shade_apart
from reader.camera.pips import Pip

YELLOW, WARM_GREY, WHITE = (40, 200, 225), (100, 120, 130), (225, 238, 245)


def shaded(bgr: tuple[int, int, int], light: float) -> tuple[float, ...]:
    return tuple(c * light for c in bgr)


def glared(bgr: tuple[int, int, int], glare: float) -> tuple[float, ...]:
    return tuple(c + glare for c in bgr)


@pytest.mark.parametrize("light", [0.3, 0.6, 0.9])
def test_a_colour_and_its_shade_are_one_body(light: float) -> None:
    for colour in (YELLOW, WARM_GREY, WHITE):
        assert not shade_apart(np.array([colour]), np.array([shaded(colour, light)]))[0]
        assert not shade_apart(np.array([shaded(colour, light)]), np.array([colour]))[0]


def test_glare_on_the_lit_face_only_pales_it() -> None:
    # a highlight on a yellow top face pales it; its shaded front face is still its own
    assert not shade_apart(np.array([glared(YELLOW, 30)]), np.array([shaded(YELLOW, 0.6)]))[0]
    # light off a coloured table tints a white die's shaded side, not its lit top
    assert not shade_apart(np.array([WHITE]), np.array([shaded(YELLOW, 0.5)]))[0]


def test_a_grey_body_under_warm_light_is_no_shaded_yellow() -> None:
    assert shade_apart(np.array([YELLOW]), np.array([WARM_GREY]))[0]
    assert shade_apart(np.array([WARM_GREY]), np.array([YELLOW]))[0]
    # grey and white differ in lightness alone: shade cannot be told from another die
    assert not shade_apart(np.array([WHITE]), np.array([WARM_GREY]))[0]


def _pip(x: float, dark: bool) -> Pip:
    return Pip(x=x, y=30.0, radius=5.0, roundness=1.0, angle=0.0, contrast=100.0, level=40.0 if dark else 220.0,
               ring=140.0, edge_width=1.0, dark=dark)


@pytest.mark.parametrize("dark", [True, False])
def test_only_dark_pips_let_their_bodies_tints_speak(dark: bool) -> None:
    """Round dark pips the ring shows the body alone (ink blurred into it only darkens it);
    light pips blurred into it pale or tint it, so their bodies' tints tell nothing."""
    image = np.zeros((60, 120, 3), np.uint8)
    image[:, :60], image[:, 60:] = YELLOW, WARM_GREY
    pips = [_pip(30.0, dark), _pip(90.0, dark)]
    apart = BodyColours(image).tints_apart_pairs(pips, np.array([0]), np.array([1]))
    assert apart.tolist() == [dark]


#: CIELAB colours measured on a white die under cold light (rendered, ``render_labelled.py
#: --seed 11 --colours white``, scene 28): its lit top face and its front face in shade,
#: both barely colourful, their hues 41 degrees apart.
COLD_WHITE_TOP, COLD_WHITE_SHADE = (93.5, -11.1, -9.7), (52.9, -2.0, -14.8)


def test_a_barely_colourful_face_and_its_tinted_shade_are_not_apart() -> None:
    assert not colours_apart(np.array(COLD_WHITE_TOP), np.array(COLD_WHITE_SHADE))


@pytest.mark.parametrize("first, second", [
    ((50.0, 60.0, 40.0), (40.0, 10.0, -45.0)),    # red and blue
    ((30.0, 14.0, 8.0), (30.0, -12.0, -10.0)),    # dark red and dark teal, barely colourful
    ((80.0, 0.0, 0.0), (60.0, 5.0, 40.0)),        # white and yellow
])
def test_bodies_of_clearly_different_colours_are_apart(first: tuple[float, ...], second: tuple[float, ...]) -> None:
    assert colours_apart(np.array(first), np.array(second))
    assert colours_apart(np.array(second), np.array(first))
