"""The colour of a die's body round a pip, read from the frame in colour.

The reader finds and groups pips in grey, where a red die and a purple one touching can
look alike. A face's pips all lie on one body colour, so two pips on bodies of clearly
different hues lie on two dice: that settles what grey leaves open (two touching dice
showing 1 each, or a 2 whose pips lie far apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
#: Ink and body whose colours (as :func:`glare_free` gives them, 0-255 scale) lie closer
#: than this cannot be told apart by colour: white pips on a black die, black on white.
MIN_INK_COLOUR = 40.0
#: ... nor can ink and body whose glare-free colours per unit of brightness (B + G + R) lie
#: closer than this: light of one tint makes a light colour's glare-free colour bigger than a
#: dark one's in proportion.
MIN_INK_TINT = 0.15

_ANGLES = np.linspace(0, 2 * np.pi, RING_POINTS, endpoint=False)
_RING = np.column_stack([np.cos(_ANGLES), np.sin(_ANGLES)])
#: A place's colour is averaged over it and four points this many pip radii about it (a
#: pixel's colour is noisy, and JPEG keeps colour at half the resolution).
INK_NUDGE = 0.4
_NUDGES = np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]], float)


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

    def ink_axis(self, centres: np.ndarray, radius: float) -> InkAxis | None:
        """The way from the colour of the body round pips at ``centres`` (N x 2, in the
        pips' coordinates) of ``radius`` to the colour of their ink; None when the two are too
        alike for colour to tell them apart."""
        centres = np.asarray(centres, float).reshape(-1, 2)
        return ink_axis(self._bgr_at(centres[:, None] + INK_NUDGE * radius * _NUDGES),
                        self._bgr_at(centres[:, None] + RING_RADII * radius * _RING))

    def ink_share(self, points: np.ndarray, pips: Sequence[Pip]) -> np.ndarray | None:
        """How far the colour about each of ``points`` (in the pips' coordinates) lies from
        the colour of the body round ``pips`` towards the colour of their ink (0 body, 1 ink;
        see :class:`InkAxis`); None when ink and body are too alike for colour to tell them
        apart."""
        radius = float(np.median([p.radius for p in pips]))
        axis = self.ink_axis(np.array([(p.x, p.y) for p in pips], float), radius)
        if axis is None:
            return None
        nudges = INK_NUDGE * radius * _NUDGES
        return axis.share(self._bgr_at(np.asarray(points, float)[:, None] + nudges).mean(axis=1))

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


@dataclass(frozen=True)
class InkAxis:
    """The way from a die's body colour to its ink's, in what a highlight leaves of a colour
    (:func:`glare_free`): on a dark die with coloured pips, glare is as bright as the pips
    in grey, but it is no redder or yellower than the body it lies on."""

    body: np.ndarray  # glare-free colour of the body (2,)
    step: np.ndarray  # from the body's to the ink's (2,)

    def share(self, bgr: np.ndarray) -> np.ndarray:
        """How far each BGR colour (any leading shape) lies from the body's towards the
        ink's: 0 body, 1 ink."""
        return (glare_free(np.asarray(bgr, np.float32)) - self.body) @ self.step / float(self.step @ self.step)


def ink_axis(ink_bgr: np.ndarray, body_bgr: np.ndarray) -> InkAxis | None:
    """The axis from the median glare-free colour of ``body_bgr`` samples to that of
    ``ink_bgr`` samples (any leading shape, last axis BGR); None when the two lie closer than
    ``MIN_INK_COLOUR``, or differ only as much as tinted light makes a light colour differ
    from a dark one (their glare-free colours per unit of brightness lie closer than
    ``MIN_INK_TINT``: black pips on a white die under warm light)."""
    ink_bgr, body_bgr = (np.asarray(x, np.float32).reshape(-1, 3) for x in (ink_bgr, body_bgr))
    ink, body = np.median(glare_free(ink_bgr), axis=0), np.median(glare_free(body_bgr), axis=0)
    step = ink - body
    if float(np.hypot(*step)) < MIN_INK_COLOUR:
        return None
    light_ink, light_body = (max(float(np.median(x.sum(axis=1))), 1.0) for x in (ink_bgr, body_bgr))
    if float(np.hypot(*(ink / light_ink - body / light_body))) < MIN_INK_TINT:
        return None
    return InkAxis(body, step)


def glare_free(bgr: np.ndarray) -> np.ndarray:
    """Red minus green and yellow minus blue ((R + G) / 2 - B) of BGR colours (any leading
    shape, last axis 3 -> 2): what white light added (a highlight, glare) leaves as it was."""
    b, g, r = bgr[..., 0], bgr[..., 1], bgr[..., 2]
    return np.stack([r - g, (r + g) / 2 - b], axis=-1)


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
