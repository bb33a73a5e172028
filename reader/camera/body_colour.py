"""The colour of a die's body round a pip, read from the frame in colour.

The reader finds and groups pips in grey, where a red die and a purple one touching can
look alike. A face's pips all lie on one body colour, so two pips on bodies of clearly
different hues lie on two dice: that settles what grey leaves open (two touching dice
showing 1 each, or a 2 whose pips lie far apart).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reader.camera.colour import bgr_to_lab
from reader.camera.pips import Pip

#: The body is sampled on a ring this many pip radii from the pip's centre, past its rim.
RING_RADII = 2.2
#: Sample points on the ring.
RING_POINTS = 12
#: Bodies less colourful than this (CIELAB chroma) are white, grey or black: their hue says
#: nothing.
NEUTRAL_CHROMA = 12.0
#: Two colourful bodies whose hues differ by more than this (degrees) are two dice; lighting
#: and white balance turn a hue far less.
HUE_APART = 40.0

_ANGLES = np.linspace(0, 2 * np.pi, RING_POINTS, endpoint=False)
_RING = np.column_stack([np.cos(_ANGLES), np.sin(_ANGLES)])


class BodyColours:
    """Body colours round pips found on an image ``1 / scale`` the size of ``image_bgr``
    (pip coordinates are multiplied by ``scale`` to reach the colour image's)."""

    def __init__(self, image_bgr: np.ndarray, scale: float = 1.0) -> None:
        self._image = image_bgr
        self._scale = scale
        self._known: dict[int, np.ndarray] = {}

    def lab(self, pips: Sequence[Pip]) -> np.ndarray:
        """CIELAB of the median colour on a ring round each pip, past its rim (N x 3)."""
        missing = [p for p in pips if id(p) not in self._known]
        if missing:
            centres = np.array([(p.x, p.y) for p in missing], float)
            radii = np.array([p.radius for p in missing], float)
            rings = centres[:, None, :] + _RING[None] * RING_RADII * radii[:, None, None]
            for pip, lab in zip(missing, bgr_to_lab(np.median(self._bgr_at(rings), axis=1))):
                self._known[id(pip)] = lab
        return np.array([self._known[id(p)] for p in pips], np.float32).reshape(-1, 3)

    def lab_at(self, points: np.ndarray) -> np.ndarray:
        """CIELAB of the frame at points given in the pips' coordinates (any leading shape)."""
        return bgr_to_lab(self._bgr_at(points))

    def _bgr_at(self, points: np.ndarray) -> np.ndarray:
        h, w = self._image.shape[:2]
        scaled = np.asarray(points, float) * self._scale
        cols = np.clip(np.rint(scaled[..., 0]).astype(int), 0, w - 1)
        rows = np.clip(np.rint(scaled[..., 1]).astype(int), 0, h - 1)
        return self._image[rows, cols].astype(np.float32)

    def apart_pairs(self, pips: Sequence[Pip], first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """For each pair (``pips[first[k]]``, ``pips[second[k]]``), whether the two lie on
        bodies of clearly different colours."""
        used = np.union1d(first, second)
        lab = np.zeros((len(pips), 3), np.float32)
        lab[used] = self.lab([pips[k] for k in used])
        return colours_apart(lab[first], lab[second])

    def apart(self, a: Pip, b: Pip) -> bool:
        """Whether the two pips lie on bodies of clearly different colours."""
        lab = self.lab([a, b])
        return bool(colours_apart(lab[0], lab[1]))


def colours_apart(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Whether CIELAB colours (broadcast against each other) are clearly different: both
    colourful with hues far apart, or one colourful and the other clearly neutral. Light
    and glare change a colour's lightness and saturation, seldom its hue."""
    first, second = np.broadcast_arrays(np.asarray(first, np.float32), np.asarray(second, np.float32))
    chroma_a, chroma_b = np.hypot(first[..., 1], first[..., 2]), np.hypot(second[..., 1], second[..., 2])
    turn = np.abs(np.degrees(np.arctan2(first[..., 2], first[..., 1]) - np.arctan2(second[..., 2], second[..., 1])))
    turn = np.minimum(turn % 360, 360 - turn % 360)
    colourful_a, colourful_b = chroma_a >= NEUTRAL_CHROMA, chroma_b >= NEUTRAL_CHROMA
    both = colourful_a & colourful_b & (turn > HUE_APART)
    mixed = (colourful_a != colourful_b) & (np.abs(chroma_a - chroma_b) > 2 * NEUTRAL_CHROMA)
    return both | mixed
