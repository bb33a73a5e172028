"""The colour of a die's body round a pip, and of its ink, read from the frame in colour.

The reader finds and groups pips in grey, where a red die and a purple one touching can
look alike. A face's pips all lie on one body colour, so two pips on bodies of clearly
different hues lie on two dice: that settles what grey leaves open (two touching dice
showing 1 each, or a 2 whose pips lie far apart). A die's pips are all of one ink too:
two black dice touching, one with red pips and one with gold, are two dice, however
alike their bodies (and the red pips, darker in grey, are no shaded gold ones).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from statistics import median

import numpy as np

from reader.camera.colour import bgr_to_lab, medians, table_reference
from reader.camera.pips import Pip

#: The body is sampled on a ring this many pip radii from the pip's centre, past its rim,
#: ...
RING_RADII = 2.2
#: ... or nearer round a big pip: this many radii, or ``RING_RIM`` pixels of the colour
#: image past its rim, whichever is further (the ring must clear the rim's blur, which is
#: pixels wide whatever the pip's size: a pip of up to 5 pixels' radius keeps 2.2 radii). A
#: die with big pips has little face round them: a corner pip's rim lies a third of its
#: radius from the face's edge (pips of 0.13 of the side), and a ring of 2.2 radii there
#: samples as much table as face.
RING_RADII_BIG, RING_RIM = 1.5, 6.0
#: Sample points on the ring.
RING_POINTS = 12
#: A pip's ink (or any place's colour) is sampled at its centre and on a circle this share
#: of its radius out (well inside its rim, which the camera blurs into the body; a pixel's
#: colour is noisy, and JPEG keeps colour at half the resolution).
INK_RADII = 0.4
#: Bodies less colourful than this (CIELAB chroma) are white, grey or black: their hue says
#: nothing.
NEUTRAL_CHROMA = 12.0
#: An ink at least this colourful (CIELAB chroma) shows its hue through the camera's noise
#: and the light's tint; inks this much apart in chroma differ.
INK_CHROMA = 2 * NEUTRAL_CHROMA
#: Two colourful bodies whose hues differ by more than this (degrees) are two dice; lighting
#: and white balance turn a hue far less.
HUE_APART = 40.0
#: ... if their colours also lie this far apart (CIELAB a*b* distance): a die's face in shade
#: takes the tint of the light around it (a cold room's blue), which turns the hue of a
#: barely colourful body by 40 degrees or more while moving its colour less than this.
COLOUR_APART = 2 * NEUTRAL_CHROMA
#: Two inks at least ``INK_CHROMA`` colourful whose hues differ by more than this (degrees)
#: belong to two dice: so colourful a colour keeps its hue in shade and under a tinted light
#: (red and gold pips on black dice, seen under warm light, lay 40 degrees apart, within
#: ``HUE_APART``, and a red 6 in front of a gold 2 was dropped as the 2's front face).
INK_HUE_APART = 30.0
#: Ink and body whose colours (as :func:`glare_free` gives them, 0-255 scale) lie closer
#: than this cannot be told apart by colour: white pips on a black die, black on white.
MIN_INK_COLOUR = 40.0
#: ... nor can ink and body whose glare-free colours per unit of brightness (B + G + R) lie
#: closer than this: light of one tint makes a light colour's glare-free colour bigger than a
#: dark one's in proportion. (Two bodies' tints that close may be one body and its shade.)
MIN_INK_TINT = 0.15
#: Two bodies of one colour differ in it (as :func:`glare_free` gives it) by at most this
#: share of its size.
MAX_BODY_COLOUR_GAP = 0.25


def ring_directions(count: int) -> np.ndarray:
    """``count`` unit vectors spread evenly round a circle, the first along x: the points of
    a ring round a pip (or the rays from it), in its radii."""
    angles = np.linspace(0, 2 * np.pi, count, endpoint=False)
    return np.column_stack([np.cos(angles), np.sin(angles)])


_RING = ring_directions(RING_POINTS)
#: The ink's sample points, in pip radii: the centre and a circle round it.
_INK_SPOTS = np.vstack([[0.0, 0.0], INK_RADII * _RING[::3]])
#: Points inside a blob, in its radii, where a pip it holds is looked for.
_BLOB_SPOTS = np.array([(x, y) for x in np.linspace(-0.8, 0.8, 9) for y in np.linspace(-0.8, 0.8, 9)
                        if x * x + y * y <= 0.64])


class BodyColours:
    """Body colours round pips found on an image ``1 / scale`` the size of ``image_bgr``
    (pip coordinates are multiplied by ``scale`` to reach the colour image's)."""

    def __init__(self, image_bgr: np.ndarray, scale: float = 1.0) -> None:
        self._scale = scale
        self._image = image_bgr
        # the pixels in one row (copied once if the image is a crop): picking pixels from it
        # by their index in the row is much quicker than by row and column
        self._pixels = np.ascontiguousarray(image_bgr).reshape(-1, image_bgr.shape[2])
        h, self._width = image_bgr.shape[:2]
        self._last = np.array([self._width - 1, h - 1])  # the last column and row
        self._known: dict[int, list[float]] = {}
        self._inks: dict[int, list[float]] = {}
        self._axes: dict[tuple[int, ...], InkAxis | None] = {}

    def lab(self, pips: Sequence[Pip]) -> np.ndarray:
        """CIELAB of the median colour on a ring round each pip, past its rim (N x 3)."""
        return _lab(self._body_bgr(pips))

    def ink_lab(self, pips: Sequence[Pip]) -> np.ndarray:
        """CIELAB of the median colour inside each pip: its ink (N x 3)."""
        return _lab(self._median_bgr(pips, _INK_SPOTS, self._inks))

    def same_colourful_body(self, pips: Sequence[Pip], first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """For each pair (``pips[first[k]]``, ``pips[second[k]]``), whether the two lie on
        bodies of one clear colour as a highlight leaves it (:func:`glare_free`): glare
        changes how light a red die is round one pip and not another, not how red."""
        used = _named(first, second, len(pips))
        body = np.zeros((len(pips), 2), np.float32)
        body[used] = glare_free(self._body_bgr([pips[k] for k in used]))
        a, b = body[first], body[second]
        size = np.minimum(np.hypot(a[:, 0], a[:, 1]), np.hypot(b[:, 0], b[:, 1]))
        return (size >= MIN_INK_COLOUR) & (np.hypot(*(a - b).T) <= MAX_BODY_COLOUR_GAP * size)

    def shaded_body(self, points: np.ndarray, pips: Sequence[Pip]) -> np.ndarray:
        """Whether the colour at each of ``points`` (in the pips' coordinates) may be the body
        round ``pips`` lit or shaded (see :func:`shade_apart`)."""
        return ~shade_apart(self._bgr_at(np.asarray(points, float)), self._body_bgr(pips).mean(axis=0))

    def _body_bgr(self, pips: Sequence[Pip]) -> np.ndarray:
        """The median colour (BGR) on the ring round each pip that samples its body (see
        ``RING_RADII_BIG``), remembered by pip (N x 3)."""
        return self._median_bgr(pips, _RING, self._known, self._ring_radii)

    def _median_bgr(self, pips: Sequence[Pip], spots: np.ndarray, known: dict[int, list[float]],
                    reach: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
        """The median colour (BGR) at ``spots`` (in pip radii from each pip's centre, or in
        the lengths ``reach`` makes of them), remembered in ``known`` by pip (N x 3)."""
        missing = [p for p in pips if id(p) not in known]
        if missing:
            centres = np.array([(p.x, p.y) for p in missing], float)
            radii = np.array([p.radius for p in missing], float)
            if reach is not None:
                radii = reach(radii)
            points = centres[:, None, :] + spots[None] * radii[:, None, None]
            # kept as plain lists, which turn back into an array much quicker than rows of one
            known.update(zip(map(id, missing), medians(np.moveaxis(self._pixels_at(points), 1, -1)).tolist()))
        return np.array([known[id(p)] for p in pips], np.float32).reshape(-1, 3)

    def _ring_radii(self, radii: np.ndarray | float) -> np.ndarray:
        """The radius of the ring that samples the body round pips of ``radii`` (see
        ``RING_RADII_BIG``), in the pips' coordinates."""
        return np.minimum(RING_RADII * radii, np.maximum(RING_RADII_BIG * radii, radii + RING_RIM / self._scale))

    @cached_property
    def table_lab(self) -> np.ndarray:
        """CIELAB of the table's colour (see :func:`table_reference`: the frame's median)."""
        return bgr_to_lab(table_reference(self._image))

    def inside(self, point: np.ndarray) -> bool:
        """Whether a point in the pips' coordinates lies inside the frame."""
        x, y = (np.asarray(point, float) * self._scale).tolist()
        return 0 <= x <= self._last[0] and 0 <= y <= self._last[1]

    def lab_at(self, points: np.ndarray) -> np.ndarray:
        """CIELAB of the frame at points given in the pips' coordinates (any leading shape)."""
        return bgr_to_lab(self._bgr_at(points))

    def ink_axis(self, centres: np.ndarray, radius: float) -> InkAxis | None:
        """The way from the colour of the body round pips at ``centres`` (N x 2, in the
        pips' coordinates) of ``radius`` to the colour of their ink; None when the two are too
        alike for colour to tell them apart."""
        centres = np.asarray(centres, float).reshape(-1, 2)
        return ink_axis(self._bgr_at(centres[:, None] + radius * _INK_SPOTS),
                        self._bgr_at(centres[:, None] + self._ring_radii(radius) * _RING))

    def pips_axis(self, pips: Sequence[Pip]) -> InkAxis | None:
        """:meth:`ink_axis` of ``pips`` (at their median radius), remembered for that set of
        pips: a face's checks ask for it several times."""
        key = tuple(map(id, pips))
        if key not in self._axes:
            radius = float(median([p.radius for p in pips]))  # (as np.median gives it, without its overhead)
            self._axes[key] = self.ink_axis(np.array([(p.x, p.y) for p in pips], float), radius)
        return self._axes[key]

    def ink_share(self, points: np.ndarray, pips: Sequence[Pip]) -> np.ndarray | None:
        """How far the colour about each of ``points`` (in the pips' coordinates) lies from
        the colour of the body round ``pips`` towards the colour of their ink (0 body, 1 ink;
        see :class:`InkAxis`); None when ink and body are too alike for colour to tell them
        apart."""
        axis = self.pips_axis(pips)
        if axis is None:
            return None
        radius = float(median([p.radius for p in pips]))
        return axis.share(self._bgr_at(np.asarray(points, float)[:, None] + radius * _INK_SPOTS).mean(axis=1))

    def _bgr_at(self, points: np.ndarray) -> np.ndarray:
        """The frame's colour (float32 BGR) at points in the pips' coordinates."""
        return self._pixels_at(points).astype(np.float32)

    def _pixels_at(self, points: np.ndarray) -> np.ndarray:
        """The frame's pixels (BGR, in its own type) at points in the pips' coordinates,
        the nearest pixel inside the frame to each."""
        # columns and rows rounded and held to the frame together: one call each, not two
        at = np.minimum(np.maximum(np.rint(np.asarray(points, float) * self._scale).astype(np.intp), 0), self._last)
        return self._pixels.take(at[..., 1] * self._width + at[..., 0], axis=0)

    def apart_pairs(self, pips: Sequence[Pip], first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """For each pair (``pips[first[k]]``, ``pips[second[k]]``), whether the two lie on
        bodies of clearly different colours."""
        body = self._labs_of(self.lab, pips, first, second)
        return colours_apart(body[first], body[second])

    def inks_apart_pairs(self, pips: Sequence[Pip], first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """For each pair (``pips[first[k]]``, ``pips[second[k]]``), whether the two are light
        pips on bodies of no colour (a black or grey die's) of clearly different inks (see
        :func:`inks_apart`). Nothing is told otherwise: on a colourful body an ink takes the
        body's hue where it blurs into it, and a dark ink's hue is the camera's noise."""
        body = self._labs_of(self.lab, pips, first, second)
        plain = (np.hypot(body[:, 1], body[:, 2]) < NEUTRAL_CHROMA) & np.array([not p.dark for p in pips], bool)
        asked = plain[first] & plain[second]
        out = np.zeros(len(first), bool)
        if asked.any():
            first, second = first[asked], second[asked]
            ink = self._labs_of(self.ink_lab, pips, first, second)
            out[asked] = inks_apart(ink[first], body[first], ink[second], body[second])
        return out

    def tints_apart_pairs(self, pips: Sequence[Pip], first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """For each pair (``pips[first[k]]``, ``pips[second[k]]``) of dark pips, whether the
        darker body cannot be the other's in shade (see :func:`shade_apart`): a grey die
        beside a yellow one under warm light is as yellow in hue, not in tint. Nothing is
        told of light pips: their ink, blurred into the ring, tints or pales it."""
        out = np.zeros(len(first), bool)
        asked = np.array([pips[a].dark and pips[b].dark for a, b in zip(first, second)], bool)
        if asked.any():
            body = np.zeros((len(pips), 3), np.float32)
            used = _named(first[asked], second[asked], len(pips))
            body[used] = self._body_bgr([pips[k] for k in used])
            out[asked] = shade_apart(body[first[asked]], body[second[asked]])
        return out

    @staticmethod
    def _labs_of(lab: Callable[[Sequence[Pip]], np.ndarray], pips: Sequence[Pip], first: np.ndarray,
                 second: np.ndarray) -> np.ndarray:
        """``lab`` of the pips the pairs name, by index into ``pips`` (zero for the others)."""
        used = _named(first, second, len(pips))
        out = np.zeros((len(pips), 3), np.float32)
        out[used] = lab([pips[k] for k in used])
        return out

    def inked_spot(self, pip: Pip) -> tuple[float, float] | None:
        """The point inside ``pip`` (a light blob, such as a highlight) whose colour lies
        furthest from the body's round it in what the light leaves of a colour (see
        :func:`glare_free`), if at least ``MIN_INK_COLOUR`` away: a coloured pip the highlight
        took into its blob (None: none)."""
        points = np.array([pip.x, pip.y]) + pip.radius * _BLOB_SPOTS
        body = glare_free(self._body_bgr([pip]))[0]
        away = np.hypot(*(glare_free(self._bgr_at(points)) - body).T)
        best = int(np.argmax(away))
        return (float(points[best, 0]), float(points[best, 1])) if away[best] >= MIN_INK_COLOUR else None

    def apart(self, a: Pip, b: Pip) -> bool:
        """Whether the two pips lie on bodies of clearly different colours."""
        lab = self.lab([a, b])
        return bool(colours_apart(lab[0], lab[1]))


def _named(first: np.ndarray, second: np.ndarray, count: int) -> np.ndarray:
    """The indices (below ``count``) that pairs (``first[k]``, ``second[k]``) name, in
    order, each once: ``np.union1d``'s, found by counting (much quicker than its sort)."""
    return np.flatnonzero(np.bincount(np.concatenate([first, second]).astype(np.intp), minlength=count))


def _lab(bgr: np.ndarray) -> np.ndarray:
    """CIELAB of N x 3 BGR colours (N may be 0)."""
    return bgr_to_lab(bgr) if len(bgr) else bgr


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
    # (float32 as the samples are: the median of two middle values is the same number)
    ink, body = (medians((np.asarray(x, np.float32).reshape(-1, 3) @ _GLARE_FREE_AND_LIGHT).T).astype(np.float32)
                 for x in (ink_bgr, body_bgr))
    step = ink[:2] - body[:2]
    if float(np.hypot(*step)) < MIN_INK_COLOUR:
        return None
    if float(np.hypot(*(ink[:2] / max(float(ink[2]), 1.0) - body[:2] / max(float(body[2]), 1.0)))) < MIN_INK_TINT:
        return None
    return InkAxis(body[:2], step)


def glare_free(bgr: np.ndarray) -> np.ndarray:
    """Red minus green and yellow minus blue ((R + G) / 2 - B) of BGR colours (any leading
    shape, last axis 3 -> 2): what white light added (a highlight, glare) leaves as it was."""
    return np.asarray(bgr, np.float32) @ _GLARE_FREE_AND_LIGHT[:, :2]


#: BGR -> red minus green, yellow minus blue (see :func:`glare_free`) and brightness B + G + R.
_GLARE_FREE_AND_LIGHT = np.array([[0.0, -1.0, 1.0], [-1.0, 0.5, 0.5], [1.0, 1.0, 1.0]], np.float32).T


def shade_apart(first_bgr: np.ndarray, second_bgr: np.ndarray) -> np.ndarray:
    """Whether, of two body colours (BGR, N x 3), the darker cannot be the lighter one
    shaded: shade scales a colour, which keeps its tint (glare-free colour per unit of
    brightness, :func:`glare_free`), and glare on the lit body only pales the lighter one's
    tint towards none. So the lighter tint lies between none and the darker one's, give or
    take ``MIN_INK_TINT`` (light of one tint on both, the camera's noise)."""
    first, second = (np.asarray(x, np.float32).reshape(-1, 3) @ _GLARE_FREE_AND_LIGHT
                     for x in (first_bgr, second_bgr))
    first_darker = (first[:, 2] <= second[:, 2])[:, None]
    dark, light = np.where(first_darker, first, second), np.where(first_darker, second, first)
    dark_tint, light_tint = (x[:, :2] / np.maximum(x[:, 2:], 1.0) for x in (dark, light))
    # the lighter tint's distance from the segment between none and the darker tint
    share = np.sum(light_tint * dark_tint, axis=1) / np.maximum(np.sum(dark_tint ** 2, axis=1), 1e-9)
    nearest = np.clip(share, 0.0, 1.0)[:, None] * dark_tint
    return np.hypot(*(light_tint - nearest).T) > MIN_INK_TINT


def inks_apart(ink_a: np.ndarray, body_a: np.ndarray, ink_b: np.ndarray, body_b: np.ndarray) -> np.ndarray:
    """Whether light inks (CIELAB, N x 3) on bodies of no colour are clearly different:
    colourful inks of hues far apart, or a colourful ink and one of no colour that stands
    out from its body at least as much. A coloured ink blurred into a neutral body, or
    shaded, keeps its hue but fades towards the body's level and grey; it does not stand
    out more."""
    chroma_a, chroma_b = np.hypot(ink_a[:, 1], ink_a[:, 2]), np.hypot(ink_b[:, 1], ink_b[:, 2])
    hued = (np.minimum(chroma_a, chroma_b) >= INK_CHROMA) & colours_apart(ink_a, ink_b, INK_HUE_APART)
    stands_a, stands_b = np.abs(ink_a[:, 0] - body_a[:, 0]), np.abs(ink_b[:, 0] - body_b[:, 0])
    # the less colourful ink stands out at least as much as the more colourful one
    plain_clearer = np.where(chroma_a < chroma_b, stands_a >= stands_b, stands_b >= stands_a)
    return hued | ((np.minimum(chroma_a, chroma_b) < INK_CHROMA) & (np.abs(chroma_a - chroma_b) > INK_CHROMA)
                   & plain_clearer)


def colours_apart(first: np.ndarray, second: np.ndarray, hue_apart: float = HUE_APART) -> np.ndarray:
    """Whether CIELAB colours (broadcast against each other) are clearly different: both
    colourful with hues far apart, or one colourful and the other clearly neutral, and
    either way ``COLOUR_APART`` apart (hues: more than ``hue_apart`` degrees). Light and
    glare change a colour's lightness and saturation, seldom its hue; but a barely colourful
    body's hue is turned by the tint of the light round its shaded faces."""
    first, second = np.broadcast_arrays(np.asarray(first, np.float32), np.asarray(second, np.float32))
    chroma_a, chroma_b = np.hypot(first[..., 1], first[..., 2]), np.hypot(second[..., 1], second[..., 2])
    turn = np.abs(np.degrees(np.arctan2(first[..., 2], first[..., 1]) - np.arctan2(second[..., 2], second[..., 1])))
    turn = np.minimum(turn % 360, 360 - turn % 360)
    colourful_a, colourful_b = chroma_a >= NEUTRAL_CHROMA, chroma_b >= NEUTRAL_CHROMA
    both = (colourful_a & colourful_b & (turn > hue_apart)
            & (np.hypot(first[..., 1] - second[..., 1], first[..., 2] - second[..., 2]) > COLOUR_APART))
    # (one neutral and one colourful: their chromas alone must lie COLOUR_APART apart)
    mixed = (colourful_a != colourful_b) & (np.abs(chroma_a - chroma_b) > COLOUR_APART)
    return both | mixed
