"""The top face as a vector: a scale-normalised, rotation-searchable map of the printed marks.

A die seen from above shows its top face in the middle and parts of its side faces around
it. The die is cut out around its centroid, scaled so its equivalent radius is always the
same number of pixels, and turned into an "ink" map: how far each pixel's colour is from the
die's body colour (numbers, underlines and dots are far from it, whatever their colour). A
Gaussian weight favours the top face over the side faces, which perspective distorts more.
Rotation is searched by turning the map in :data:`ANGLE_STEP` degree steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from reader.camera.numbered.finder import DieBlob

#: Side of the normalised patch in pixels.
PATCH = 64
#: The patch spans this many equivalent radii either side of the centre.
SPAN = float(__import__("os").environ.get("SPAN", "1.15"))
#: Rotation search step in degrees.
ANGLE_STEP = 5
ANGLES = np.arange(0, 360, ANGLE_STEP, dtype=np.float64)
#: Median window (patch pixels) wider than a stroke: the reference a stroke is compared with.
STROKE_WINDOW = 9
#: Gaussian weight width, in equivalent radii: most of the weight is on the top face.
DISC = float(__import__("os").environ.get("DISC", "1.0"))
WEIGHT_SIGMA = float(__import__("os").environ.get("WS", "0.6"))


def _weight(size: int) -> np.ndarray:
    c = (size - 1) / 2
    yy, xx = np.mgrid[0:size, 0:size]
    rr = np.hypot(xx - c, yy - c) / (size / (2 * SPAN))
    return (np.exp(-0.5 * (rr / WEIGHT_SIGMA) ** 2) * (rr <= DISC)).astype(np.float32)


@dataclass(frozen=True)
class Level:
    """One resolution of the descriptor: the patch side and the weights of its pixels."""

    size: int
    weight: np.ndarray  # (size * size,) Gaussian weight, 0 outside the die's disc

    @property
    def inside(self) -> np.ndarray:
        return self.weight > 0

    def normalise(self, rows: np.ndarray) -> np.ndarray:
        """Weighted, zero-mean, unit-length rows (a dot product is then a normalised correlation)."""
        w = self.weight[self.inside]
        rows = rows[:, self.inside]
        rows = (rows - (rows @ w)[:, None] / w.sum()) * np.sqrt(w)[None, :]
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return (rows / np.maximum(norms, 1e-6)).astype(np.float32)


#: The rotation search runs on a half-size patch; the best few matches are refined at full size.
COARSE = Level(PATCH // 2, _weight(PATCH // 2).ravel())
FINE = Level(PATCH, _weight(PATCH).ravel())


def ink_patch(image_bgr: np.ndarray, blob: DieBlob) -> np.ndarray:
    """The die's ink map, ``PATCH`` x ``PATCH`` float32, centred on ``blob`` and scale-normalised."""
    scale = PATCH / (2 * SPAN * blob.radius)
    c = (PATCH - 1) / 2
    m = np.array([[scale, 0, c - scale * blob.x], [0, scale, c - scale * blob.y]], np.float64)
    patch = cv2.warpAffine(image_bgr, m, (PATCH, PATCH), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((PATCH, PATCH), np.uint8)
    contour = cv2.transform(blob.contour.astype(np.float64), m)
    cv2.drawContours(mask, [np.round(contour).astype(np.int32)], -1, 1, thickness=-1)
    mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
    # Printed marks are thin strokes: compare each pixel with its neighbourhood's median so the
    # slow shading of the facets (the same on every face) drops out and the strokes stay.
    local = cv2.medianBlur(patch, STROKE_WINDOW)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = cv2.cvtColor(local, cv2.COLOR_BGR2LAB).astype(np.float32)
    inside = mask.astype(bool)
    if inside.sum() < 8:
        return np.zeros((PATCH, PATCH), np.float32)
    ink = np.sqrt(((lab - ref) ** 2).sum(axis=2))
    # Contrast-relative: a dimmer light shrinks every difference alike.
    ink /= max(4.0, float(np.percentile(ink[inside], 95)))
    ink[~inside] = 0.0
    return cv2.GaussianBlur(ink, (0, 0), 0.8)


def coarse_templates(inks: np.ndarray) -> np.ndarray:
    """Coarse descriptors of taught views (``inks``: N x PATCH*PATCH), one row each."""
    small = [cv2.resize(i.reshape(PATCH, PATCH), (COARSE.size, COARSE.size), interpolation=cv2.INTER_AREA).ravel()
             for i in inks]
    return COARSE.normalise(np.asarray(small, np.float32).reshape(len(inks), -1))


def fine_templates(inks: np.ndarray) -> np.ndarray:
    """Full-size descriptors of taught views, one row each."""
    return FINE.normalise(np.asarray(inks, np.float32).reshape(len(inks), -1))


def rotated_vectors(ink: np.ndarray) -> np.ndarray:
    """Coarse descriptors of ``ink`` turned through every angle in :data:`ANGLES`, one row each."""
    size = COARSE.size
    c = (PATCH - 1) / 2
    rows = np.empty((len(ANGLES), size * size), np.float32)
    for i, angle in enumerate(ANGLES):
        m = cv2.getRotationMatrix2D((c, c), float(angle), size / PATCH)
        m[:, 2] += (size - 1) / 2 - c  # the die's centre goes to the small patch's centre
        rows[i] = cv2.warpAffine(ink, m, (size, size), flags=cv2.INTER_LINEAR).ravel()
    return COARSE.normalise(rows)


def turned(ink: np.ndarray, angle: float, reach: int = 2) -> np.ndarray:
    """``ink`` turned by ``angle`` on a canvas ``reach`` pixels larger each way (for shift search)."""
    c = (PATCH - 1) / 2
    m = cv2.getRotationMatrix2D((c, c), float(angle), 1.0)
    m[:, 2] += reach
    return cv2.warpAffine(ink, m, (PATCH + 2 * reach, PATCH + 2 * reach), flags=cv2.INTER_LINEAR)


def shifted_scores(canvas: np.ndarray, template: np.ndarray) -> float:
    """Best normalised correlation of a fine template with ``canvas`` (from :func:`turned`) over shifts.

    The fine descriptor of a window is ``sqrt(w) * (x - mean_w(x))`` over its norm; a template is
    orthogonal to ``sqrt(w)``, so the numerator is a plain correlation with ``template * sqrt(w)``
    and the window norms come from correlations with ``w``: three small ``matchTemplate`` calls
    instead of one descriptor per shift.
    """
    kernel = np.zeros(PATCH * PATCH, np.float32)
    kernel[FINE.inside] = template * np.sqrt(FINE.weight[FINE.inside])
    weight = FINE.weight.reshape(PATCH, PATCH)
    numerator = cv2.matchTemplate(canvas, kernel.reshape(PATCH, PATCH), cv2.TM_CCORR)
    total = cv2.matchTemplate(canvas, weight, cv2.TM_CCORR)
    squares = cv2.matchTemplate(canvas * canvas, weight, cv2.TM_CCORR)
    variance = np.maximum(squares - total * total / float(weight.sum()), 1e-9)
    return float((numerator / np.sqrt(variance)).max())


def ink_length() -> int:
    """Length of a stored view (the flattened ink patch)."""
    return PATCH * PATCH
