"""Pip candidates: small, round blobs that contrast with their immediate surroundings.

Both polarities are searched (dark pips on light dice, light pips on dark dice). Each blob
is measured from its own pixels (centre, ellipse axes, contrast with a ring around it), so
later stages can compare pips with one another whatever the image scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from statistics import median
from typing import NamedTuple

import cv2
import numpy as np

from reader.camera.pip_measures import MIN_CONTRAST, Pip, PipPart, measure_parts
from reader.camera.pip_split import (MIN_PIECE_ROUNDNESS, beyond, is_long, may_hold_pips, outlines, pieces_of,
                                     pixel_roundness, typical_areas)

__all__ = ["MIN_CONTRAST", "MIN_HELD_PIPS", "MIN_PIP_AREA", "Pip", "PipSearch", "find_pips", "held_pips",
           "pip_block_size", "round_radii", "search_pips", "typical_pip_radius"]

#: Smallest pip area in pixels that can still be told from noise.
MIN_PIP_AREA = 6
#: A region holds a pip only if some pixel of it stands out from the neighbourhood's mean
#: by at least this fraction of ``MIN_CONTRAST`` (the region itself reaches half of it).
STRONG_FRACTION = 0.7
#: A hole in a region is searched for a pip only when its box is at most this share of
#: the region's area (pips take a few hundredths of a face each).
MAX_HOLE_SHARE = 0.12
#: A hole too big for a pip, but of at most ``FACE_HOLE_SHARE`` of a region at most
#: ``FACE_HOLE_REGION`` times the biggest pip's side, may be the face of a dark die under
#: glare, its light pips and the lit patches between them run together (coloured pips on
#: a black die): unless ``MIN_HELD_PIPS`` pips were found in it already, its pips are
#: searched on the region alone (see :func:`_face_hole_pips`).
FACE_HOLE_SHARE, FACE_HOLE_REGION = 0.85, 1.6
#: Such a hole is at most this many times as long as it is wide: a top face seen up to
#: about 45 degrees off the camera's axis (a longer one, a lit strip along a die's front
#: face, gave that face's pips as a die of their own).
MAX_FACE_HOLE_ASPECT = 1.5
#: A region with no pip at half contrast is searched again (as a die's body holding its
#: pips) only if it has at least this many pixels: the face of the smallest die whose pips
#: can be found (pips of 1.5 pixels' radius) covers about 200.
MIN_BODY_AREA = 100
#: About this many pixels around a region are read for its surroundings' level.
SURROUND_SAMPLES = 400
#: A pip at least this round (minor over major axis) may be a top face's: a side face's
#: pips, seen edge-on, are long.
ROUND_PIP = 0.7
#: A pip at half contrast of at least this many pixels may be a die's face holding its pips
#: (a die lighter than a dark table, its pips lighter still: the lit face passes the level
#: halfway between the table and the pips, and is cut out whole with its pips inside).
MIN_HOLDER_AREA = 30
#: It is looked at as a face only if its extreme pixel (its brightest, its darkest for dark
#: pips) lies this far beyond its core level: a pip's core is close to its ink, a face's
#: core is mostly face (a cheap first test that leaves the next ones a quarter of the big
#: pips of webcam photos; the faces of the test sets step 25 levels and more).
HOLDER_STEP = 0.75 * MIN_CONTRAST
#: It is a face if this share of its pixels, its most extreme (the pips' cores), stand out
#: from its median (the face's level) by ``MIN_CONTRAST``, ...
HOLDER_EXTREME = 0.02
#: ... and, cut again where its own levels part (Otsu), at most this share of it lies
#: beyond that level and it comes apart into at least ``MIN_HELD_PIECES`` pieces covering
#: at most this share of it (pips are a small part of a face; the core of a big, blurred
#: pip is a larger part of it, in one piece).
MAX_HELD_SHARE = 0.35
MIN_HELD_PIECES = 2
#: A face's pieces are kept as pips only if at least this many of them measure as pips
#: (the face is no pip either way: one pip left of it would read as a 1).
MIN_HELD_PIPS = 2
#: A light part at half contrast that is an ellipse but no pip may be a pip joined to a lit
#: or glared patch of its face (a die lighter than its table: the patch passes the level
#: halfway between the table and the pips). It is cut again like a face, where its own
#: levels part, if at most this share of it lies beyond that level (the patch may join two
#: pips); each piece that measures as a pip is one. (Glare lifts a face: dark parts are
#: left alone, where this found the blurred pips of side faces.)
MAX_LIT_SHARE = 0.5
#: A blob of ``MIN_HOLDER_AREA`` pixels or more counts towards a frame's pip size only if
#: at least this share of its pixels beyond halfway to its ink lie beyond three quarters
#: of the way: a pip's core is near its ink, while a light face cut out whole with its
#: lighter pips is mostly face (the share is 0.05 to 0.32 for the test sets' faces, 0.5
#: or more for most pips).
MIN_SIZING_CORE = 0.35
#: A blob found on a whole frame at least ``OPEN_RATIO`` times the radius of the frame's
#: smaller round pips (their lower quartile), and at least ``MIN_OPEN_RADIUS`` pixels, may be a small die lighter
#: (darker) than its table, cut out whole with its pips (they stand out from the die, not
#: from the table around it): it is searched again on its own, with a neighbourhood of at
#: least ``HELD_BLOCK`` pixels, and replaced by the pips it holds (of the other polarity,
#: or at most ``HELD_RATIO`` of its radius) if there are ``MIN_HELD_PIPS`` of them or more.
MIN_OPEN_RADIUS, OPEN_RATIO, HELD_BLOCK, HELD_RATIO = 6.0, 2.5, 9, 0.5
#: A part must fill this share of its box to be measured as a pip. A thinner part of at
#: least ``MIN_ROW_AREA`` pixels may be a row of close pips whose rims joined (a small,
#: tilted 6 on a region that is its whole die): it is cut again nearer its ink.
MIN_BOX_FILL, MIN_ROW_AREA = 0.4, 3 * MIN_PIP_AREA
#: A search keeps at most this many blobs, those that stand out most: a big photo of a
#: grainy table (12 MP of fine wood grain) gave 13000, and the steps that compare every blob
#: or face with every other took 13 GB and minutes. A frame of dice gives a few hundred, and
#: the rendered and real sets never came near the limit; past it, the blobs of least contrast
#: are dropped (there, mostly grain; a black die's red pips, faint in grey, could be among them).
MAX_BLOBS = 2500
#: An image's texture is read on every ``TEXTURE_STEP``-th pixel of every ``TEXTURE_STEP``-th
#: row: a table's grain spans several pixels, and a few thousand pixels tell its median.
TEXTURE_STEP = 6


def pip_block_size(shape: tuple[int, ...]) -> int:
    """Neighbourhood (odd, pixels) over which a pip must stand out, from the frame size."""
    return int(min(shape[:2]) // 10) | 1


@dataclass(frozen=True)
class _Contrast:
    """The pixels of one polarity that stand out from their neighbourhood's mean."""

    dark: bool
    diff: np.ndarray   # how far each pixel stands out (0 where it does not)
    mask: np.ndarray   # 1 where it stands out at least half ``MIN_CONTRAST``


def _contrasts(grey: np.ndarray, block: int) -> tuple[np.ndarray, list[_Contrast]]:
    """The lightly smoothed image and its dark and light contrast maps."""
    smooth = cv2.GaussianBlur(grey, (3, 3), 0)
    local = cv2.blur(smooth, (block, block))
    out = []
    for dark in (True, False):
        diff = cv2.subtract(local, smooth) if dark else cv2.subtract(smooth, local)
        out.append(_Contrast(dark, diff, cv2.threshold(diff, MIN_CONTRAST * 0.5, 1, cv2.THRESH_BINARY)[1]))
    return smooth, out


class PipSearch(NamedTuple):
    """What a search of a grey image found: its pip candidates, and its ``texture``: how far
    its median pixel stands out from its neighbourhood's mean (grey levels). On a plain
    table that is a level or two; on a grainy one (cork, rough wood) its blobs stand out as
    far as a faint pip, and dice must stand out well beyond it."""

    pips: list[Pip]
    texture: float


def find_pips(grey: np.ndarray, block: int | None = None, max_radius: float | None = None) -> list[Pip]:
    """All pip candidates of either polarity in a grey image (see :func:`search_pips`)."""
    return search_pips(grey, block, max_radius).pips


def search_pips(grey: np.ndarray, block: int | None = None, max_radius: float | None = None,
                where: np.ndarray | None = None) -> PipSearch:
    """All pip candidates of either polarity in a grey image, and its texture.

    ``block`` is the neighbourhood a pip must stand out from (default: a tenth of the
    frame's short side) and ``max_radius`` the largest pip radius looked for (default:
    ``block / 2.5``). Pips that stand out from their die but not from the wider
    neighbourhood (light pips on a dark die on a light table) are the holes of their die's
    region: they are searched there. On a whole frame (no ``block`` given), a blob many
    times the size of its pips that is a small die holding its pips is replaced by them
    (see ``OPEN_RATIO``), and a hole that may be a dark die's face holding its light pips
    under glare is searched on its own (see ``FACE_HOLE_SHARE``). Given ``where`` (a mask
    of ``grey``'s size), only regions centred where it is set are measured; the texture is
    still the whole image's.
    """
    explicit = block is not None
    block = block or pip_block_size(grey.shape)
    max_side = 2 * (max_radius or block / 2.5)
    smooth, contrasts = _contrasts(grey, block)
    found = [_outer_contours(c.mask) for c in contrasts]
    searches: list[_Search] = []
    for c, regions in zip(contrasts, found):
        kept, boxes = _regions(regions, c.mask.shape, max_side, c.diff, where)
        searches.append((c.dark, c.mask, kept, boxes))
    holed = [_holed_regions(regions, max_side) for regions in found]
    for c, other, regions in zip(contrasts, contrasts[::-1], holed):
        holes = _unseen_holes(regions, c.mask, other.mask, max_side)
        if holes is not None:
            kept, boxes = _regions(_outer_contours(holes), holes.shape, max_side, where=where)
            searches.append((other.dark, holes, kept, boxes))
    pips = _without_containers(_distinct(_clearest(_blobs(searches, smooth, max_side))))
    if not explicit:
        # (after the pips found so far: where both find a pip, theirs is kept)
        # (of dark regions only: a light die's face holding its dark pips under glare was
        # no face more, and read some light dice twice)
        dark_regions = next(regions for c, regions in zip(contrasts, holed) if c.dark)
        pips = _distinct(pips + [p for hole in _face_holes(dark_regions, max_side)
                                 if len(_within(pips, hole[1], False)) < MIN_HELD_PIPS
                                 for p in _face_hole_pips(hole, grey)])
    return PipSearch(pips if explicit else _opened(pips, grey), _texture(contrasts))


def _clearest(pips: list[Pip]) -> list[Pip]:
    """The pips, only the ``MAX_BLOBS`` of them that stand out most if there are more (in
    their order)."""
    if len(pips) <= MAX_BLOBS:
        return pips
    kept = sorted(sorted(range(len(pips)), key=lambda i: -pips[i].contrast)[:MAX_BLOBS])
    return [pips[i] for i in kept]


def _texture(contrasts: list[_Contrast]) -> float:
    """The median of how far the image's pixels stand out from their neighbourhood, either
    way (a pixel stands out one way only: the two maps are or-ed), read on a grid."""
    dark, light = (c.diff[::TEXTURE_STEP, ::TEXTURE_STEP] for c in contrasts)
    standing_out = (dark | light).ravel()
    # (counted, not partitioned: the level holding the middle rank, from the running count
    # of each level's pixels)
    running = np.bincount(standing_out, minlength=256).cumsum()
    return float(running.searchsorted(standing_out.size // 2, side="right"))


def round_radii(pips: list[Pip]) -> list[float]:
    """The radii of the round pips (see ``ROUND_PIP``)."""
    return [p.radius for p in pips if p.roundness > ROUND_PIP]


def _opened(pips: list[Pip], grey: np.ndarray) -> list[Pip]:
    """The pips, every blob many times the frame's typical pip that holds pips of its own
    when searched alone replaced by them (see ``OPEN_RATIO``)."""
    radii = round_radii(pips)
    if not radii:
        return pips
    # the lower quartile: on a frame of a few small dice cut out whole, half the round blobs
    # may be dice, and a median would be one of them
    least = max(MIN_OPEN_RADIUS, OPEN_RATIO * sorted(radii)[len(radii) // 4])
    out = []
    for pip in pips:
        inner = held_pips(pip, grey) if pip.radius >= least else []
        out.extend(inner if len(inner) >= MIN_HELD_PIPS else [pip])
    return out


def held_pips(pip: Pip, grey: np.ndarray, ratio: float = HELD_RATIO) -> list[Pip]:
    """The pips a blob holds when searched on its own (on a crop just round it, with a
    neighbourhood of at least ``HELD_BLOCK`` pixels): of the other polarity, or at most
    ``ratio`` of its radius. A whole small die is one blob wherever its pips are too
    small to be found (on an image reduced for bigger dice, or searched with a
    neighbourhood as big as the die)."""
    reach = math.ceil(pip.radius) + 2
    x, y = round(pip.x), round(pip.y)
    x0, y0 = max(0, x - reach), max(0, y - reach)
    crop = grey[y0:y + reach + 1, x0:x + reach + 1]
    return [p for p in _shifted(find_pips(crop, max(HELD_BLOCK, reach) | 1), x0, y0)
            if (p.dark != pip.dark or p.radius < ratio * pip.radius)
            and math.hypot(p.x - pip.x, p.y - pip.y) < pip.radius]


def _shifted(pips: list[Pip], x0: int, y0: int) -> list[Pip]:
    """Pips found on a crop whose corner lies at (``x0``, ``y0``), in the image's coordinates."""
    return [replace(p, x=p.x + x0, y=p.y + y0) for p in pips]


def _distinct(pips: list[Pip]) -> list[Pip]:
    """The pips with every pip found twice (by two routes) kept once: of two pips of one
    polarity whose centres lie within either's radius, the one found first."""
    if len(pips) < 2:
        return pips
    xy = np.array([(p.x, p.y) for p in pips])
    radius = np.array([p.radius for p in pips])
    dark = np.array([p.dark for p in pips])
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    same = (dist < np.maximum.outer(radius, radius)) & (dark[:, None] == dark[None, :])
    # (a pip is dropped if it is the same as one found before it: below the diagonal)
    return [p for p, again in zip(pips, np.tril(same, -1).any(axis=1).tolist()) if not again]


def typical_pip_radius(grey: np.ndarray, sample: int) -> float | None:
    """A rough pip radius for choosing the scale to search at: the median size, at half
    contrast, of the ``sample`` clearest pip-sized blobs of each polarity (None if none)."""
    block = pip_block_size(grey.shape)
    max_side = 2 * block / 2.5
    smooth, contrasts = _contrasts(grey, block)
    radii = []
    for c in contrasts:
        # a region with holes is no lone pip (it may be a die's body round its pips): only
        # the others are looked at
        _, boxes, strong_count = _kept(_hole_free_outlines(c.mask), c.mask.shape, max_side, c.diff)
        sized = np.flatnonzero(np.maximum(boxes[:, 2], boxes[:, 3]) <= max_side)
        for x0, y0, w, h in boxes[sized[np.argsort(-strong_count[sized], kind="stable")[:sample]]].tolist():
            crop = smooth[max(0, y0 - 1):y0 + h + 1, max(0, x0 - 1):x0 + w + 1]
            low, high = cv2.minMaxLoc(crop)[:2]
            ink, body = (low, high) if c.dark else (high, low)
            if abs(body - ink) >= MIN_CONTRAST:
                inside = np.count_nonzero((crop < (ink + body) / 2) if c.dark else (crop > (ink + body) / 2))
                if inside >= MIN_HOLDER_AREA:
                    level = (3 * ink + body) / 4
                    if np.count_nonzero((crop < level) if c.dark else (crop > level)) < MIN_SIZING_CORE * inside:
                        continue  # a face holding its pips
                radii.append(math.sqrt(inside / math.pi))
    return float(median(radii)) if radii else None


_Outline = tuple[np.ndarray, list[np.ndarray]]


class _Outlines(NamedTuple):
    """A mask's regions: the outer boundary of each, and the boundaries of the holes of
    those that have any, keyed by the region's place among them (a frame's masks hold a
    few hundred regions, mostly grain, and few holes)."""

    outer: list[np.ndarray]
    holes: dict[int, list[np.ndarray]]

#: A search for pips of one polarity: dark, the contrast mask, its regions and their boxes.
_Search = tuple[bool, np.ndarray, list[_Outline], np.ndarray]


class _Cut(NamedTuple):
    """A detected region cut out of the image once, to be cut at one level or another.

    ``crop`` (the grey image around the region, reaching past a pip's ring) and ``inked``
    (the contrast mask there) have their corner at (``xa``, ``ya``) in the image. The
    region's ``size`` pixels are only held on its bounding box widened by one pixel, at
    ``box`` (x, y, width, height) in the crop: all per-pixel work on the region is done
    there, a tenth of the crop's area for a pip, and the zero margin keeps its contours
    those of the whole crop.
    """

    crop: np.ndarray
    inked: np.ndarray
    region: np.ndarray   # 1 on the region's pixels, 0 elsewhere, over ``box``
    grey: np.ndarray     # the grey levels over ``box``
    box: tuple[int, int, int, int]
    size: int
    xa: int
    ya: int


def _regions(regions: _Outlines, shape: tuple[int, ...], max_side: float,
             diff: np.ndarray | None = None, where: np.ndarray | None = None) -> tuple[list[_Outline], np.ndarray]:
    """The regions (outline and holes) that may hold pips and their bounding boxes (N x 4:
    x, y, width, height); see :func:`_kept`."""
    keep, boxes, _ = _kept(regions.outer, shape, max_side, diff, where)
    return [(regions.outer[k], regions.holes.get(k, [])) for k in keep.tolist()], boxes


def _kept(boundaries: list[np.ndarray], shape: tuple[int, ...], max_side: float,
          diff: np.ndarray | None = None, where: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which of the regions (given by their outer boundaries) may hold pips, their bounding
    boxes (N x 4: x, y, width, height) and, given ``diff``, how many clearly standing-out
    pixels each box holds.

    Most regions are sensor grain or texture: they are told apart all at once by their
    size, and then (given ``diff``) by holding no clearly standing-out pixel in their box;
    a region cut by the frame's edge cannot be measured (and a pip there is a cut-off die).
    Given ``where``, only regions whose box is centred where it is set are kept.
    """
    height, width = shape[:2]
    if not boundaries:
        return np.zeros(0, int), np.zeros((0, 4), int), np.zeros(0, int)
    boxes = _bounding_boxes(boundaries)
    x0s, y0s, ws, hs = boxes.T
    keep = np.flatnonzero((x0s > 0) & (y0s > 0) & (x0s + ws < width) & (y0s + hs < height)
                          & (ws * hs >= MIN_PIP_AREA) & (np.maximum(ws, hs) <= 4 * max_side))
    if where is not None:
        keep = keep[where[y0s[keep] + hs[keep] // 2, x0s[keep] + ws[keep] // 2] > 0]
    strong_count = np.ones(len(keep), int)
    if diff is not None:
        # (counted box by box, on the boxes of the right size only: a frame has a hundred or
        # so, and an integral image of the whole frame costs more than their counts)
        strong = cv2.threshold(diff, STRONG_FRACTION * MIN_CONTRAST, 1, cv2.THRESH_BINARY)[1]
        strong_count = np.array([cv2.countNonZero(strong[y:y + h, x:x + w]) for x, y, w, h in boxes[keep].tolist()],
                                int)
        held = strong_count > 0
        keep, strong_count = keep[held], strong_count[held]
    return keep, boxes[keep], strong_count


def _unseen_holes(regions: list[_HoledRegion], own: np.ndarray, other: np.ndarray,
                  max_side: float) -> np.ndarray | None:
    """A mask of the pip-sized holes of ``regions`` (of the mask ``own``) that the opposite
    polarity's mask ``other`` mostly misses (None if there are none): the pips of a die
    that stand out from the die but not from the wider neighbourhood."""
    out = None
    for _, _, whole, holes in regions:
        for hole in holes:
            x, y, w, h = cv2.boundingRect(hole)
            # a die's pip is a small part of its face (a glint in a pip is a large part of it)
            if (w * h < MIN_PIP_AREA or max(w, h) > max_side or max(w, h) > 4 * min(w, h)
                    or w * h > MAX_HOLE_SHARE * whole):
                continue
            inside = np.zeros((h, w), np.uint8)
            cv2.drawContours(inside, [hole], 0, 1, -1, offset=(-x, -y))
            # the hole's outline runs on its region's pixels: the rest is the blob (the masks
            # hold 0 and 1: less is and-not)
            inside = cv2.subtract(inside, own[y:y + h, x:x + w])
            area = cv2.countNonZero(inside)
            if area < MIN_PIP_AREA / 2:
                continue
            if 2 * cv2.countNonZero(cv2.bitwise_and(inside, other[y:y + h, x:x + w])) >= area:
                continue  # the opposite polarity's mask holds most of it
            if out is None:
                out = np.zeros(other.shape, np.uint8)
            out[y:y + h, x:x + w] |= inside
    return out


class _HoledRegion(NamedTuple):
    """A region with holes: its outline, its box's long side, its area and its holes' outlines."""

    outline: np.ndarray
    side: int
    area: float
    holes: list[np.ndarray]


def _holed_regions(regions: _Outlines, max_side: float) -> list[_HoledRegion]:
    """The regions of ``regions`` that have holes and are bigger than a pip (a pip with a
    glint in it holds no pips)."""
    out = []
    for index, holes in regions.holes.items():
        outline = regions.outer[index]
        _, _, width, height = cv2.boundingRect(outline)
        if max(width, height) > max_side:
            out.append(_HoledRegion(outline, max(width, height), cv2.contourArea(outline), holes))
    return out


def _face_holes(regions: list[_HoledRegion], max_side: float) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """The holes of ``regions`` that may be a face holding its pips (see
    ``FACE_HOLE_SHARE``): each one's region outline and its own box (x, y, width, height)."""
    out = []
    for outline, side, whole, holes in regions:
        if side > FACE_HOLE_REGION * max_side:
            continue
        for hole in holes:
            x, y, w, h = cv2.boundingRect(hole)
            # (a pip-sized hole is searched as one pip already: see _unseen_holes)
            too_big = max(w, h) > max_side or w * h > MAX_HOLE_SHARE * whole
            if too_big and max(w, h) <= MAX_FACE_HOLE_ASPECT * min(w, h) and w * h <= FACE_HOLE_SHARE * whole:
                out.append((outline, (x, y, w, h)))
    return out


def _face_hole_pips(hole: tuple[np.ndarray, tuple[int, int, int, int]], grey: np.ndarray) -> list[Pip]:
    """The light pips inside a face hole of a dark region (see :func:`_face_holes`), searched
    on a crop round it where all but its region is set to the region's rim level, the
    face's glare flattened, with a neighbourhood of half the hole's size.

    Searched on the frame, such pips fail twice: the table beside the die is as light as
    they are, and the lit patches between them leave them no even ring."""
    outline, (x, y, w, h) = hole
    pad = max(w, h) // 2
    x0, y0 = max(0, x - pad), max(0, y - pad)
    crop = grey[y0:y + h + pad, x0:x + w + pad].copy()
    body = np.zeros(crop.shape, np.uint8)
    cv2.drawContours(body, [outline], 0, 1, -1, offset=(-x0, -y0))
    rim = cv2.bitwise_and(body, cv2.erode(body, np.ones((3, 3), np.uint8)) ^ 1)
    if not rim.any():
        return []
    level = int(np.median(crop[rim.view(bool)]))
    crop[body == 0] = level
    # (glare spreads wider than a pip: a top-hat a third of the hole across takes it away
    # and leaves the pips standing out from the rim's level, as from an unlit face)
    size = max(3, max(w, h) // 3) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    flat = cv2.add(cv2.morphologyEx(crop, cv2.MORPH_TOPHAT, kernel), np.full_like(crop, level))
    block = max(HELD_BLOCK, max(w, h) // 2) | 1
    return _within(_shifted(find_pips(flat, block, max(w, h) / 4), x0, y0), (x, y, w, h), False)


def _within(pips: list[Pip], box: tuple[int, int, int, int], dark: bool) -> list[Pip]:
    """The pips of polarity ``dark`` whose centres lie in ``box`` (x, y, width, height)."""
    x, y, w, h = box
    return [p for p in pips if p.dark == dark and x <= p.x <= x + w and y <= p.y <= y + h]


def _without_containers(pips: list[Pip]) -> list[Pip]:
    """Drop blobs that hold other blobs: a light die on a dark table is a round blob too,
    but one with pips inside it."""
    if len(pips) < 2:
        return pips
    xy = np.array([(p.x, p.y) for p in pips])
    radius = np.array([p.radius for p in pips])
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    holds = (dist < radius[:, None]) & (radius[None, :] < 0.5 * radius[:, None])
    return [p for p, h in zip(pips, holds.any(axis=1).tolist()) if not h]


def _blobs(searches: list[_Search], grey: np.ndarray, max_side: float) -> list[Pip]:
    """Pips inside the regions of each search (of one polarity's contrast mask), in the
    searches' order.

    A region is first cut at half its contrast (halfway between its ink and its
    surroundings): that separates pips the loose detection threshold merged (the close
    pips of a small 6) and gives each pip its true size whatever the blur. A region with no
    pip at that level may be a die darker than its table, holding its pips: it is then cut
    where its own levels part (Otsu), between the pips and the body. A pip at that level
    may be a die lighter (darker) than its table holding its pips, cut out whole: it is no
    pip, and it is cut again where its own levels part; so is an ellipse at that level that
    is no pip, a pip joined to a lit patch of such a die. A light region of a die's size is
    also cut where its light levels part again (its lit face from the lighter pips inside it,
    see :func:`_lit_face_level`). The parts of all regions of all
    searches are measured together, first cuts and second cuts apart.
    Last, long pips and parts that are no ellipse are cut again nearer their ink
    (:mod:`reader.camera.pip_split`).
    """
    firsts = [_first_cuts(dark, mask, regions, boxes, grey, max_side) for dark, mask, regions, boxes in searches]
    measured = _measured([parts for parts, _, _ in firsts], grey)
    # regions that gave no pip at half contrast may be dice darker (lighter) than their
    # table holding their pips: cut again where the region's own levels part. A dark die's
    # light pips may be darker than the table too (red pips on a black die on light wood):
    # its light parts are searched as well
    retries, holders = [], []
    for (dark, *_), (parts, owners, cuts), first in zip(searches, firsts, measured):
        found_in = {owner for owner, p in zip(owners, first.pips) if p is not None}
        retry: list[PipPart] = []
        for index, cut in enumerate(cuts):
            # (a light region, with or without pips found, may be a die lighter than a dark
            # table: the pips inside its face are searched where its light levels part)
            found = index in found_in
            if cut.size < MIN_BODY_AREA or (dark and found):
                continue
            values = cut.grey[cut.region.view(bool)]
            otsu = _parting_level(values)
            if not found:
                retry.extend(_cut(cut, otsu + (0.5 if dark else -0.5), dark, max_side))
                if dark:
                    retry.extend(_cut(cut, otsu - 0.5, False, max_side))
            if not dark and (face := _lit_face_level(values, otsu)) is not None:
                retry.extend(_cut(cut, face - 0.5, False, max_side))
        # a pip that is a die's face holding its pips is none: its pieces are measured
        # with the retries (``held``: where they start among them, how many, how many
        # must be pips). Parts that are no ellipse are cut again later (``_unmerged``)
        held: list[tuple[int, int, int]] = []
        misshapen = set(first.misshapen)
        faces = [(i, pieces) for i, (part, pip) in enumerate(zip(parts, first.pips)) if i not in misshapen
                 and (pieces := _held_pieces(part, pip, cuts[owners[i]], grey, max_side))]
        for i, pieces in faces:
            held.append((len(retry), len(pieces), 1 if first.pips[i] is None else MIN_HELD_PIPS))
            first.pips[i] = None
            retry.extend(pieces)
        retries.append(retry)
        holders.append(held)
    found = [(parts + retry, first.joined(_without_empty_holders(second, held)))
             for (parts, _, _), retry, first, second, held in zip(firsts, retries, measured, _measured(retries, grey),
                                                                  holders)]
    return [p for pips in _unmerged(found, grey) for p in pips if p is not None]


def _parting_level(values: np.ndarray) -> float:
    """The grey level where ``values`` part into two classes (Otsu)."""
    return float(cv2.threshold(values.reshape(1, -1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0])


def _lit_face_level(values: np.ndarray, otsu: float) -> float | None:
    """Where the light class of a light region's levels ``values`` (beyond ``otsu``) parts
    again, if it holds ``MIN_BODY_AREA`` pixels and its lightest lies ``MIN_CONTRAST``
    beyond its median (else None): a die lighter than a dark table, its pips lighter still,
    parts from the table at ``otsu`` with its pips inside its face (a lone pip, too, which
    no holder test takes apart)."""
    top = int(values.max())
    if top - otsu < MIN_CONTRAST:
        return None
    # (counted, not sorted: the light class's median lies MIN_CONTRAST short of its top if
    # at most half of the class lies nearer the top than that)
    lit = np.count_nonzero(values > otsu)
    if lit < MIN_BODY_AREA or 2 * np.count_nonzero(values > top - MIN_CONTRAST) > lit:
        return None
    return _parting_level(values[values > otsu])


def _held_pieces(part: PipPart, pip: Pip | None, cut: _Cut, grey: np.ndarray, max_side: float) -> list[PipPart]:
    """If a first-cut ``part`` measured as ``pip`` is a die's face holding its pips (see
    ``MIN_HOLDER_AREA``), its pieces cut again where its own levels part (of its region
    ``cut``); if it measured as no pip, its own pieces beyond that level (see
    ``MAX_LIT_SHARE``); nothing if it stays as it is.

    The tests run from the cheapest: most pips are too small, or have a core as extreme as
    their ink.
    """
    if pip is None and part.dark:
        return []
    pixels = math.pi * pip.radius ** 2 if pip is not None else cv2.countNonZero(part.own)
    if pixels < MIN_HOLDER_AREA:
        return []
    height, width = part.own.shape
    window = grey[part.y0:part.y0 + height, part.x0:part.x0 + width]
    low, high = cv2.minMaxLoc(window, part.own)[:2]
    # (a part that is no pip must reach MIN_CONTRAST past its median, which lies past its
    # cut level)
    core, step = (pip.level, HOLDER_STEP) if pip is not None else (part.level, MIN_CONTRAST)
    if (core - low if part.dark else high - core) < step:
        return []
    values = window[part.own.view(bool)]
    ranks = (values.size // 2, round(HOLDER_EXTREME * (values.size - 1)) if part.dark
             else round((1 - HOLDER_EXTREME) * (values.size - 1)))
    values.partition(ranks)  # (in place: the levels' order tells nothing below)
    middle, extreme = values[list(ranks)].tolist()
    if abs(extreme - middle) < MIN_CONTRAST:
        return []
    otsu = _parting_level(values)
    inked = np.count_nonzero(values <= otsu) if part.dark else np.count_nonzero(values >= otsu)
    if inked > (MAX_HELD_SHARE if pip is not None else MAX_LIT_SHARE) * values.size:
        return []
    level = otsu + (0.5 if part.dark else -0.5)
    if pip is None:
        return _lit_pieces(part, window, level)
    # the whole region is cut: its pixels short of the part (the face's shaded rim, a pip
    # the first cut left apart) are the pieces' surroundings, or pieces too
    pieces = _cut(cut, level, part.dark, max_side)
    if len(pieces) < MIN_HELD_PIECES or sum(cv2.countNonZero(q.own) for q in pieces) > MAX_HELD_SHARE * values.size:
        return []
    return pieces


def _lit_pieces(part: PipPart, window: np.ndarray, level: float) -> list[PipPart]:
    """The pieces of ``part`` (over ``window``, its grey levels) beyond ``level``, each on
    the part's window, its ring leaving out what the part's leaves out (their shapes are
    told when they are measured: they are few)."""
    out = []
    for piece in outlines(cv2.bitwise_and(beyond(window, level, part.dark), part.own)):
        own = np.zeros_like(part.own)
        cv2.drawContours(own, [piece], 0, 1, -1)
        if cv2.countNonZero(own) >= MIN_PIP_AREA:
            out.append(part._replace(own=own, level=level))
    return out


def _without_empty_holders(measured: _Measured, held: list[tuple[int, int, int]]) -> _Measured:
    """``measured`` with the pieces of each face (``held``: where they start in it, how
    many, how many must be pips) that has too few pips among them dropped."""
    dropped = [i for start, count, need in held if sum(p is not None for p in measured.pips[start:start + count])
               < need for i in range(start, start + count)]
    if not dropped:
        return measured
    pips = list(measured.pips)
    for i in dropped:
        pips[i] = None
    gone = set(dropped)
    return _Measured(pips, [i for i in measured.misshapen if i not in gone])


class _Measured(NamedTuple):
    """A list of parts as measured: each one's pip (None: it is none), and which of them
    are no filled ellipse."""

    pips: list[Pip | None]
    misshapen: list[int]

    def joined(self, other: _Measured) -> _Measured:
        """These parts and then ``other``'s."""
        return _Measured(self.pips + other.pips, self.misshapen + [len(self.pips) + i for i in other.misshapen])


def _unmerged(found: list[tuple[list[PipPart], _Measured]], grey: np.ndarray) -> list[list[Pip | None]]:
    """The pips of each list of parts, every long pip or misshapen part that comes apart
    nearer its ink (two pips whose rims joined, or a pip with a tail of glare) replaced by
    its pieces, in its place. The pieces of all lists are measured together."""
    typical = typical_areas([pip for _, measured in found for pip in measured.pips])
    splits = []
    for parts, measured in found:
        suspects = sorted([i for i, pip in enumerate(measured.pips) if is_long(pip)] + measured.misshapen)
        suspects = [i for i in suspects if may_hold_pips(parts[i], typical)]
        splits.append([(i, qs) for i in suspects if (qs := pieces_of(parts[i], grey))])
    if not any(splits):
        return [measured.pips for _, measured in found]
    pieces = _measured([[q for _, qs in split for q in qs] for split in splits], grey)
    out = []
    for (_, measured), split, cut_again in zip(found, splits, pieces):
        replaced: dict[int, list[Pip]] = {}
        start = 0
        for i, qs in split:
            # (a piece that is no pip is dropped: if none is, the part stays as it was)
            kept = [p for p in cut_again.pips[start:start + len(qs)] if p is not None]
            start += len(qs)
            if kept:
                replaced[i] = kept
        out.append([p for i, pip in enumerate(measured.pips) for p in replaced.get(i, [pip])])
    return out


def _measured(part_lists: list[list[PipPart]], grey: np.ndarray) -> list[_Measured]:
    """Each list of parts measured (all at once: the cost per call is high)."""
    misshapen: list[int] = []
    measured = measure_parts([part for parts in part_lists for part in parts], grey, misshapen)
    ends = np.cumsum([len(parts) for parts in part_lists]).tolist()
    return [_Measured(measured[end - len(parts):end], [i - end + len(parts) for i in misshapen
                                                          if end - len(parts) <= i < end])
            for parts, end in zip(part_lists, ends)]


def _first_cuts(dark: bool, mask: np.ndarray, regions: list[_Outline], boxes: np.ndarray, grey: np.ndarray,
                max_side: float) -> tuple[list[PipPart], list[int], list[_Cut]]:
    """The parts of ``regions`` (of the contrast mask ``mask``) cut at half their contrast,
    the index of the cut region each part comes from, and the cut regions."""
    cuts: list[_Cut] = []
    parts: list[PipPart] = []
    owners: list[int] = []
    for (contour, holes), (x0, y0, w, h), (xa, ya, xb, yb, grid) in zip(regions, boxes.tolist(),
                                                                       _crops(boxes, grey.shape, max_side)):
        crop, inked = grey[ya:yb, xa:xb], mask[ya:yb, xa:xb]
        # the surroundings' level is read on a grid: a few hundred pixels tell it
        outside = crop[inked == 0] if grid == 1 else crop[::grid, ::grid][inked[::grid, ::grid] == 0]
        if outside.size < 8:
            continue
        outside.partition(outside.size // 2)  # (in place: it is a copy already)
        surround = float(outside[outside.size // 2])
        # the region on its box widened by a pixel (inside the crop: the region is off the
        # frame's edge and the crop reaches at least two pixels past it)
        bx, by = x0 - 1 - xa, y0 - 1 - ya
        region = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(region, [contour], 0, 1, -1, offset=(1 - x0, 1 - y0))
        if holes:  # what lies in a hole (a die inside a halo of table) is not this region's
            cv2.drawContours(region, holes, -1, 0, -1, offset=(1 - x0, 1 - y0))
        size = cv2.countNonZero(region)
        if size < MIN_PIP_AREA:
            continue
        cut = _Cut(crop, inked, region, crop[by:by + h + 2, bx:bx + w + 2], (bx, by, w + 2, h + 2), size, xa, ya)
        low, high = cv2.minMaxLoc(cut.grey, region)[:2]
        ink = low if dark else high
        if abs(surround - ink) < MIN_CONTRAST:
            continue  # nothing in it stands out enough to be a pip (nor in its crop, told no sooner)
        found = _cut(cut, (ink + surround) / 2, dark, max_side)
        parts.extend(found)
        owners.extend([len(cuts)] * len(found))
        cuts.append(cut)
    return parts, owners, cuts


def _crops(boxes: np.ndarray, shape: tuple[int, ...], max_side: float) -> list[tuple[int, int, int, int, int]]:
    """For each region's box, the crop round it that reaches past a pip's ring (x0, y0,
    x1, y1, inside the image of ``shape``) and the step of the grid its surroundings'
    level is read on (worked out for all boxes at once: frames have dozens)."""
    x0, y0, w, h = boxes.T
    pad = np.ceil(1.2 * np.minimum(np.minimum(w, h), max_side)).astype(int) + 2
    xa, ya = np.maximum(0, x0 - pad), np.maximum(0, y0 - pad)
    xb, yb = np.minimum(shape[1], x0 + w + pad), np.minimum(shape[0], y0 + h + pad)
    grid = np.maximum(1, np.sqrt((xb - xa) * (yb - ya) / SURROUND_SAMPLES).astype(int))
    return np.column_stack([xa, ya, xb, yb, grid]).tolist()


def _cut(cut: _Cut, level: float, dark: bool, max_side: float, first: float | None = None) -> list[PipPart]:
    """The parts of one detected region beyond ``level`` that may be pips.

    A part too thin for its box may be a row of close pips whose rims joined (a small,
    tilted 6 whose region is its whole die): if it comes apart nearer its ink (see
    :func:`_nearer_level`), the whole region is cut there instead, once (``first``: the
    level it was cut at first, if it is). Each pip's ring then still leaves out what lies
    beyond the first level: the joined rims are its neighbours', not the face's (a middle
    pip's ring runs over them)."""
    crop, size = cut.crop, cut.size
    # (the contours are found on the region's box, but given in the crop's coordinates)
    parts = outlines(cv2.bitwise_and(beyond(cut.grey, level, dark), cut.region), cut.box[:2])
    kept = []
    # (the region's level is told once, when a thin part first needs it)
    body, told = None, False
    for part in parts:
        px, py, pw, ph = cv2.boundingRect(part)
        side = max(pw, ph)
        if pw * ph < MIN_PIP_AREA / 2 or side > max_side or side > 4 * min(pw, ph):
            continue
        # measure the pip on a window reaching just past its surrounding ring
        reach = math.ceil(1.2 * side) + 2
        sx, sy = max(0, px - reach), max(0, py - reach)
        ex, ey = min(crop.shape[1], px + pw + reach), min(crop.shape[0], py + ph + reach)
        own = np.zeros((ey - sy, ex - sx), np.uint8)
        cv2.drawContours(own, [part], 0, 1, -1, offset=(-sx, -sy))
        area = cv2.countNonZero(own)
        if area >= MIN_PIP_AREA / 2 and area >= MIN_BOX_FILL * pw * ph:
            kept.append((own, sx, sy, ex, ey))
        elif first is None and area >= MIN_ROW_AREA:
            if not told:
                body, told = _body_level(cut, dark), True
            if body is not None and (nearer := _nearer_level(cut, part, level, dark, body)) is not None:
                return _cut(cut, nearer, dark, max_side, first=level)
    if not kept:
        return []
    # what a pip's surrounding ring leaves out: the whole detected region around a lone
    # pip (its blurred rim), but only the inked part of a region that holds several pips
    # or a die's body (a die darker than the table). (Told once some part is kept: the
    # specks a die's body is cut into mostly are not.)
    lone = len(parts) == 1 and size <= 4 * (cv2.contourArea(parts[0]) + len(parts[0]))
    # (told over the kept parts' windows only: a die's region has a crop many times theirs)
    _, lefts, tops, rights, bottoms = zip(*kept)
    window = x0, y0, _, _ = min(lefts), min(tops), max(rights), max(bottoms)
    exclude = (_window(cut.inked, window) if lone
               else _beyond_or_outside(cut, level if first is None else first, dark, window)).view(bool)
    return [PipPart(own, exclude[sy - y0:ey - y0, sx - x0:ex - x0], cut.xa + sx, cut.ya + sy, dark, level)
            for own, sx, sy, ex, ey in kept]


def _body_level(cut: _Cut, dark: bool) -> float | None:
    """The mean level of a region, if its ink (its darkest pixel if ``dark``, else its
    lightest) stands out from it by ``MIN_CONTRAST`` (else None: no pip stands out from
    this body)."""
    grey = cut.grey
    body = cv2.mean(grey, cut.region)[0]
    low, high = cv2.minMaxLoc(grey, cut.region)[:2]
    return body if (body - low if dark else high - body) >= MIN_CONTRAST else None


def _nearer_level(cut: _Cut, part: np.ndarray, level: float, dark: bool, body: float) -> float | None:
    """The level halfway between the ink of a part (its outline in the crop's coordinates)
    too thin for its box and its region's mean level ``body``, if that lies beyond ``level``
    and the part comes apart there into several round pieces (else None): a small light die
    on a dark table is one region, its face's level between the table's and the pips', and
    its close pips joined at half their contrast with the table."""
    grey = cut.grey
    bx, by, bw, bh = cut.box
    within = np.zeros((bh, bw), np.uint8)
    cv2.drawContours(within, [part], 0, 1, -1, offset=(-bx, -by))
    low, high = cv2.minMaxLoc(grey, within)[:2]
    nearer = ((low if dark else high) + body) / 2
    if (nearer >= level) if dark else (nearer <= level):
        return None
    # (most such parts stay whole there: that is told cheaply). A row of a side face's
    # pips seen edge-on comes apart into long pieces: it is left whole (it reads as no face)
    apart = [piece for piece in outlines(cv2.bitwise_and(beyond(grey, nearer, dark), within))
             if math.prod(cv2.boundingRect(piece)[2:]) >= MIN_PIP_AREA]
    if len(apart) < 2 or any(pixel_roundness(piece) < MIN_PIECE_ROUNDNESS for piece in apart):
        return None
    return nearer


def _window(image: np.ndarray, window: tuple[int, int, int, int]) -> np.ndarray:
    """The part of ``image`` from (x0, y0) up to (x1, y1), its ``window``."""
    x0, y0, x1, y1 = window
    return image[y0:y1, x0:x1]


def _beyond_or_outside(cut: _Cut, level: float, dark: bool, window: tuple[int, int, int, int]) -> np.ndarray:
    """1 over the ``window`` (x0, y0, x1, y1) of the crop where its grey level lies beyond
    ``level`` or the contrast mask holds a pixel that is not the region's, else 0. The
    window holds a part of the region."""
    x0, y0, x1, y1 = window
    bx, by, bw, bh = cut.box
    past = beyond(_window(cut.crop, window), level, dark)
    out = cv2.bitwise_or(past, _window(cut.inked, window))
    # (the region is inked: on its pixels only their level tells; they lie where its box
    # and the window meet)
    left, top, right, bottom = max(bx, x0), max(by, y0), min(bx + bw, x1), min(by + bh, y1)
    met = (left - x0, top - y0, right - x0, bottom - y0)
    cv2.copyTo(_window(past, met), _window(cut.region, (left - bx, top - by, right - bx, bottom - by)),
               _window(out, met))
    return out


def _bounding_boxes(contours: list[np.ndarray]) -> np.ndarray:
    """(x, y, width, height) of each contour's bounding box, as an N x 4 int array."""
    points = np.concatenate(contours).reshape(-1, 2)
    lengths = np.fromiter(map(len, contours), np.intp, len(contours))
    starts = np.cumsum(lengths) - lengths
    low = np.minimum.reduceat(points, starts)
    high = np.maximum.reduceat(points, starts)
    return np.column_stack([low, high - low + 1])


def _hole_free_outlines(mask: np.ndarray) -> list[np.ndarray]:
    """The outer boundary of every region of ``mask`` that has no holes (see
    :func:`_outer_contours`), told from the contours' links alone."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    # (outer boundaries have no parent; their children are their holes)
    links = hierarchy[0]
    return [contours[i] for i in np.flatnonzero((links[:, 3] < 0) & (links[:, 2] < 0)).tolist()]


def _outer_contours(mask: np.ndarray) -> _Outlines:
    """Every region as its outer boundary and its holes' boundaries, also regions lying in
    another region's hole (a light pip on a dark die ringed by a lighter table)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return _Outlines([], {})
    # (only the holes, few, are gathered one by one, each under its region's place among
    # the outer boundaries)
    parents = hierarchy[0][:, 3]
    outer = parents < 0
    place = outer.cumsum() - 1
    holes: dict[int, list[np.ndarray]] = {}
    for i, region in zip(np.flatnonzero(~outer).tolist(), place.take(parents[~outer]).tolist()):
        holes.setdefault(region, []).append(contours[i])
    return _Outlines([contours[i] for i in np.flatnonzero(outer).tolist()], holes)
