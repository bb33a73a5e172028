"""Measuring blobs as pips: shape from their moments, levels from their ring, core and rim.

Parts of many regions are measured together (their pixels gathered into flat arrays), which
keeps the cost per pip low whatever the number of candidates in a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

#: A pip must differ from its surrounding ring by at least this many grey levels.
MIN_CONTRAST = 22.0


@dataclass(frozen=True)
class Pip:
    """One round blob: a pip candidate."""

    x: float
    y: float
    radius: float          # radius of the circle of the same area
    roundness: float       # minor / major ellipse axis, 1 for a circle
    angle: float           # direction of the major axis, radians
    contrast: float        # |ring level - blob level| in grey levels
    level: float           # mean grey level inside the blob
    ring: float            # median grey level of the ring around the blob
    edge_width: float      # contrast / steepest gradient across its rim, pixels
    dark: bool             # darker than its surroundings


class PipPart(NamedTuple):
    """A part of a region, to be measured as a pip: its pixels and the pixels its ring
    leaves out, on a window of the image whose corner is (x0, y0) (a named tuple: frames
    make a hundred of them)."""

    own: np.ndarray
    exclude: np.ndarray
    x0: int
    y0: int
    dark: bool
    level: float  # the grey level its region was cut at (it lies beyond it)


def measure_parts(parts: list[PipPart], grey: np.ndarray, misshapen: list[int] | None = None) -> list[Pip | None]:
    """Each part measured as a pip, or None where it is not one (too small, not a filled
    ellipse, too faint against its ring, or on no uniform surface). The indices of the
    parts that are no filled ellipse are added to ``misshapen`` when it is given.

    Shape comes from the part's moments; levels are read on a grid of about a third of
    its radius (plenty, and fast for big pips), all parts at once: the ring around the
    part (its median is the surface's level), the core (the ink's level) and the rim (how
    sharp the edge is).
    """
    out: list[Pip | None] = [None] * len(parts)
    if not parts:
        return out
    windows = _Windows.of(parts)
    shape = _shapes(parts, windows)
    if misshapen is not None:
        ellipses = np.zeros(len(parts), bool)
        ellipses[shape.index] = True
        misshapen.extend(np.flatnonzero(~ellipses).tolist())
    if not shape.index.size:
        return out
    grid = _grids(parts, windows, shape, grey)
    passed = _on_uniform_rings(parts, shape, grid)
    if not passed:
        return out
    steepest = _steepest_rims(grey, grid, [k for k, *_ in passed], len(shape.index))
    x, y = (shape.x0 + shape.cx).tolist(), (shape.y0 + shape.cy).tolist()
    r_eq, roundness, angle = shape.radius.tolist(), shape.roundness.tolist(), shape.angle.tolist()
    for k, i, ring, level, contrast in passed:
        out[i] = Pip(x[k], y[k], r_eq[k], roundness[k], angle[k], contrast, level, ring,
                     contrast / max(steepest[k], 1e-3), parts[i].dark)
    return out


def _on_uniform_rings(parts: list[PipPart], shape: _Shapes, grid: _Grid) -> list[tuple[int, int, float, float, float]]:
    """The parts (k in ``shape.index``, i in ``parts``) that stand out enough from a mostly
    uniform ring (the surface the pip is printed on), with the ring's level, their own and
    their contrast with it."""
    count = len(shape.index)
    part, values, dist, r = grid.part, grid.values, grid.dist, grid.r
    # the ring leaves out every blob pixel, so close neighbours (the pips of a 6) do not count
    ring_at = (dist >= 1.5 * r + 0.5) & (dist <= 2.3 * r + 1.5) & ~grid.excluded
    running, ring_start, ring_count = _grouped_histogram(values[ring_at], part[ring_at], count)
    if not running[-1]:
        return []
    core_at = grid.owns & (dist <= np.maximum(0.7 * r, grid.step))
    core_count = np.bincount(part[core_at], minlength=count)
    own_count = np.bincount(part[grid.owns], minlength=count)
    level = np.where(core_count > 0,
                     np.bincount(part[core_at], values[core_at], count) / np.maximum(core_count, 1),
                     np.bincount(part[grid.owns], values[grid.owns], count) / np.maximum(own_count, 1)).tolist()
    # each ring's median and its 10th and 90th percentiles (parts with too small a ring
    # are skipped below), then the verdicts part by part, on plain numbers
    picks = _level_at_rank(running, np.minimum(ring_start[:, None] + ring_count[:, None] * _RING_TENTHS // 10,
                                               running[-1] - 1)).astype(float).tolist()
    passed = []
    for k, (i, n, (ring, ring_high, ring_low)) in enumerate(zip(shape.index.tolist(), ring_count.tolist(), picks)):
        if n < 8:
            continue
        contrast = ring - level[k] if parts[i].dark else level[k] - ring
        if contrast >= MIN_CONTRAST and ring_high - ring_low <= 0.75 * contrast:
            passed.append((k, i, ring, level[k], contrast))
    return passed


def _steepest_rims(grey: np.ndarray, grid: _Grid, wanted: list[int], count: int) -> list[float]:
    """The steepest grey-level step across the rim of each ``wanted`` part (its 90th
    percentile; 0 for the others): only theirs, the gradient is the costly part."""
    chosen = np.zeros(count, bool)
    chosen[wanted] = True
    rim_at = np.repeat(chosen, grid.sizes) & (grid.dist >= 0.5 * grid.r) & (grid.dist <= 1.5 * grid.r + 1)
    rim_sorted, rim_start, rim_count = _sorted_by_part(_gradient_at(grey, grid.x[rim_at], grid.y[rim_at]),
                                                       grid.part[rim_at], count)
    rim_sorted = rim_sorted.tolist()
    return [rim_sorted[first + rims * 9 // 10] if rims else 0.0
            for first, rims in zip(rim_start.tolist(), rim_count.tolist())]


class _Windows(NamedTuple):
    """The parts' windows laid end to end: their pixels (1 where the part is), each one's
    size and where it starts."""

    owns: np.ndarray
    heights: np.ndarray
    widths: np.ndarray
    start: np.ndarray

    @classmethod
    def of(cls, parts: list[PipPart]) -> _Windows:
        """The windows of ``parts``."""
        heights, widths = np.array([part.own.shape for part in parts]).reshape(-1, 2).T
        sizes = heights * widths
        return cls(np.concatenate([part.own.ravel() for part in parts]), heights, widths, np.cumsum(sizes) - sizes)


class _Shapes(NamedTuple):
    """The shapes of the parts that may be pips (``index``: which parts), and where each is
    read: on a grid of ``rows`` x ``cols`` points ``step`` pixels apart, from the window's
    pixel (``left``, ``top``) out to the ring's outer edge. The centre (``cx``, ``cy``) is
    measured from that pixel, which lies at (``x0``, ``y0``) in the image."""

    index: np.ndarray
    radius: np.ndarray     # of the circle of the same area
    roundness: np.ndarray
    angle: np.ndarray
    cx: np.ndarray
    cy: np.ndarray
    step: np.ndarray
    left: np.ndarray
    top: np.ndarray
    rows: np.ndarray
    cols: np.ndarray
    x0: np.ndarray
    y0: np.ndarray


def _shapes(parts: list[PipPart], windows: _Windows) -> _Shapes:
    """The parts' shapes from their moments; the parts that are no filled ellipse are left
    out. (Worked out for all parts at once, with the very arithmetic of one part at a time:
    the same numbers to the last bit.)"""
    heights, widths = windows.heights, windows.widths
    area, m10, m01, mu20, mu11, mu02 = _moments(windows)
    with np.errstate(divide="ignore", invalid="ignore"):  # the parts with no area are left out below
        mu20, mu02, mu11 = mu20 / area, mu02 / area, mu11 / area
        spread = np.array([math.hypot((a - b) / 2, c) for a, b, c in zip(mu20.tolist(), mu02.tolist(), mu11.tolist())])
        lam1, lam2 = (mu20 + mu02) / 2 + spread, (mu20 + mu02) / 2 - spread
        roundness = np.sqrt(lam2 / lam1)
        # a filled ellipse with these second moments has area 4*pi*sqrt(l1*l2)
        fill = area / (4 * math.pi * np.sqrt(lam1 * lam2))
        index = np.flatnonzero((lam2 > 0) & (fill >= 0.65) & (fill <= 1.35) & (roundness >= 0.3))
    area, m10, m01, mu20, mu11, mu02 = (v[index] for v in (area, m10, m01, mu20, mu11, mu02))
    # (math's atan2, as one part at a time had it: numpy's may differ in the last bit)
    angle = np.array([0.5 * math.atan2(2 * c, a - b) for a, b, c in zip(mu20.tolist(), mu02.tolist(), mu11.tolist())])
    r_eq = np.sqrt(area / math.pi)
    step = np.maximum(1, (r_eq / 3).astype(int))
    # only the grid points out to the ring's outer edge are read
    cx, cy = m10 / area, m01 / area
    reach = 2.3 * r_eq + 1.5
    left, top = np.maximum(0, np.ceil(cx - reach)).astype(int), np.maximum(0, np.ceil(cy - reach)).astype(int)
    rows = -(-(np.minimum(heights[index], np.floor(cy + reach).astype(int) + 1) - top) // step)
    cols = -(-(np.minimum(widths[index], np.floor(cx + reach).astype(int) + 1) - left) // step)
    x0 = np.array([parts[i].x0 for i in index.tolist()], int).reshape(-1) + left
    y0 = np.array([parts[i].y0 for i in index.tolist()], int).reshape(-1) + top
    return _Shapes(index, r_eq, roundness[index], angle, cx - left, cy - top, step, left, top, rows, cols, x0, y0)


class _Grid(NamedTuple):
    """The grid points of all parts, in flat arrays (part by part, row by row)."""

    part: np.ndarray      # the point's part (0.. in the shapes' index)
    sizes: np.ndarray     # how many points each part has
    x: np.ndarray         # where the point is in the image
    y: np.ndarray
    values: np.ndarray    # the image's grey level there
    dist: np.ndarray      # how far it lies from its part's centre
    r: np.ndarray         # its part's radius
    step: np.ndarray      # its part's grid step
    owns: np.ndarray      # whether the part holds it
    excluded: np.ndarray  # whether the part's ring leaves it out


def _grids(parts: list[PipPart], windows: _Windows, shape: _Shapes, grey: np.ndarray) -> _Grid:
    """Every grid point of the parts ``shape`` kept."""
    part, row, col = _grid_points(shape.rows, shape.cols)
    # each part's numbers spread over its points (repeated: its points are in one block)
    sizes = shape.rows * shape.cols
    step = np.repeat(shape.step, sizes)
    lx, ly = col * step, row * step
    # where the points lie in the parts' windows, laid end to end
    widths = windows.widths[shape.index]
    at = (np.repeat(windows.start[shape.index] + shape.top * widths + shape.left, sizes)
          + ly * np.repeat(widths, sizes) + lx)
    owns = windows.owns.take(at) > 0
    excluded = np.concatenate([part.exclude.ravel() for part in parts]).take(at)
    x, y = np.repeat(shape.x0, sizes) + lx, np.repeat(shape.y0, sizes) + ly
    dist = np.hypot(lx - np.repeat(shape.cx, sizes), ly - np.repeat(shape.cy, sizes))
    return _Grid(part, sizes, x, y, grey.ravel().take(y * grey.shape[1] + x), dist, np.repeat(shape.radius, sizes),
                 step, owns, excluded)


def _moments(windows: _Windows) -> tuple[np.ndarray, ...]:
    """The area, first moments and central second moments (m00, m10, m01, mu20, mu11, mu02)
    of each window's part.

    The same numbers as OpenCV's ``moments``: the raw moments are whole numbers (exact in
    floating point whatever the order they are summed in), and the central ones are worked
    out from them the way OpenCV does.
    """
    at = np.flatnonzero(windows.owns)
    window = np.searchsorted(windows.start, at, side="right") - 1
    local = at - windows.start[window]
    width = windows.widths[window]
    y = local // width
    x = local - y * width
    count = len(windows.start)
    m00 = np.bincount(window, minlength=count).astype(float)
    m10, m01, m20, m11, m02 = (np.bincount(window, weights, count) for weights in (x, y, x * x, x * y, y * y))
    with np.errstate(divide="ignore", invalid="ignore"):
        inverse = np.where(m00 > 0, 1.0 / m00, 0.0)
    cx, cy = m10 * inverse, m01 * inverse
    return m00, m10, m01, m20 - m10 * cx, m11 - m10 * cy, m02 - m01 * cy


def _grid_points(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points of several grids of ``rows`` x ``cols`` points, all in three flat arrays:
    the grid each point is on, its row and its column (grid by grid, row by row)."""
    row_grid = np.repeat(np.arange(len(rows)), rows)
    row = np.arange(row_grid.size) - np.repeat(np.cumsum(rows) - rows, rows)
    width = np.repeat(cols, rows)
    grid = np.repeat(row_grid, width)
    col = np.arange(grid.size) - np.repeat(np.cumsum(width) - width, width)
    return grid, np.repeat(row, width), col


def _grouped_histogram(levels: np.ndarray, group: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grey levels (0..255) grouped (``group`` 0..count-1), as if sorted within their groups,
    groups in order: the running count of that order's levels (one entry per group and
    level, see :func:`_level_at_rank`), and where each group starts in it and its size.

    A histogram per group is all that sorting them would tell, at a fraction of the cost."""
    histogram = np.bincount(group * 256 + levels, minlength=count * 256)
    sizes = np.bincount(group, minlength=count)
    return np.cumsum(histogram), np.cumsum(sizes) - sizes, sizes


def _level_at_rank(running: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The grey level at each ``rank`` (0-based, below the total) of the order whose
    running count :func:`_grouped_histogram` gave."""
    return np.searchsorted(running, rank, side="right") % 256


def _sorted_by_part(values: np.ndarray, part: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``values`` (each in 0..255 or so) sorted within their ``part`` (0..count-1), parts in
    order; with where each part's values start and how many there are."""
    keyed = np.sort(part * _PART_KEY + values.astype(np.float64))
    sizes = np.bincount(part, minlength=count)
    return keyed - np.repeat(np.arange(count) * _PART_KEY, sizes), np.cumsum(sizes) - sizes, sizes


#: The tenths of a ring's sorted values read: its median, 90th and 10th percentiles.
_RING_TENTHS = np.array([5, 9, 1])
#: Keeps the parts' values apart when sorted together (above any grey level or step).
_PART_KEY = 4096.0


def _gradient_at(grey: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The grey-level step per pixel (Sobel magnitude / 8) at the points (x, y) of ``grey``,
    the image's edge repeated beyond it."""
    h, w = grey.shape
    flat = grey.ravel()
    rows = (np.maximum(y - 1, 0) * w, y * w, np.minimum(y + 1, h - 1) * w)
    cols = (np.maximum(x - 1, 0), x, np.minimum(x + 1, w - 1))
    # the 3 x 3 neighbourhood in whole numbers, so the weighted sums are exact
    at = [[flat[row + col].astype(np.int32) for col in cols] for row in rows]
    gx = ((at[0][2] - at[0][0]) + 2 * (at[1][2] - at[1][0]) + (at[2][2] - at[2][0])).astype(np.float32)
    gy = ((at[2][0] - at[0][0]) + 2 * (at[2][1] - at[0][1]) + (at[2][2] - at[0][2])).astype(np.float32)
    return np.hypot(gx, gy) / 8.0  # the Sobel weights sum to 8
