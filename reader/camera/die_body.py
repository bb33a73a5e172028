"""Evidence of a die's body around pips: a surface of one level, die-sized, centred on them.

A 1 is a lone pip at the centre of its face, so the face's body reaches as far from the
pip one way as the opposite way, in the face's own units (which undo the camera's
foreshortening). A lone light or dark mark elsewhere - a key's symbol near the edge of its
keycap, print on a label - stands on a surface that ends sooner on one side than on the
other. Where the table looks like the body, the body's edge is not seen on that side, and
that direction tells nothing. Pips that form no face count as a die only on a body whose
edge is seen close round them (not print on a laptop's lid).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from reader.camera.body_colour import BodyColours, colours_apart, ring_directions
from reader.camera.dice_finder import SIDE_DIRECTION_COS, STEEP_VIEW
from reader.camera.pips import Pip

#: Rays from the pip, in face units (pip half-lengths), start this far out (past the rim,
#: even of a motion-smeared pip; the face edge of a die with a big 1 is about 2 out) ...
RAY_START = 2.0
#: ... and look this far for the body's edge (a d6 face is 5 to 7 pip diameters across).
RAY_REACH = 14.0
#: A ray from a lone pip that leaves the body within this far past its start (face units)
#: most likely met the pip's halo or a highlight beside it: it tells nothing of where the
#: face ends (on a die with a big 1 it may be the edge; then it tells nothing either).
NEAR_END = 0.5
#: Seen obliquely, a ray from a 1 towards the camera may run on over its die's front face,
#: as light as its top where the light is even: a pair of rays whose farther end lies that
#: way says nothing of centring if the nearer end, away from the camera, lies at least this
#: share of the die's half-side out. A 2's or 4's pip lies about half that from its face's
#: edge and is still asked.
FRONT_NEAR_SHARE = 0.8
#: A highlight on a glossy face is lighter than the body round the pip and fades into it:
#: a ray from a 1 that gets lighter than the body without a step (by less than the edge's
#: threshold over the last ``HIGHLIGHT_ONSET`` face units, or from its start), stays so
#: for at least that long and comes back to the body's level within ``HIGHLIGHT_SPAN``
#: face units is still on the face. A die's edge is a step (a seam between touching dice
#: too), and past it the table or a neighbour seldom returns to the body's level so soon;
#: the strokes of a key's symbol round a mark like a pip are narrow.
HIGHLIGHT_ONSET, HIGHLIGHT_SPAN = 1.0, 5.0
#: Directions looked along (in opposite pairs).
RAY_COUNT = 16
#: The body ends where the grey level leaves the body's by this share of the pip contrast,
#: but at least ``MIN_EDGE_STEP`` levels (sensor noise), for two samples in a row.
EDGE_SHARE, MIN_EDGE_STEP = 0.25, 12.0
#: Where the body's edge is seen both ways, the nearer edge is at least this share of the
#: farther: the pip sits at the face's centre.
MIN_CENTRING = 0.45
#: ... except in one direction, where a speck or a highlight's edge may cut the ray short,
#: if the edge is seen both ways in at least ``MIN_EVEN_PAIRS`` other directions and lies
#: in each at least ``EVEN_CENTRING`` as far one way as the other (a pip off its face's
#: centre, a 2's printed small, lies off it in most directions) ...
MIN_EVEN_PAIRS, EVEN_CENTRING = 5, 0.8
#: ... or, round a lone pip, in neighbouring directions whose farther ends lie at most this
#: many rays apart (45 degrees): rays that cross into a touching die of the body's grey
#: where the seam between them is unseen run on to its far edge, a narrow fan of them
#: (rendered 1s beside another die of their colour: two pairs, 22.5 and 45 degrees apart).
#: A pip off its face's centre by enough to put one pair off has the pairs 45 degrees
#: either side of it uneven too. (Pips that form no face are reported as a die on their
#: body's centring alone: for them one direction stays the most excused.)
TOUCHING_SPAN = 2
#: A body with pips that form no face is die-sized: its edge is seen, within ``RAY_REACH``
#: of its centre, in at least this share of directions.
MIN_EDGE_SEEN = 0.75

_DIRECTIONS = ring_directions(RAY_COUNT)


def centred_on_body(pip: Pip, squash: np.ndarray, grey: np.ndarray, others: Sequence[Pip] = (),
                    colours: BodyColours | None = None, reach: float | None = None,
                    front: tuple[np.ndarray, float] | None = None, smooth: bool = False) -> bool:
    """Whether the lone ``pip`` sits at the centre of a body of its surroundings' level.

    ``squash`` is the face's foreshortening (the 2x2 map from the face seen square-on to
    the image, as the pip's shape shows it). Rays pass over the ``others`` (pip
    candidates) of the pip's polarity: another pip is no edge of the body, and a pip with
    a partner further along its face is a 2's, not a 1. Where ``colours`` (the frame in
    colour) is given, the body also ends where its colour does (a red die against a purple
    one of the same grey).

    Rays look ``RAY_REACH`` face units out, and an edge seen one way only says nothing.
    Given the ``reach`` (face units) within which the die's edge must lie all round, an edge
    unseen that far counts as lying there: a pip near one edge of a die bigger than
    ``RAY_REACH`` (a 2's pip, printed small) is off its centre.

    Given ``front``, the image direction towards the camera and the die's half-side (face
    units, as its neighbours' size tells), a pair of rays whose farther end lies that way
    (within ``SIDE_DIRECTION_COS``), or image-down where the pip is foreshortened (below
    ``STEEP_VIEW``), may say nothing (see ``FRONT_NEAR_SHARE``): a white die on a darker
    table, evenly lit, ends its rays away from the camera at its top face's edge, and those
    towards it at its front face's.

    ``smooth``: the body round the pip shows little grain (a die's face, not wood or cloth),
    so a ray may be told to run into shading from its very start (see :func:`_shading`).
    """
    ends, soft, crossed = _edges_round(pip, squash, grey, others, colours, RAY_REACH if reach is None else reach,
                                       past_highlights=True, smooth=smooth)
    seen = np.isfinite(ends)
    if reach is not None:
        ends = np.minimum(ends, reach)
    # (a face so small all round is centred whatever it says)
    ends = _past_rim(ends)
    if front is None:
        return _centred(ends, soft=soft, fan=TOUCHING_SPAN, seen=seen, crossed=crossed)
    towards_camera, die_half = front
    rays = _DIRECTIONS @ np.asarray(squash, float).T
    # (or image-down, as for a webcam in front of the table, where the pip is foreshortened
    # as a face seen obliquely is: the direction the frame's faces vote is often one for the
    # whole frame, and a die off its middle shows its front face turned from it)
    along = rays @ towards_camera
    if pip.roundness < STEEP_VIEW:
        along = np.maximum(along, rays[:, 1])
    frontwards = along >= SIDE_DIRECTION_COS * np.hypot(rays[:, 0], rays[:, 1])
    half = RAY_COUNT // 2
    far_frontwards = np.where(ends[:half] >= ends[half:], frontwards[:half], frontwards[half:])
    inner = np.minimum(ends[:half], ends[half:]) >= FRONT_NEAR_SHARE * die_half
    return _centred(ends, far_frontwards & inner, soft, TOUCHING_SPAN, seen, crossed)


def face_half(pip: Pip, squash: np.ndarray, grey: np.ndarray, others: Sequence[Pip] = ()) -> float:
    """How far (in face units: pip half-lengths) the body round the lone ``pip`` reaches
    from it to its edge, along the face's axes as near as the rays tell (the nearer
    quarter of the rays whose edge is seen; inf if fewer than half see one). Rays pass
    over the ``others`` (pip candidates) of the pip's polarity, as pips of the face."""
    ends = _past_rim(_edges_round(pip, squash, grey, others).ends)
    seen = np.sort(ends[np.isfinite(ends)])
    return float(seen[len(seen) // 4]) if 2 * len(seen) >= RAY_COUNT else math.inf


def edged_share(pip: Pip, squash: np.ndarray, grey: np.ndarray) -> float:
    """The share of directions in which the body round the lone ``pip`` is seen to end
    within ``RAY_REACH`` (a die's edge, where the table begins; none on a bare table)."""
    return float(np.mean(np.isfinite(_edges_round(pip, squash, grey).ends)))


def compact_body(pips: Sequence[Pip], squash: np.ndarray, grey: np.ndarray) -> bool:
    """Whether pips that form no face lie on a die-sized body centred on them: its edge
    (where the table differs from the body) is seen close round them in most directions.

    Print and symbols on a large surface (a laptop's lid, a label) are not a die.
    """
    points = np.array([(p.x, p.y) for p in pips])
    centre = points.mean(axis=0)
    pip = max(pips, key=lambda p: p.contrast)
    length = pip.radius / np.sqrt(pip.roundness)
    # start past the outermost pip, in face units
    flat = (points - centre) @ np.linalg.inv(np.asarray(squash, float)).T / length
    start = float(np.hypot(flat[:, 0], flat[:, 1]).max()) + RAY_START
    ends = _body_edges(centre, start, pip, squash, grey).ends
    return float(np.mean(np.isfinite(ends))) >= MIN_EDGE_SEEN and _centred(ends)


class _Ends(NamedTuple):
    """How far the body reaches along each ray (see :func:`_body_edges`), which of the rays
    left it into the face's shading (see :func:`_shading`), and which ran over a pip they
    pass over on their way."""

    ends: np.ndarray
    soft: np.ndarray
    crossed: np.ndarray


def _edges_round(pip: Pip, squash: np.ndarray, grey: np.ndarray, others: Sequence[Pip] = (),
                 colours: BodyColours | None = None, reach: float = RAY_REACH,
                 past_highlights: bool = False, smooth: bool = False) -> _Ends:
    """:func:`_body_edges` round a lone ``pip``, from ``RAY_START`` out, the rays passing
    over the ``others`` (pip candidates) of its polarity."""
    return _body_edges(np.array([pip.x, pip.y]), RAY_START, pip, squash, grey,
                       [p for p in others if p is not pip and p.dark == pip.dark], colours, reach, past_highlights,
                       smooth)


def _past_rim(ends: np.ndarray) -> np.ndarray:
    """Ray ends (see :func:`_edges_round`) with those that leave the body at once made
    inf: such a ray met the pip's own blurred rim or a highlight beside it, not the face's
    edge."""
    return np.where(ends <= RAY_START + NEAR_END, np.inf, ends)


def _centred(ends: np.ndarray, unheeded: np.ndarray | bool = False, soft: np.ndarray | bool = False,
             fan: int = 0, seen: np.ndarray | bool = True, crossed: np.ndarray | bool = False) -> bool:
    """Whether, in every direction where the body's edge is seen both ways, it lies about
    as far one way as the opposite way (in all but one, or those whose farther ends lie
    within ``fan`` rays of each other, where the others are clearly even: see
    ``MIN_EVEN_PAIRS``); ``unheeded`` marks the pairs of opposite rays (indexed by the
    first) that are not asked, though one clearly even counts among the even ones. A pair
    whose nearer ray ran into the face's shading (``soft``, by ray) is never off: a 1 in a
    highlight sees the light fall off smoothly sooner one way than the other, well inside
    its face. Such a pair still counts as even where it is.

    ``seen`` marks the rays whose edge was seen, not set where the die's reach puts it
    unseen: a fan of uneven pairs, a wider excuse than one pair, is excused only where the
    clearly even pairs were seen both ways (two unseen edges set at the reach are even by
    construction: round a glared middle pip of a 3, nearly all of them were), and none of
    the rays that ran on ran over a pip (``crossed``, by ray): a pip there may be the other
    pip of its own face (a 2, or a 4's column where a hand hides the rest of the die: two
    1s were read), and two touching dice's 1s look like a 2."""
    half = RAY_COUNT // 2
    near, far = np.minimum(ends[:half], ends[half:]), np.maximum(ends[:half], ends[half:])
    soft = np.broadcast_to(np.asarray(soft, bool), ends.shape)
    soft_near = np.where(ends[:half] <= ends[half:], soft[:half], soft[half:])
    asked = np.isfinite(far) & ~np.asarray(unheeded, bool)
    off = asked & (near < MIN_CENTRING * far) & ~soft_near
    if not off.any():
        return True
    # (an unheeded pair counts where it is that even: its far end stopped at the top face's
    # edge, not on the front face)
    even = np.isfinite(far) & ~off & (near >= EVEN_CENTRING * far)
    uneven = asked & ~even
    if np.count_nonzero(uneven) == 1:
        return bool(np.count_nonzero(even) >= MIN_EVEN_PAIRS)
    seen = np.broadcast_to(np.asarray(seen, bool), ends.shape)
    even &= seen[:half] & seen[half:]
    far_rays = np.where(ends[:half] >= ends[half:], np.arange(half), np.arange(half) + half)[uneven]
    crossed = np.broadcast_to(np.asarray(crossed, bool), ends.shape)
    return bool(np.count_nonzero(even) >= MIN_EVEN_PAIRS and _fan_width(far_rays) <= fan
                and not crossed[far_rays].any())


def _fan_width(rays: np.ndarray) -> int:
    """How many ray steps the narrowest fan holding all of ``rays`` (indices round the
    ring of ``RAY_COUNT``; at least one) spans from its first ray to its last."""
    ordered = np.sort(rays)
    gaps = np.diff(ordered, append=ordered[0] + RAY_COUNT)
    return int(RAY_COUNT - gaps.max())


def _body_edges(centre: np.ndarray, start: float, pip: Pip, squash: np.ndarray, grey: np.ndarray,
                skip: Sequence[Pip] = (), colours: BodyColours | None = None,
                reach: float = RAY_REACH, past_highlights: bool = False, smooth: bool = False) -> _Ends:
    """How far (in face units: pip half-lengths, foreshortening undone) from ``centre`` the
    body of ``pip``'s surroundings' level reaches in each ray direction, from ``start`` out
    to ``reach`` (inf where it reaches further); rays pass over the pips ``skip`` and, if
    ``past_highlights``, over highlights (see ``HIGHLIGHT_SPAN``), and only then are the
    rays that end in the face's shading told (see :func:`_shading`; not round a pip so
    faint that the step is the noise's floor, ``MIN_EDGE_STEP``: noise crosses it without
    a step)."""
    length = pip.radius / np.sqrt(pip.roundness)
    steps = _DIRECTIONS @ np.asarray(squash, float).T * length        # one face unit, per ray
    pixels_per_unit = np.hypot(steps[:, 0], steps[:, 1])
    # about a sample per pixel along the longest ray
    per_unit = max(float(pixels_per_unit.max()), 1e-6)  # samples per face unit
    units = np.arange(start, max(reach, start + 1), 1.0 / per_unit)
    points = centre + units[None, :, None] * steps[:, None, :]
    h, w = grey.shape
    cols, rows = np.rint(points[..., 0]).astype(int), np.rint(points[..., 1]).astype(int)
    inside = (cols >= 0) & (cols < w) & (rows >= 0) & (rows < h)
    levels = grey[np.clip(rows, 0, h - 1), np.clip(cols, 0, w - 1)].astype(np.float32)
    step = max(MIN_EDGE_STEP, EDGE_SHARE * pip.contrast)
    off = (np.abs(levels - pip.ring) > step) | ~inside
    if colours is not None:
        off |= colours_apart(colours.lab_at(points), colours.lab([pip])[0])
    clear = np.ones(off.shape, bool)
    # (only pips within the rays' reach can cover a sample: a tray's specks are hundreds)
    farthest = float(np.abs(units).max() * pixels_per_unit.max())
    for other in skip:
        keep_off = 1.5 * other.radius + 1
        if np.hypot(other.x - centre[0], other.y - centre[1]) - keep_off < farthest + 1:
            clear &= np.hypot(points[..., 0] - other.x, points[..., 1] - other.y) > keep_off
    off &= clear
    edge = off[:, :-1] & off[:, 1:]
    ends = np.where(edge.any(axis=1), np.argmax(edge, axis=1), -1)
    soft = np.zeros(len(ends), bool)
    if past_highlights:
        onset = max(2, round(HIGHLIGHT_ONSET * per_unit))
        for ray in np.flatnonzero(ends >= 0).tolist():
            ends[ray] = _past_highlight(levels[ray] - pip.ring, off[ray], edge[ray], int(ends[ray]), step, onset,
                                        round(HIGHLIGHT_SPAN * per_unit))
        if EDGE_SHARE * pip.contrast >= MIN_EDGE_STEP:
            soft = np.array([_shading(levels[ray] - pip.ring, int(at), step, onset, smooth)
                             for ray, at in enumerate(ends)], bool)
    run = np.where(ends >= 0, ends, len(units) - 1)
    crossed = (~clear & (np.arange(len(units))[None, :] <= run[:, None])).any(axis=1)
    return _Ends(np.where(ends >= 0, units[np.maximum(ends, 0)], np.inf), soft, crossed)


def _shading(levels: np.ndarray, at: int, step: float, onset: int, smooth: bool = False) -> bool:
    """Whether a ray (``levels`` against the body's) that leaves the body at ``at`` does so
    into the face's shading: darker than the body by more than ``step``, reached with no
    step over ``onset`` samples (``HIGHLIGHT_ONSET``), and staying so, with no step, for
    twice that. A die's edge is a step, or is followed by one soon (the table past a dark
    die's rim); a speck or a pip off the face returns to the body's level. On a 1 in a
    highlight the light may fall off from the ray's very start: on a ``smooth`` body (see
    :func:`centred_on_body`) a ray that leaves the body sooner than ``onset`` samples out is
    reached from its start, and must stay so for as many more samples as it lacks (a speck
    on a grainy table, its rays off at once into the grain's dark streaks, came back within
    them)."""
    end = at + 3 * onset - min(at, onset)
    if at < (1 if smooth else onset) or end > len(levels):
        return False
    after = np.arange(at, end)
    before = np.maximum(after - onset, 0)
    return bool((levels[after] < -step).all() and (np.abs(levels[after] - levels[before]) <= step).all())


def _past_highlight(levels: np.ndarray, off: np.ndarray, edge: np.ndarray, at: int, step: float, onset: int,
                    span: int) -> int:
    """The index of a ray's first edge (``at`` to start with; -1: none) that is no
    highlight: ``levels`` (against the body's), ``off`` the body and ``edge`` (off twice in
    a row) along the ray; a highlight's samples off the body are lighter than it by more
    than ``step``, reached without a step over ``onset`` samples, at least that many, and
    the body shows again within ``span`` samples."""
    while at >= 0:
        if at >= onset and levels[at] - levels[at - onset] > step:
            return at  # reached by a step: an edge
        back = np.flatnonzero(~off[at:at + span + 2])
        # (the body again for two samples in a row)
        again = back[np.flatnonzero(np.diff(back) == 1)] if back.size > 1 else back[:0]
        if not again.size or again[0] < onset:
            return at  # no body again soon enough, or a narrow stroke
        run = slice(at, at + again[0])
        if (off[run] & (levels[run] <= step)).any():
            return at  # off the body otherwise than lighter: no highlight
        rest = np.flatnonzero(edge[at + again[0]:])
        at = at + again[0] + int(rest[0]) if rest.size else -1
    return at
