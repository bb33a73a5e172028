"""A taught face model: what each face of one dice set looks like, and how a view is matched.

A model holds, for one die kind (and optionally one colour), the ink patches of the taught
views of each face (see :mod:`reader.camera.numbered.topface`), the die's typical size and
shape. What all faces share (facet edges, outline) is estimated once per model and left out
of every comparison, so the printed number decides. Matching turns the unknown view through every angle, scores it against every
taught view, refines the best few matches over small shifts, and accepts the best face only
when it clearly beats the best *different* face: close calls are "ambiguous", weak ones
"unknown" - never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.faces import FaceModel
from reader.camera.numbered import topface
from reader.camera.numbered.kinds import SIDES, value_of

#: A face is accepted only with at least this (refined) correlation with a taught view ...
MIN_SCORE = 0.55
#: ... and this lead over the best different face.
MIN_MARGIN = 0.08
#: How many of the best rotation matches are refined over shifts.
REFINE = 4


@dataclass(frozen=True)
class Match:
    """The verdict on one view: the face (or ``None``) and the evidence."""

    model: FaceModel | None
    shown: int | None
    score: float
    margin: float
    reason: str | None = None
    best: tuple[str, int] | None = None  # (kind, shown) of the best face, accepted or not
    runner_up: tuple[str, int] | None = None  # the best face worth something else


def match(ink: np.ndarray, models: list[FaceModel]) -> Match:
    """The face of ``models`` that ``ink`` shows, or a :class:`Match` with a reason why not."""
    if not models:
        return Match(None, None, 0.0, 0.0, "no face model")
    rotated = topface.rotated_vectors(ink)
    energy = (rotated * rotated).sum(axis=1)[:, None]
    # Stage 1: the best angle and view of every face of every model, on coarse patches.
    coarse: dict[tuple[int, int], tuple[float, int, float]] = {}  # (model, shown) -> (score, view, angle)
    for mi, model in enumerate(models):
        scores = templates(model).coarse.scores(rotated, energy)  # (angles, views)
        best_angle = scores.argmax(axis=0)
        for vi, ai in enumerate(best_angle):
            key = (mi, int(model.shown[vi]))
            score = float(scores[ai, vi])
            if score > coarse.get(key, (-2.0, 0, 0.0))[0]:
                coarse[key] = (score, vi, float(topface.ANGLES[ai]))
    # Stage 2: the few best faces again, allowing for a pixel or two of centring error.
    best_keys = sorted(coarse, key=lambda k: -coarse[k][0])[:REFINE]
    refined = {key: _refine(ink, templates(models[key[0]]).fine, coarse[key][1], coarse[key][2]) for key in best_keys}
    ranked = sorted(refined.items(), key=lambda kv: -kv[1])
    (mi, shown), score = ranked[0]
    # The runner-up is the best face that would be read as something else (two taught sets
    # of one kind showing the same number agree; they do not compete).
    worth = _worth(models[mi].kind, shown)
    others = [(key, s) for key, s in ranked[1:] if _worth(models[key[0]].kind, key[1]) != worth]
    second = others[0][1] if others else -1.0
    runner_up = (models[others[0][0][0]].kind, others[0][0][1]) if others else None
    margin = score - second
    best = (models[mi].kind, shown)
    if score < MIN_SCORE:
        return Match(None, None, score, margin, "unknown face", best, runner_up)
    if margin < MIN_MARGIN:
        return Match(None, None, score, margin, "ambiguous", best, runner_up)
    return Match(models[mi], shown, score, margin, None, best, runner_up)


def _worth(kind: str, shown: int) -> tuple[int, int]:
    """What a face would be read as: sides and value."""
    return SIDES[kind], value_of(kind, shown)


@dataclass(frozen=True)
class Bank:
    """A model's views at one level: what is particular to each face, and what all faces share.

    ``particular`` rows are unit descriptors of (view - common part); ``common`` rows are the
    common part's descriptor in each view's frame. Comparing residuals keeps the facet edges
    and outline every face of a die shows from drowning the printed number.
    """

    particular: np.ndarray  # (N, D) unit rows
    common: np.ndarray  # (N, D)

    def scores(self, queries: np.ndarray, energy: np.ndarray) -> np.ndarray:
        """Correlations of (query - common) with each particular row: (queries, views)."""
        along = queries @ self.particular.T - (self.common * self.particular).sum(axis=1)[None, :]
        rest = energy - 2 * queries @ self.common.T + (self.common * self.common).sum(axis=1)[None, :]
        return along / np.sqrt(np.maximum(rest, 1e-9))


@dataclass(frozen=True)
class Templates:
    """A model's banks for the rotation search (coarse) and the refinement (fine)."""

    coarse: Bank
    fine: Bank


def templates(model: FaceModel) -> Templates:
    """The model's banks, computed once per loaded model."""
    key = id(model.inks)
    cached = _TEMPLATES.get(key)
    if cached is None or cached[0] is not model.inks:
        if len(_TEMPLATES) > 64:  # models reloaded many times in a long session
            _TEMPLATES.clear()
        cached = (model.inks, _build(model))
        _TEMPLATES[key] = cached
    return cached[1]


_TEMPLATES: dict[int, tuple[np.ndarray, Templates]] = {}

#: Below this many different faces the common part is not estimated (it would be the faces themselves).
MIN_FACES_FOR_COMMON = 3


def _build(model: FaceModel) -> Templates:
    inks = [i.reshape(topface.PATCH, topface.PATCH) for i in np.asarray(model.inks, np.float32)]
    if len(set(int(s) for s in model.shown)) >= MIN_FACES_FOR_COMMON:
        # Turn every view onto the first one (the shared facets and outline line them up),
        # average, and turn the average back into each view's frame.
        first = topface.COARSE.normalise(topface.COARSE.shrink(inks[:1]))[0]
        angles = [float(topface.ANGLES[int(np.argmax(topface.rotated_vectors(i) @ first))]) for i in inks]
        mean = np.mean([topface.turned(i, a, 0) for i, a in zip(inks, angles)], axis=0)
        common = [topface.turned(mean, -a, 0) for a in angles]
    else:
        common = [np.zeros_like(i) for i in inks]
    residual = [i - c for i, c in zip(inks, common)]
    return Templates(*(Bank(level.normalise(level.shrink(residual)), level.describe(level.shrink(common)))
                       for level in (topface.COARSE, topface.FINE)))


def _refine(ink: np.ndarray, bank: Bank, view: int, angle: float) -> float:
    """Best correlation of ``ink`` with one taught view around ``angle`` over small shifts."""
    half = topface.ANGLE_STEP / 2
    return max(topface.shifted_scores(topface.turned(ink, angle + da), bank.particular[view], bank.common[view])
               for da in (-half, 0.0, half))
