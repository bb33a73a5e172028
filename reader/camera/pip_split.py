"""Splitting blobs that are several pips whose rims joined, or a pip and a tail of glare.

A region cut at half its contrast can hold pips whose soft rims joined (the close pips of
a 6 seen obliquely: a "peanut", or a whole row) or a pip joined to a patch of glare on its
die (red pips on a black die are dim, and glare lifts the die unevenly). Cut again nearer
its ink, the pips' cores, which stand out further than their rims and than the glare,
come apart. Only suspicious blobs are cut again (a few per frame): pips measured long and
parts that are no ellipse, when clearly bigger than the frame's pips are as a rule; their
pieces replace them only when they come out round (a single piece: much rounder and
smaller, a pip without its tail).
"""

from __future__ import annotations

import math
from statistics import median

import cv2
import numpy as np

from reader.camera.pip_measures import Pip, PipPart

#: A pip less round than this (minor / major axis) is cut again.
SPLIT_ROUNDNESS = 0.6
#: A blob (its outline) at least this round and filling its ellipse is one pip as it is.
BLOB_ROUNDNESS = 0.6
MIN_FILL, MAX_FILL = 0.65, 1.35
#: A blob falls into pips only if every piece is at least this round: a row of a side
#: face's pips seen edge-on is long pieces, and is better left one blob (that reads as no
#: face) than read as a face.
MIN_PIECE_ROUNDNESS = 0.55
#: A blob cut into one piece is that piece (a pip with a tail of glare) only if the piece
#: is rounder by this much and covers at most this share of the blob's area: a lone pip cut
#: nearer its ink keeps its shape.
ROUNDER, SHRINK = 0.2, 0.6
#: A blob is cut again only if its ink stands out from its cut level by at least this
#: many grey levels (a smaller step cannot part two pips).
MIN_SPLIT_STEP = 6.0
#: The levels a blob is cut again at, as shares of the way from its cut level to its ink.
SPLIT_LEVELS = (0.5, 0.75)
#: A blob whose outline encloses less than this many pixels cannot hold two pips.
MIN_SPLIT_AREA = 10.0
#: A blob narrower than this (its outline's minor axis) holds no round piece big enough
#: to tell its shape (``MIN_SPLIT_AREA``): a side face's pip seen edge-on.
MIN_SPLIT_WIDTH = 2.6
#: A part is cut again only if it has at least this many pixels.
MIN_PIECES_PIXELS = 12
#: A part is cut again only if it is this many times a typical pip's area (an obliquely
#: seen side face's pip, long but small, is left alone).
BIGGER = 1.3
#: A piece whose box holds fewer pixels than this is a speck of noise on the ink.
MIN_PIECE_AREA = 6


def is_long(pip: Pip | None) -> bool:
    """Whether a measured part is a pip long enough to be cut again (a part that is no
    pip for being no ellipse is cut again too)."""
    return pip is not None and pip.roundness < SPLIT_ROUNDNESS


def typical_areas(pips: list[Pip | None]) -> dict[bool, float]:
    """The median area of the pips of each polarity (keyed by ``dark``; 0 for none)."""
    # (on plain lists: a frame has a hundred pips or so, numpy's median costs more)
    return {dark: math.pi * median(radii) ** 2
            if (radii := [p.radius for p in pips if p is not None and p.dark == dark])
            else 0.0 for dark in (False, True)}


def may_hold_pips(part: PipPart, typical: dict[bool, float]) -> bool:
    """Whether a part is big enough to hold two pips, or a pip and a tail: clearly bigger
    than the ``typical`` pip area of its polarity (see :func:`typical_areas`)."""
    pixels = cv2.countNonZero(part.own)
    return pixels >= MIN_PIECES_PIXELS and pixels >= BIGGER * typical[part.dark]


def pieces_of(part: PipPart, grey: np.ndarray) -> list[PipPart]:
    """The pips a part falls into when cut nearer its ink (see :func:`split_blob`);
    nothing if it stays whole."""
    h, w = part.own.shape
    window = grey[part.y0:part.y0 + h, part.x0:part.x0 + w]
    # (the part is outlined on its own box: its window reaches past its ring)
    x, y, bw, bh = cv2.boundingRect(part.own)
    contours = outlines(part.own[y:y + bh, x:x + bw], (x, y))
    if len(contours) != 1:
        return []
    pieces = split_blob(window, contours[0], part.level, part.dark)
    if len(pieces) == 1 and pieces[0] is contours[0]:
        return []
    out = []
    for piece in pieces:
        own = np.zeros_like(part.own)
        cv2.drawContours(own, [piece], 0, 1, -1)
        out.append(part._replace(own=own))
    return out


def split_blob(grey: np.ndarray, contour: np.ndarray, level: float, dark: bool) -> list[np.ndarray]:
    """The outlines of the pips in the blob ``contour`` of ``grey``, cut beyond ``level``
    (below it if ``dark``): its pieces when cut nearer its ink (a half, then three
    quarters of the way) it comes apart into round pieces (or into one piece much rounder
    and smaller than itself: a pip without its tail of glare), else the blob itself."""
    shape = _shape(contour)
    if shape is None:
        return [contour]
    roundness, fill, width = shape
    if (roundness >= BLOB_ROUNDNESS and MIN_FILL <= fill <= MAX_FILL) or width < MIN_SPLIT_WIDTH:
        return [contour]
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [contour], 0, 1, -1, offset=(-x, -y))
    window = grey[y:y + h, x:x + w]
    low, high = cv2.minMaxLoc(window, mask)[:2]
    ink = low if dark else high
    if abs(ink - level) < MIN_SPLIT_STEP:
        return [contour]
    for share in SPLIT_LEVELS:
        core = cv2.bitwise_and(beyond(window, level + share * (ink - level), dark), mask)
        pieces = [p for p in outlines(core, (x, y)) if _box_area(p) >= MIN_PIECE_AREA]
        if len(pieces) == 1:
            piece = _shape(pieces[0])
            if (piece is not None and piece[0] >= roundness + ROUNDER
                    and cv2.contourArea(pieces[0]) <= SHRINK * cv2.contourArea(contour)):
                return pieces
        elif pieces and all(pixel_roundness(p) >= MIN_PIECE_ROUNDNESS for p in pieces):
            # (told on their pixels: a small pip's core is a few pixels, whose outline
            # encloses too little to tell its shape)
            return pieces
    return [contour]


def pixel_roundness(outline: np.ndarray) -> float:
    """Minor / major axis of the ellipse with the second moments of the pixels an outline
    encloses (its outline's own moments are too rough for a pip of a few pixels)."""
    x, y, w, h = cv2.boundingRect(outline)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [outline], 0, 1, -1, offset=(-x, -y))
    major, minor = ellipse_variances(cv2.moments(mask, binaryImage=True))
    return math.sqrt(max(0.0, minor) / major)


def _box_area(contour: np.ndarray) -> int:
    """The area of the contour's bounding box."""
    _, _, w, h = cv2.boundingRect(contour)
    return w * h


def _shape(contour: np.ndarray) -> tuple[float, float, float] | None:
    """The roundness (minor / major axis), fill (area / the area of the ellipse of the
    same second moments) and width (minor axis) of the region a contour encloses; None if
    it encloses too little to tell."""
    m = cv2.moments(contour)
    area = m["m00"]
    if area < MIN_SPLIT_AREA:
        return None
    lam1, lam2 = ellipse_variances(m)
    if lam2 <= 0:
        return 0.0, 0.0, 0.0
    # (a filled ellipse's variance along an axis is a quarter of its half axis squared)
    return math.sqrt(lam2 / lam1), area / (4 * math.pi * math.sqrt(lam1 * lam2)), 4 * math.sqrt(lam2)


def ellipse_variances(moments: dict[str, float]) -> tuple[float, float]:
    """The variances along the major and the minor axis of a region with these (OpenCV's)
    moments: the ellipse of the same second moments."""
    area = moments["m00"]
    a, b, c = moments["mu20"] / area, moments["mu02"] / area, moments["mu11"] / area
    spread = math.hypot((a - b) / 2, c)
    return (a + b) / 2 + spread, (a + b) / 2 - spread


def beyond(crop: np.ndarray, level: float, dark: bool) -> np.ndarray:
    """1 where the grey levels of ``crop`` lie beyond ``level`` (below it if ``dark``), else 0.

    On whole grey levels, ``v > level`` is ``v > floor(level)`` and ``v < level`` is
    ``v <= ceil(level) - 1``: OpenCV's threshold, which takes a whole-level threshold.
    """
    if dark:
        return cv2.threshold(crop, math.ceil(level) - 1, 1, cv2.THRESH_BINARY_INV)[1]
    return cv2.threshold(crop, math.floor(level), 1, cv2.THRESH_BINARY)[1]


def outlines(mask: np.ndarray, offset: tuple[int, int] = (0, 0)) -> list[np.ndarray]:
    """The outer boundary of every region of ``mask``, also of regions in another's hole,
    its points shifted by ``offset``."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE, offset=offset)
    if len(contours) < 2:
        return list(contours)  # (a lone boundary is an outer one: most masks hold a single pip)
    # (on plain lists: these masks are small and hold a few contours, numpy would cost more)
    return [c for c, parent in zip(contours, hierarchy[0][:, 3].tolist()) if parent < 0]
