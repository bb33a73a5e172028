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

#: Longest side of the copy the finder works on (enough for dice of 16+ px in a 1280 frame).
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
    """Filled convex hull of the largest background region, as a 0/1 mask."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(background, connectivity=4)
    area = np.zeros_like(background)
    if n < 2:
        return area
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    region = (labels == biggest).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.fillPoly(area, [cv2.convexHull(max(contours, key=cv2.contourArea))], 1)
    return area


def find_dice(image_bgr: np.ndarray, min_diameter: float = 28.0) -> list[DieBlob]:
    """Die-sized blobs on the play area of ``image_bgr``, largest first.

    ``min_diameter`` is the smallest die width in frame pixels worth reading.
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
    foreground = _play_area(background) & (1 - background)
    foreground = cv2.morphologyEx(foreground, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    foreground = cv2.morphologyEx(foreground, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # Outer boundaries of every blob, including blobs lying in a hole of another (a die in a
    # tray ringed by the table), not only the outermost ones.
    contours, hierarchy = cv2.findContours(foreground, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    contours = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else []) if h[3] < 0]
    min_area = np.pi * (min_diameter * scale / 2) ** 2
    max_area = 0.25 * small.shape[0] * small.shape[1]
    blobs: list[DieBlob] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not min_area <= area <= max_area:
            continue
        if area / cv2.contourArea(cv2.convexHull(contour)) < 0.8:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        if max(rw, rh) > 2.0 * min(rw, rh):
            continue
        if _surround(background, contour) < MIN_SURROUND:
            continue
        m = cv2.moments(contour)
        blobs.append(DieBlob(m["m10"] / m["m00"] / scale, m["m01"] / m["m00"] / scale,
                             float(np.sqrt(area / np.pi)) / scale,
                             np.round(contour / scale).astype(np.int32)))
    blobs.sort(key=lambda b: -b.radius)
    return blobs


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
