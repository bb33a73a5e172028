"""Dice smeared by motion: read when every pip still stands apart, never read wrong; and the
checks that keep a smeared or half-seen die from passing as a smaller face (with the fast
row medians those checks use, against numpy's)."""

from __future__ import annotations

import math
import warnings

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.camera.dice_finder import FaceCandidate
from reader.camera.face_checks import _row_medians, check_face
from reader.camera.frame_reader import read_frame
from reader.camera.layouts import fit_layout
from reader.camera.pip_groups import PipGroup
from reader.camera.pips import find_pips
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, RenderDie, Scene, render
from reader.camera.smear import Smear, face_smear
from tests.test_camera_pips_synthetic import BLACK, WHITE, Die, render_scene

TABLE = (120, 170, 205)


def smeared(image: np.ndarray, length: int, degrees: float) -> np.ndarray:
    """``image`` smeared along a straight track of ``length`` pixels (a box kernel)."""
    kernel = np.zeros((length, length), np.float32)
    c = length // 2
    dx, dy = math.cos(math.radians(degrees)) * c, math.sin(math.radians(degrees)) * c
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def pips_near(image: np.ndarray, centre: tuple[float, float], reach: float) -> list:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return [p for p in find_pips(grey) if math.dist((p.x, p.y), centre) < reach]


@settings(max_examples=200, deadline=None)
@given(st.floats(0.5, 30), st.floats(1, 10), st.floats(-40, 40), st.floats(-40, 40), st.floats(0, math.pi))
def test_ink_of_a_track_is_a_share_and_ends_where_the_track_does(length: float, half_width: float, x: float,
                                                                  y: float, angle: float) -> None:
    direction = np.array([math.cos(angle), math.sin(angle)])
    smear = Smear(direction, length, half_width)
    point = np.array([[x, y]])
    ink = float(smear.ink_at(point, np.zeros((1, 2)))[0])
    assert 0.0 <= ink <= 1.0
    along, across = abs(point[0] @ direction), abs(point[0] @ [-direction[1], direction[0]])
    if across >= half_width or along >= length / 2 + half_width:
        assert ink == 0.0
    if length <= 2 * (half_width - across) and along == 0:
        assert ink == pytest.approx(1.0)  # the pip covered the point the whole exposure


def test_ink_of_two_tracks_adds_up_between_them() -> None:
    smear = Smear(np.array([1.0, 0.0]), 8.0, 3.0)
    pips = np.array([[0.0, 0.0], [12.0, 0.0]])
    one = smear.ink_at(np.array([[6.0, 0.0]]), pips[:1])[0]
    both = smear.ink_at(np.array([[6.0, 0.0]]), pips)[0]
    assert 0 < one < both == pytest.approx(2 * one)


def test_smear_is_told_from_foreshortening() -> None:
    """Pips oval by motion have soft rims along the track; pips oval because the camera looks
    obliquely are sharp all round."""
    die = Die(4, (320, 240), 70, 0.0, WHITE, BLACK)
    flat = render_scene([die], TABLE, seed=1)
    moving = smeared(flat, 13, 90)
    track = face_smear(pips_near(moving, die.centre, 30), cv2.cvtColor(moving, cv2.COLOR_BGR2GRAY))
    assert track is not None
    assert abs(track.direction[1]) > 0.95  # vertical, as smeared
    # told from the ovals' excess length, which the camera's own blur hides in part: never
    # more than the real track (an empty place would be expected to show more ink than it does)
    assert 0 < track.length <= 13
    oblique = render_scene([Die(4, (320, 240), 70, 0.0, WHITE, BLACK, squash=0.55)], TABLE, seed=1)
    pips = pips_near(oblique, die.centre, 30)
    assert len(pips) == 4 and all(p.roundness < 0.7 for p in pips)
    assert face_smear(pips, cv2.cvtColor(oblique, cv2.COLOR_BGR2GRAY)) is None


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(("side", "length"), [(50, 13), (64, 17)])
def test_smeared_die_whose_pips_stand_apart_is_read(value: int, side: int, length: int) -> None:
    """Smeared over a quarter of its size, a die's pips are long ovals but still apart."""
    die = Die(value, (320, 240), side, 10.0, WHITE, BLACK)
    image = smeared(render_scene([die], TABLE, seed=value), length, 0)
    readings = read_frame(image)
    assert [(r.value, r.status) for r in readings] == [(value, ReadStatus.OK)], readings


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("length", [21, 35, 45])
def test_smeared_die_whose_pips_run_together_is_never_read(value: int, length: int) -> None:
    """Smeared further than the pips are apart, a 4's pairs become two streaks whose darkest
    middles look like a 2's pips, and a 6's columns a 3's: such dice are not read."""
    die = Die(value, (320, 240), 60, 0.0, WHITE, BLACK)
    image = smeared(render_scene([die], TABLE, seed=value), length, 0)
    assert all(r.value is None or r.value == value for r in read_frame(image))
    assert all(r.value is None for r in read_frame(image)) or length < 35


@pytest.mark.parametrize("gone", [(0, 1), (2, 3), (0, 2), (1, 3)])  # a row or a column
def test_two_pips_along_the_edge_of_a_four_are_no_two(gone: tuple[int, int]) -> None:
    """When two pips of a 4 go unseen (faint coloured pips, a small die searched at a reduced
    size), the other two form a 2 turned 45 degrees; the unseen pips are still there, where
    a bigger face puts them, and the face is refused."""
    die = Die(4, (320, 240), 64, 12.0, (40, 35, 30), (60, 60, 210))
    image = render_scene([die], TABLE, seed=3)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    pips = sorted(pips_near(image, die.centre, 30), key=lambda p: (round(p.y / 10), p.x))
    assert len(pips) == 4
    seen = tuple(p for i, p in enumerate(pips) if i not in gone)
    group = PipGroup(seen)
    fit = fit_layout(group.points, group.squash)
    assert fit.value == 2  # the pair would fit a 2 ...
    assert math.dist((seen[0].x, seen[0].y), (seen[1].x, seen[1].y)) < 40  # an edge, not a diagonal
    verdict = check_face(FaceCandidate(group, fit, None), grey, list(seen))
    assert verdict.reason == "ambiguous pips"  # ... but not with two more pips beside it


def test_two_alone_is_still_read() -> None:
    die = Die(2, (320, 240), 64, 12.0, (40, 35, 30), (60, 60, 210))
    readings = read_frame(render_scene([die], TABLE, seed=3))
    assert [r.value for r in readings] == [2]


def test_a_lone_blob_many_pips_wide_is_no_one() -> None:
    """A light die on a dark table, its pips lost in motion, is one big light blob: beside
    dice whose pips are a fraction of its size it is not read as a 1."""
    dark = (45, 42, 40)
    dice = [Die(5, (160, 240), 60, 0.0, BLACK, WHITE), Die(3, (480, 240), 60, 20.0, BLACK, WHITE)]
    image = render_scene(dice, dark, seed=4)
    cv2.circle(image, (320, 380), 18, (235, 235, 235), -1, cv2.LINE_AA)  # pips are 5 px
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    readings = read_frame(image)
    assert sorted(r.value for r in readings if r.status is ReadStatus.OK) == [3, 5]
    assert not any(math.dist(r.center, (320, 380)) < 20 and r.value is not None for r in readings)


def test_second_look_does_not_read_one_pip_of_a_smeared_three() -> None:
    """A white 3 smeared on a dark table: the first look groups two of its pips and refuses
    them; a second look at the die alone must not settle for its middle pip as a 1."""
    die = RenderDie(3, "white", (274.3, 77.0), 38.8, 64.5, blur=10.05, blur_angle=129.0)
    others = (RenderDie(6, "white", (585.4, 260.4), 38.8, 4.2, blur=12.2, blur_angle=108.5),
              RenderDie(3, "white", (486.9, 123.2), 38.8, 69.7, blur=5.5, blur_angle=119.3))
    scene = Scene(dice=(die, *others), size=(640, 480), table=TABLES[sorted(TABLES)[0]], tilt=7.9,
                  glare=0.04, defocus=0.5, noise=1.8, seed=11367263, lamp=(0.19, -0.32, 0.93),
                  light=(1.18, 1.0, 0.84), brightness=0.95)
    image, _ = render(scene)
    readings = read_frame(image)
    assert all(r.value in (None, 3) for r in readings if math.dist(r.center, die.centre) < die.size / 2), readings


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.one_of(st.floats(-5, 5), st.just(math.nan)), min_size=8, max_size=8), min_size=1,
                max_size=6))
def test_row_medians_match_numpys_nanmedian(rows: list[list[float]]) -> None:
    levels = np.array(rows)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy warns of rows of NaN only
        expected = np.nanmedian(levels, axis=1)
    np.testing.assert_allclose(_row_medians(levels), expected, equal_nan=True)


def test_a_pair_in_brighter_light_beside_a_two_is_still_a_bigger_face() -> None:
    """A face lit unevenly: the pips of its brighter half are lighter than those of the
    other half, and the two halves' pips are not grouped; the darker pair, turned 45
    degrees, fits a 2, but the lighter pair beside it still marks a bigger face."""
    die = Die(4, (320, 240), 64, 12.0, (150, 150, 150), (40, 40, 40))
    image = render_scene([die], TABLE, seed=5)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    pips = sorted(pips_near(image, die.centre, 30), key=lambda p: (round(p.y / 10), p.x))
    dim, bright = pips[:2], pips[2:]
    for p in bright:  # body and ink both lifted by the light: the ink 44% of the way to the body
        centre, contrast = (round(p.x), round(p.y)), p.ring - p.level
        cv2.circle(grey, centre, math.ceil(3 * p.radius), int(p.ring + 0.12 * contrast), -1)
        cv2.circle(grey, centre, math.ceil(p.radius) + 1, int(p.level + 0.44 * contrast), -1)
    group = PipGroup(tuple(dim))
    face = FaceCandidate(group, fit_layout(group.points, group.squash), None)
    assert face.fit.value == 2
    assert check_face(face, grey, list(dim)).reason == "ambiguous pips"


def test_small_pips_between_a_twos_pips_make_it_no_two() -> None:
    """Two big blobs (pips run together, or pips of two dice) fit a 2; pips half their size
    lying between them are pips the 2 does not account for."""
    grey = np.full((200, 200), 200, np.uint8)
    centres = [(100, 76), (100, 124)]
    for x, y in centres:
        cv2.circle(grey, (x, y), 7, 40, -1, cv2.LINE_AA)
    for x in (92, 100, 108):
        cv2.circle(grey, (x, 112), 3, 40, -1, cv2.LINE_AA)
    pips = find_pips(grey)
    big = tuple(p for p in pips if p.radius > 5)
    assert len(big) == 2 and len(pips) == 5
    group = PipGroup(big)
    face = FaceCandidate(group, fit_layout(group.points, group.squash), None)
    assert face.fit.value == 2
    assert check_face(face, grey, pips).reason == "ambiguous pips"
    assert check_face(face, grey, list(big)).reason is None  # without them, a fine 2


@pytest.mark.parametrize("degrees", [30, 60])
def test_one_column_of_a_smeared_six_is_no_three(degrees: float) -> None:
    """A 6 smeared obliquely to its columns: its pips are ovals, which foreshortening would
    also make. When one column alone is grouped (the other went unseen), it fits a 3; the
    other column, two steps beside it, refuses that whether the face is taken as slanted
    (as the ovals say) or as seen square-on (as the smear means)."""
    die = Die(6, (320, 240), 70, float(degrees), WHITE, BLACK)
    image = smeared(render_scene([die], TABLE, seed=6), 17, degrees + 135)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    pips = pips_near(image, die.centre, 35)
    assert len(pips) == 6
    across = np.array([math.cos(math.radians(degrees)), math.sin(math.radians(degrees))])
    column = sorted(pips, key=lambda p: (np.array([p.x, p.y]) - die.centre) @ across)[:3]
    group = PipGroup(tuple(column))
    face = FaceCandidate(group, fit_layout(group.points, group.squash), None)
    assert face.fit.value == 3 and face.roundness < 0.8
    assert check_face(face, grey, column).reason == "ambiguous pips"
