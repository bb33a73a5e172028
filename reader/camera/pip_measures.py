"""Measuring blobs as pips: shape from their moments, levels from their ring, core and rim.

Parts of many regions are measured together (their pixels gathered into flat arrays), which
keeps the cost per pip low whatever the number of candidates in a frame. The grid points of
a ring or a rim are found as runs along the grids' rows, not point by point, and only the
points read are gathered. (Array methods stand in for numpy's functions of the same name
where they do the same: the functions' own overhead counts on arrays this small.)
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
    pixels = _Pixels.of(windows)
    shape = _shapes(windows, pixels)
    if misshapen is not None:
        ellipses = np.zeros(len(parts), bool)
        ellipses[shape.index] = True
        misshapen.extend((~ellipses).nonzero()[0].tolist())
    if not shape.index.size:
        return out
    rows = _Rows.of(windows, shape, grey.shape[1])
    r = shape.radius
    # the ring's and the rim's outer and inner bounds (per part, as one part at a time had them)
    ring_spans, rim_spans = _annuli(shape, rows, np.array((2.3 * r + 1.5, 1.5 * r + 0.5, 1.5 * r + 1, 0.5 * r)))
    own = _own_points(grey, shape, pixels, len(parts))
    levels = _on_uniform_rings(parts, grey, windows, shape, rows, ring_spans, own)
    if levels is None:
        return out
    kept = levels.passed.nonzero()[0]
    if not kept.size:
        return out
    steepest = _steepest_rims(grey, shape, rows, rim_spans, levels.passed)
    edge_width = levels.contrast / np.maximum(steepest, 1e-3)
    measures = zip(shape.index[kept].tolist(), *(v[kept].tolist() for v in (
        shape.x0 + shape.cx, shape.y0 + shape.cy, shape.radius, shape.roundness, shape.angle,
        levels.contrast, levels.level, levels.ring, edge_width)))
    for i, *measured in measures:
        out[i] = Pip(*measured, parts[i].dark)
    return out


class _Levels(NamedTuple):
    """The grey levels of the parts in ``shape.index``: of their ring (its median), their
    own, their contrast with it, and whether they stand out enough from a mostly uniform
    ring (the surface the pip is printed on)."""

    ring: np.ndarray
    level: np.ndarray
    contrast: np.ndarray
    passed: np.ndarray


def _on_uniform_rings(parts: list[PipPart], grey: np.ndarray, windows: _Windows, shape: _Shapes, rows: _Rows,
                      ring_spans: _Spans, own: _OwnPoints) -> _Levels | None:
    """The levels of the parts ``shape`` kept (None when no part has a ring at all)."""
    count = len(shape.index)
    ring_part, image_at, window_at = _points(rows, shape, ring_spans, with_windows=True)
    # the ring leaves out every blob pixel, so close neighbours (the pips of a 6) do not count
    free = ~np.concatenate([p.exclude for p in parts], axis=None).take(window_at)
    running, ring_start, ring_count = _grouped_histogram(grey.ravel().take(image_at[free]), ring_part[free], count)
    if not running[-1]:
        return None
    core = own.dist <= np.maximum(0.7 * shape.radius, shape.step).take(own.part)
    core_part = own.part[core]
    core_count = np.bincount(core_part, minlength=count)
    own_count = np.bincount(own.part, minlength=count)
    level = np.where(core_count > 0,
                     np.bincount(core_part, own.values[core], count) / np.maximum(core_count, 1),
                     np.bincount(own.part, own.values, count) / np.maximum(own_count, 1))
    # each ring's median and its 10th and 90th percentiles (parts with too small a ring fail)
    ranks = np.minimum(ring_start + ring_count * _RING_TENTHS[:, None] // 10, running[-1] - 1)
    ring, ring_high, ring_low = _level_at_rank(running, ranks).astype(float)
    contrast = np.where(windows.dark[shape.index], ring - level, level - ring)
    passed = (ring_count >= 8) & (contrast >= MIN_CONTRAST) & (ring_high - ring_low <= 0.75 * contrast)
    return _Levels(ring, level, contrast, passed)


def _steepest_rims(grey: np.ndarray, shape: _Shapes, rows: _Rows, rim_spans: _Spans, wanted: np.ndarray) -> np.ndarray:
    """The steepest grey-level step across the rim of each ``wanted`` part (its 90th
    percentile; 0 for the others): only theirs, the gradient is the costly part."""
    part, image_at, _ = _points(rows, shape, rim_spans.of_rows(wanted.take(rows.part)))
    y, x = np.divmod(image_at, grey.shape[1])
    return _rank_in_parts(_gradient_at(grey, x, y), part, len(wanted), _RIM_TENTH)


class _Windows(NamedTuple):
    """The parts' windows laid end to end: their pixels (True where the part is), each
    one's size and where it starts, and where each window lies in the image and whether
    its part is dark."""

    owns: np.ndarray
    heights: np.ndarray
    widths: np.ndarray
    start: np.ndarray
    x0: np.ndarray
    y0: np.ndarray
    dark: np.ndarray

    @classmethod
    def of(cls, parts: list[PipPart]) -> _Windows:
        """The windows of ``parts``."""
        heights, widths, x0, y0, dark = np.array([(*part.own.shape, part.x0, part.y0, part.dark)
                                                  for part in parts]).reshape(-1, 5).T
        sizes = heights * widths
        # (booleans, as numpy finds the nonzero ones of these much faster than of bytes)
        owns = np.concatenate([part.own.ravel() for part in parts]) != 0
        return cls(owns, heights, widths, sizes.cumsum() - sizes, x0, y0, dark.astype(bool))


class _Pixels(NamedTuple):
    """The pixels of all parts: each one's window and where it is in it."""

    window: np.ndarray
    x: np.ndarray
    y: np.ndarray

    @classmethod
    def of(cls, windows: _Windows) -> _Pixels:
        """The pixels of the parts in ``windows``."""
        at = windows.owns.nonzero()[0]
        window = windows.start.searchsorted(at, side="right") - 1
        y, x = np.divmod(at - windows.start.take(window), windows.widths.take(window))
        return cls(window, x, y)


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


def _shapes(windows: _Windows, pixels: _Pixels) -> _Shapes:
    """The parts' shapes from their moments; the parts that are no filled ellipse are left
    out. (Worked out for all parts at once, with the very arithmetic of one part at a time:
    the same numbers to the last bit.)"""
    heights, widths = windows.heights, windows.widths
    area, m10, m01, mu20, mu11, mu02 = _moments(pixels, len(windows.start))
    with np.errstate(divide="ignore", invalid="ignore"):  # the parts with no area are left out below
        mu20, mu02, mu11 = mu20 / area, mu02 / area, mu11 / area
        # (math's hypot, as one part at a time had it: numpy's may differ in the last bit)
        spread = np.array(list(map(math.hypot, ((mu20 - mu02) / 2).tolist(), mu11.tolist())))
        lam1, lam2 = (mu20 + mu02) / 2 + spread, (mu20 + mu02) / 2 - spread
        roundness = np.sqrt(lam2 / lam1)
        # a filled ellipse with these second moments has area 4*pi*sqrt(l1*l2)
        fill = area / (4 * math.pi * np.sqrt(lam1 * lam2))
        index = ((lam2 > 0) & (fill >= 0.65) & (fill <= 1.35) & (roundness >= 0.3)).nonzero()[0]
    area, m10, m01, mu20, mu11, mu02 = (v[index] for v in (area, m10, m01, mu20, mu11, mu02))
    # (math's atan2 likewise)
    angle = 0.5 * np.array(list(map(math.atan2, (2 * mu11).tolist(), (mu20 - mu02).tolist())))
    r_eq = np.sqrt(area / math.pi)
    step = np.maximum(1, (r_eq / 3).astype(int))
    # only the grid points out to the ring's outer edge are read
    cx, cy = m10 / area, m01 / area
    reach = 2.3 * r_eq + 1.5
    left, top = np.maximum(0, np.ceil(cx - reach)).astype(int), np.maximum(0, np.ceil(cy - reach)).astype(int)
    rows = -(-(np.minimum(heights[index], np.floor(cy + reach).astype(int) + 1) - top) // step)
    cols = -(-(np.minimum(widths[index], np.floor(cx + reach).astype(int) + 1) - left) // step)
    return _Shapes(index, r_eq, roundness[index], angle, cx - left, cy - top, step, left, top, rows, cols,
                   windows.x0[index] + left, windows.y0[index] + top)


def _moments(pixels: _Pixels, count: int) -> tuple[np.ndarray, ...]:
    """The area, first moments and central second moments (m00, m10, m01, mu20, mu11, mu02)
    of the part in each of ``count`` windows.

    The same numbers as OpenCV's ``moments``: the raw moments are whole numbers (exact in
    floating point whatever the order they are summed in), and the central ones are worked
    out from them the way OpenCV does.
    """
    window, x, y = pixels
    m00 = np.bincount(window, minlength=count).astype(float)
    m10, m01, m20, m11, m02 = (np.bincount(window, weights, count) for weights in (x, y, x * x, x * y, y * y))
    # (a window with no part has no moments: its centre is taken as 0, whatever it divides by)
    inverse = 1.0 / np.maximum(m00, 1.0)
    cx, cy = m10 * inverse, m01 * inverse
    return m00, m10, m01, m20 - m10 * cx, m11 - m10 * cy, m02 - m01 * cy


class _OwnPoints(NamedTuple):
    """The grid points that the parts hold: each one's part (0.. in the shapes' index),
    its distance from the part's centre and the image's grey level there."""

    part: np.ndarray
    dist: np.ndarray
    values: np.ndarray


def _own_points(grey: np.ndarray, shape: _Shapes, pixels: _Pixels, count: int) -> _OwnPoints:
    """The grid points of the parts ``shape`` kept (of ``count`` parts) that the parts
    hold: picked from the parts' pixels (a few), not looked up among all grid points."""
    kept = np.full(count, -1)
    kept[shape.index] = np.arange(len(shape.index))
    part = kept.take(pixels.window)
    held = (part >= 0).nonzero()[0]
    part = part.take(held)
    step = shape.step.take(part)
    lx, ly = pixels.x.take(held) - shape.left.take(part), pixels.y.take(held) - shape.top.take(part)
    on = ((lx >= 0) & (ly >= 0) & (lx % step == 0) & (ly % step == 0)
          & (lx < shape.cols.take(part) * step) & (ly < shape.rows.take(part) * step))
    part, lx, ly = part[on], lx[on], ly[on]
    values = grey.ravel().take((shape.y0.take(part) + ly) * grey.shape[1] + shape.x0.take(part) + lx)
    return _OwnPoints(part, np.hypot(lx - shape.cx.take(part), ly - shape.cy.take(part)), values)


class _Rows(NamedTuple):
    """The rows of the parts' grids (part by part, top to bottom): each one's part (0.. in
    the shapes' index), how far below the part's centre it lies, and where its first point
    is in the parts' windows (laid end to end) and in the flattened image."""

    part: np.ndarray
    dy: np.ndarray
    window: np.ndarray
    image: np.ndarray

    @classmethod
    def of(cls, windows: _Windows, shape: _Shapes, image_width: int) -> _Rows:
        """The grid rows of the parts ``shape`` kept."""
        part = np.arange(len(shape.rows)).repeat(shape.rows)
        ly = (np.arange(part.size) - (shape.rows.cumsum() - shape.rows).repeat(shape.rows)) * shape.step.take(part)
        widths = windows.widths[shape.index]
        window = (windows.start[shape.index] + shape.top * widths + shape.left).take(part) + ly * widths.take(part)
        image = (shape.y0.take(part) + ly) * image_width + shape.x0.take(part)
        return cls(part, ly - shape.cy.take(part), window, image)


class _Spans(NamedTuple):
    """Runs of grid points: on each row in ``row`` (of the grids' rows), the columns
    ``first`` to ``last`` (none where last < first)."""

    row: np.ndarray
    first: np.ndarray
    last: np.ndarray

    def of_rows(self, wanted: np.ndarray) -> _Spans:
        """The runs on the rows ``wanted`` (one flag per grid row)."""
        on = wanted.take(self.row)
        return _Spans(self.row[on], self.first[on], self.last[on])


def _annuli(shape: _Shapes, rows: _Rows, bounds: np.ndarray) -> list[_Spans]:
    """The grid points in each annulus around the parts' centres, as runs along the grids'
    rows: ``bounds`` holds pairs of rows of bounds (one per part), the annulus's outer
    bound (the points at most that far) and its inner one (only those at least as far).
    A row's points in an annulus are its run within the outer circle less its run within
    the inner one: at most a run on each side of it."""
    spans = _circle_spans(shape, rows, bounds, np.arange(len(bounds)) % 2 == 1)
    (first, last), (hole_first, hole_last) = spans[:, 0::2], spans[:, 1::2]
    first, last = np.maximum(first, 0), np.minimum(last, shape.cols.take(rows.part) - 1)
    hole_last = np.maximum(hole_last, hole_first - 1)  # (an empty hole ends just before it starts)
    firsts = np.concatenate((first, np.maximum(first, hole_last + 1)), axis=1)
    lasts = np.concatenate((np.minimum(last, hole_first - 1), last), axis=1)
    row = np.arange(rows.part.size)
    each_row_twice = np.concatenate((row, row))
    return [_Spans(each_row_twice, *runs) for runs in zip(firsts, lasts)]


def _circle_spans(shape: _Shapes, rows: _Rows, bounds: np.ndarray, strict: np.ndarray) -> np.ndarray:
    """The first and last column of each grid row whose points lie within each row of
    ``bounds`` (one bound per part; ``strict``: for each row, whether nearer than it, or at
    most as far) of their part's centre, exactly as ``np.hypot`` measures the distance.
    Indexed [first or last, bound, grid row] (none where the last is before the first).

    Worked out from where each circle crosses each row rather than point by point (that
    would take a distance per point). Where a crossing lies within a hair of a column,
    rounding might tip that column's point either way: it alone is measured. (A row's
    points on one side of the centre lie a step apart, far more than any rounding, so
    those within a circle are always one run.)"""
    bound = bounds.take(rows.part, axis=1)
    cx, step, dy = shape.cx.take(rows.part), shape.step.take(rows.part), rows.dy
    half = np.sqrt(np.maximum(bound * bound - dy * dy, 0.0))
    crossings = (cx + _SIDES * half) / step
    # (ceil on the left, floor on the right)
    spans = np.floor(_SIDES * crossings) * _SIDES
    nearest = np.rint(crossings)
    doubtful = (np.abs(crossings - nearest) < _CROSSING_DOUBT).ravel().nonzero()[0]
    if doubtful.size:
        side, kind, row = np.unravel_index(doubtful, crossings.shape)
        col = nearest[side, kind, row]
        # (the distance as one part at a time had it: from the point's offsets in pixels)
        dist = np.hypot(col * step[row] - cx[row], dy[row])
        inside = np.where(strict[kind], dist < bound[kind, row], dist <= bound[kind, row])
        # a run starts at that column or just after it, and ends at it or just before it
        spans[side, kind, row] = col - np.where(inside, 0, _SIDES.ravel()[side])
    return spans.astype(int)


def _points(rows: _Rows, shape: _Shapes, spans: _Spans, with_windows: bool = False
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The grid points in ``spans``: each one's part and where it is in the flattened
    image (and in the parts' windows laid end to end, ``with_windows``)."""
    count = np.maximum(spans.last - spans.first + 1, 0)
    part = rows.part.take(spans.row)
    step = shape.step.take(part)
    # a run's points lie a step apart from its first column's, which is where the run
    # starts among all points ("before") plus its first column
    offset = (spans.first - (count.cumsum() - count)) * step
    across = np.arange(count.sum()) * step.repeat(count)
    image_at = (rows.image.take(spans.row) + offset).repeat(count) + across
    window_at = (rows.window.take(spans.row) + offset).repeat(count) + across if with_windows else None
    return part.repeat(count), image_at, window_at


def _grouped_histogram(levels: np.ndarray, group: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Grey levels (0..255) grouped (``group`` 0..count-1), as if sorted within their groups,
    groups in order: the running count of that order's levels (one entry per group and
    level, see :func:`_level_at_rank`), and where each group starts in it and its size.

    A histogram per group is all that sorting them would tell, at a fraction of the cost."""
    histogram = np.bincount(group * 256 + levels, minlength=count * 256)
    sizes = np.bincount(group, minlength=count)
    return histogram.cumsum(), sizes.cumsum() - sizes, sizes


def _level_at_rank(running: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The grey level at each ``rank`` (0-based, below the total) of the order whose
    running count :func:`_grouped_histogram` gave."""
    return running.searchsorted(rank, side="right") % 256


def _rank_in_parts(values: np.ndarray, part: np.ndarray, count: int, tenths: int) -> np.ndarray:
    """The value ``tenths`` tenths of the way up each ``part``'s (0..count-1) ``values``
    (each in 0..255 or so; its rank ``n * tenths // 10`` among its n), 0 for parts with none."""
    # (a stable sort, as the values come in runs of a part: it merges runs, much faster here)
    keyed = part * _PART_KEY + values.astype(np.float64)
    keyed.sort(kind="stable")
    sizes = np.bincount(part, minlength=count)
    held = sizes.nonzero()[0]
    out = np.zeros(count)
    out[held] = keyed[(sizes.cumsum() - sizes)[held] + sizes[held] * tenths // 10] - held * _PART_KEY
    return out


#: The tenths of a ring's sorted values read: its median, 90th and 10th percentiles.
_RING_TENTHS = np.array([5, 9, 1])
#: The tenth of a rim's sorted steps read as its steepest (robust to a few noisy pixels).
_RIM_TENTH = 9
#: How near a column a circle may cross a grid row before rounding might tip that column's
#: point in or out of it (in columns: rounding moves a crossing by a few millionths at most).
_CROSSING_DOUBT = 1e-3
#: The left and right crossings of a circle with a row lie this way from its centre.
_SIDES = np.array([-1.0, 1.0])[:, None, None]
#: A pixel's neighbours' offsets along a row or a column.
_NEIGHBOURS = np.array([-1, 0, 1])[:, None]
#: Keeps the parts' values apart when sorted together (above any grey level or step).
_PART_KEY = 4096.0


def _gradient_at(grey: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The grey-level step per pixel (Sobel magnitude / 8) at the points (x, y) of ``grey``,
    the image's edge repeated beyond it."""
    h, w = grey.shape
    # the 3 x 3 neighbourhoods (row, column, point) read at once, in whole numbers so that
    # the weighted sums are exact
    rows = np.minimum(np.maximum(y + _NEIGHBOURS, 0), h - 1) * w
    cols = np.minimum(np.maximum(x + _NEIGHBOURS, 0), w - 1)
    at = grey.ravel().take(rows[:, None] + cols[None]).astype(np.int32)
    across, down = at[:, 2] - at[:, 0], at[2] - at[0]
    gx = (across[0] + 2 * across[1] + across[2]).astype(np.float32)
    gy = (down[0] + 2 * down[1] + down[2]).astype(np.float32)
    return np.hypot(gx, gy) / 8.0  # the Sobel weights sum to 8
