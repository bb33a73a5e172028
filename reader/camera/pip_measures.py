"""Measuring blobs as pips: shape from their moments, levels from their ring, core and rim.

Parts of many regions are measured together (their pixels gathered into flat arrays), which
keeps the cost per pip low whatever the number of candidates in a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
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


@dataclass(frozen=True)
class PipPart:
    """A part of a region, to be measured as a pip: its pixels and the pixels its ring
    leaves out, on a window of the image whose corner is (x0, y0)."""

    own: np.ndarray
    exclude: np.ndarray
    x0: int
    y0: int
    dark: bool


def measure_parts(parts: list[PipPart], grey: np.ndarray) -> list[Pip | None]:
    """Each part measured as a pip, or None where it is not one (too small, not a filled
    ellipse, too faint against its ring, or on no uniform surface).

    Shape comes from the part's moments; levels are read on a grid of about a third of
    its radius (plenty, and fast for big pips), all parts at once: the ring around the
    part (its median is the surface's level), the core (the ink's level) and the rim (how
    sharp the edge is).
    """
    out: list[Pip | None] = [None] * len(parts)
    shapes, windows = [], []
    for index, part in enumerate(parts):
        m = cv2.moments(part.own, binaryImage=True)
        area = m["m00"]
        mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
        spread = math.hypot((mu20 - mu02) / 2, mu11)
        lam1, lam2 = (mu20 + mu02) / 2 + spread, (mu20 + mu02) / 2 - spread
        if lam2 <= 0:
            continue
        roundness = math.sqrt(lam2 / lam1)
        # a filled ellipse with these second moments has area 4*pi*sqrt(l1*l2)
        fill = area / (4 * math.pi * math.sqrt(lam1 * lam2))
        if not 0.65 <= fill <= 1.35 or roundness < 0.3:
            continue
        r_eq = math.sqrt(area / math.pi)
        step = max(1, int(r_eq / 3))
        cx, cy = m["m10"] / area, m["m01"] / area
        # only the grid points out to the ring's outer edge are read
        reach = 2.3 * r_eq + 1.5
        left, top = max(0, math.ceil(cx - reach)), max(0, math.ceil(cy - reach))
        own = part.own[top:math.floor(cy + reach) + 1:step, left:math.floor(cx + reach) + 1:step]
        exclude = part.exclude[top:math.floor(cy + reach) + 1:step, left:math.floor(cx + reach) + 1:step]
        shapes.append((index, cx - left, cy - top, r_eq, step, own.shape[1], part.x0 + left, part.y0 + top,
                       roundness, 0.5 * math.atan2(2 * mu11, mu20 - mu02)))
        windows.append((own.ravel(), exclude.ravel()))
    if not shapes:
        return out
    index, cx, cy, r_eq, step, width, x0, y0, roundness, angle = (np.array(v) for v in zip(*shapes))
    owns = np.concatenate([w[0] for w in windows]) > 0
    excluded = np.concatenate([w[1] for w in windows])
    sizes = np.array([w[0].size for w in windows])
    part = np.repeat(np.arange(len(shapes)), sizes)
    local = np.arange(part.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    lx, ly = local % width[part] * step[part], local // width[part] * step[part]
    gx, gy = x0[part] + lx, y0[part] + ly
    values = grey[gy, gx]
    dist = np.hypot(lx - cx[part], ly - cy[part])
    r = r_eq[part]
    # the ring leaves out every blob pixel, so close neighbours (the pips of a 6) do not count
    ring_at = (dist >= 1.5 * r + 0.5) & (dist <= 2.3 * r + 1.5) & ~excluded
    ring_sorted, ring_start, ring_count = _sorted_by_part(values[ring_at], part[ring_at], len(shapes))
    core_at = owns & (dist <= np.maximum(0.7 * r, step[part]))
    core_count = np.bincount(part[core_at], minlength=len(shapes))
    own_count = np.bincount(part[owns], minlength=len(shapes))
    level = np.where(core_count > 0,
                     np.bincount(part[core_at], values[core_at], len(shapes)) / np.maximum(core_count, 1),
                     np.bincount(part[owns], values[owns], len(shapes)) / np.maximum(own_count, 1))
    if not ring_sorted.size:
        return out
    # each ring's median and its 10th and 90th percentiles (parts with too small a ring
    # are skipped below), then the verdicts part by part, on plain numbers
    picks = ring_sorted[np.minimum(ring_start[:, None] + ring_count[:, None] * _RING_TENTHS // 10,
                                   ring_sorted.size - 1)].tolist()
    level = level.tolist()
    passed = []
    for k, (i, n, (ring, ring_high, ring_low)) in enumerate(zip(index.tolist(), ring_count.tolist(), picks)):
        if n < 8:
            continue
        contrast = ring - level[k] if parts[i].dark else level[k] - ring
        # the ring must be the surface the pip is printed on: mostly uniform
        spread = ring_high - ring_low
        if contrast >= MIN_CONTRAST and spread <= 0.75 * contrast:
            passed.append((k, i, ring, contrast))
    if not passed:
        return out
    # the rim's steepness only of the parts that passed (the gradient is the costly part)
    wanted = np.zeros(len(shapes), bool)
    wanted[[k for k, *_ in passed]] = True
    rim_at = wanted[part] & (dist >= 0.5 * r) & (dist <= 1.5 * r + 1)
    rim_sorted, rim_start, rim_count = _sorted_by_part(_gradient_at(grey, gx[rim_at], gy[rim_at]), part[rim_at],
                                                       len(shapes))
    rim_sorted, rim_start, rim_count = rim_sorted.tolist(), rim_start.tolist(), rim_count.tolist()
    for k, i, ring, contrast in passed:
        rims, rim_first = rim_count[k], rim_start[k]
        steepest = rim_sorted[rim_first + rims * 9 // 10] if rims else 0.0
        out[i] = Pip(float(x0[k] + cx[k]), float(y0[k] + cy[k]), float(r_eq[k]), float(roundness[k]),
                     float(angle[k]), contrast, level[k], ring, contrast / max(steepest, 1e-3), parts[i].dark)
    return out


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
