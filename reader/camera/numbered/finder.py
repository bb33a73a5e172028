"""Find dice lying on a plain play area (a tray, a mat, a table cloth).

The play area is the largest region of the frame's most common colour; a die is a compact
blob of other colours surrounded by that region. Dice outside the play area (on the wood
beside the tray) and the tray's walls are not dice. Works on a downscaled copy; positions and
sizes are returned in full-frame pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Longest side of the copy the finder works on at most (a 48 px die in a 1280 frame stays 16 px).
WORK_SIZE = 480
#: Lab distance (sum over channels, 0..255 scale) within which a pixel is play-area colour.
BACKGROUND_TOLERANCE = 42
#: Fraction of a die's surrounding ring that must be play area.
MIN_SURROUND = 0.6


@dataclass(frozen=True, slots=True)
class DieBlob:
    """A die-sized blob: centre and equivalent radius in frame pixels, outline in frame pixels."""

    x: float
    y: float
    radius: float
    contour: np.ndarray  # (N, 1, 2) int32, frame pixels

    @property
    def centre(self) -> tuple[float, float]:
        """The blob's centroid (x, y)."""
        return (self.x, self.y)

    @property
    def elongation(self) -> float:
        """Long over short axis of the outline's second moments (the same at any rotation): a
        d10 or a long d4 is clearly longer than wide, a d8, d12 or d20 nearly round."""
        m = cv2.moments(self.contour)
        a, b, c = m["mu20"], m["mu02"], m["mu11"]
        spread = np.sqrt(((a - b) / 2) ** 2 + c * c)
        major, minor = (a + b) / 2 + spread, (a + b) / 2 - spread
        return float(np.sqrt(major / max(minor, 1e-9)))


def _background_colour(lab: np.ndarray) -> np.ndarray:
    """The most common Lab colour of the frame's middle, in bins of 16: the camera looks at the play area."""
    h, w = lab.shape[:2]
    q = (lab[h // 5:h - h // 5, w // 5:w - w // 5] >> 4).astype(np.int32)
    key = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    mode = int(np.bincount(key.ravel(), minlength=4096).argmax())
    return np.array([(mode >> 8) & 15, (mode >> 4) & 15, mode & 15], np.float64) * 16 + 8


def _play_area(background: np.ndarray) -> np.ndarray:
    """Filled convex hull of the background region that fills most of the frame's middle."""
    n, labels = cv2.connectedComponents(background, connectivity=4)
    area = np.zeros_like(background)
    if n < 2:
        return area
    h, w = background.shape
    middle = labels[h // 5:h - h // 5, w // 5:w - w // 5]
    counts = np.bincount(middle.ravel(), minlength=n)
    counts[0] = 0
    region = (labels == int(np.argmax(counts))).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.fillPoly(area, [cv2.convexHull(max(contours, key=cv2.contourArea))], 1)
    return area


def find_dice(image_bgr: np.ndarray, min_diameter: float = 48.0) -> list[DieBlob]:
    """Die-sized blobs on the play area of ``image_bgr``, largest first.

    ``min_diameter`` is the smallest die width (longest side of its outline's tightest rectangle)
    in frame pixels worth reading: below about 48 px the printed numbers are a few pixels tall,
    and sensor noise and table marks of that size abound.
    """
    h, w = image_bgr.shape[:2]
    step = max(1, -(-max(h, w) // WORK_SIZE))  # a whole factor: OpenCV's fast area-averaging path
    scale = 1.0 / step
    small = cv2.resize(image_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if step > 1 else image_bgr
    # A median filter keeps dice edges but removes the sensor noise of a dark, brightened tray.
    lab = cv2.cvtColor(cv2.medianBlur(small, 5), cv2.COLOR_BGR2LAB)
    ref = _background_colour(lab)
    dist = cv2.transform(cv2.absdiff(lab, tuple(ref.tolist()) + (0,)), np.ones((1, 3), np.float32))
    background = (dist < BACKGROUND_TOLERANCE).astype(np.uint8)
    background = cv2.morphologyEx(background, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    play = _play_area(background)
    # Blobs reaching the play area's edge are its walls and corners (or something beyond it).
    inner = cv2.erode(play, np.ones((7, 7), np.uint8))
    foreground = play & (1 - background)
    foreground = cv2.morphologyEx(foreground, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    foreground = cv2.morphologyEx(foreground, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # Outer boundaries of every blob, including blobs lying in a hole of another (a die in a
    # tray ringed by the table), not only the outermost ones.
    contours, hierarchy = cv2.findContours(foreground, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    contours = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else []) if h[3] < 0]
    min_area = np.pi * (min_diameter * scale / 3) ** 2  # a d4's triangle fills less than its width's circle
    max_area = 0.25 * small.shape[0] * small.shape[1]
    blobs: list[DieBlob] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not min_area <= area <= max_area:
            continue
        if area / cv2.contourArea(cv2.convexHull(contour)) < 0.8:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        if max(rw, rh) > 2.0 * min(rw, rh) or max(rw, rh) < min_diameter * scale:
            continue
        bx, by, bw, bh = cv2.boundingRect(contour)
        if bx <= 1 or by <= 1 or bx + bw >= small.shape[1] - 1 or by + bh >= small.shape[0] - 1:
            continue  # cut by the frame's edge: not a whole die
        if _surround(background, contour) < MIN_SURROUND or not _inside(inner, contour):
            continue
        blobs.append(_full_resolution(image_bgr, np.round(contour / scale).astype(np.int32), ref, step))
    blobs.sort(key=lambda b: -b.radius)
    return blobs


def _full_resolution(image_bgr: np.ndarray, rough: np.ndarray, ref: np.ndarray, step: int) -> DieBlob:
    """The die's outline found again in the full frame around its rough outline.

    The rough outline comes from a copy ``step`` times smaller: its centre and size are a pixel
    or two off, which the top-face match would feel. Inside a band of ``2 * step`` pixels around
    it, pixels are split again into play area and die at full resolution.
    """
    band = 2 * step + 1
    x, y, w, h = cv2.boundingRect(rough)
    x0, y0 = max(0, x - band), max(0, y - band)
    x1, y1 = min(image_bgr.shape[1], x + w + band), min(image_bgr.shape[0], y + h + band)
    rough_mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(rough_mask, [rough - (x0, y0)], -1, 1, thickness=-1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1, 2 * band + 1))
    sure, maybe = cv2.erode(rough_mask, kernel), cv2.dilate(rough_mask, kernel)
    lab = cv2.cvtColor(cv2.medianBlur(image_bgr[y0:y1, x0:x1], 3), cv2.COLOR_BGR2LAB)
    dist = cv2.transform(cv2.absdiff(lab, tuple(ref.tolist()) + (0,)), np.ones((1, 3), np.float32))
    die = (sure | (maybe & (dist >= BACKGROUND_TOLERANCE))).astype(np.uint8)
    die = cv2.morphologyEx(die, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea) if contours else rough - (x0, y0)
    m = cv2.moments(contour)
    if m["m00"] <= 0:
        contour, m = rough - (x0, y0), cv2.moments(rough - (x0, y0))
    return DieBlob(m["m10"] / m["m00"] + x0, m["m01"] / m["m00"] + y0, float(np.sqrt(m["m00"] / np.pi)),
                   (contour + (x0, y0)).astype(np.int32))


def _inside(inner: np.ndarray, contour: np.ndarray) -> bool:
    """Whether the outline lies within the (eroded) play area."""
    points = contour.reshape(-1, 2)
    return bool(inner[points[:, 1], points[:, 0]].all())


def _surround(background: np.ndarray, contour: np.ndarray) -> float:
    """Fraction of a thin ring just outside ``contour`` that is play-area colour."""
    x, y, bw, bh = cv2.boundingRect(contour)
    pad = max(3, round(0.25 * max(bw, bh)))
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(background.shape[1], x + bw + pad), min(background.shape[0], y + bh + pad)
    inner = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inner, [contour - (x0, y0)], -1, 1, thickness=-1)
    outer = cv2.dilate(inner, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1)))
    ring = (outer > 0) & (inner == 0)
    if not ring.any():
        return 0.0
    # The ring may be clipped by the frame border; clipped pixels count as not play area.
    full = (bw + 2 * pad) * (bh + 2 * pad) - bw * bh
    clipped = full - ring.size + inner.size
    return float(background[y0:y1, x0:x1][ring].sum()) / max(1, int(ring.sum()) + max(0, clipped) // 4)
