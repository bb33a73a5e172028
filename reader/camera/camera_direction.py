"""Which way each die shows its side faces: the image direction from its top face towards
the camera, as the frame's dice vote it.

The side faces a camera sees of a die lie between its top face and the image of the point
on the table below the camera (where the dice's upright edges meet, drawn on). A webcam
in front of the table, looking down and away, has that point far below the frame: every
die shows its side faces nearly image-down, one direction for the whole frame. A camera
looking straight down has it in the frame, and the dice round it show their side faces
towards it, each its own way; a wide, oblique view lies between (a die off to the right
shows its front faces turned left of image-down).

Two things show it. A face seen beside a top face as its side face votes the step between
them (the sum of the votes, with image-down's prior, gives one direction for the frame,
as webcams in front of the table mostly need); but votes pair faces every which way, and
a die turned 45 degrees shows a left and a right face, one shaded, which outvote the
front face. And a top face foreshortened by the camera has its short axis on the line to
that point (a front face's too, nearly), which a die's left or right face's is not: the
top faces' axes agree on one point, the others' scatter. A point, or another direction,
takes the voted direction's place only where the faces agree with it clearly better (by
a face's worth): on a wide view from 40 degrees, dice off the frame's middle show their
front faces some 25 degrees from image-down, and the votes had turned the one direction
45 degrees the other way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: A foreshortened face counts as this many votes where its short axis runs along the
#: direction at it (a die's top face shows it plainly; votes pair faces every which way,
#: a die's left and right faces among them) ...
FACE_VOTES = 10.0
#: ... and as the cosine to this power (a power of two) where it runs elsewhere (a few
#: degrees off counts nearly whole, a side face's axis some 30 degrees off hardly at all:
#: the top faces' axes, which agree, outweigh the side faces', which scatter).
AXIS_POWER = 16
#: A point below the camera is looked for only where at least this many faces show their
#: foreshortening: fewer agree with some point or other whatever it is.
MIN_FACES = 3
#: The fields tried: directions, and points in those directions from the faces' middle at
#: these distances in units of the faces' spread round it (0: a direction, far outside
#: them; among them, a camera looking straight down) ...
COARSE_ANGLE = 10.0
COARSE_DISTANCES = np.array([0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0, 5.6, 8.0, 11.0, 16.0])
#: ... then the best of them tried again finer, within a coarse step round it.
FINE_ANGLE = 1.0
FINE_DISTANCES = 2.0 ** np.linspace(-0.5, 0.5, 9)


@dataclass(frozen=True)
class TowardsCamera:
    """The image direction from a top face towards its side faces: ``direction`` everywhere,
    or, given ``point`` (the image of the point below the camera), towards it."""

    direction: tuple[float, float] = (0.0, 1.0)
    point: tuple[float, float] | None = None

    def at(self, where: np.ndarray) -> np.ndarray:
        """The unit direction at one image point."""
        return self.at_points(np.asarray(where, float).reshape(1, 2))[0]

    def at_points(self, points: np.ndarray) -> np.ndarray:
        """The unit direction at each of the image points (N x 2); ``direction`` right at
        ``point``, where no side face shows."""
        points = np.asarray(points, float).reshape(-1, 2)
        out = np.tile(np.array(self.direction), (len(points), 1))
        if self.point is not None:
            step = np.array(self.point) - points
            norm = np.hypot(step[:, 0], step[:, 1])
            away = norm > 1e-9
            out[away] = step[away] / norm[away, None]
        return out


def vote_towards_camera(points: np.ndarray, steps: np.ndarray, weights: np.ndarray, prior: float,
                        faces: np.ndarray, short_axes: np.ndarray) -> TowardsCamera:
    """The directions voted by ``steps`` (unit image steps, N x 2, from a top face at
    ``points`` to a face seen as its side face) with ``weights`` (image-down holds
    ``prior`` votes), and by the foreshortened ``faces`` (centres, M x 2) along their
    ``short_axes`` (unit, M x 2, either way)."""
    points, steps, faces, short_axes = (np.asarray(a, float).reshape(-1, 2) for a in (points, steps, faces, short_axes))
    weights = np.asarray(weights, float).ravel()
    votes = np.array([0.0, prior]) + weights @ steps
    norm = float(np.hypot(*votes))
    voted = TowardsCamera((float(votes[0] / norm), float(votes[1] / norm)) if norm > 0 else (0.0, 1.0))
    if len(faces) < MIN_FACES:
        return voted
    # (a top face's votes add up: each such face counts once, with their sum)
    tops, which = np.unique(points, axis=0, return_inverse=True)
    summed = np.zeros_like(tops)
    np.add.at(summed, which.ravel(), weights[:, None] * steps)
    evidence = _Evidence(tops, summed, prior, faces, short_axes)
    middle = faces.mean(axis=0)
    spread = max(math.sqrt(float(((faces - middle) ** 2).sum(axis=1).mean())), 1.0)

    def best(angles: np.ndarray, distances: np.ndarray) -> tuple[float, float, float]:
        """Of the directions ``angles`` (radians; ``distances`` 0) and the points
        ``distances`` spreads from the faces' middle that way, the one the evidence agrees
        with most: its score, angle and distance."""
        angle, distance = (g.ravel() for g in np.meshgrid(angles, distances))
        way = np.stack([np.cos(angle), np.sin(angle)], -1)
        score = evidence.agreement(way, middle + spread * distance[:, None] * way, distance > 0, middle)
        top = int(np.argmax(score))
        return float(score[top]), float(angle[top]), float(distance[top])

    score, angle, distance = best(np.radians(np.arange(0.0, 360.0, COARSE_ANGLE)), COARSE_DISTANCES)
    fine = np.radians(np.arange(-COARSE_ANGLE, COARSE_ANGLE + 0.1, FINE_ANGLE)) + angle
    score, angle, distance = best(fine, distance * FINE_DISTANCES if distance else np.zeros(1))
    down = np.array([voted.direction])
    if score <= evidence.agreement(down, down, np.zeros(1, bool), middle)[0] + FACE_VOTES:
        return voted
    way = np.array([math.cos(angle), math.sin(angle)])
    if not distance:
        return TowardsCamera((float(way[0]), float(way[1])))
    x, y = middle + spread * distance * way
    return TowardsCamera(voted.direction, (float(x), float(y)))


@dataclass(frozen=True)
class _Evidence:
    """What the frame's faces show of the direction (see :func:`vote_towards_camera`)."""

    tops: np.ndarray    # the top faces voted at
    votes: np.ndarray   # the weighted sum of each one's votes
    prior: float
    faces: np.ndarray
    short_axes: np.ndarray

    def agreement(self, way: np.ndarray, point: np.ndarray, finite: np.ndarray, middle: np.ndarray) -> np.ndarray:
        """How well the votes, the prior (at ``middle``) and the faces agree with each of
        C fields: the direction ``way`` (C x 2) where not ``finite``, else towards ``point``
        (all at once: a frame tries a thousand)."""
        where = np.concatenate([self.faces, self.tops, middle[None]])
        step = point[:, None, :] - where[None, :, :]
        at = step / np.maximum(np.sqrt((step * step).sum(axis=-1)), 1e-9)[..., None]
        at[~finite] = way[~finite, None, :]
        faces, tops = len(self.faces), len(self.tops)
        along_axes = (at[:, :faces] * self.short_axes).sum(axis=-1)
        for _ in range(AXIS_POWER.bit_length() - 1):  # (squared over and over: the power is 2 ** k)
            along_axes *= along_axes
        return (FACE_VOTES * along_axes.sum(axis=1) + (at[:, faces:faces + tops] * self.votes).sum(axis=(1, 2))
                + self.prior * at[:, -1, 1])
