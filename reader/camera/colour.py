"""Naming a die's colour so that it survives the camera's white balance.

A die is measured as the median of its body pixels (pips and glare excluded by the finder's
body mask and the median). Before comparing it with the colour references, the measurement is
brought back to the light of the calibration by the table: each channel is scaled by
``table at calibration / table now`` (a von Kries correction), because a white-balance change
scales the table and the dice alike. Without a calibration, a near-neutral table is taken as
the white reference; a coloured table (green felt, wood) is left as it is.

Achromatic dice are decided on value and saturation *before* hue is looked at: a white or
grey die has hue 0 in HSV, which is red, so a chromatic name is given only when the die's
saturation is at least half of that colour's reference saturation (and above a floor).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import compress

import cv2
import numpy as np

from calibration.colour import ColourCalibration, ColourProfile, load_colours
from reader.camera.reading import DieCandidate

#: Canonical die colours (BGR as a webcam under neutral light delivers them). Pale colours
#: (pink, teal) are left to calibration: uncalibrated, a tinted light makes grey look like them.
DEFAULT_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 190),
    "orange": (30, 120, 235),
    "yellow": (40, 200, 230),
    "green": (60, 150, 40),
    "blue": (170, 85, 25),
    "purple": (125, 45, 110),
    "white": (230, 230, 230),
    "grey": (135, 135, 135),
    "black": (35, 35, 35),
}

#: Below this saturation (0-1) a die is white, grey or black whatever its hue.
SATURATION_FLOOR = 0.35
#: A chromatic name needs at least this fraction of the reference's saturation.
SATURATION_SHARE = 0.5
#: Below this value (0-1, the brightest channel) a die is black.
BLACK_VALUE = 0.2
#: A table whose CIELAB chroma is below this is taken as a white reference when uncalibrated
#: (a grey table under a strong warm or cold cast stays below it; a wooden one does not),
#: unless it is too dark for its colour to mean anything.
NEUTRAL_TABLE = 18.0
#: A chromatic name also needs this spread between the brightest and darkest channel: on a
#: dark die a few grey levels of cast make a large saturation.
CHROMA_LEVELS = 28.0
#: Lightness counts less than hue in a chromatic match: shading changes L, not the hue.
LIGHTNESS_WEIGHT = 0.35
_GAIN_LIMITS = (0.55, 1.8)
#: About this many body pixels are read for a die's colour.
COLOUR_SAMPLES = 400


def bgr_to_lab(bgr: np.ndarray | Iterable[float]) -> np.ndarray:
    """CIELAB (D65; L 0-100) of BGR colours in 0-255, any leading shape."""
    rgb = np.asarray(bgr, np.float32)[..., ::-1] / 255.0
    return cv2.cvtColor(rgb.reshape(-1, 1, 3), cv2.COLOR_RGB2Lab).reshape(rgb.shape)


def saturation(bgr: Iterable[float]) -> float:
    """HSV saturation (0-1) of one BGR colour."""
    c = np.asarray(bgr, np.float64)
    top = float(c.max())
    return 0.0 if top <= 0 else float((top - c.min()) / top)


#: Rows of at least this many values are sorted by a radix sort (numpy's stable sort of 8-
#: and 16-bit integers); a plain sort is quicker on a pip's dozen samples.
RADIX_FROM = 64


def medians(values: np.ndarray) -> np.ndarray:
    """The medians along the last axis, as ``np.median(values, axis=-1)`` gives them
    (float64; NaN where there are none), several times faster."""
    n = values.shape[-1]
    if n == 0:
        return np.full(values.shape[:-1], np.nan)
    # a copy in row order, sorted in place: a view across rows (a pixel's channels, every
    # k-th pixel) keeps its own order in np.sort's copy, and sorts there twice as slowly
    ordered = np.array(values, order="C")
    ordered.sort(axis=-1, kind="stable" if n >= RADIX_FROM else None)
    middle = n // 2
    if n % 2:
        return ordered[..., middle].astype(np.float64)
    return (ordered[..., middle - 1].astype(np.float64) + ordered[..., middle]) / 2


def table_reference(image_bgr: np.ndarray) -> np.ndarray:
    """The table's colour: the per-channel median of a downscaled frame (the table fills most of it)."""
    small = cv2.resize(image_bgr, (64, 36), interpolation=cv2.INTER_AREA)
    return medians(small.reshape(-1, 3).T).astype(np.float32)


def shade_distance(seen: np.ndarray, reference: np.ndarray) -> float:
    """How far a CIELAB colour ``seen`` lies from the nearest shade of ``reference``: shade
    darkens a colour and pales it about in proportion (its chroma scales with its lightness),
    and never lightens it. A die's face turned from the light is its top face's colour in
    shade; so is a shadow on the table."""
    share = min(1.0, float(seen[0]) / max(float(reference[0]), 1e-6))
    shaded = np.array([min(float(seen[0]), float(reference[0])), reference[1] * share, reference[2] * share])
    return float(np.linalg.norm(np.asarray(seen, float) - shaded))


def die_colour(image_bgr: np.ndarray, candidate: DieCandidate) -> np.ndarray:
    """Median BGR of a die's body pixels (falls back to the whole box when the mask is empty)."""
    x0, y0, x1, y1 = candidate.box
    patch = image_bgr[y0:y1, x0:x1]
    body = cv2.findNonZero(candidate.body_mask[:patch.shape[0], :patch.shape[1]])  # (x, y), row by row
    # a few hundred pixels tell the median as well as thousands: only those are gathered
    if body is not None:
        xy = body.reshape(-1, 2)[::max(1, len(body) // COLOUR_SAMPLES)]
        pixels = patch[xy[:, 1], xy[:, 0]]
    else:
        pixels = patch.reshape(-1, 3)
        pixels = pixels[::max(1, len(pixels) // COLOUR_SAMPLES)]
    return medians(pixels.T).astype(np.float32)


@dataclass(frozen=True)
class _Reference:
    name: str
    lab: np.ndarray
    saturation: float

    @property
    def chromatic(self) -> bool:
        return self.saturation >= SATURATION_FLOOR


@cache
def _defaults() -> dict[str, _Reference]:
    return {name: _Reference(name, bgr_to_lab(bgr), saturation(bgr)) for name, bgr in DEFAULT_BGR.items()}


class ColourNames:
    """Names die colours: defaults, overridden by the user's calibrated profiles.

    Call it as a ``ColourNamer``: ``names(image_bgr, candidate, table_bgr) -> (name, confidence)``.
    """

    def __init__(self, calibration: ColourCalibration | None = None) -> None:
        refs = dict(_defaults())
        for profile in calibration.profiles if calibration else ():
            refs[profile.name] = _Reference(profile.name, np.asarray(profile.lab, np.float32), profile.saturation)
        self._refs = tuple(refs.values())
        self._table = np.asarray(calibration.table_bgr, np.float32) if calibration else None
        # the references side by side, so that a colour is compared with all of them at once
        self._names = [r.name for r in self._refs]
        self._labs = np.array([r.lab for r in self._refs], np.float32)
        self._chromatic = np.array([r.chromatic for r in self._refs])
        self._min_saturation = np.array([max(SATURATION_FLOOR, SATURATION_SHARE * r.saturation) for r in self._refs])
        # the gains of the last table seen (every die of a frame is corrected by the same table)
        self._last_gains: tuple[bytes, np.ndarray | None] = (b"", None)

    @classmethod
    def load(cls) -> ColourNames:
        """Defaults plus whatever ``dicetable calibrate colours`` stored."""
        return cls(load_colours())

    @property
    def known(self) -> tuple[str, ...]:
        """Every colour name this namer can give."""
        return tuple(r.name for r in self._refs)

    def correct(self, bgr: np.ndarray, table_bgr: np.ndarray | None) -> np.ndarray:
        """``bgr`` as it would have looked under the calibration light (see the module doc)."""
        if table_bgr is None:
            return bgr
        gains = self._gains(np.asarray(table_bgr, np.float32))
        return bgr if gains is None else np.clip(bgr * gains, 0, 255)

    def _gains(self, table_bgr: np.ndarray) -> np.ndarray | None:
        """The per-channel gains that bring ``table_bgr`` (float32) to the calibration light
        (None: left as it is); remembered for the next call with the same table."""
        key = table_bgr.tobytes()
        seen, gains = self._last_gains
        if key == seen:
            return gains
        table = np.maximum(table_bgr, 1.0)
        if self._table is not None:
            gains = np.clip(self._table / table, *_GAIN_LIMITS)
        elif table.max() >= 24 and float(np.hypot(*bgr_to_lab(table)[1:])) < NEUTRAL_TABLE:
            gains = np.clip(np.full(3, table.mean(), np.float32) / table, *_GAIN_LIMITS)
        else:
            gains = None
        self._last_gains = (key, gains)
        return gains

    def name_colour(self, bgr: np.ndarray, table_bgr: np.ndarray | None = None) -> tuple[str, float]:
        """Name a measured BGR die colour; returns (name, confidence 0.5-1)."""
        c = self.correct(np.asarray(bgr, np.float32), table_bgr)
        channels = c.tolist()
        top, low = max(channels), min(channels)
        sat, value = 0.0 if top <= 0 else (top - low) / top, top / 255  # saturation(c), without numpy
        if float(np.float32(top - low)) < CHROMA_LEVELS:  # the spread as float32 arithmetic gives it
            sat = 0.0  # too little colour to name a hue
        lab = bgr_to_lab(c)
        if value >= BLACK_VALUE and sat >= SATURATION_FLOOR:
            # a chromatic die: by hue (lightness counts less), among colours at least half as saturated
            allowed = self._chromatic & (sat >= self._min_saturation)
            d = lab - self._labs[allowed]
            distance = np.hypot(LIGHTNESS_WEIGHT * d[:, 0], np.hypot(d[:, 1], d[:, 2]))
        else:  # white, grey or black: by lightness, and how little colour it has
            allowed = ~self._chromatic
            distance = np.abs(lab[0] - self._labs[allowed, 0]).astype(np.float64) + 0.5 * float(np.hypot(*lab[1:]))
        scored = sorted(zip(distance.tolist(), compress(self._names, allowed)))
        best, name = scored[0]
        runner_up = scored[1][0] if len(scored) > 1 else best + 50.0
        return name, round(0.5 + 0.5 * (runner_up - best) / (runner_up + best + 1e-6), 3)

    def __call__(self, image_bgr: np.ndarray, candidate: DieCandidate,
                 table_bgr: np.ndarray | None = None) -> tuple[str, float]:
        if table_bgr is None:
            table_bgr = table_reference(image_bgr)
        return self.name_colour(die_colour(image_bgr, candidate), table_bgr)


def learn_profiles(image_bgr: np.ndarray, candidates: list[DieCandidate], names: list[str],
                   ) -> tuple[tuple[float, float, float], tuple[ColourProfile, ...]]:
    """Profiles of the dice in ``candidates`` named by ``names`` (same order), and the table colour.

    Dice of the same name are averaged. Used by ``dicetable calibrate colours``.
    """
    table = table_reference(image_bgr)
    by_name: dict[str, list[np.ndarray]] = {}
    for candidate, name in zip(candidates, names, strict=True):
        by_name.setdefault(name, []).append(die_colour(image_bgr, candidate))
    profiles = []
    for name, colours in by_name.items():
        bgr = np.mean(colours, axis=0)
        profiles.append(ColourProfile(name, tuple(float(v) for v in bgr_to_lab(bgr)), saturation(bgr), len(colours)))
    return tuple(float(v) for v in table), tuple(profiles)  # type: ignore[return-value]
