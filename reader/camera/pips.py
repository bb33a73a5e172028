"""Pip candidates: small, round blobs that contrast with their immediate surroundings.

Both polarities are searched (dark pips on light dice, light pips on dark dice). Each blob
is measured from its own pixels (centre, ellipse axes, contrast with a ring around it), so
later stages can compare pips with one another whatever the image scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Smallest pip area in pixels that can still be told from noise.
MIN_PIP_AREA = 6
#: A pip must differ from its surrounding ring by at least this many grey levels.
MIN_CONTRAST = 22.0
#: A region holds a pip only if some pixel of it stands out from the neighbourhood's mean
#: by at least this fraction of ``MIN_CONTRAST`` (the region itself reaches half of it).
STRONG_FRACTION = 0.7


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


def pip_block_size(shape: tuple[int, ...]) -> int:
    """Neighbourhood (odd, pixels) over which a pip must stand out, from the frame size."""
    return int(min(shape[:2]) // 10) | 1


def find_pips(grey: np.ndarray, block: int | None = None, max_radius: float | None = None) -> list[Pip]:
    """All pip candidates of either polarity in a grey image.

    ``block`` is the neighbourhood a pip must stand out from (default: a tenth of the
    frame's short side) and ``max_radius`` the largest pip radius looked for (default:
    ``block / 2.5``).
    """
    block = block or pip_block_size(grey.shape)
    max_radius = max_radius or block / 2.5
    smooth = cv2.GaussianBlur(grey, (3, 3), 0)
    local = cv2.blur(smooth, (block, block))
    pips: list[Pip] = []
    for dark in (True, False):
        diff = cv2.subtract(local, smooth) if dark else cv2.subtract(smooth, local)
        mask = cv2.threshold(diff, MIN_CONTRAST * 0.5, 1, cv2.THRESH_BINARY)[1]
        pips.extend(_blobs(mask, smooth, diff, dark, max_radius))
    return _without_containers(pips)


def _without_containers(pips: list[Pip]) -> list[Pip]:
    """Drop blobs that hold other blobs: a light die on a dark table is a round blob too,
    but one with pips inside it."""
    if len(pips) < 2:
        return pips
    xy = np.array([(p.x, p.y) for p in pips])
    radius = np.array([p.radius for p in pips])
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    holds = (dist < radius[:, None]) & (radius[None, :] < 0.5 * radius[:, None])
    return [p for p, h in zip(pips, holds.any(axis=1)) if not h]


def _blobs(mask: np.ndarray, grey: np.ndarray, diff: np.ndarray, dark: bool, max_radius: float) -> list[Pip]:
    """Pips inside the regions of ``mask`` (pixels that stand out from their neighbourhood
    by ``diff``).

    A region is first cut at half its contrast (halfway between its ink and its
    surroundings): that separates pips the loose detection threshold merged (the close
    pips of a small 6) and gives each pip its true size whatever the blur. A region with no
    pip at that level may be a die darker than its table, holding its pips: it is then cut
    where its own levels part (Otsu), between the pips and the body.
    """
    height, width = grey.shape
    max_side = 2 * max_radius
    regions = _outer_contours(mask)
    if not regions:
        return []
    boxes = _bounding_boxes([c for c, _ in regions])
    x0s, y0s, ws, hs = boxes.T
    # most regions are sensor grain or texture: told apart all at once by their size and by
    # holding no pixel that stands out clearly (counted over the box from an integral image)
    strong = cv2.integral(cv2.threshold(diff, STRONG_FRACTION * MIN_CONTRAST, 1, cv2.THRESH_BINARY)[1],
                          sdepth=cv2.CV_32S)
    strong_count = (strong[y0s + hs, x0s + ws] - strong[y0s, x0s + ws] - strong[y0s + hs, x0s] + strong[y0s, x0s])
    # a blob cut by the frame's edge cannot be measured (and a pip there is a cut-off die)
    keep = ((strong_count > 0) & (x0s > 0) & (y0s > 0) & (x0s + ws < width) & (y0s + hs < height)
            & (ws * hs >= MIN_PIP_AREA) & (np.maximum(ws, hs) <= 4 * max_side))
    out: list[Pip] = []
    for k in np.flatnonzero(keep):
        (contour, holes), (x0, y0, w, h) = regions[k], (int(v) for v in boxes[k])
        pad = int(np.ceil(1.2 * min(w, h, max_side))) + 2
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(width, x0 + w + pad), min(height, y0 + h + pad)
        crop, inked = grey[ya:yb, xa:xb], mask[ya:yb, xa:xb] > 0
        region = np.zeros(crop.shape, np.uint8)
        cv2.drawContours(region, [contour], 0, 1, -1, offset=(-xa, -ya))
        if holes:  # what lies in a hole (a die inside a halo of table) is not this region's
            cv2.drawContours(region, holes, -1, 0, -1, offset=(-xa, -ya))
        inside, outside = crop[region > 0], crop[~inked]
        if inside.size < MIN_PIP_AREA or outside.size < 8:
            continue
        ink = float(inside.min() if dark else inside.max())
        surround = float(np.partition(outside, outside.size // 2)[outside.size // 2])
        if abs(surround - ink) < MIN_CONTRAST:
            continue  # nothing in it stands out enough to be a pip
        found = _cut(crop, region, inked, (ink + surround) / 2, dark, max_side, xa, ya)
        if not found and inside.size >= 4 * MIN_PIP_AREA:
            otsu = float(cv2.threshold(inside.reshape(1, -1), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[0])
            found = _cut(crop, region, inked, otsu + (0.5 if dark else -0.5), dark, max_side, xa, ya)
        out.extend(found)
    return out


def _cut(crop: np.ndarray, region: np.ndarray, inked: np.ndarray, level: float, dark: bool,
         max_side: float, xa: int, ya: int) -> list[Pip]:
    """The pips of one detected region: its parts beyond ``level``, measured."""
    beyond = (crop < level) if dark else (crop > level)
    parts = _outer_contours((beyond & (region > 0)).astype(np.uint8))
    # what a pip's surrounding ring leaves out: the whole detected region around a lone
    # pip (its blurred rim), but only the inked part of a region that holds several pips
    # or a die's body (a die darker than the table)
    lone = len(parts) == 1 and int(region.sum()) <= 4 * (cv2.contourArea(parts[0][0]) + len(parts[0][0]))
    exclude = inked if lone else beyond | (inked & (region == 0))
    out = []
    for part, _ in parts:
        px, py, pw, ph = cv2.boundingRect(part)
        if pw * ph < MIN_PIP_AREA / 2 or max(pw, ph) > max_side or max(pw, ph) > 4 * min(pw, ph):
            continue
        # measure the pip on a window reaching just past its surrounding ring
        reach = int(np.ceil(1.2 * max(pw, ph))) + 2
        sx, sy = max(0, px - reach), max(0, py - reach)
        ex, ey = min(crop.shape[1], px + pw + reach), min(crop.shape[0], py + ph + reach)
        own = np.zeros((ey - sy, ex - sx), np.uint8)
        cv2.drawContours(own, [part], 0, 1, -1, offset=(-sx, -sy))
        area = int(own.sum())
        if area < MIN_PIP_AREA / 2 or area < 0.4 * pw * ph:
            continue
        pip = _measure(own > 0, exclude[sy:ey, sx:ex], crop[sy:ey, sx:ex], xa + sx, ya + sy,
                       float(np.sqrt(area / np.pi)), dark)
        if pip is not None:
            out.append(pip)
    return out


def _bounding_boxes(contours: list[np.ndarray]) -> np.ndarray:
    """(x, y, width, height) of each contour's bounding box, as an N x 4 int array."""
    points = np.concatenate(contours).reshape(-1, 2)
    starts = np.cumsum([0] + [len(c) for c in contours[:-1]])
    low = np.minimum.reduceat(points, starts)
    high = np.maximum.reduceat(points, starts)
    return np.column_stack([low, high - low + 1])


def _outer_contours(mask: np.ndarray) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """Every region as its outer boundary and its holes' boundaries, also regions lying in
    another region's hole (a light pip on a dark die ringed by a lighter table)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    links = hierarchy[0]
    out = []
    for c, h in zip(contours, links):
        if h[3] >= 0:
            continue
        holes, child = [], h[2]
        while child >= 0:
            holes.append(contours[child])
            child = links[child][0]
        out.append((c, holes))
    return out


def _measure(own: np.ndarray, inked: np.ndarray, grey: np.ndarray, xa: int, ya: int,
             r_eq: float, dark: bool) -> Pip | None:
    m = cv2.moments(own.view(np.uint8), binaryImage=True)
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = math.hypot((mu20 - mu02) / 2, mu11)
    lam1, lam2 = (mu20 + mu02) / 2 + spread, (mu20 + mu02) / 2 - spread
    if lam2 <= 0:
        return None
    roundness = math.sqrt(lam2 / lam1)
    # a filled ellipse with these second moments has area 4*pi*sqrt(l1*l2)
    fill = m["m00"] / (4 * math.pi * math.sqrt(lam1 * lam2))
    if not 0.65 <= fill <= 1.35 or roundness < 0.3:
        return None
    # levels are read on a grid of about a third of the radius: plenty, and fast for big pips
    step = max(1, int(r_eq / 3))
    window = grey
    own, inked, grey = own[::step, ::step], inked[::step, ::step], grey[::step, ::step]
    yy, xx = np.ogrid[0:own.shape[0], 0:own.shape[1]]
    dist = np.hypot(xx * step - cx, yy * step - cy)
    # the ring leaves out every blob pixel, so close neighbours (the pips of a 6) do not count
    ring_sel = (dist >= 1.5 * r_eq + 0.5) & (dist <= 2.3 * r_eq + 1.5) & ~inked
    ring_vals = grey[ring_sel]
    if ring_vals.size < 8:
        return None
    ring_vals.sort()
    n = ring_vals.size
    ring = float(ring_vals[n // 2])
    core = grey[own & (dist <= max(0.7 * r_eq, 1.0 * step))]
    level = float(core.mean()) if core.size else float(grey[own].mean())
    contrast = ring - level if dark else level - ring
    if contrast < MIN_CONTRAST:
        return None
    # the ring must be the surface the pip is printed on: mostly uniform
    if float(ring_vals[n * 9 // 10]) - float(ring_vals[n // 10]) > 0.75 * contrast:
        return None
    rim = _gradient(window)[::step, ::step][(dist >= 0.5 * r_eq) & (dist <= 1.5 * r_eq + 1)]
    steepest = float(np.partition(rim, rim.size * 9 // 10)[rim.size * 9 // 10]) if rim.size else 0.0
    edge_width = contrast / max(steepest, 1e-3)
    angle = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    return Pip(xa + cx, ya + cy, r_eq, roundness, angle, contrast, level, ring, edge_width, dark)


def _gradient(grey: np.ndarray) -> np.ndarray:
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy) / 8.0  # per-pixel grey-level step (Sobel weights sum to 8)
