"""A die lying beyond another's top face, away from the camera, is no side face of it.

A face clearly darker than a top face beside it used to be dropped as that die's shaded
side face, wherever it lay. The camera sees a die's side faces only between its top face and
the point below the camera: a darker face beyond the top face, as round as it, is the top
face of another die (a grey die behind a white one, or a die turned from the light). The
direction towards the camera is voted by the frame's faces and may be wrong: a face is
only kept so where the top face it lies beyond (of two pips or more: a lone speck shows no
die's face) stays a top face, and where it is no flatter (a side face seen round a die's
edge, in a view from straight above, is)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "options", "behind", "front"), [
    (1806, 7, {"pip_sizes": (0.055, 0.075)}, ((1060, 410), 6), ((1085, 450), 4)),
    (2001, 46, {}, ((797, 162), 3), ((806, 212), 6)),
])
def test_a_darker_die_behind_a_top_face_is_read(seed: int, index: int, options: dict[str, object],
                                               behind: tuple[tuple[int, int], int],
                                               front: tuple[tuple[int, int], int]) -> None:
    """``render_labelled.py --seed 1806 --pip-size 0.055-0.075``, scene 7: a 6 beyond a
    brighter 4 (away from the camera); ``--seed 2001``, scene 46: a 3 beyond a brighter 6,
    touching it. The 6 and the 3 were dropped as shaded side faces and missed."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert_read_at(truths, readings, *behind)
    assert_read_at(truths, readings, *front)


def test_a_front_face_is_read_as_no_die_where_the_direction_was_voted_wrong() -> None:
    """``render_labelled.py --seed 2011 --blur 14``, scene 54: a white die showing 2, its
    front face (a 4, darker) below it. The frame's faces voted the direction towards the
    camera upwards, so the 4 lies "beyond" the 2, and the 2 lies in front of the 4 as its
    front face: the 2 is no top face there, and the 4 stays its shaded side face."""
    truths, readings = render_and_read(nth_scene(2011, 54, blur=14.0))
    assert_read_at(truths, readings, (1173, 506), None)


def test_a_flatter_side_face_beyond_a_top_face_is_read_as_no_die() -> None:
    """``render_labelled.py --seed 1910 --tilt 0 --distance 0.8``, scene 23: a blue die
    showing 1 at the left of a wide view from straight above, its side face (a 3) turned
    towards the frame's middle and seen round its edge, much flatter than the 1."""
    truths, readings = render_and_read(nth_scene(1910, 23, tilt=0.0, distance=0.8))
    assert_read_at(truths, readings, (147, 497), 1)
    assert_read_at(truths, readings, (185, 491), None)


def test_a_die_with_fainter_pips_behind_a_top_face_is_read() -> None:
    """``render_labelled.py --seed 3201``, scene 24: a beige 6 touching a cream 5, beyond it
    (away from the camera) and as round, its pips much fainter. Fainter pips are what a side
    face's slivers show, and it was dropped as the 5's side face and missed; beyond a top
    face, as round as it, it is another die's top face however faint."""
    truths, readings = render_and_read(nth_scene(3201, 24))
    assert_read_at(truths, readings, (470, 408), 6)
    assert_read_at(truths, readings, (526, 446), 5)


@pytest.mark.parametrize(("seed", "index", "options", "face", "pip"), [
    (3217, 51, {"fine_grain": (25, 45)}, ((837, 200), 5), (834, 247)),
    (3104, 40, {"tilt": 40}, ((461, 241), 4), None),
])
def test_a_face_beyond_a_lone_pip_of_its_shaded_front_face_is_read(
        seed: int, index: int, options: dict[str, object], face: tuple[tuple[int, int], int],
        pip: tuple[int, int] | None) -> None:
    """``render_labelled.py --seed 3217 --fine-grain 25-45``, scene 51: a red 5 seen 35 degrees
    oblique, a lone pip of its front face below it, rounder than the 5's pips (one pip's
    shape is a rough measure) and lit less. Taken first, the pip dropped the 5 as a side face
    of its die and was read as a 1; ``--seed 3104 --tilt 40``, scene 40: a 4 lost so. A face
    beyond a pip lies where its die shows no side face, and no 1 has fragments: the face is
    read, and the pip is its front face's."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert_read_at(truths, readings, *face)
    if pip is not None:
        assert_read_at(truths, readings, pip, None)


def test_a_lone_pip_lit_as_brightly_as_the_face_beyond_it_is_no_front_face_of_it() -> None:
    """``render_labelled.py --seed 1808 --glare 0.4-0.6``, scene 47: a grey 6 whose lower row's
    two other pips a highlight hides, its top row grouped as a 3 beyond the row's dark pip,
    which is lit as brightly: the pip is a piece of the face, not its front face's, and the 6
    is not read as a 3."""
    truths, readings = render_and_read(nth_scene(1808, 47, glare=(0.4, 0.6)))
    place = (257, 616)
    assert [t.value for t in truths if math.dist(t.centre, place) < 20] == [6]
    assert all(r.value in (None, 6) for r in readings if math.dist(r.center, place) < 30)


@pytest.mark.parametrize(("seed", "index", "options", "place", "value"), [
    (4307, 14, {"size": (2560, 1440), "pip_sizes": (0.1, 0.13)}, (846, 615), 6),
    (1801, 45, {}, (445, 212), 3),
])
def test_a_lone_pip_on_a_face_s_own_square_is_no_front_face_of_it(seed: int, index: int, options: dict[str, object],
                                                                  place: tuple[int, int], value: int) -> None:
    """``render_labelled.py --seed 4307 --size 2560x1440 --pip-size 0.1-0.13``, scene 14: a black
    6 with big pips, grouped as a 2 and a lone pip lying on the 2's own square, lit a little
    less: the pip is a piece of the face, the 2 is no face of its own, and the 6 is read.
    ``--seed 1801``, scene 45: a 3 grouped as the 2 of its corner pips and its middle pip
    alone, lying on the 2's face: still read as a 3."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert_read_at(truths, readings, place, value)
