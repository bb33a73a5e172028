"""A dice tray on a grainy wooden table, and dust on a dark tray: the frame's texture as a
whole is the smooth tray's, while the wood's specks and the dust stand out as far as pips.
A face's pips must clear the grain where they lie, and cover a few pixels of the frame."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import SearchScale, _working_image, read_frame
from reader.camera.pips import pip_block_size
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, Scene, render, scatter
from reader.camera.surface_grain import GRAIN_BLOCKS, SurfaceGrain

#: The wood starts this many pixels from the frame's left edge; the dice lie left of it.
WOOD_FROM = 860


def _tray_beside_wood(seed: int) -> tuple[np.ndarray, list]:
    """Six dice on a plain tray, and on the right a third of the frame of fine wood grain
    (noise of 30 grey levels a pixel) sprinkled with 400 specks 1 to 3 pixels in radius that
    stand out 25 to 45 levels."""
    dice = scatter(6, (WOOD_FROM - 60, 720), die_size=56.0, seed=seed,
                   colours=("white", "red", "blue", "black", "yellow", "green"))
    image, truths = render(Scene(dice=dice, size=(1280, 720), seed=seed, tilt=10))
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 30, (720, 1280 - WOOD_FROM)).astype(np.float32), (0, 0), 0.7)
    wood = np.array([90, 120, 200], np.float32) + grain[..., None]
    for _ in range(400):
        centre = (int(rng.integers(0, 1280 - WOOD_FROM)), int(rng.integers(0, 720)))
        level = tuple(float(v) for v in rng.choice([-1, 1]) * rng.uniform(25, 45) + np.array([90, 120, 200]))
        cv2.circle(wood, centre, int(rng.integers(1, 4)), level, -1)
    image[:, WOOD_FROM:] = np.clip(wood, 0, 255).astype(np.uint8)
    return image, truths


def test_the_grain_is_told_where_it_lies() -> None:
    image, _ = _tray_beside_wood(0)
    grain = SurfaceGrain(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    tray, wood = grain.at(300, 360), grain.at(1100, 360)
    assert wood >= 4 * max(tray, 1.0)
    # (points at and past the frame's edge are read on what of the neighbourhood is in it)
    assert grain.at(1279, 719) >= 4 * max(grain.at(0, 0), 1.0) and grain.at(5000, 5000) == 0


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_dice_beside_a_grainy_wooden_table_are_read_and_its_specks_are_not(seed: int) -> None:
    """Before the grain was looked at, these frames read none of their six dice and showed
    24 to 32 dice in the wood. Within a neighbourhood of the wood's edge the smooth tray
    makes up part of it, and lowers the grain measured there: a speck may still show as
    an unreadable die (seed 2: one), never with a value."""
    image, truths = _tray_beside_wood(seed)
    readings = read_frame(image)
    in_wood = [r for r in readings if r.center[0] > WOOD_FROM - 20]
    assert all(r.status is ReadStatus.UNREADABLE and r.center[0] < WOOD_FROM + GRAIN_BLOCKS * pip_block_size(image.shape) / 2
               for r in in_wood)
    assert len(readings) - len(in_wood) == len(truths)
    for truth in truths:
        reading = min(readings, key=lambda r: math.dist(r.center, truth.centre))
        assert math.dist(reading.center, truth.centre) < 20
        assert reading.status is ReadStatus.OK and reading.value == truth.value


@pytest.mark.parametrize("seed", [0, 1])
def test_a_grainy_table_is_not_taken_for_tiny_pips(seed: int) -> None:
    """The wood's specks, a pixel or two across, outnumber the dice's pips: sized by every
    blob, the frame was searched enlarged twice (about four seconds a frame), and then at
    full size; its pips that clear the grain are the dice's, of the usual size, and it is
    searched reduced as a plain table's frame is."""
    image, _ = _tray_beside_wood(seed)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    work, scale, _ = _working_image(grey, SearchScale(), SurfaceGrain(grey))
    assert scale > 1.0 and work.shape[0] < grey.shape[0]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_dust_on_a_dark_tray_fits_no_face(seed: int) -> None:
    """Specks of 2 x 2 pixels on a black tray, half of them in pairs a 2's diagonal apart:
    the frame is searched enlarged (its blobs are tiny), where pairs of them fitted 2s (77
    to 85 dice a frame, before a face's pips had to cover a few pixels of the frame)."""
    rng = np.random.default_rng(seed)
    image = np.clip(np.full((720, 1280, 3), (22, 18, 16), np.float32) + rng.normal(0, 2, (720, 1280, 3)),
                    0, 255).astype(np.uint8)
    for _ in range(150):
        x, y = int(rng.integers(20, 1260)), int(rng.integers(20, 700))
        level = float(rng.uniform(120, 230))
        image[y:y + 2, x:x + 2] = level
        if rng.random() < 0.5:
            step, turn = rng.uniform(5, 9), rng.uniform(0, 2 * math.pi)
            x2, y2 = int(x + step * math.cos(turn)), int(y + step * math.sin(turn))
            image[y2:y2 + 2, x2:x2 + 2] = level
    assert read_frame(image) == []


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_black_dice_with_red_pips_on_a_grainy_wooden_table_are_read(seed: int) -> None:
    """Red pips stand out from a black die least in grey: on a table of fine wood grain they
    fell short of the frame's texture, and 11 of these 24 dice were read (none of seed 1's
    six). Grain and knots are the wood's own colour; pips of another colour than their body
    are held to neither the texture nor the grain."""
    dice = scatter(6, (1280, 720), die_size=60.0, seed=seed, colours=("black/red",))
    image, truths = render(Scene(dice=dice, table=TABLES["wood"], fine_grain=40.0, seed=seed, tilt=10))
    read = [r for r in read_frame(image) if r.value is not None]
    assert len(read) >= 4
    for reading in read:
        truth = min(truths, key=lambda t: math.dist(reading.center, t.centre))
        assert math.dist(reading.center, truth.centre) < 20 and reading.value == truth.value
