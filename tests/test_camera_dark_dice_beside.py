"""Black dice with coloured pips beside each other: a 1's pip is sized against the faces read
as dice, not against a die's side face, a die in front of one of another ink is no side face
of it, and a coloured pip its highlight swallowed in grey is read in its colour."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.body_colour import INK_CHROMA, BodyColours, inks_apart
from reader.camera.colour import bgr_to_lab
from reader.camera.frame_reader import read_frame
from reader.camera.pip_measures import Pip
from reader.camera.reading import DieReading, ReadStatus
from reader.camera.render import COLD, DARK_LOOKS, NEUTRAL, WARM, DieTruth, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402

DARK = ("black/red", "black/gold")


def _read(seed: int, index: int) -> tuple[list[DieReading], list[DieTruth]]:
    """Scene ``index`` of ``render_labelled.py --seed SEED --colours black/red black/gold``
    as its JPEG file reads back, and its dice."""
    image, truths = render(nth_scene(seed, index, DARK))
    return read_frame(as_saved(image)), truths


def _value_at(readings: list[DieReading], truth: DieTruth) -> int | None:
    """The value read at the die ``truth`` shows (None: none read there)."""
    near = [r for r in readings if r.status is ReadStatus.OK and math.dist(r.center, truth.centre) < (truth.box[2] - truth.box[0]) / 3]
    return near[0].value if near else None


def _no_wrong_value(readings: list[DieReading], truths: list[DieTruth]) -> bool:
    """Whether every value read is the value of the die nearest it (none read as another)."""
    return all(r.value in (None, min(truths, key=lambda t: math.dist(t.centre, r.center)).value) for r in readings)


def test_ones_bigger_than_side_face_pips_are_read() -> None:
    # four black dice on wood, a gold 1 with two of its front face's small pips in view: the
    # only face of several pips in the frame, it was taken for the size of the frame's pips,
    # and both 1s, three times as big, for whole dice (nothing was read in the frame)
    readings, truths = _read(4601, 2)
    assert [_value_at(readings, t) for t in truths] == [t.value for t in truths]


def test_a_die_in_front_of_one_of_another_ink_is_read() -> None:
    # a black 6 with red pips touching a black 2 with gold pips behind it, seen at 37 degrees:
    # lying towards the camera from the 2, it was dropped as the 2's front face
    readings, truths = _read(4601, 18)
    six = next(t for t in truths if t.value == 6 and t.centre[0] > 1000)
    assert _value_at(readings, six) == 6
    assert _no_wrong_value(readings, truths)


def test_a_red_1_inside_its_highlight_is_read() -> None:
    # two black dice showing a red 1, each touching another black die (a gold 6, a red 5): in
    # grey each 1's pip and the highlight round it are one blob of the body's colour, refused
    # as glare beside coloured pips; the red pip inside it is read in its colour
    readings, truths = _read(4602, 32)
    ones = [t for t in truths if t.value == 1]
    assert len(ones) == 2
    assert [_value_at(readings, t) for t in ones] == [1, 1]
    assert _no_wrong_value(readings, truths)


@pytest.mark.parametrize("ink", [None, (40, 40, 210), (60, 190, 225)], ids=["white light", "red", "gold"])
def test_a_coloured_pip_inside_a_highlight_is_found_by_its_colour(ink: tuple[int, int, int] | None) -> None:
    # a black face with a pale highlight 10 px across; a red or gold pip inside it, off its
    # middle, is found there, and white light alone holds none
    image = np.full((80, 80, 3), (32, 32, 34), np.uint8)
    cv2.circle(image, (40, 40), 10, (150, 150, 155), -1)
    if ink is not None:
        cv2.circle(image, (44, 37), 4, ink, -1)
    blob = Pip(40.0, 40.0, 10.0, 1.0, 0.0, 110.0, 150.0, 33.0, 1.0, False)
    spot = BodyColours(image).inked_spot(blob)
    if ink is None:
        assert spot is None
    else:
        assert spot is not None and math.dist(spot, (44, 37)) <= 4


def _ink_lab(look: str, light: tuple[float, float, float], share: float) -> np.ndarray:
    """CIELAB of a dark die's ink under ``light``, ``share`` of it blurred with its body."""
    die = DARK_LOOKS[look]
    bgr = (share * np.array(die.ink) + (1 - share) * np.array(die.body)) * np.array(light)
    return bgr_to_lab(np.clip(bgr, 0, 255).astype(np.float32)[None])[0][None]


@pytest.mark.parametrize("light", [NEUTRAL, WARM, COLD], ids=["neutral", "warm", "cold"])
def test_red_and_gold_inks_are_apart_and_one_ink_shaded_is_not(light: tuple[float, float, float]) -> None:
    body = _ink_lab("black/red", light, 0.0)
    red, gold = _ink_lab("black/red", light, 1.0), _ink_lab("black/gold", light, 1.0)
    assert inks_apart(red, body, gold, body).all()
    for look in DARK:
        lit, shaded = _ink_lab(look, light, 1.0), _ink_lab(look, light, 0.6)
        assert np.hypot(*shaded[0, 1:]) >= INK_CHROMA  # (colourful enough to be told by hue)
        assert not inks_apart(lit, body, shaded, body).any()


def test_red_and_gold_inks_as_seen_under_warm_light_are_apart() -> None:
    # the two inks as a rendered frame under warm light showed them (CIELAB medians inside a
    # black 6's and a black 2's pips): their hues lie 40 degrees apart, and they were taken
    # for one die's inks
    red, gold, body = np.array([[36.0, 53.0, 40.0]]), np.array([[61.0, 14.0, 56.0]]), np.array([[9.0, 2.0, 5.0]])
    assert inks_apart(red, body, gold, body).all()


@pytest.mark.parametrize("index, value, colour", [(36, 1, "black"), (19, 1, "black"), (21, 4, "blue")])
def test_pips_merged_with_a_strong_highlight_are_read(index: int, value: int, colour: str) -> None:
    # ``render_labelled.py --seed 1808 --glare 0.4-0.6``: a die whose pip merges with a
    # strong highlight into one light blob in grey (a black die's red 1; a pip of a blue
    # 4's), refused as a pip with no die round it or an occluded one, not as glare beside
    # coloured pips: a spot of the pip's colour inside the blob is looked for all the same
    # and read in that colour (none of the three was read before)
    image, truths = render(nth_scene(1808, index, glare=(0.4, 0.6)))
    readings = read_frame(as_saved(image))
    die = next(t for t in truths if t.value == value and t.colour == colour)
    assert _value_at(readings, die) == value
    assert _no_wrong_value(readings, truths)


def test_a_pip_refused_for_its_partner_is_not_taken_for_a_glared_one() -> None:
    # ``render_labelled.py --seed 3207 --pip-size 0.1-0.13``, scene 24: a black die's white 2
    # under a highlight, one of its pips refused as a lone pip for a partner like it. The
    # closer look reads the pair as the 2; searched for a spot of its own colour instead, as
    # a highlight's blob is, the pip was read on its own crop and the 2 was lost
    image, truths = render(nth_scene(3207, 24, pip_sizes=(0.1, 0.13)))
    readings = read_frame(as_saved(image))
    two = min((t for t in truths if t.value == 2), key=lambda t: math.dist(t.centre, (1125, 442)))
    assert math.dist(two.centre, (1125, 442)) < 5
    assert _value_at(readings, two) == 2
