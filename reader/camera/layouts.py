"""The six real d6 faces and fitting them to observed pip positions.

Canonical pip positions are in units of the pip offset ``a`` (the distance, along a face
axis, from the face centre to a corner pip): corners at (±1, ±1), the centre at (0, 0) and
the middle pips of the six at (±1, 0). A real face is the canonical one seen through an
affine map (rotation, scale, the foreshortening of an oblique camera): the fit finds that
map and how far the observed pips are from it. Every d6 face is point-symmetric about its
centre, so the centroid of the pips is the centre of the top face.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: The most pips a d6 face shows.
MOST_PIPS = 6

CANONICAL: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float),
    5: np.array([[-1, -1], [1, -1], [1, 1], [-1, 1], [0, 0]], float),
    6: np.array([[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]], float),
}

#: Every place a pip can sit on a face, in canonical units (a 6 may be turned 90 degrees).
ALL_SPOTS = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1], [0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]], float)

#: The corners of a face's square, in its own units (the pip offsets along its axes).
CORNERS = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)
#: Largest RMS distance (in units of ``a``) between observed pips and the fitted layout.
MAX_RESIDUAL = 0.12
#: Faces of at most this many pips lie on one diagonal, which cannot show the face's
#: foreshortening: their fit takes it from the pips' shape (``squash``).
MAX_SQUASHED = 3
#: Smallest ratio of the fitted face's short to long axis: below it the face is seen too
#: obliquely (a cocked die, or a side face) to be trusted.
MIN_ASPECT = 0.45


@dataclass(frozen=True)
class LayoutFit:
    """A canonical face matched to observed pips.

    ``axes`` is the 2x2 matrix whose columns are the image vectors of the canonical unit
    x and y directions, so canonical point q sits at ``centre + axes @ q``.
    """

    value: int
    centre: np.ndarray
    axes: np.ndarray
    residual: float

    @cached_property
    def spacing(self) -> float:
        """The pip offset ``a`` in pixels (geometric mean of the two axes)."""
        (a, b), (c, d) = self.axes.tolist()
        return math.sqrt(abs(a * d - b * c))

    @cached_property
    def long_spacing(self) -> float:
        """The pip offset in pixels along the face's long axis, which the camera does not
        foreshorten: the size of the die the face is, whatever the view."""
        return self.spacing / math.sqrt(self.aspect)

    @cached_property
    def aspect(self) -> float:
        """Short over long axis of the fitted face (1 when seen square-on; asked of a face
        many times)."""
        (a, b), (c, d) = self.axes.tolist()
        # the singular values of a 2x2 matrix: s1^2 + s2^2 = squares, s1 * s2 = |det|
        squares, det = a * a + b * b + c * c + d * d, abs(a * d - b * c)
        root = math.sqrt(max(squares * squares - 4 * det * det, 0.0))
        long_sq = (squares + root) / 2
        return math.sqrt(max(squares - long_sq, 0.0) / long_sq) if long_sq > 0 else 0.0

    def to_image(self, canonical: np.ndarray) -> np.ndarray:
        """Image coordinates of canonical points (N x 2)."""
        return self.centre + np.asarray(canonical, float) @ self.axes.T


def within(axes: np.ndarray | Sequence[Sequence[float]], dx: float, dy: float, reach: float) -> bool:
    """Whether the step (``dx``, ``dy``) from a face's centre stays within ``reach`` of it
    along both of the face's ``axes`` (see :class:`LayoutFit`; as an array, or as nested
    lists, much quicker to unpack when many steps are tested), in the face's own units
    (the inverse of its axes)."""
    (a, b), (c, d) = axes
    det = abs(a * d - b * c)
    return abs(d * dx - b * dy) < reach * det and abs(a * dy - c * dx) < reach * det


class LayoutError(ValueError):
    """The pips do not form a real d6 face; ``str()`` is the reason."""


def fit_layout(points: np.ndarray, squash: np.ndarray | None = None, single_spacing: float = 1.0) -> LayoutFit:
    """Fit the d6 face whose pip count matches ``points`` (N x 2 image coordinates).

    ``squash`` is the face's foreshortening as the pips' shape shows it (a 2x2 map taking
    the face as seen square-on to the image; identity by default): two or three pips on a
    diagonal cannot show it themselves. A lone pip is given axes ``squash * single_spacing``.
    Raises :class:`LayoutError` when the points match no real face.
    """
    pts = np.asarray(points, float).reshape(-1, 2)
    n = len(pts)
    if n == 0 or n > MOST_PIPS:
        raise LayoutError("ambiguous pips")
    if n == 1:
        return LayoutFit(1, pts[0].copy(), (np.eye(2) if squash is None else np.asarray(squash, float)) * single_spacing,
                         0.0)
    # a handful of points is handled in plain floats where it can be: numpy's overhead per
    # call on arrays this small costs many times the arithmetic
    if n <= MAX_SQUASHED:
        fit = _fit_diagonal(pts.tolist(), None if squash is None else np.asarray(squash, float).tolist())
    else:
        fit = _fit_affine(pts.tolist())
    if fit.residual > MAX_RESIDUAL:
        raise LayoutError("ambiguous pips")
    if fit.aspect < MIN_ASPECT:
        raise LayoutError("cocked")
    return fit


def _fit_diagonal(pts: list[list[float]], squash: list[list[float]] | None) -> LayoutFit:
    """A 2 or a 3: pips on one diagonal, evenly spaced about the centre, fitted with the
    foreshortening ``squash`` (None: none) undone, then put back."""
    n = len(pts)
    cx, cy = centroid(pts)
    rel = [(x - cx, y - cy) for x, y in pts]
    if squash is not None:
        (a, b), (c, d) = squash
        det = a * d - b * c
        rel = [((d * x - b * y) / det, (a * y - c * x) / det) for x, y in rel]
    order = sorted(range(n), key=lambda k: math.hypot(*rel[k]))
    (x0, y0), (x1, y1) = rel[order[-2]], rel[order[-1]]
    hx, hy = (x1 - x0) / 2, (y1 - y0) / 2  # image vector of canonical (1, 1)
    length = math.hypot(hx, hy)
    if length == 0:
        raise LayoutError("ambiguous pips")
    errors = [(x1 - hx, y1 - hy), (x0 + hx, y0 + hy)]
    if n == 3:
        errors.append(rel[order[0]])
    residual = math.sqrt(sum(ex * ex + ey * ey for ex, ey in errors) / len(errors)) / (length / math.sqrt(2))
    # canonical x and y are (1,1) rotated by -45 and +45 degrees, scaled by 1/sqrt(2)
    ex, ey = (hx + hy) / 2, (hy - hx) / 2
    axes = [[ex, -ey], [ey, ex]]
    if squash is not None:
        axes = [[a * axes[0][0] + b * axes[1][0], a * axes[0][1] + b * axes[1][1]],
                [c * axes[0][0] + d * axes[1][0], c * axes[0][1] + d * axes[1][1]]]
    return LayoutFit(n, np.array([cx, cy]), np.array(axes), residual)


def centroid(points: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The centroid of (x, y) points in plain floats: the same sums, term by term, as
    numpy's mean over the points, at a fraction of the cost of a call on so small an array."""
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def _labellings(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every way to label observed pips (sorted by direction from the centre, the centre pip
    of a 5 last) with canonical ones: an affine map keeps the cyclic order of directions, up
    to a reflection. Returns the canonical points per labelling and their pseudo-inverses."""
    canon = CANONICAL[n]
    ring = np.arange(4) if n == 5 else np.arange(n)
    ring_sorted = ring[np.argsort(np.arctan2(canon[ring, 1], canon[ring, 0]))]
    sources = []
    for direction in (1, -1):
        for shift in range(len(ring_sorted)):
            order = np.roll(ring_sorted[::direction], shift)
            sources.append(canon[np.append(order, 4)] if n == 5 else canon[order])
    src = np.array(sources)
    return src, np.linalg.pinv(src)


_LABELLINGS = {n: _labellings(n) for n in (4, 5, 6)}


def _fit_affine(pts: list[list[float]]) -> LayoutFit:
    """A 4, 5 or 6: least-squares affine map from the canonical face, best labelling."""
    n = len(pts)
    cx, cy = centroid(pts)
    rel = [(x - cx, y - cy) for x, y in pts]
    ring = list(range(n))
    if n == 5:  # the centre pip is the one nearest the centroid; the rest is a 4
        mid = min(ring, key=lambda k: math.hypot(*rel[k]))
        ring.remove(mid)
    ring.sort(key=lambda k: math.atan2(rel[k][1], rel[k][0]))
    dst = np.array([rel[k] for k in (ring + [mid] if n == 5 else ring)])
    src, pinv = _LABELLINGS[n]
    sol = pinv @ dst                      # (labellings, 2, 2): canonical -> image, transposed
    err = dst - src @ sol
    spacing = np.sqrt(np.abs(np.linalg.det(sol)))
    rms = np.sqrt((err * err).sum(axis=2).sum(axis=1) / n)
    residual = rms / np.maximum(spacing, 1e-12)
    residual[~(spacing > 0)] = np.inf
    best = int(residual.argmin())
    return LayoutFit(n, np.array([cx, cy]), sol[best].T, float(residual[best]))
