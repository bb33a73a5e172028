"""Sampling the frame for the face checks and body colours: the quick paths give what the
plain numpy computations give, on whole frames and on crops (views into a frame)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.camera.body_colour import BodyColours, _named
from reader.camera.colour import medians
from reader.camera.face_checks import _levels
from reader.camera.pips import Pip


def _plain_levels(grey: np.ndarray, points: np.ndarray, radius: float, ink: float, body: float) -> np.ndarray:
    """Each point's square mean, from ink (0) to body (1), NaN off the image: one slice at a time."""
    r = math.ceil(radius)
    out = []
    for x, y in np.rint(points).astype(int):
        if r <= x < grey.shape[1] - r and r <= y < grey.shape[0] - r:
            out.append((grey[y - r:y + r + 1, x - r:x + r + 1].mean() - ink) / (body - ink))
        else:
            out.append(math.nan)
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), count=st.integers(0, 30), radius=st.sampled_from([0.0, 0.4, 1.0, 1.5, 2.7]),
       crop=st.booleans())
def test_levels_match_plain_square_means(seed: int, count: int, radius: float, crop: bool) -> None:
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (40, 50), dtype=np.uint8)
    grey = frame[5:33, 7:45] if crop else frame  # a crop is a view with the frame's row length
    points = rng.uniform(-4, 44, (count, 2))  # some squares reach past the edges
    got = _levels(grey, points, radius, 30.0, 200.0)
    np.testing.assert_allclose(got, _plain_levels(grey, points, radius, 30.0, 200.0), rtol=1e-12, equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**16), rows=st.integers(1, 6), count=st.integers(1, 14), axis=st.sampled_from([0, 1]),
       pixels=st.booleans())
def test_medians_match_numpys_on_float32_copies(seed: int, rows: int, count: int, axis: int, pixels: bool) -> None:
    # body colours take the median of pixels or float32 values along either axis, as float32:
    # the same numbers as numpy's median of their float32 copies
    rng = np.random.default_rng(seed)
    shape = (count, rows, 3) if axis == 0 else (rows, count, 3)
    values = (rng.integers(0, 256, shape, dtype=np.uint8) if pixels
              else rng.normal(0, 40, shape).astype(np.float32))
    got = medians(np.moveaxis(values, axis, -1)).astype(np.float32)
    np.testing.assert_array_equal(got, np.median(values.astype(np.float32), axis=axis))


@given(first=st.lists(st.integers(0, 9), max_size=12), second=st.lists(st.integers(0, 9), max_size=12))
def test_named_indices_are_numpys_union(first: list[int], second: list[int]) -> None:
    count = min(len(first), len(second))
    a, b = np.array(first[:count], int), np.array(second[:count], int)
    np.testing.assert_array_equal(_named(a, b, 10), np.union1d(a, b).astype(int))


def _pip(x: float, y: float, radius: float) -> Pip:
    """A round dark pip at (x, y)."""
    return Pip(x, y, radius, 1.0, 0.0, 80.0, 40.0, 120.0, 1.0, True)


def test_body_colours_of_a_crop_are_those_of_its_copy() -> None:
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    view = frame[10:50, 15:70]
    # pips near the crop's edges: their rings reach past it, and are read at its edge
    pips = [_pip(2.0, 3.0, 2.5), _pip(30.0, 20.0, 3.0), _pip(53.0, 38.0, 4.0)]
    on_view, on_copy = BodyColours(view), BodyColours(view.copy())
    np.testing.assert_array_equal(on_view.lab(pips), on_copy.lab(pips))
    np.testing.assert_array_equal(on_view.ink_lab(pips), on_copy.ink_lab(pips))
    np.testing.assert_array_equal(on_view.lab_at(np.array([[-5.0, 2.0], [60.0, 45.0]])),
                                  on_copy.lab_at(np.array([[0.0, 2.0], [54.0, 39.0]])))


def test_body_colours_scale_pip_coordinates() -> None:
    rng = np.random.default_rng(4)
    frame = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    half = [_pip(10.0, 12.0, 2.0), _pip(25.0, 20.0, 2.5)]
    full = [_pip(20.0, 24.0, 4.0), _pip(50.0, 40.0, 5.0)]
    np.testing.assert_array_equal(BodyColours(frame, 2.0).lab(half), BodyColours(frame).lab(full))
