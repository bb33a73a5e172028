"""The outline of a die seen from above, named: triangle, square, hexagon, decagon, kite or bar.

A die resting on the table shows a characteristic outline to a camera above it:

- ``TRIANGLE``: a tetrahedral d4 (its four faces are triangles; from above, one triangle).
- ``BAR``: a long (barrel, prism) d4: a rectangle about 1.5 times longer than wide, ends
  blunt or slightly peaked. The numeral-tower d4s are all of this kind.
- ``SQUARE``: a d6.
- ``KITE``: a d10 or percentile d00 (pentagonal trapezohedron): its top face is a kite and
  its outline an elongated hexagon about 1.25-1.45 times longer than wide, pointed at both
  ends of its long axis. A crystal d4 (a long prism with pointed ends) looks the same.
- ``HEXAGON``: a d8 resting on a face (a triangle ringed by three faces) and a d20 (the same
  six-cornered outline, rounder); the two are told apart by the taught size, not by shape.
- ``DECAGON``: a d12 (its pentagonal top face ringed by five faces): ten shallow corners,
  nearly round.

The outline's convex hull is described by how far it reaches from its centroid in every
direction; the 3rd, 4th and 6th harmonics of that profile measure three-, four- and six-fold
corners whatever the die's rotation, and its elongation and how fully it fills its tightest
rectangle separate a kite (pointed ends) from a bar (square ends). Each decision has a
threshold and a width: the confidence is 0.5 on a threshold and 1 a width beyond it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np


class DieShape(str, Enum):
    """The outline classes of numbered dice seen from above."""

    TRIANGLE = "triangle"
    BAR = "bar"
    SQUARE = "square"
    KITE = "kite"
    HEXAGON = "hexagon"
    DECAGON = "decagon"


#: The die kinds that show each outline (d6 is not a numbered kind but is named so a
#: pip die thrown with numbered dice is recognised). A kite rules out no d4: crystal d4s show one.
KINDS_OF: dict[DieShape, tuple[str, ...]] = {
    DieShape.TRIANGLE: ("d4",), DieShape.BAR: ("d4",), DieShape.SQUARE: ("d6",),
    DieShape.KITE: ("d10", "d00", "d4"), DieShape.HEXAGON: ("d8", "d20"), DieShape.DECAGON: ("d12",),
}

#: (threshold, width) of each decision.
ELONGATED = (1.15, 0.06)  # long over short axis: above, a kite or a bar
SQUARE_ENDS = (0.83, 0.04)  # hull area over its tightest rectangle's: above, a bar
THREE_FOLD = (0.10, 0.05)  # 3rd harmonic of the radial profile: above, a triangle
FOUR_FOLD = (0.06, 0.03)  # 4th: a square
SIX_FOLD = (0.02, 0.01)  # 6th: a hexagon; below all three, a decagon
#: An outline class at least this sure rules out the kinds that never show it.
SURE_SHAPE = 0.9
#: The radial profile is sampled every this many degrees.
PROFILE_STEP = 2.0
_DIRECTIONS = np.deg2rad(np.arange(0.0, 360.0, PROFILE_STEP))
_UNITS = np.stack([np.cos(_DIRECTIONS), np.sin(_DIRECTIONS)])  # (2, angles)


@dataclass(frozen=True, slots=True)
class ShapeVerdict:
    """An outline's class, how sure it is (0.5 on a decision's threshold, 1 clearly past it),
    and the measures behind it."""

    shape: DieShape
    confidence: float
    elongation: float
    fill: float
    harmonics: tuple[float, float, float]  # 3rd, 4th, 6th

    def fits(self, kind: str) -> bool:
        """Whether a ``kind`` die shows this outline."""
        return kind in KINDS_OF[self.shape]

    def rules_out(self, kind: str) -> bool:
        """Whether the outline is clearly one a ``kind`` die never shows."""
        return self.confidence >= SURE_SHAPE and not self.fits(kind)

    def describe(self) -> str:
        """``"a d4 (bar)"``: what the outline looks like, for messages."""
        return f"a {'/'.join(KINDS_OF[self.shape])} ({self.shape.value})"


def _sure(value: float, rule: tuple[float, float]) -> float:
    """How clearly ``value`` lies above the rule's threshold: 0.5 on it, 1 a width above, 0 a width below."""
    threshold, width = rule
    return float(np.clip(0.5 + 0.5 * (value - threshold) / width, 0.0, 1.0))


def radial_profile(hull: np.ndarray) -> np.ndarray:
    """Distance from the centroid to a convex outline in every :data:`PROFILE_STEP` direction."""
    points = hull.reshape(-1, 2).astype(np.float64)
    m = cv2.moments(points.astype(np.float32))
    if m["m00"] <= 0:
        return np.ones(len(_DIRECTIONS))
    rel = points - (m["m10"] / m["m00"], m["m01"] / m["m00"])
    edges = np.roll(rel, -1, axis=0) - rel
    normals = np.stack([edges[:, 1], -edges[:, 0]], axis=1)
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-12)
    offsets = (normals * rel).sum(axis=1)  # each edge's line: normal . x = offset
    normals[offsets < 0] *= -1
    offsets = np.abs(offsets)
    facing = normals @ _UNITS  # (edges, angles)
    # A ray from the centroid leaves a convex outline through the nearest edge line it meets.
    reach = np.where(facing > 1e-9, offsets[:, None] / np.maximum(facing, 1e-9), np.inf)
    return reach.min(axis=0)


def classify(contour: np.ndarray, elongation: float) -> ShapeVerdict:
    """The outline class of a die's ``contour`` (``elongation``: long over short axis, see
    :attr:`~reader.camera.numbered.finder.DieBlob.elongation`)."""
    hull = cv2.convexHull(contour)
    profile = radial_profile(hull)
    profile = profile / max(float(profile.mean()), 1e-9)
    spectrum = np.abs(np.fft.rfft(profile - 1.0)) * 2 / len(profile)
    h3, h4, h6 = (float(spectrum[k]) for k in (3, 4, 6))
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    fill = float(cv2.contourArea(hull)) / max(w * h, 1e-9)
    long = _sure(elongation, ELONGATED)
    if long >= 0.5:
        square = _sure(fill, SQUARE_ENDS)
        shape, sure = (DieShape.BAR, square) if square >= 0.5 else (DieShape.KITE, 1.0 - square)
        return ShapeVerdict(shape, min(long, sure), elongation, fill, (h3, h4, h6))
    folds = [(DieShape.TRIANGLE, _sure(h3, THREE_FOLD)), (DieShape.SQUARE, _sure(h4, FOUR_FOLD)),
             (DieShape.HEXAGON, _sure(h6, SIX_FOLD))]
    # A triangle's profile also has a 6th harmonic, a square's an 8th: the fewest corners that
    # stand out win; none standing out is the near-round decagon.
    shape, sure = next(((s, c) for s, c in folds if c >= 0.5), (DieShape.DECAGON, 1.0 - max(c for _, c in folds)))
    return ShapeVerdict(shape, min(1.0 - long, sure), elongation, fill, (h3, h4, h6))
