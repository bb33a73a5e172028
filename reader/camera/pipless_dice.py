"""Dice whose bodies show but whose pips do not read (motion blur, heavy defocus).

Such a die is reported unreadable rather than missed, so a check waits for a re-roll
instead of counting too few dice. Only strong evidence counts: a compact, convex region
that stands out from the table by colour, about as big as the bodies of the dice read in
the same frame and of the colour of one of them, and none of the dice found by their pips.
Without a read die in the frame there is nothing to measure a body against, and nothing
is found.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from reader.camera.colour import medians

#: Bodies are looked for on a copy of the frame at most this many pixels wide.
WORK_WIDTH = 256
#: A pixel belongs to an object when its colour (B, G, R summed) is this far from the
#: table's (the frame's median, read every ``TABLE_STEP``-th pixel), or ``TEXTURE_FACTOR``
#: times the frame's median distance (wood grain).
MIN_COLOUR_DISTANCE, TEXTURE_FACTOR, TABLE_STEP = 30.0, 2.5, 17
#: A pipless body's area is within these factors of the median body area of the read dice.
AREA_RANGE = (0.6, 1.6)
#: It is convex (area over its convex hull's) and compact (long over short side of its
#: smallest enclosing rectangle; motion blur stretches a die a little).
MIN_SOLIDITY, MAX_ELONGATION = 0.88, 1.8
#: Its mean colour is a read die's body colour, or that mixed with the table's (blur mixes
#: the two) in at most this share: within ``MAX_COLOUR_GAP`` (B, G, R distance) of the mix.
MAX_TABLE_SHARE, MAX_COLOUR_GAP = 0.5, 25.0
#: Holes (smeared pips) are closed, then threads (shadows, grain) cut off.
_CLOSE, _OPEN = np.ones((5, 5), np.uint8), np.ones((3, 3), np.uint8)


@dataclass(frozen=True)
class PiplessBody:
    """A die body with no readable pips: its outline (4 corners, frame pixels) and its pixels."""

    quad: np.ndarray
    box: tuple[int, int, int, int]
    mask: np.ndarray  # box-local, 255 on the body


def pipless_bodies(image_bgr: np.ndarray, read_centres: list[tuple[float, float]],
                   other_centres: list[tuple[float, float]]) -> list[PiplessBody]:
    """Bodies like those of the dice read at ``read_centres`` (frame pixels) that are
    none of those dice nor of the other dice found at ``other_centres``.

    Pip candidates on such a body that formed no face (smeared by motion) do not count.
    """
    if not read_centres:
        return []
    h, w = image_bgr.shape[:2]
    # every step-th pixel, smoothed: bodies are many pixels across, and this is cheap
    step = max(1, -(-w // WORK_WIDTH))
    small = cv2.blur(cv2.resize(image_bgr, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_NEAREST),
                     (3, 3))
    regions = _Regions(small, step)
    read_in = regions.holding(read_centres)
    # a read die's body is the biggest region round its centre; dice that touch share one
    bodies = np.where(read_in.any(axis=1), np.argmax(np.where(read_in, regions.areas, -1), axis=1), 0)
    claims = np.bincount(bodies[bodies > 0], minlength=len(regions.areas))
    single = [k for k in set(bodies.tolist()) if k > 0 and claims[k] == 1]
    if not single:
        return []
    typical = float(medians(regions.areas[single]))
    known = read_centres + other_centres
    taken = regions.holding(known).any(axis=0)
    # a part of a known die's body (split off by shading) lies within that die
    known_xy = np.array(known, float).reshape(-1, 2) / step
    near_known = np.hypot(regions.centroids[:, None, 0] - known_xy[None, :, 0],
                          regions.centroids[:, None, 1] - known_xy[None, :, 1]).min(axis=1) < np.sqrt(typical)
    sized = (regions.areas >= AREA_RANGE[0] * typical) & (regions.areas <= AREA_RANGE[1] * typical)
    out: list[PiplessBody] = []
    colours = None
    for k in np.flatnonzero(sized & ~taken & ~near_known).tolist():
        if k == 0 or regions.touches_edge(k):
            continue  # the table, or a region cut by the frame's edge: its size cannot be told
        outline = regions.outline(k)
        hull = cv2.contourArea(cv2.convexHull(outline))
        rect = cv2.minAreaRect(outline)
        long, short = max(rect[1]), max(min(rect[1]), 1.0)
        if hull <= 0 or regions.areas[k] / hull < MIN_SOLIDITY or long > MAX_ELONGATION * short:
            continue
        if colours is None:  # the read dice's colours, needed only once a body is in question
            colours = np.array([regions.colour(j) for j in single])
        if not _like_a_die(regions.colour(k), colours, regions.table):
            continue
        out.append(_body(cv2.boxPoints(rect) * step, outline.reshape(-1, 2) * step, (w, h)))
    return out


class _Regions:
    """The regions of a reduced frame (``step`` times smaller) that differ from the table."""

    def __init__(self, small: np.ndarray, step: int) -> None:
        self.small, self.step = small, step
        self.table = medians(small.reshape(-1, 3)[::TABLE_STEP].T)
        # summed over the channels (saturating at 255): cheap, and as good as a perceptual
        # distance for telling a body from the table it lies on
        blue, green, red = cv2.split(cv2.absdiff(small, (*self.table.tolist(), 0.0)))
        distance = cv2.add(cv2.add(blue, green), red)
        level = max(MIN_COLOUR_DISTANCE, TEXTURE_FACTOR * float(medians(distance[::3, ::3].ravel())))
        mask = cv2.threshold(distance, level, 1, cv2.THRESH_BINARY)[1]  # distance > level, as 0 or 1
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _CLOSE)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN)
        # 8-connected, 16-bit labels: several times faster than other choices
        _, self.labels, stats, self.centroids = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                                                 ltype=cv2.CV_16U)
        self.x0, self.y0 = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
        self.x1, self.y1 = self.x0 + stats[:, cv2.CC_STAT_WIDTH], self.y0 + stats[:, cv2.CC_STAT_HEIGHT]
        self.areas = stats[:, cv2.CC_STAT_AREA]

    def holding(self, points: list[tuple[float, float]]) -> np.ndarray:
        """[point, region]: whether the region's box holds the point (frame pixels; a pip
        lies in a hole of its body, not on it). The table (region 0) holds nothing."""
        xy = np.array(points, float).reshape(-1, 2) / self.step
        inside = ((xy[:, None, 0] >= self.x0) & (xy[:, None, 0] < self.x1)
                  & (xy[:, None, 1] >= self.y0) & (xy[:, None, 1] < self.y1))
        inside[:, 0] = False
        return inside

    def _own(self, k: int) -> tuple[slice, slice, np.ndarray]:
        rows, cols = slice(self.y0[k], self.y1[k]), slice(self.x0[k], self.x1[k])
        return rows, cols, (self.labels[rows, cols] == k).astype(np.uint8)

    def colour(self, k: int) -> np.ndarray:
        """The mean BGR colour of region k."""
        rows, cols, own = self._own(k)
        return np.array(cv2.mean(self.small[rows, cols], own)[:3])

    def outline(self, k: int) -> np.ndarray:
        """Region k's outer boundary (reduced pixels, OpenCV contour)."""
        _, _, own = self._own(k)
        contours = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
        return max(contours, key=cv2.contourArea) + np.array([self.x0[k], self.y0[k]], np.int32)

    def touches_edge(self, k: int) -> bool:
        h, w = self.labels.shape
        return bool(self.x0[k] == 0 or self.y0[k] == 0 or self.x1[k] >= w or self.y1[k] >= h)


def _body(corners: np.ndarray, outline: np.ndarray, size: tuple[int, int]) -> PiplessBody:
    """A body from its enclosing rectangle's corners and its outline (frame pixels)."""
    w, h = size
    x0, y0 = np.floor(corners.min(axis=0)).astype(int).clip(0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, (w, h))
    mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    cv2.fillPoly(mask, [np.rint(outline - (x0, y0)).astype(np.int32)], 255)
    return PiplessBody(corners.astype(np.float32), (int(x0), int(y0), int(x1), int(y1)), mask)


def _like_a_die(colour: np.ndarray, dice: np.ndarray, table: np.ndarray) -> bool:
    """Whether ``colour`` is one of the ``dice`` colours (rows), pure or mixed with the table's."""
    span = dice - table
    share = np.clip(((colour - table) * span).sum(axis=1) / np.maximum((span * span).sum(axis=1), 1e-6),
                    1 - MAX_TABLE_SHARE, 1.0)
    gap = np.hypot.reduce(colour - (table + share[:, None] * span), axis=1)
    return bool((gap <= MAX_COLOUR_GAP).any())
