"""Find dice in a frame: keep, of the pip groups, one face per die - its top face.

A die seen by an oblique camera shows side faces next to its top face, with pips too. Three
things tell them apart: shape (seen from steeply above a side face is much flatter), light
(a light from above leaves side faces shaded, unless a lamp stands low at that side) and
place (side faces lie towards the camera). Faces of one die share pip size, polarity,
light and colour; faces that differ there belong to different dice. Each kept face is a
die candidate, read later against the real d6 layouts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from statistics import median
from typing import NamedTuple

import numpy as np

from reader.camera.body_colour import BodyColours
from reader.camera.camera_direction import TowardsCamera, vote_towards_camera
from reader.camera.colour import medians, shade_distance
from reader.camera.layouts import MOST_PIPS, LayoutFit
from reader.camera.pip_groups import MAX_RADIUS_RATIO, PipGroup

#: Half the side of a d6 face, in units of the pip offset ``a`` (pips sit ~0.22 of the
#: side from the centre, so the edge is about 2.2 a away).
FACE_HALF = 2.2
#: Pip offset to assume for a lone pip (a 1), as a multiple of its half-length (a 1 is
#: often printed larger than the other pips, so this errs small).
SINGLE_SPACING_RADII = 1.5
#: Pip offset over pip half-length of a typical d6, when no face in the frame shows it.
DEFAULT_SPACING_RADII = 2.2
#: A face centred within this many face half-sides of a more face-on face's centre belongs
#: to the same die (a side face seen under perspective, or a fragment). Dice whose pips sit
#: far out on their faces have faces 1.9 pip offsets across (not 2.2): a touching die's
#: centre then lies 1.73 half-sides away.
SIDE_REACH = 1.6
#: A face further out, up to this many half-sides, belongs to the same die when it is
#: clearly more foreshortened (pips less round by this ratio): it is a side face seen under
#: an oblique camera. Dice resting on the table all show their top faces alike.
SIDE_REACH_OBLIQUE, SIDE_ROUNDNESS_RATIO = 2.8, 0.92
#: A side face's pips, seen at a grazing angle, blur into its body and measure shorter than
#: its top face's (0.53-0.60 of their length on rendered dice seen at 29-37 degrees): a face
#: more foreshortened and darker than another may be its side face with pips down to this
#: share of the other's length.
MIN_SIDE_LENGTH_SHARE = 0.5
#: ... or when it lies towards the camera from the rounder face (within this cosine).
SIDE_DIRECTION_COS = 0.7
#: Votes image-down, towards a webcam standing in front of the table, starts with.
PRIOR_VOTES = 3.0
#: Light falls on dice from above: of two faces of one die, one whose body is lit at most
#: this fraction as bright as the other's is a side face, whatever their shapes.
SIDE_SHADE = 0.85
#: A face beside another whose pips are at most this fraction as round is its side face,
#: however brightly lit; seen from steeply above, so is one whose pips show at most
#: ``SIDE_FAINTNESS`` of the other's contrast.
SIDE_FLATNESS, SIDE_FAINTNESS = 0.75, 0.6
#: A face of this many pips or more is too clear a layout for a blob of grain to take it
#: for its side face (see :func:`face_candidates`; grain seldom fits such a face).
CLEAR_FACE_PIPS = 3
#: A top face whose pips are at least this round is seen from steeply above (about 55
#: degrees or more), where its die's front face would show clearly flatter.
STEEP_VIEW = 0.8
#: Two faces whose pips' roundness squared adds up to at least this are both seen from
#: steeply above: of one die's faces at right angles, the squares add up to about 1 at
#: most (small flat pips, blurred, measure rounder than they are: up to about 1.3).
FACES_UP_SQUARES = 1.5
#: A face towards the camera from a top face, lit at most this fraction as bright, is its
#: front face up to this many half-sides out (a camera 25 degrees above the table sees a
#: front face's centre about 3.1 half-sides out in the top face's units).
FRONT_SHADE, FRONT_REACH = 0.93, 3.6
#: Pips at most this round show the direction they are foreshortened in; two faces whose
#: long axes lie within ``ALIGNED_ANGLE`` degrees are foreshortened the same way. A face
#: lies beside another along its long axis (across the view, where a die's left and right
#: faces are seen, not its front face) when the step between them is within
#: ``BESIDE_ANGLE`` degrees of that axis.
ELONGATED, ALIGNED_ANGLE, BESIDE_ANGLE = 0.85, 25.0, 35.0
#: A die's side face turned from the light keeps at least this fraction of the light its
#: top face gets (their bodies' grey levels); darker than ``CLEAR_SHADE`` of it, its pip
#: contrast is darker by the same factor, give or take ``MAX_LIGHT_MISMATCH``.
MIN_SIDE_LIGHT, CLEAR_SHADE, MAX_LIGHT_MISMATCH = 0.4, 0.7, 1.6
#: A face lies beside another (neither in front of it nor behind) within this cosine of
#: square to the direction towards the camera (about 12 degrees), and straight in front of
#: it within this cosine of that direction (about 41 degrees: a die turned 45 degrees shows
#: its two side faces about that far either side, each foreshortened more than its top).
BESIDE_COS, STRAIGHT_AHEAD_COS = 0.2, 0.75
#: A face in front of a top face and as round shows a touching die's body beyond it (see
#: :meth:`_Pairs.die_in_front`) where the colour there lies at most this share as far from
#: its body's as from the table's, and at least this far from the table's (CIELAB; each in
#: shade as far as needed, see :func:`shade_distance`).
BEYOND_BODY_SHARE, MIN_BEYOND_APART = 0.5, 10.0
#: A face centred within this share of its half-side of that point is that die's own front
#: face; any other face whose square holds the point shows a third die there.
OWN_FRONT_REACH = 0.5
#: A pip within this many half-sides of a face's centre (in the face's units) lies on the
#: face's own square: it may be one of the face's own pips, the rest lost in a highlight.
OWN_SQUARE_REACH = 1.0
#: Where that colour is read: steps from the point beyond, along and across the step
#: between the two faces (in its length), round which the median is taken.
_BEYOND_PATCH = np.array([(a, b) for a in (-0.15, 0.0, 0.15) for b in (-0.3, -0.15, 0.0, 0.15, 0.3)])
#: A die's top face shows its pips at least this share as clearly as its front face: a face
#: whose pips stand out less than that (a blob of grain, a speck) does not take a face lying
#: towards the camera from it for its front face.
FAINT_TOP = 0.6


@dataclass
class FaceCandidate:
    """A pip group with what the layout fit made of it (``fit`` None: ``reason`` says why)."""

    group: PipGroup
    fit: LayoutFit | None
    reason: str | None

    @cached_property
    def roundness(self) -> float:
        return median([p.roundness for p in self.group.pips])

    @cached_property
    def pip_length(self) -> float:
        return self.group.pip_length

    @cached_property
    def centre(self) -> np.ndarray:
        return self.group.centre


class TopFaces(NamedTuple):
    """The faces kept as dice' top faces, and the image direction from a top face towards
    the side faces seen with it, wherever the top face lies: towards the camera."""

    faces: list[FaceCandidate]
    towards_camera: TowardsCamera


def face_candidates(groups: list[PipGroup], colours: BodyColours | None = None,
                    faint: Sequence[bool] | None = None) -> TopFaces:
    """Fit every group to the d6 layouts and keep one face per die (its top face);
    ``colours`` (the frame in colour) tells faces on bodies of different hues apart.
    ``faint`` marks the groups whose pips stand out too little to be a die's: they never
    take a face of ``CLEAR_FACE_PIPS`` pips or more for their die's side face."""
    return _drop_side_faces([face_of(g) for g in groups], colours, faint)


def face_of(group: PipGroup) -> FaceCandidate:
    """A group with the d6 face its pips fit (a lone pip: a 1 with the usual pip offset)."""
    return FaceCandidate(group, *group.layout(SINGLE_SPACING_RADII * group.pip_length))


def _axes(face: FaceCandidate, spacing_radii: float) -> np.ndarray:
    """The face's axes: fitted (a lone pip scaled like the frame's other faces), or for pips
    that fit no face, as if the outermost were corners."""
    if face.fit is not None and face.fit.value == 1:
        return face.group.squash * spacing_radii * face.group.pip_length
    if face.fit is not None:
        return face.fit.axes
    spread = float(np.hypot(*(face.group.points - face.centre).T).max()) / np.sqrt(2)
    return np.eye(2) * max(spread, face.group.pip_length)


def _inverse(axes: np.ndarray) -> list[list[float]]:
    """The inverse of a 2x2 matrix (a flat one, which no face's axes are, maps to zero), in
    plain floats: quicker than numpy's calls for so few numbers."""
    (a, b), (c, d) = axes.tolist()
    det = a * d - b * c
    safe = det if abs(det) > 1e-12 else math.inf
    return [[d / safe, -b / safe], [-c / safe, a / safe]]


def _drop_side_faces(faces: list[FaceCandidate], colours: BodyColours | None = None,
                     faint: Sequence[bool] | None = None) -> TopFaces:
    """Keep one face per die: its top face (with the direction towards the camera).

    The top face is the least foreshortened face of a die, so faces are taken roundest
    first; a later candidate whose centre lies within a kept face's die (measured in that
    face's own units, which undoes the camera's foreshortening) is one of that die's side
    faces, or a fragment of it, and is dropped. Two dice standing apart have their centres
    at least a whole face (2 * FACE_HALF) apart. Under a camera about 45 degrees oblique
    the top and front faces are foreshortened alike; the side faces a camera sees lie
    between their top face and the point below the camera, so the direction from top to
    side faces (learnt from the clear cases in the frame, starting from image-down, where a
    webcam in front of the table looks from) tells which of two such faces is on top,
    unless the die's body goes on beyond the face in front, where the table would show past
    a front face (see :meth:`_Pairs.die_in_front`): it is a touching die's top face.

    Light settles what shape leaves open: a later face clearly brighter than the kept faces
    of its die replaces them (they were its shaded sides), unless the shapes make it their
    side face or they lie where no side face of its die is seen (another die's top faces,
    of a darker colour); and a kept face clearly darker than another of its die, close to
    it, is dropped, unless it lies beyond that top face (of two pips or more), away from
    the camera, and is no flatter (the camera sees no side face of that die there), or in
    front of it with a die's body beyond, as above. Light never parts two faces both seen
    from steeply above: a die shows no two faces that round, so they are two dice's tops,
    however differently lit.

    A ``faint`` face (see :func:`face_candidates`) is kept or dropped like any other, but
    does not drop a face of ``CLEAR_FACE_PIPS`` pips or more: on a grainy table a blob of
    grain rounder than a die's top face took it for its side face. (Lone blobs of grain
    still drop one another: the grain that passes for a die is thinned out that way.) Nor
    does it vote for the direction towards the camera: blobs of grain pair up every which
    way, hundreds of them, and outvoted the dice.
    """
    weak = {id(f) for f, flag in zip(faces, faint or ()) if flag}
    order = sorted(faces, key=lambda f: (-round(f.roundness, 2), -len(f.group.pips)))
    faint_at = [id(f) in weak for f in order]
    clear = [len(f.group.pips) >= CLEAR_FACE_PIPS for f in order]
    # a face's long axis is not foreshortened, nor is a pip's: their ratio is the dice's own
    ratios = [f.fit.long_spacing / f.pip_length
              for f in faces if f.fit is not None and f.fit.value > 1]
    pairs = _Pairs(order, median(ratios) if ratios else DEFAULT_SPACING_RADII, np.array(faint_at, bool), colours)
    # (only the faces near enough to be one die's are asked about, in order: a grainy table
    # makes thousands of faces)
    is_kept = [False] * len(order)
    for i in range(len(order)):
        tops = [top for top in pairs.related[i] if is_kept[top] and not (clear[i] and faint_at[top])
                and pairs.within_die(i, top)]
        if tops and not all(pairs.shaded(top, i) and not pairs.side_by_shape(i, top) for top in tops):
            continue
        # kept: a face on no kept face's die, or a brighter face that is no shaded side of the
        # rounder ones (they were its die's shaded sides, unless they are another die's top faces)
        for top in tops:
            is_kept[top] = pairs.other_top(top, i)
        is_kept[i] = True
    kept = [i for i, keep in enumerate(is_kept) if keep]
    # a strongly oblique camera may see a die's front face rounder than its top face: of two
    # faces of one die, the one towards the camera is the side face whatever their shapes
    # (but a face in front of another die's front face is the top face of a die in front)
    def guarded(i: int, j: int) -> bool:
        return j != i and not (clear[i] and faint_at[j])

    fronts = {i: [j for j in pairs.related[i] if is_kept[j] and guarded(i, j) and pairs.in_front_of(i, j)]
              for i in kept}
    tops = {i for i in kept if not _front_face(i, fronts, set())}
    # (a darker face beyond a top face, or in front of it with a die's body beyond, is no
    # shaded side of its die if that stays a top face: were it i's own front face, the
    # direction towards the camera was voted wrong there)
    return TopFaces([order[i] for i in kept if i in tops
                     and not any(is_kept[j] and guarded(i, j) and pairs.shaded_side(i, j)
                                 and not (j in tops and (pairs.beyond_alike(i, j) or pairs.die_in_front(i, j)))
                                 for j in pairs.related[i])],
                    pairs.towards_camera)


def _front_face(face: int, fronts: dict[int, list[int]], asked: set[int]) -> bool:
    """Whether ``face`` is the front face of a top face: ``fronts`` holds, for each face,
    the faces it lies in front of as their die's front face, if they are top faces. A face
    that is itself a front face (of a die behind, whose top face is read) makes no front
    face of the face in front of it: that is the top face of a die in front. (``asked``:
    the faces whose answer waits on this one; a face among them counts as a top face.)"""
    asked = asked | {face}
    return any(top in asked or not _front_face(top, fronts, asked) for top in fronts[face])


def _one_die(faces: list[FaceCandidate], body: np.ndarray, light: np.ndarray, contrast: np.ndarray,
             side_like: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every pair of faces, whether they may be faces of one die, and whether they may
    be with pips that measure alike: pips of one size (a pip's long axis is not
    foreshortened; a 1 may be printed larger) or, on a face more foreshortened and darker
    than the other, down to ``MIN_SIDE_LENGTH_SHARE`` of the other's (a side face's), of
    one polarity, lit alike (:func:`_lit_alike`) on their ``body`` levels or on their
    ``light`` (the brighter of body and ink): a dark die's light pips show its light better
    than its black body, which a highlight lights unevenly, but a side face's tiny pips
    blur into the body. ``contrast``: each face's pip contrast; ``side_like[i, j]``: face i
    is clearly more foreshortened and darker than face j."""
    length = np.array([f.pip_length for f in faces])
    dark = np.array([f.group.pips[0].dark for f in faces])
    sized = np.abs(np.log(length[:, None] / length[None, :])) <= np.log(MAX_RADIUS_RATIO)
    # [i, j]: face i may be a side face of j's die, its pips measured shorter
    side = ((length[:, None] < length[None, :]) & (length[:, None] >= MIN_SIDE_LENGTH_SHARE * length[None, :])
            & side_like)
    alike = (dark[:, None] == dark[None, :]) & (_lit_alike(body, contrast) | _lit_alike(light, contrast))
    return (sized | side | side.T) & alike, sized & alike


def _lit_alike(levels: np.ndarray, contrast: np.ndarray) -> np.ndarray:
    """For every pair of faces, whether their ``levels`` are within ``MIN_SIDE_LIGHT`` of
    each other. A face turned from the light is darker in body and ink alike; where the
    levels differ much, the pip ``contrast`` must shrink with them (a black die beside a
    red one, both with white pips, is another die, not the red one's shaded side)."""
    level, fade = np.log(np.maximum(levels, 1.0)), np.log(np.maximum(contrast, 1.0))
    shading = level[:, None] - level[None, :]
    fading = fade[:, None] - fade[None, :]
    return (np.abs(shading) <= -np.log(MIN_SIDE_LIGHT)) & (
        (np.abs(shading) <= -np.log(CLEAR_SHADE)) | (np.abs(shading - fading) <= np.log(MAX_LIGHT_MISMATCH)))


def _sparse_rows(values: np.ndarray, rows: list[np.ndarray]) -> list[dict[int, object]]:
    """The ``values`` of a matrix's held pairs as one dict per row, from column to value:
    ``rows`` are the columns held in each row, in order, the values row after row."""
    flat = values.tolist()
    out, start = [], 0
    for columns in rows:
        out.append(dict(zip(columns.tolist(), flat[start:start + len(columns)])))
        start += len(columns)
    return out


class _Pairs:
    """How the faces (in order) lie relative to one another: ``units[i][j]`` is the distance
    of face i's centre from face j's in face j's own units (pip offsets along its axes,
    which undoes the camera's foreshortening), ``along[i][j]`` the cosine between the step
    from j to i and the direction towards the camera, which the ``faint`` faces (see
    :func:`face_candidates`) take no part in voting. Pairs are held only for the faces
    ``related[i]`` to each face i (near enough to be one die's), either way round."""

    def __init__(self, faces: list[FaceCandidate], spacing_radii: float, faint: np.ndarray,
                 colours: BodyColours | None = None) -> None:
        centres = np.array([f.centre for f in faces]).reshape(-1, 2)
        inverses = np.array([_inverse(_axes(f, spacing_radii)) for f in faces]).reshape(-1, 2, 2)
        steps = centres[:, None, :] - centres[None, :, :]  # [i, j]: from j to i
        # (written out: numpy's einsum takes longer over so few faces)
        self.units = np.hypot(inverses[:, 0, 0] * steps[..., 0] + inverses[:, 0, 1] * steps[..., 1],
                              inverses[:, 1, 0] * steps[..., 0] + inverses[:, 1, 1] * steps[..., 1])
        # a fitted face's pip offset along its long (not foreshortened) axis, in pixels
        self.long_spacing = [f.fit.long_spacing if f.fit is not None and f.fit.value > 1 else 0.0
                             for f in faces]
        self.distance = np.hypot(steps[..., 0], steps[..., 1])
        self.roundness = np.array([f.roundness for f in faces])
        self.fitted = np.array([f.fit is not None for f in faces], bool)
        self.pips = np.array([len(f.group.pips) for f in faces])
        long_axes = np.array([f.group.long_axis for f in faces])
        # one pip's shape is too rough a measure: a face shows its foreshortening by several
        shown = (self.roundness <= ELONGATED) & (self.pips > 1)
        turn = np.cos(2 * (long_axes[:, None] - long_axes[None, :]))  # the same for axes half a turn apart
        self.aligned = (turn >= math.cos(math.radians(2 * ALIGNED_ANGLE))) & shown[:, None] & shown[None, :]
        body = np.array([f.group.body_level for f in faces])
        self.contrast = np.abs(body - np.array([f.group.pip_level for f in faces]))
        self.lit = np.array([f.group.light for f in faces])
        self._colours, self._centres, self._inverses = colours, centres, inverses
        self._pips_of = [f.group.pips for f in faces]
        self._faint = faint.tolist()
        # (only these faces show a die's whole square: see die_in_front)
        self._squares = self.fitted & (self.pips > 1)
        # [i, j]: face i clearly more foreshortened than face j; lit clearly less
        flatter = self.roundness[:, None] < SIDE_ROUNDNESS_RATIO * self.roundness[None, :]
        shaded = self.lit[:, None] < SIDE_SHADE * self.lit[None, :]
        self.same, same_sized = _one_die(faces, body, self.lit, self.contrast, flatter & shaded)
        if colours is not None:
            # only faces close enough to be one die are worth a look at their colours
            first, second = np.nonzero(np.triu(self.same & (self.units < FRONT_REACH * FACE_HALF), 1))
            pips = [f.group.pips[0] for f in faces]
            apart = (colours.apart_pairs(pips, first, second) | colours.inks_apart_pairs(pips, first, second)
                     | colours.tints_apart_pairs(pips, first, second))
            self.same[first[apart], second[apart]] = self.same[second[apart], first[apart]] = False
        unit_steps = steps / np.maximum(np.hypot(steps[..., 0], steps[..., 1]), 1e-9)[..., None]
        # (the direction is voted by faces whose pips measure alike: one pair of a face and
        # another with shorter pips, that one die's or two, turns it for every die)
        # (blobs of grain, hundreds on a grainy table, vote every way and outvote the dice)
        voting = same_sized & self.same & ~faint[:, None] & ~faint[None, :]
        self.towards_camera = self._towards_camera(centres, unit_steps, voting, flatter, shaded, long_axes,
                                                   shown & self.fitted)
        # [i, j]: the step from j to i along the direction towards the camera at j
        self.along = (unit_steps * self.towards_camera.at_points(centres)[None, :, :]).sum(axis=-1)
        # [i, j]: the step from j to i lies along j's long axis (across the view, at j's die)
        axis_directions = np.stack([np.cos(long_axes), np.sin(long_axes)], -1).reshape(-1, 2)
        self.lengthwise = (np.abs(np.einsum("ijk,jk->ij", unit_steps, axis_directions))
                           >= math.cos(math.radians(BESIDE_ANGLE)))
        # [i]: the faces j that may be one die's with face i: the widest reach any rule below
        # allows (in either face's units, or within face i's width)
        reach = self.same & ((self.units < FRONT_REACH * FACE_HALF) | (self.units.T < SIDE_REACH * FACE_HALF)
                             | (self.distance < 2 * FACE_HALF * np.array(self.long_spacing)[:, None]))
        self.related = [np.flatnonzero(row).tolist() for row in reach]
        # the rules below ask of one face or pair at a time, hundreds of times a frame: plain
        # lists and dicts answer that quicker than numpy's indexing of single elements. They
        # ask only of related faces, either way round: only those pairs are held (a grainy
        # table makes thousands of faces, millions of pairs)
        first, second = np.nonzero(reach | reach.T)
        rows = np.split(second, np.searchsorted(first, np.arange(1, len(faces))))
        (self.units, self.same, self.along, self.distance, self.lengthwise, self.aligned) = (
            _sparse_rows(a[first, second], rows) for a in (
                self.units, self.same, self.along, self.distance, self.lengthwise, self.aligned))
        (self.roundness, self.contrast, self.lit, self.fitted, self.pips) = (a.tolist() for a in (
            self.roundness, self.contrast, self.lit, self.fitted, self.pips))

    def near(self, i: int, j: int, reach: float) -> bool:
        """Whether face i's centre is within ``reach`` half-sides of face j's, in j's units."""
        return bool(self.units[i][j] < reach * FACE_HALF)

    def _towards_camera(self, centres: np.ndarray, unit_steps: np.ndarray, same: np.ndarray, flatter: np.ndarray,
                        shaded: np.ndarray, long_axes: np.ndarray, shown: np.ndarray) -> TowardsCamera:
        """The image direction from a top face to the side faces seen with it (see
        :mod:`reader.camera.camera_direction`): voted by every face near a rounder one and
        clearly more foreshortened than it, and every face near a clearly brighter one (the
        light comes from above), and shown by the faces' foreshortening. A webcam usually
        stands in front of the table, looking down and away: image-down starts with
        ``PRIOR_VOTES`` votes, so that a few contrary ones (clutter, a die's face turned to
        the light, the left and right faces of dice off to the side) do not turn it.
        ``same``, ``flatter``, ``shaded``: for every pair of faces [i, j], whether they may be
        one die's, whether face i is clearly more foreshortened than face j, and lit clearly
        less; ``long_axes`` and ``shown``: each face's long axis, and whether its pips show
        it (only fitted faces of several pips do)."""
        count = len(self.roundness)
        # [i, j]: face i (later in order, so no rounder) beside face j
        later = np.arange(count)[:, None] > np.arange(count)[None, :]
        beside = same & (self.units < SIDE_REACH_OBLIQUE * FACE_HALF) & ~np.eye(count, dtype=bool)
        weights = beside * ((later & flatter).astype(float) + shaded)
        side, top = np.nonzero(weights)
        short = long_axes[shown] + math.pi / 2
        return vote_towards_camera(centres[top], unit_steps[side, top], weights[side, top], PRIOR_VOTES,
                                   centres[shown], np.stack([np.cos(short), np.sin(short)], -1))

    def within_die(self, i: int, top: int) -> bool:
        """Whether face i is part of the die whose top face is ``top``.

        Faces of one die have pips of one size (a pip's long axis is not foreshortened);
        a 1 may be printed larger than the rest. Close by, face i is a side face or a
        fragment of ``top``, unless both are seen face up (see :meth:`both_face_up`).
        """
        if not self.same[i][top]:
            return False
        if self.near(*self._measured(i, top), SIDE_REACH):
            return not self.both_face_up(i, top) and not self._beyond_lone_pip(i, top)
        along = self.along[i][top]
        # face i lies beyond ``top``, away from the camera, or beyond it and as round (see
        # :meth:`beyond_alike`), however faint its pips: not its side face
        if along < -SIDE_DIRECTION_COS or self.beyond_alike(i, top):
            return False
        flatter = self.flatter(i, top)
        if flatter and along > SIDE_DIRECTION_COS and self.distance[i][top] < 2 * FACE_HALF * self.long_spacing[i]:
            # a flatter face towards the camera, within a face's width (its own width across
            # the view, which the camera does not foreshorten) of ``top``: the die's front face
            return True
        # (a face in front that may be a side face is a touching die's top face where its die's
        # body goes on beyond it, as :meth:`in_front_of` asks of the faces kept)
        return bool((flatter and not self.beside_alike(i, top))
                    or (along > SIDE_DIRECTION_COS and self._looks_like_side(i, top)
                        and not self.die_in_front(i, top))) \
            and self.near(i, top, SIDE_REACH_OBLIQUE)

    def _beyond_lone_pip(self, i: int, top: int) -> bool:
        """Whether face i, of several pips, lies beyond the lone pip ``top`` (away from the
        camera, see ``BESIDE_COS``) that is lit as a front face is (``FRONT_SHADE``): face i is
        no fragment of a 1, nor a side face of its die, which the camera sees towards it; the
        pip is face i's front face's, rounder as one pip may measure. A pip lit as brightly, or
        lying on face i's own square (see ``OWN_SQUARE_REACH``), may be a
        piece of that face, the rest lost in a highlight; specks that stand out too little from
        the frame's texture (``faint``) show no face to reason from."""
        return bool(self.pips[top] == 1 and self.pips[i] > 1 and self.fitted[i] and not self._faint[i]
                    and not self._faint[top] and self.along[i][top] < -BESIDE_COS
                    and self.lit[top] < FRONT_SHADE * self.lit[i] and not self.near(top, i, OWN_SQUARE_REACH))

    def beside_alike(self, i: int, top: int) -> bool:
        """Whether face i lies beside ``top`` across the view (along ``top``'s long axis, which
        the camera does not foreshorten; a front face lies along its short axis) with its pips
        foreshortened the same way: a die's left and right faces are foreshortened across
        the way its top face is, so face i is another die's top face."""
        return bool(self.lengthwise[i][top] and self.aligned[i][top])

    def flatter(self, i: int, top: int) -> bool:
        """Whether face i is foreshortened more than ``top`` as a side face of its die is:
        seen from steeply above, much more (a side face is seen at a grazing angle, and the
        roundness of one pip is a rough measure) or with pips much fainter (slivers that
        blur into the body; not round ones, which a darker die's top face shows); seen
        obliquely, somewhat more."""
        top_roundness = self.roundness[top]
        if top_roundness < STEEP_VIEW:
            return bool(self.roundness[i] < SIDE_ROUNDNESS_RATIO * top_roundness)
        side_cut = SIDE_FLATNESS * top_roundness
        if self.along[i][top] > 0:
            # towards the camera, where the die's side faces are seen: a face at right angles
            # to ``top`` shows pips about sqrt(1 - r^2) round, another die's top face as round
            # as ``top``'s; halfway between parts them where the two lie close (about 55
            # degrees up), the fixed ratio where they lie far apart (from straight above)
            at_right_angles = math.sqrt(max(1.0 - top_roundness ** 2, 0.0))
            side_cut = max(side_cut, (top_roundness + at_right_angles) / 2)
        return bool(self.roundness[i] < side_cut
                    or (self.contrast[i] < SIDE_FAINTNESS * self.contrast[top] and not self.both_face_up(i, top)))

    def both_face_up(self, i: int, top: int) -> bool:
        """Whether faces i and ``top`` are the top faces of two dice, whatever their light:
        both seen from steeply above, which no two faces of one die are (they stand at
        right angles, so the squares of their pips' roundness add up to about 1 at most),
        and further apart, measured in either's units (a lone pip's and a bigger face's in
        the bigger face's, see :meth:`_measured`), than fragments of one face are, or
        holding more pips between them than a face has, which fragments never do (dice
        with big pips set far out lie closer than fragments reach). A grey die beside a
        white one is as dark as the white one's shaded side, but round."""
        if self.roundness[i] ** 2 + self.roundness[top] ** 2 < FACES_UP_SQUARES:
            return False
        if self.pips[i] + self.pips[top] > MOST_PIPS:
            return True
        if (self.pips[i] == 1) != (self.pips[top] == 1):
            return not self.near(*self._measured(i, top), SIDE_REACH)
        return not self.near(i, top, SIDE_REACH) and not self.near(top, i, SIDE_REACH)

    def _measured(self, i: int, top: int) -> tuple[int, int]:
        """Faces i and ``top`` in the order :meth:`near` takes them to measure the two in the
        second's units: ``top``'s, unless that is a lone pip and face i is not (a lone pip
        shows no face size of its own: the bigger face measures the two)."""
        return (top, i) if self.pips[top] == 1 and self.pips[i] > 1 else (i, top)

    def _looks_like_side(self, i: int, top: int) -> bool:
        """Whether face i, lying towards the camera from ``top``, may be its die's side face.

        Seen from steeply above, a die's front face is foreshortened much more than its top
        face (or lit less): a face in front as round and as bright is a touching die's top
        face. Seen obliquely (about 45 degrees) the two look alike, and a face in front is
        taken for the die's own front face: a die missed is put right by moving it apart,
        a side face taken for a die cannot be.
        """
        if self.both_face_up(i, top):
            return False
        return bool(self.lit[i] < FRONT_SHADE * self.lit[top] or self.roundness[top] < STEEP_VIEW
                    or self.flatter(i, top))

    def other_top(self, i: int, top: int) -> bool:
        """Whether face i, darker than ``top`` and no flatter, is another die's top face
        rather than a shaded side face of ``top``'s die: it lies neither on ``top`` (a
        fragment) nor towards the camera from it (beside it at most, see ``BESIDE_COS``),
        where the camera sees a die's side faces (those turned sideways are seen edge-on,
        if at all), and its pips stand out as
        clearly as its light allows (a side face's pips, seen at a grazing angle, blur into
        faint slivers)."""
        return bool(not self.near(i, top, SIDE_REACH) and self.along[i][top] < BESIDE_COS
                    and self.contrast[i] * self.lit[top] >= SIDE_FAINTNESS * self.contrast[top] * self.lit[i])

    def shaded(self, i: int, j: int) -> bool:
        """Whether face i's body is lit clearly less than face j's (a side face of j's die)."""
        return bool(self.lit[i] < SIDE_SHADE * self.lit[j])

    def shaded_side(self, i: int, top: int) -> bool:
        """Whether face i is a shaded side face of ``top``'s die: near it, and clearly darker
        (the top faces of dice that touch lie at one height, under one light) - unless the
        shapes say otherwise: ``top`` is much flatter, i.e. it is i's side face, lit by a
        lamp low at that side, or both are seen from steeply above."""
        return bool(self.same[i][top] and self.fitted[top] and self.shaded(i, top)
                    and self.near(i, top, SIDE_REACH_OBLIQUE) and not self.side_by_shape(top, i)
                    and not self.both_face_up(i, top) and not self.beside_alike(i, top))

    def beyond_alike(self, i: int, top: int) -> bool:
        """Whether face i lies beyond ``top``, away from the camera (past square to the
        direction towards it, see ``BESIDE_COS``), and is no clearly flatter: the camera sees
        no side face of ``top``'s die there, so a darker face there is another die's top face
        (a grey die behind a white one, or a die turned from the light). Only a ``top`` of
        two pips or more shows a die's face to reason from (a lone speck of a grainy tray
        does not)."""
        return bool(self.pips[top] > 1 and self.along[i][top] < -BESIDE_COS
                    and self.roundness[i] >= SIDE_ROUNDNESS_RATIO * self.roundness[top])

    def side_by_shape(self, i: int, top: int) -> bool:
        """Whether the shapes alone make face i a side face of ``top``'s die: seen from
        steeply above (where side faces are the flatter ones; from low down, top faces are),
        much flatter than ``top`` and not beyond it, whatever the light (a lamp low at the
        side lights it the more)."""
        return bool(self.roundness[top] >= STEEP_VIEW and self.along[i][top] >= -SIDE_DIRECTION_COS
                    and self.roundness[i] < SIDE_FLATNESS * self.roundness[top])

    def in_front_of(self, i: int, top: int) -> bool:
        """Whether face i is a side face of ``top``'s die, lying towards the camera from it
        (``top`` showing its pips at least ``FAINT_TOP`` as clearly)."""
        # pips that fit no face show no die's extent to measure that by
        if not (self.same[i][top] and self.fitted[top] and self.along[i][top] > SIDE_DIRECTION_COS
                and self.contrast[top] >= FAINT_TOP * self.contrast[i] and self._looks_like_side(i, top)):
            return False
        if self.along[i][top] < STRAIGHT_AHEAD_COS and self.roundness[i] > self.roundness[top]:
            # off to one side, where a die turned shows its side faces turned from the
            # camera, foreshortened more than its top face: a rounder face is another die's
            return False
        dimmer = self.lit[i] < FRONT_SHADE * self.lit[top]
        # a front face stands up from the table: seen from low down, its centre lies further
        # out in the top face's units than a die's width
        return ((self.near(i, top, SIDE_REACH_OBLIQUE) or (dimmer and self.near(i, top, FRONT_REACH)))
                and not self.die_in_front(i, top))

    def die_in_front(self, i: int, top: int) -> bool:
        """Whether face i, lying towards the camera from ``top`` and no clearly flatter, is the
        top face of a touching die in front: beyond it, as far as ``top`` lies behind it, its
        die's body goes on (its front face), where the table would show past a front face
        of ``top``'s die (a front face's centre lies half a face's depth and half its height
        from the top face's; the table begins half its height further on). Seen about 45
        degrees oblique, the two cases look alike otherwise, in shape, place and often light.

        The colour there must be much nearer the body round face i's pips than the table's,
        either shaded (see ``BEYOND_BODY_SHARE``: a front face is mostly lit less than a top
        face, and a shadow may lie past a die), and the place on no other face's die (a
        third die of a like colour, its top face about as round as face i: a face clearly
        flatter is a side face seen, face i's die's own front face most likely) unless
        centred there (``OWN_FRONT_REACH``): that is face i's die's own front face, whose pips
        are found too. Only a ``top`` of two pips or more, or a face i of ``CLEAR_FACE_PIPS``
        or more (a 1 behind a 6 is asked), shows a die's face to reason from, and only faces
        that stand out from the frame's texture (neither is ``faint``): on a grainy table
        specks lie in front of specks everywhere, and two of them make a 2."""
        if (self._colours is None or (self.pips[top] < 2 and self.pips[i] < CLEAR_FACE_PIPS)
                or self._faint[i] or self._faint[top]
                or self.along[i][top] <= SIDE_DIRECTION_COS
                or self.roundness[i] < SIDE_ROUNDNESS_RATIO * self.roundness[top]):
            return False
        step = self._centres[i] - self._centres[top]
        beyond = self._centres[i] + step
        # (in each face's own units)
        local = np.abs(np.einsum("nij,nj->ni", self._inverses, beyond - self._centres))
        third = self._squares & (local < FACE_HALF).all(axis=1) & (local >= OWN_FRONT_REACH * FACE_HALF).any(axis=1)
        third &= np.array(self.roundness) >= SIDE_ROUNDNESS_RATIO * self.roundness[i]
        third[[i, top]] = False
        if third.any() or not self._colours.inside(beyond):
            return False
        across = np.array([-step[1], step[0]])
        patch = beyond + _BEYOND_PATCH[:, :1] * step + _BEYOND_PATCH[:, 1:] * across
        seen, body = (medians(lab.T) for lab in (self._colours.lab_at(patch), self._colours.lab(self._pips_of[i])))
        from_table = shade_distance(seen, self._colours.table_lab)
        return from_table >= MIN_BEYOND_APART and shade_distance(seen, body) < BEYOND_BODY_SHARE * from_table
