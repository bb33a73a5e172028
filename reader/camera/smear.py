"""Motion smear: pips stretched along one direction because the die moved while the shutter
was open, told apart from pips that are oval because the face is seen obliquely.

Both make a round pip look like an oval, but they differ at its rim. Foreshortening
squeezes a sharp edge, so the rim is as sharp along the oval's long axis as across it.
Motion spreads each point of the pip along the track of the die, so along the long axis
the rim ramps slowly, over the length of the track, while across it the rim stays as sharp
as the camera makes it. Every pip of one face moved together, so their long axes agree.

A smeared pip still has its true width across the track, and its centre stays where the
pip's centre moved through: layouts fitted to pip centres hold. What changes is what the
face's empty places look like: a place on the track of a pip catches some of its ink.
:meth:`Smear.ink_at` says how much, so a check can expect it there and still tell the ink
of a pip that really sits in that place (it would add to what the tracks bring).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

import cv2
import numpy as np

from reader.camera.pips import Pip

#: Pips at least this round show no direction to have been smeared along.
MAX_SMEARED_ROUNDNESS = 0.8
#: The long axes of one face's smeared pips turn from their mean by at most this (radians).
MAX_TRACK_TURN = math.radians(20)
#: Along the long axis a smeared pip's rim is at least this many times wider than across
#: (foreshortened pips, sharp all round, measure about 1 to 1.3; smeared ones 2 and more).
MIN_RIM_RATIO = 1.6
#: Profiles are sampled every this many pixels.
PROFILE_STEP = 0.5
#: A smeared pip's track ends within this many of its true half-widths past the oval seen:
#: there the face's body shows at least ``MIN_TRACK_END`` of the way from ink to body.
TRACK_END, MIN_TRACK_END = 2.0, 0.6


@dataclass(frozen=True)
class Smear:
    """A face's motion smear: the direction of the track (unit vector, image axes), its
    length in pixels and the true half-width of the pips across it."""

    direction: np.ndarray
    length: float
    half_width: float

    def ink_at(self, points: np.ndarray, pips: np.ndarray) -> np.ndarray:
        """The share of each point's light the smeared pips (centres ``pips``, N x 2) take:
        0 off every track, 1 on a pip's track where it lingered the whole exposure."""
        rel = np.asarray(points, float)[:, None, :] - np.asarray(pips, float)[None, :, :]
        along = rel @ self.direction
        across = rel @ np.array([-self.direction[1], self.direction[0]])
        # the pip, a disc, passes over the point while the track brings the point within
        # the pip's chord at that distance across the track
        chord = np.sqrt(np.clip(self.half_width ** 2 - across ** 2, 0.0, None))
        half = self.length / 2
        overlap = np.clip(np.minimum(along + chord, half) - np.maximum(along - chord, -half), 0.0, None)
        return np.clip((overlap / max(self.length, 1e-6)).sum(axis=1), 0.0, 1.0)


def face_smear(pips: Sequence[Pip], grey: np.ndarray) -> Smear | None:
    """The smear the face's ``pips`` share, or None when they show none (round pips, pips
    oval in different directions, or ovals with sharp rims all round: foreshortening), or
    when a track reaches further than its oval (pips run together along it: what was seen
    are the darkest parts of longer streaks, and the smear cannot be told)."""
    if len(pips) < 2 or any(p.roundness > MAX_SMEARED_ROUNDNESS for p in pips):
        return None
    doubled = sum(complex(math.cos(2 * p.angle), math.sin(2 * p.angle)) for p in pips)
    track = math.atan2(doubled.imag, doubled.real) / 2
    if any(_turn(p.angle, track) > MAX_TRACK_TURN for p in pips):
        return None
    centres = np.array([(p.x, p.y) for p in pips])
    rims = [_along_track(p, grey, track, centres) for p in pips]
    if not all(clear for *_, clear in rims) or median(a for a, _, _ in rims) < MIN_RIM_RATIO * median(
            c for _, c, _ in rims):
        return None
    # a disc of the pip's true radius, dragged along the track, becomes the oval seen
    width = median(p.radius * math.sqrt(p.roundness) for p in pips)
    length = median(p.radius / math.sqrt(p.roundness) for p in pips)
    return Smear(np.array([math.cos(track), math.sin(track)]), 2 * (length - width), width)


def smeared(pip: Pip, grey: np.ndarray) -> bool:
    """Whether one pip looks smeared by motion: oval, its rim soft along its long axis and
    sharp across it."""
    if pip.roundness > MAX_SMEARED_ROUNDNESS:
        return False
    along, across, _ = _along_track(pip, grey, pip.angle, np.array([(pip.x, pip.y)]))
    return along >= MIN_RIM_RATIO * across


def _along_track(pip: Pip, grey: np.ndarray, track: float, centres: np.ndarray) -> tuple[float, float, bool]:
    """The pip's rim width along ``track`` and across it, and whether the face's body shows
    at both ends of its track (an end on another of the face's pips, ``centres``, is that
    pip's ink and says nothing)."""
    half_width = pip.radius * math.sqrt(pip.roundness)
    reach = pip.radius / math.sqrt(pip.roundness) + TRACK_END * half_width
    profile = _profile(grey, pip, track, reach)
    across = _profile(grey, pip, track + math.pi / 2, 2 * half_width + 2)
    direction = np.array([math.cos(track), math.sin(track)])
    ends = np.array([pip.x, pip.y]) + np.outer([-1, 1], direction) * (len(profile) // 2) * PROFILE_STEP
    free = np.hypot(*(ends[:, None, :] - centres[None]).transpose(2, 0, 1)).min(axis=1) > TRACK_END * half_width
    levels = (profile[[0, -1]] - pip.level) / (pip.ring - pip.level)
    return (_rim_width(profile, pip.contrast), _rim_width(across, pip.contrast),
            not (levels[free] < MIN_TRACK_END).any())


def _turn(a: float, b: float) -> float:
    """The angle between two undirected axes."""
    turn = abs(a - b) % math.pi
    return min(turn, math.pi - turn)


def _profile(grey: np.ndarray, pip: Pip, angle: float, reach: float) -> np.ndarray:
    """Grey levels along ``angle`` through the pip's centre, every ``PROFILE_STEP`` pixels
    out to ``reach`` (rounded up to a whole step) either way."""
    steps = math.ceil(reach / PROFILE_STEP)
    t = np.arange(-steps, steps + 1, dtype=np.float32) * PROFILE_STEP
    xs = (pip.x + t * math.cos(angle)).astype(np.float32)[None]
    ys = (pip.y + t * math.sin(angle)).astype(np.float32)[None]
    return cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0].astype(np.float32)


def _rim_width(profile: np.ndarray, contrast: float) -> float:
    """How wide a pip's rim is along a profile through its centre: its contrast over the
    steepest grey-level step, averaged over the two ends."""
    slopes = np.abs(np.diff(profile)) / PROFILE_STEP
    middle = len(slopes) // 2
    steepest = (max(float(slopes[:middle].max()), 1e-3) + max(float(slopes[middle:].max()), 1e-3)) / 2
    return contrast / steepest
