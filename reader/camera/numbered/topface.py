"""The top face as a vector: a scale-normalised, rotation-searchable map of the printed marks.

A die seen from above shows its top face in the middle and parts of its side faces around
it. The die is cut out around its centroid, scaled so its equivalent radius is always the
same number of pixels, and turned into an "ink" map: how far each pixel's colour is from the
median colour around it (numbers, underlines and dots stand out, whatever their colour; the
slow shading of the facets does not). A Gaussian weight favours the top face over the side
faces, which perspective distorts more. Rotation is searched by turning the map in
:data:`ANGLE_STEP` degree steps on a half-size patch (:data:`COARSE`); the best few matches
are refined on the full patch (:data:`FINE`) over small shifts.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from reader.camera.numbered.finder import DieBlob

#: Side of the normalised patch in pixels.
PATCH = 64
#: The patch spans this many equivalent radii either side of the centre.
SPAN = 1.15
#: Rotation search step in degrees.
ANGLE_STEP = 5
ANGLES = np.arange(0, 360, ANGLE_STEP, dtype=np.float64)
#: Median window (patch pixels) wider than a stroke: the reference a stroke is compared with.
STROKE_WINDOW = 9
#: The weight ends at this many equivalent radii (the die's outline lies beyond).
DISC = 1.0
#: Gaussian weight width, in equivalent radii: most of the weight is on the top face.
WEIGHT_SIGMA = 0.6


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

    def describe(self, rows: np.ndarray) -> np.ndarray:
        """Rows as descriptors: ``sqrt(w) * (x - weighted mean of x)`` over the die's disc."""
        w = self.weight[self.inside]
        rows = rows[:, self.inside]
        return ((rows - (rows @ w)[:, None] / w.sum()) * np.sqrt(w)[None, :]).astype(np.float32)

    def normalise(self, rows: np.ndarray) -> np.ndarray:
        """Unit-length descriptors (a dot product is then a normalised correlation)."""
        rows = self.describe(rows)
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)

    def shrink(self, inks: np.ndarray) -> np.ndarray:
        """Flattened full-size patches brought to this level's size."""
        if self.size == PATCH:
            return np.asarray(inks, np.float32).reshape(len(inks), -1)
        return np.asarray([cv2.resize(i.reshape(PATCH, PATCH), (self.size, self.size),
                                      interpolation=cv2.INTER_AREA).ravel() for i in inks], np.float32)


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


def rotated_vectors(ink: np.ndarray) -> np.ndarray:
    """Coarse descriptors (not unit length) of ``ink`` turned through every angle in :data:`ANGLES`."""
    size = COARSE.size
    c = (PATCH - 1) / 2
    rows = np.empty((len(ANGLES), size * size), np.float32)
    for i, angle in enumerate(ANGLES):
        m = cv2.getRotationMatrix2D((c, c), float(angle), size / PATCH)
        m[:, 2] += (size - 1) / 2 - c  # the die's centre goes to the small patch's centre
        rows[i] = cv2.warpAffine(ink, m, (size, size), flags=cv2.INTER_LINEAR).ravel()
    return COARSE.describe(rows)


def turned(ink: np.ndarray, angle: float, reach: int = 2) -> np.ndarray:
    """``ink`` turned by ``angle`` about its centre, on a canvas ``reach`` pixels larger each way
    (room for the shift search; ``reach=0`` just turns it)."""
    c = (PATCH - 1) / 2
    m = cv2.getRotationMatrix2D((c, c), float(angle), 1.0)
    m[:, 2] += reach
    return cv2.warpAffine(ink, m, (PATCH + 2 * reach, PATCH + 2 * reach), flags=cv2.INTER_LINEAR)


def _kernel(descriptor: np.ndarray) -> np.ndarray:
    kernel = np.zeros(PATCH * PATCH, np.float32)
    kernel[FINE.inside] = descriptor * np.sqrt(FINE.weight[FINE.inside])
    return kernel.reshape(PATCH, PATCH)


def shifted_scores(canvas: np.ndarray, template: np.ndarray, common: np.ndarray) -> float:
    """Best correlation of a fine template with ``canvas`` (from :func:`turned`) over shifts.

    The window's descriptor ``d`` (see :meth:`Level.describe`) loses the model's ``common``
    part (what every face shares, in the template's frame) before it is compared:
    ``(d - common) . template / |d - common|``. Every term is a correlation of the canvas with
    a fixed kernel (descriptors are orthogonal to ``sqrt(w)``), so a few small
    ``matchTemplate`` calls replace one descriptor per shift.
    """
    weight = FINE.weight.reshape(PATCH, PATCH)
    along = cv2.matchTemplate(canvas, _kernel(template), cv2.TM_CCORR)
    shared = cv2.matchTemplate(canvas, _kernel(common), cv2.TM_CCORR)
    total = cv2.matchTemplate(canvas, weight, cv2.TM_CCORR)
    squares = cv2.matchTemplate(canvas * canvas, weight, cv2.TM_CCORR)
    energy = squares - total * total / float(weight.sum())
    rest = np.maximum(energy - 2 * shared + float(common @ common), 1e-9)
    return float(((along - float(common @ template)) / np.sqrt(rest)).max())


def ink_length() -> int:
    """Length of a stored view (the flattened ink patch)."""
    return PATCH * PATCH
