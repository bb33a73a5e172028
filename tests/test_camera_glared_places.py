"""A face's empty places told by their rims as well as their grey. A place under a
highlight: grey shows it part way to the ink, as if inked, but the body round it is lifted
as much; it is empty. A pip there, however much light falls on it, still stands out from
its rim, or is as light as the ink itself. The other way, a dark pip a highlight lifts
past the level grey calls empty still stands out from its rim: it is a pip."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.face_checks import HIDDEN_RIM_STEP, MIN_EMPTY_SPOT, _inked_by_rims, _rim_steps
from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402

INK, BODY, RADIUS = 230.0, 60.0, 4.0  # light pips on a dark die
PLACE = np.array([[50.0, 50.0]])


def face(highlight: float, spread: float = 14.0, body: float = BODY) -> np.ndarray:
    """A face with a soft highlight of ``highlight`` grey levels at its peak on PLACE."""
    y, x = np.mgrid[:100, :100]
    lift = highlight * np.exp(-((x - 50.0) ** 2 + (y - 50.0) ** 2) / (2 * spread ** 2))
    return np.clip(body + lift, 0, 255)


def inked(grey: np.ndarray, ink: float = INK, body: float = BODY, smeared: bool = False) -> tuple[bool, bool]:
    """Whether grey alone shows PLACE inked, and whether it is inked told by its rim too."""
    image = np.rint(grey).astype(np.uint8)
    level = np.array([(float(image[50, 50]) - ink) / (body - ink)])
    by_grey = level < MIN_EMPTY_SPOT
    rims = _rim_steps(image, PLACE, level, RADIUS, ink, body)
    return bool(by_grey[0]), bool(_inked_by_rims(by_grey, np.zeros(1, bool), level, rims, smeared)[0])


def test_a_place_in_a_soft_highlight_is_empty() -> None:
    assert inked(face(90.0)) == (True, False)


def test_a_pip_in_the_highlight_is_as_light_as_its_ink_and_stays_inked() -> None:
    grey = face(90.0)
    cv2.circle(grey, (50, 50), round(RADIUS), INK + 20, -1)
    assert inked(grey) == (True, True)


def test_a_faint_pip_stands_out_from_its_rim_and_stays_inked() -> None:
    # blurred and small: its centre only half way to the ink, its rim at the body
    grey = np.full((100, 100), BODY)
    cv2.circle(grey, (50, 50), round(RADIUS), (INK + BODY) / 2, -1)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.0)
    assert inked(grey) == (True, True)


def test_a_faint_pip_in_a_highlight_stays_inked() -> None:
    grey = face(30.0, spread=30.0)
    cv2.circle(grey, (50, 50), round(RADIUS), float(grey[50, 50]) + 0.4 * (INK - BODY), -1)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.0)
    assert inked(grey) == (True, True)


def test_a_highlight_that_falls_off_within_the_ring_is_a_pip_shape_and_stays_inked() -> None:
    # a spot of light as small as a pip is no highlight to pass over
    assert inked(face(90.0, spread=2.5)) == (True, True)


def test_a_dark_pip_lifted_by_a_highlight_past_the_empty_level_is_inked() -> None:
    # a grey die's black pip: the highlight adds to pip and body alike
    ink, body = 25.0, 100.0
    grey = face(70.0, spread=10.0, body=body)
    cv2.circle(grey, (50, 50), round(RADIUS), float(grey[50, 50]) - (body - ink), -1)
    grey = cv2.GaussianBlur(grey, (0, 0), 1.0)
    assert inked(grey, ink, body) == (False, True)
    assert inked(grey, ink, body, smeared=True) == (False, False)  # (a smeared pip's track may cross a place)


def test_an_empty_place_in_a_highlight_on_a_dark_pips_face_stays_empty() -> None:
    assert inked(face(70.0, spread=10.0, body=100.0), 25.0, 100.0) == (False, False)


def test_a_place_whose_rings_leave_the_image_is_as_grey_shows_it() -> None:
    grey = face(90.0)[30:70, 30:70]
    image = np.rint(grey).astype(np.uint8)
    level = np.array([(float(image[2, 20]) - INK) / (BODY - INK)])
    rims = _rim_steps(image, np.array([[20.0, 2.0]]), level, RADIUS, INK, BODY)
    assert np.isnan(rims[0])
    assert _inked_by_rims(np.array([True]), np.zeros(1, bool), level, rims, False)[0]
    assert not _inked_by_rims(np.array([False]), np.zeros(1, bool), level, rims, False)[0]


@pytest.mark.parametrize(("seed", "index", "where", "value", "options"), [
    (1808, 59, (934, 421), 5, {"glare": (0.4, 0.6)}),
    (1808, 33, (618, 428), 4, {"glare": (0.4, 0.6)}),
    # a black 2 with red pips seen from straight above, a highlight as light as the red
    # between its pips: white there, no ink, however it stands out from the black round it
    (2110, 14, (871, 512), 2, {"tilt": 0.0, "distance": 0.8}),
])
def test_faces_with_an_empty_place_in_a_highlight_are_read(seed: int, index: int, where: tuple[int, int],
                                                          value: int, options: dict[str, object]) -> None:
    """``render_labelled.py --seed SEED [options]``, scene INDEX: a face of light pips with
    a highlight over one of its empty places is read (it went unread)."""
    image, truths = render(nth_scene(seed, index, **options))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [value]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [value]


def test_a_place_as_light_as_the_ink_and_none_of_its_colour_stays_empty_whatever_its_rim() -> None:
    """A place grey shows as light as a dark die's red pips that stands out from the black
    round it as a pip does: empty where it shows none of the red (a white highlight), inked
    where it does (a red pip under the highlight)."""
    level, rims = np.array([0.05]), np.array([HIDDEN_RIM_STEP + 0.1])
    assert not _inked_by_rims(np.array([False]), np.array([True]), level, rims, False)[0]
    assert _inked_by_rims(np.array([False]), np.array([False]), level, rims, False)[0]


def test_a_5_whose_middle_pip_is_under_a_highlight_is_no_4() -> None:
    """``render_labelled.py --seed 2105 --colours black/red black/gold``, scene 51: a black 5
    with red pips seen from straight above, its middle pip under a highlight lighter than
    the red. The place shows part of the red still, and it stands out from its rim: the
    corner pips are not read as a 4."""
    where = (172, 201)
    image, truths = render(nth_scene(2105, 51, colours=("black/red", "black/gold")))
    assert [t.value for t in truths if math.dist(t.centre, where) < 12] == [5]
    readings = read_frame(as_saved(image))
    assert 4 not in [r.value for r in readings if math.dist(r.center, where) < 25]
