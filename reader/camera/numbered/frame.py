"""Read every numbered die in one frame against the taught face models.

The functions :func:`read_d4` ... :func:`read_d20` have the camera source's frame-reader
signature ``(image_bgr, namer) -> list[DieReading]`` and read the dice a request of that many
sides can be answered with (a d10 request is answered by plain d10s and by d00 tens dice, whose
``00``..``90`` read 10, 1..9). Each die found on the play area is matched against the models
of the allowed kinds whose taught size and elongation fit and whose kind shows the die's
outline (:mod:`~reader.camera.numbered.shape`: a d10's kite, a d20's hexagon, a d4's triangle
or bar). A die whose outline clearly belongs to none of the allowed kinds is reported
unreadable ("shape looks like a d4 (bar), expected d20") rather than forced into one of them;
a die no face clearly matches is reported unreadable with the reason ("ambiguous", "unknown
face"), never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

import cv2
import numpy as np

from calibration.faces import FaceModel, faces_dir, load_face_models
from calibration.store import CalibrationError
from reader.camera.frame_reader import ColourNamer, table_reference
from reader.camera.numbered import topface
from reader.camera.numbered.finder import DieBlob, find_dice
from reader.camera.numbered.kinds import SIDES, label, value_of
from reader.camera.numbered.model import Match, match
from reader.camera.numbered.shape import ShapeVerdict, classify
from reader.camera.reading import DieCandidate, DieReading, ReadStatus

#: A die may look this much larger or smaller than when it was taught (camera height, zoom).
SIZE_RANGE = (0.5, 2.0)
#: ... and this much more or less elongated (perspective away from the middle of the view).
SHAPE_RANGE = (1 / 1.2, 1.2)


def kinds_for(sides: int) -> set[str]:
    """The die kinds that answer a request for a ``sides``-sided die."""
    return {kind for kind, s in SIDES.items() if s == sides}


def candidate(blob: DieBlob, shape: tuple[int, ...], ink: np.ndarray | None = None) -> DieCandidate:
    """The camera's :class:`DieCandidate` for a blob (its body mask leaves the printed marks out)."""
    h, w = shape[:2]
    x, y, bw, bh = cv2.boundingRect(blob.contour)
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + bw), min(h, y + bh)
    mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    inner = (blob.contour - (blob.x, blob.y)) * 0.8 + (blob.x - x0, blob.y - y0)
    cv2.drawContours(mask, [np.round(inner).astype(np.int32)], -1, 255, thickness=-1)
    if ink is not None:  # drop the numbers: the body colour is what names the die
        marks = cv2.resize((ink > 0.5).astype(np.uint8), (2 * round(topface.SPAN * blob.radius),) * 2,
                           interpolation=cv2.INTER_NEAREST)
        ox, oy = round(blob.x - topface.SPAN * blob.radius) - x0, round(blob.y - topface.SPAN * blob.radius) - y0
        ys, xs = np.nonzero(marks)
        keep = (ys + oy >= 0) & (ys + oy < mask.shape[0]) & (xs + ox >= 0) & (xs + ox < mask.shape[1])
        mask[ys[keep] + oy, xs[keep] + ox] = 0
    quad = cv2.boxPoints(cv2.minAreaRect(blob.contour)).astype(np.float32)
    return DieCandidate((x0, y0, x1, y1), (blob.x, blob.y), quad, blob.contour.astype(np.int32), mask)


def _fits(model: FaceModel, blob: DieBlob, outline: ShapeVerdict) -> bool:
    """Whether ``blob`` has the size, elongation and outline of the dice ``model`` was taught on."""
    if outline.rules_out(model.kind):
        return False
    if model.radius > 0 and not SIZE_RANGE[0] <= blob.radius / model.radius <= SIZE_RANGE[1]:
        return False
    return model.elongation <= 0 or SHAPE_RANGE[0] <= blob.elongation / model.elongation <= SHAPE_RANGE[1]


def read_numbered(image_bgr: np.ndarray, namer: ColourNamer | None = None, kinds: Iterable[str] | None = None,
                  models: list[FaceModel] | None = None) -> list[DieReading]:
    """Every numbered die on the play area of ``image_bgr``, read or marked unreadable.

    ``kinds`` limits the die kinds considered (what the request asked for); ``models`` defaults
    to the stored face models.
    """
    wanted = set(kinds) if kinds is not None else None
    if models is None:
        models = load_face_models(wanted, topface.ink_length())
    elif wanted is not None:
        models = [m for m in models if m.kind in wanted]
    blobs = find_dice(image_bgr)
    readings: list[DieReading] = []
    table = None
    for blob in blobs:
        ink = topface.ink_patch(image_bgr, blob)
        outline = classify(blob.contour, blob.elongation)
        fitting = [m for m in models if _fits(m, blob, outline)]
        verdict = match(ink, fitting)
        cand = candidate(blob, image_bgr.shape, ink)
        if namer is not None and table is None:
            table = table_reference(image_bgr, [candidate(b, image_bgr.shape) for b in blobs])
        colour = namer(image_bgr, cand, table)[0] if namer is not None else "unknown"
        kind = verdict.model.kind if verdict.model is not None else _likely_kind(verdict, fitting)
        sides = SIDES[kind] if kind else 0
        if verdict.model is not None and verdict.shown is not None:
            readings.append(DieReading(value_of(kind, verdict.shown), sides, colour, cand.center, cand.box,
                                       verdict.score, ReadStatus.OK, None, outline.shape.value))
        else:
            reason = _shape_reason(outline, models) if not fitting else None
            reason = reason or verdict.reason or "unreadable"
            if verdict.best is not None and verdict.runner_up is not None and reason == "ambiguous":
                reason = (f"ambiguous: {label(*verdict.best)} or {label(*verdict.runner_up)}")
            readings.append(DieReading(None, sides, colour, cand.center, cand.box, verdict.score,
                                       ReadStatus.UNREADABLE, reason, outline.shape.value))
    return readings


def _shape_reason(outline: ShapeVerdict, models: list[FaceModel]) -> str | None:
    """Why a die fits no model, when its outline is clearly none of the allowed kinds'."""
    kinds = sorted({m.kind for m in models}, key=list(SIDES).index)
    if not kinds or not all(outline.rules_out(k) for k in kinds):
        return None
    return f"shape looks like {outline.describe()}, expected {' or '.join(kinds)}"


def _likely_kind(verdict: Match, models: list[FaceModel]) -> str | None:
    """The kind of an unread die: the best match's kind, or the only kind on offer."""
    if verdict.best is not None:
        return verdict.best[0]
    kinds = {m.kind for m in models}
    return kinds.pop() if len(kinds) == 1 else None


def read_sides(image_bgr: np.ndarray, namer: ColourNamer | None = None, *, sides: int) -> list[DieReading]:
    """Every die of a kind that answers a ``sides``-sided request (stored models must exist)."""
    kinds = kinds_for(sides)
    models = stored_models(frozenset(kinds))
    if not models:
        raise CalibrationError(f"no face model for a d{sides} yet; teach your dice with "
                               f"'dicetable calibrate faces --die d{sides}'")
    return read_numbered(image_bgr, namer, kinds, models)


def stored_models(kinds: frozenset[str]) -> list[FaceModel]:
    """The stored models of ``kinds``, reloaded only when the files change (read once per frame)."""
    folder = faces_dir()
    stamp = tuple((p.name, p.stat().st_mtime_ns) for p in sorted(folder.glob("*"))) if folder.is_dir() else ()
    key = (str(folder), stamp, kinds)
    if _CACHE.get("key") != key:
        _CACHE["key"] = key
        _CACHE["models"] = load_face_models(set(kinds), topface.ink_length())
    return list(_CACHE["models"])


_CACHE: dict[str, object] = {}


read_d4 = partial(read_sides, sides=4)
read_d8 = partial(read_sides, sides=8)
read_d10 = partial(read_sides, sides=10)
read_d12 = partial(read_sides, sides=12)
read_d20 = partial(read_sides, sides=20)
