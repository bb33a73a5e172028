"""Measuring parts as pips: the levels of a drawn pip and its ring, and the grid points of
the ring and rim annuli, which are worked out row by row from where their circles cross
each row and must be exactly the points that a distance per point would put in them."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.camera import pip_measures as pm
from reader.camera.pip_measures import PipPart, measure_parts

#: Where centres and bounds are drawn from: whole and half numbers (circles that cross rows
#: right on a column, where rounding could tip the point) as well as any.
_COORDINATES = st.one_of(st.integers(0, 32).map(lambda v: v / 2), st.floats(0, 16))
_BOUNDS = st.one_of(st.integers(0, 10).map(float), st.floats(0, 10))


def _grids(centres: list[tuple[float, float]], steps: list[int], sizes: list[tuple[int, int]]
           ) -> tuple[pm._Shapes, pm._Rows]:
    """Grids of ``sizes`` (rows, columns) points ``steps`` apart around ``centres`` (x, y
    from each grid's first point), as the measuring lays them out."""
    count = len(centres)
    cx, cy = (np.array(v, float) for v in zip(*centres))
    rows, cols = (np.array(v) for v in zip(*sizes))
    zeros = np.zeros(count, int)
    shape = pm._Shapes(np.arange(count), cx * 0, cx * 0, cx * 0, cx, cy, np.array(steps), zeros, zeros, rows, cols,
                       zeros, zeros)
    windows = pm._Windows(None, None, np.full(count, 100), zeros, None, None, None)
    return shape, pm._Rows.of(windows, shape, 1000)


def _held(rows: pm._Rows, spans: pm._Spans) -> set[tuple[int, int, int]]:
    """The points (part, row in its grid, column) of the runs ``spans``."""
    first_row = np.searchsorted(rows.part, rows.part)
    return {(int(rows.part[row]), int(row - first_row[row]), col)
            for row, first, last in zip(spans.row.tolist(), spans.first.tolist(), spans.last.tolist())
            for col in range(first, last + 1)}


def _between(shape: pm._Shapes, inner: np.ndarray, outer: np.ndarray) -> set[tuple[int, int, int]]:
    """The grid points at least ``inner`` and at most ``outer`` from their centre, one by one."""
    out = set()
    for k, (cx, cy, step, rows, cols) in enumerate(zip(shape.cx, shape.cy, shape.step, shape.rows, shape.cols)):
        for row in range(rows):
            for col in range(cols):
                dist = np.hypot(col * step - cx, row * step - cy)
                if inner[k] <= dist <= outer[k]:
                    out.add((k, row, col))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_COORDINATES, _COORDINATES, st.integers(1, 3), st.integers(1, 14), st.integers(1, 14),
                          _BOUNDS, _BOUNDS, _BOUNDS, _BOUNDS), min_size=1, max_size=3))
def test_annuli_hold_exactly_the_points_their_distances_put_in_them(grids: list[tuple]) -> None:
    shape, rows = _grids([g[:2] for g in grids], [g[2] for g in grids], [g[3:5] for g in grids])
    inner, width, inner_rim, width_rim = (np.array(v) for v in zip(*[g[5:] for g in grids]))
    bounds = np.stack((inner + width, inner, inner_rim + width_rim, inner_rim))
    ring, rim = pm._annuli(shape, rows, bounds)
    assert _held(rows, ring) == _between(shape, inner, inner + width)
    assert _held(rows, rim) == _between(shape, inner_rim, inner_rim + width_rim)


def test_a_circle_crossing_rows_right_on_columns_holds_the_points_on_it() -> None:
    # 3-4-5: the circle of radius 5 around (4, 3) crosses the first and last rows right on
    # columns 0 and 8; the annulus from 5 to 5 holds just those points, the disc a hair
    # smaller none of them
    shape, rows = _grids([(4.0, 3.0)], [1], [(7, 9)])
    on_circle, within = pm._annuli(shape, rows, np.array([[5.0], [5.0], [np.nextafter(5.0, 0)], [0.0]]))
    assert _held(rows, on_circle) == {(0, 0, 0), (0, 0, 8), (0, 6, 0), (0, 6, 8)}
    assert _held(rows, within) == _between(shape, np.array([0.0]), np.array([np.nextafter(5.0, 0)]))
    assert not _held(rows, within) & _held(rows, on_circle)


def _part(grey: np.ndarray, mask: np.ndarray, dark: bool) -> PipPart:
    """The part ``mask`` of ``grey`` on a window around it, its ring leaving out only itself."""
    ys, xs = np.nonzero(mask)
    y0, x0 = max(0, ys.min() - 12), max(0, xs.min() - 12)
    y1, x1 = min(grey.shape[0], ys.max() + 13), min(grey.shape[1], xs.max() + 13)
    own = mask[y0:y1, x0:x1].astype(np.uint8)
    return PipPart(own, own.astype(bool), x0, y0, dark, 120.0)


def test_a_drawn_pip_is_measured_on_its_ring_and_a_bent_part_is_misshapen() -> None:
    grey = np.full((120, 160), 200, np.uint8)
    pip = np.zeros_like(grey)
    cv2.circle(pip, (40, 50), 6, 1, -1)
    bent = np.zeros_like(grey)
    cv2.line(bent, (100, 30), (130, 30), 1, 3)
    cv2.line(bent, (100, 30), (100, 80), 1, 3)
    grey[pip > 0] = 40
    grey[bent > 0] = 40
    misshapen: list[int] = []
    measured, bent_part = measure_parts([_part(grey, pip > 0, True), _part(grey, bent > 0, True)], grey, misshapen)
    assert bent_part is None and misshapen == [1]
    assert measured is not None and measured.dark
    assert (measured.x, measured.y) == (40.0, 50.0)
    assert abs(measured.radius - 6) < 0.5 and measured.roundness > 0.95
    assert (measured.level, measured.ring, measured.contrast) == (40.0, 200.0, 160.0)


def test_a_part_as_faint_as_its_ring_is_no_pip() -> None:
    grey = np.full((80, 80), 200, np.uint8)
    pip = np.zeros_like(grey)
    cv2.circle(pip, (40, 40), 6, 1, -1)
    grey[pip > 0] = 200 - int(pm.MIN_CONTRAST) + 2
    assert measure_parts([_part(grey, pip > 0, True)], grey) == [None]
