"""The size a frame is searched at.

A camera's frames are searched at the scale found for the frame before, and sized afresh
when the dice no longer suit it. A frame's pips are searched on the frame reduced until
they measure about ``WORK_RADIUS`` pixels, down to a least scale that leaves the work image
``MIN_WORK_SIDE`` rows (half size for frames up to 1440 rows). On a grainy table the grain's
specks outnumber the pips: the pips that count when the size is judged are those that clear
the grain, and a frame whose pips cannot be sized at all is tried at its least scale first.
A reduced search whose pips come out too small is tried again at twice its scale, and only
then at full size.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import MIN_WORK_SIDE, FrameReading, SearchScale, _working_image, read_frame
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, DieTruth, Scene, render, scatter
from reader.camera.surface_grain import SurfaceGrain

COLOURS = ("white", "red", "blue", "green", "yellow", "black", "purple", "orange")


def _values(readings) -> list[int]:
    return sorted(r.value for r in readings if r.status is ReadStatus.OK)


def _within(read: list[int], truth: list[int]) -> bool:
    """Whether every value read is one of the dice shown (none read twice, none invented)."""
    left = list(truth)
    for value in read:
        if value not in left:
            return False
        left.remove(value)
    return True


def _frame(die_size: float, seed: int) -> tuple:
    dice = scatter(5, (1280, 720), die_size=die_size, seed=seed, colours=("white", "red", "blue"))
    image, truths = render(Scene(dice=dice, table=TABLES["felt"], seed=seed))
    return image, sorted(t.value for t in truths)


def test_a_cameras_frames_are_read_at_the_scale_found_first() -> None:
    image, truth = _frame(70.0, 4)
    memo = SearchScale()
    first = _values(read_frame(image, None, memo))
    assert _within(first, truth) and len(first) >= len(truth) - 1
    assert memo.scale is not None and memo.scale < 1.0  # big pips: searched at a reduced size
    scale = memo.scale
    again, truth_again = _frame(70.0, 5)
    read = _values(read_frame(again, None, memo))
    assert read == _values(read_frame(again)) and _within(read, truth_again) and len(read) >= len(truth_again) - 1
    assert memo.scale == scale


def test_dice_that_grow_or_shrink_in_view_are_sized_afresh() -> None:
    reader = FrameReading()
    for die_size, seed in ((40.0, 1), (130.0, 2), (40.0, 3), (90.0, 4)):
        image, truth = _frame(die_size, seed)
        read = _values(reader(image))
        assert read == _values(read_frame(image)) and _within(read, truth), (die_size, read, truth)


def test_a_wrong_remembered_scale_is_dropped_not_trusted() -> None:
    image, truth = _frame(40.0, 6)
    memo = SearchScale(0.5)  # too coarse for these small pips
    read = _values(read_frame(image, None, memo))
    assert read == _values(read_frame(image)) and _within(read, truth)
    assert memo.scale is None or memo.scale > 0.5


def _searched(image: np.ndarray) -> tuple[tuple[int, ...], float]:
    """The shape of the image a frame's pips were searched on, and the factor back to the frame."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    work, scale, _ = _working_image(grey, SearchScale(), SurfaceGrain(grey))
    return work.shape[:2], scale


def _read_right(image: np.ndarray, truths: list[DieTruth], least: int) -> None:
    """At least ``least`` dice are read, each with its true value."""
    read = [r for r in read_frame(image) if r.value is not None]
    assert len(read) >= least
    for reading in read:
        truth = min(truths, key=lambda t: math.dist(reading.center, t.centre))
        x0, y0, x1, y1 = truth.box
        assert x0 <= reading.center[0] <= x1 and y0 <= reading.center[1] <= y1 and reading.value == truth.value


@pytest.mark.parametrize("seed", [1, 2])
def test_a_grainy_wooden_table_is_searched_reduced(seed: int) -> None:
    """1920x1080 frames of a wooden table of fine grain: its specks, a pixel or two across,
    measured as hundreds of tiny pips at half size, the dice's pips looked too small, and
    the frame was searched at full size (1.5-3 s a read, against 0.3-1 s)."""
    dice = scatter(8, (1920, 1080), die_size=84.0, seed=seed, colours=COLOURS)
    image, truths = render(Scene(dice=dice, size=(1920, 1080), table=TABLES["wood"], fine_grain=40.0, seed=seed,
                                 tilt=20))
    shape, scale = _searched(image)
    assert scale == 2.0 and shape == (540, 960)
    _read_right(image, truths, 7)


def test_a_big_photo_is_searched_at_most_down_to_its_least_scale() -> None:
    """A photo of 2880x2160 with dice about 200 px across: its pips (17 px) would be 3 px at
    a sixth of its size; it is searched with ``MIN_WORK_SIDE`` rows, not at half size as a
    webcam's frame is."""
    dice = scatter(6, (2880, 2160), die_size=200.0, seed=4, colours=COLOURS)
    image, truths = render(Scene(dice=dice, size=(2880, 2160), seed=4, tilt=15))
    shape, scale = _searched(image)
    assert shape[0] == MIN_WORK_SIDE and scale == pytest.approx(3.0)
    _read_right(image, truths, 6)


def test_pips_too_small_at_the_least_scale_are_searched_at_twice_it_not_at_full_size() -> None:
    """A photo of 2880x2160 on fine wood grain, dice about 70 px across: the grain leaves the
    pips unsized, and at a third of the frame's size (its least scale) they measure 2 px:
    the frame is searched again at two thirds of its size, where they measure 4."""
    dice = scatter(6, (2880, 2160), die_size=70.0, seed=6, colours=COLOURS)
    image, _ = render(Scene(dice=dice, size=(2880, 2160), table=TABLES["wood"], fine_grain=40.0, seed=6, tilt=10))
    shape, scale = _searched(image)
    assert scale == pytest.approx(1.5) and shape == (1440, 1920)
