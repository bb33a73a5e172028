"""Find dice in a frame: group pip candidates into top faces and outline each die.

Pips of one top face lie on one uniform surface: the straight path between two of them
crosses only the die's body (no gap, seam or shadow between two touching dice, no table).
Pips are linked when that holds and their sizes agree; each linked group is one face
candidate, read later against the real d6 layouts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from statistics import median

import numpy as np

from reader.camera.layouts import LayoutError, LayoutFit, fit_layout
from reader.camera.pips import Pip

#: Farthest two pips of one face can be, in pip radii (the diagonal of a 2 or a 6).
MAX_LINK_RADII = 9.5
#: Two pips of one face have radii within this ratio.
MAX_RADIUS_RATIO = 1.6
#: Pips of one face are foreshortened alike: the less round of two is at least this
#: fraction as round as the other.
MIN_ROUNDNESS_RATIO = 0.7
#: Pips of one face sit on one equally lit plane: their surroundings differ by at most
#: this fraction of the pip contrast (another face of the die is shaded differently).
MAX_RING_DIFFERENCE = 0.12
#: Pips of one face are printed alike: the fainter of two has at least this fraction of
#: the other's contrast (merged strokes of a side face are fainter than round top pips).
MIN_CONTRAST_RATIO = 0.7
#: A group that is no real face is only split at a link weaker than this: a visible seam
#: or shading step between the pips, or pips unlike each other.
MAX_CUT_LINK = 0.85
#: Along the path between two pips of one face the grey level stays at least this far
#: (as a fraction of the pip contrast) from the pip level towards the body level.
MIN_PATH_BODY = 0.6


@dataclass(frozen=True)
class PipGroup:
    """Pips (of one polarity) that lie on one continuous surface."""

    pips: tuple[Pip, ...]

    @cached_property
    def points(self) -> np.ndarray:
        return np.array([(p.x, p.y) for p in self.pips], float)

    @cached_property
    def radius(self) -> float:
        return median([p.radius for p in self.pips])

    @cached_property
    def body_level(self) -> float:
        return median([p.ring for p in self.pips])

    @cached_property
    def pip_length(self) -> float:
        """Median pip half-length (radius along the pip's long axis, which foreshortening keeps)."""
        return median([p.radius / np.sqrt(p.roundness) for p in self.pips])

    @cached_property
    def squash(self) -> np.ndarray:
        """The face's foreshortening as its pips show it: a 2x2 map that keeps the pips' long
        axis and shortens the other by their roundness (round pips: the identity)."""
        doubled = sum(np.exp(2j * p.angle) for p in self.pips)
        angle = float(np.angle(doubled)) / 2
        roundness = median([p.roundness for p in self.pips])
        c, s = np.cos(angle), np.sin(angle)
        rot = np.array([[c, -s], [s, c]])
        return rot @ np.diag([1.0, roundness]) @ rot.T

    @cached_property
    def pip_level(self) -> float:
        return median([p.level for p in self.pips])


def group_pips(pips: list[Pip], grey: np.ndarray) -> list[PipGroup]:
    """Split pip candidates into groups that each lie on one face.

    Pips are linked when they may share a face, each link scored by how clearly the path
    between them stays on the body and how alike the two pips are. Linked pips whose
    layout is not a real face (two touching dice, a side face joined to a top face) are
    split at their weakest links until every part is a face or a lone pip.
    """
    if not pips:
        return []
    xy = np.array([(p.x, p.y) for p in pips], float)
    radii = np.array([p.radius for p in pips])
    links: list[tuple[float, int, int]] = []
    alike = _alike(pips, xy)
    for i, j in zip(*np.nonzero(np.triu(alike > 0, 1))):
        score = path_score(grey, pips[i], pips[j], xy, radii)
        if score >= MIN_PATH_BODY:
            links.append((score * float(alike[i, j]), int(i), int(j)))
    groups: list[PipGroup] = []
    for members in _components(range(len(pips)), links):
        groups.extend(_split(members, links, pips))
    return groups


def _alike(pips: list[Pip], xy: np.ndarray) -> np.ndarray:
    """For every pair of pips, how alike they are (1 = same size, shape, ink and
    surroundings), or 0 when they cannot share a face (too unlike, or too far apart)."""
    radius, roundness, contrast, ring, dark = (np.array([getattr(p, k) for p in pips], float)
                                               for k in ("radius", "roundness", "contrast", "ring", "dark"))

    def ratio(v: np.ndarray) -> np.ndarray:
        return np.minimum.outer(v, v) / np.maximum.outer(v, v)

    r_ratio, round_ratio, c_ratio = ratio(radius), ratio(roundness), ratio(contrast)
    ring_gap = np.abs(np.subtract.outer(ring, ring))
    mean_contrast = np.add.outer(contrast, contrast) / 2
    distance = np.hypot(np.subtract.outer(xy[:, 0], xy[:, 0]), np.subtract.outer(xy[:, 1], xy[:, 1]))
    ok = ((dark[:, None] == dark[None, :]) & (r_ratio >= 1 / MAX_RADIUS_RATIO)
          & (round_ratio >= MIN_ROUNDNESS_RATIO) & (c_ratio >= MIN_CONTRAST_RATIO)
          & (ring_gap <= MAX_RING_DIFFERENCE * mean_contrast)
          & (distance <= MAX_LINK_RADII * np.add.outer(radius, radius) / 2))
    likeness = r_ratio * round_ratio * c_ratio * (1 - ring_gap / np.maximum.outer(contrast, contrast))
    return np.where(ok, likeness, 0.0)


def _components(nodes, links: list[tuple[float, int, int]]) -> list[list[int]]:
    nodes = list(nodes)
    parent = {i: i for i in nodes}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _, i, j in links:
        if i in parent and j in parent:
            parent[root(i)] = root(j)
    out: dict[int, list[int]] = {}
    for i in nodes:
        out.setdefault(root(i), []).append(i)
    return list(out.values())


def _split(members: list[int], links: list[tuple[float, int, int]], pips: list[Pip]) -> list[PipGroup]:
    """``members`` as one group if they form a face, else split at the weakest link."""
    group = PipGroup(tuple(pips[i] for i in members))
    if len(members) == 1 or _is_face(group):
        return [group]
    inner = sorted((lk for lk in links if lk[1] in members and lk[2] in members), reverse=True)
    if not inner or inner[-1][0] > MAX_CUT_LINK:
        return [group]  # no seam and no unlike pip to cut at: one face, and not a real one
    weakest = inner[-1][0]
    kept = [lk for lk in inner if lk[0] > weakest]
    out: list[PipGroup] = []
    for part in _components(members, kept):
        out.extend(_split(part, kept, pips))
    return out


def _is_face(group: PipGroup) -> bool:
    try:
        fit_layout(group.points, group.squash)
    except LayoutError:
        return False
    return True


def path_score(grey: np.ndarray, a: Pip, b: Pip, xy: np.ndarray, radii: np.ndarray) -> float:
    """How clearly the straight path from pip ``a`` to pip ``b`` stays on the body.

    The darkest (for dark pips) point of the path, as a fraction of the way from the pip
    level (0) to the body level (1); 1 for a path that runs over pips only.
    """
    body = (a.ring + b.ring) / 2
    ink = (a.level + b.level) / 2
    length = float(np.hypot(b.x - a.x, b.y - a.y))
    t = np.linspace(0, 1, max(int(length), 2))
    px = a.x + t * (b.x - a.x)
    py = a.y + t * (b.y - a.y)
    # leave out the pips themselves (and any other pip the path runs over)
    mid = ((a.x + b.x) / 2, (a.y + b.y) / 2)
    near = np.flatnonzero(np.hypot(xy[:, 0] - mid[0], xy[:, 1] - mid[1]) < length / 2 + 2 * radii + 1)
    dist = np.hypot(px[:, None] - xy[None, near, 0], py[:, None] - xy[None, near, 1])
    free = np.all(dist > 1.5 * radii[near] + 1, axis=1)
    if free.sum() < 2:
        return 1.0
    h, w = grey.shape
    vals = grey[np.clip(np.rint(py[free]).astype(int), 0, h - 1), np.clip(np.rint(px[free]).astype(int), 0, w - 1)]
    return float(((vals.astype(float) - ink) / (body - ink)).min())


#: Half the side of a d6 face, in units of the pip offset ``a`` (pips sit ~0.22 of the
#: side from the centre, so the edge is about 2.2 a away).
FACE_HALF = 2.2
#: Pip offset to assume for a lone pip (a 1), as a multiple of its half-length (a 1 is
#: often printed larger than the other pips, so this errs small).
SINGLE_SPACING_RADII = 1.5
#: Pip offset over pip radius of a typical d6, when no face in the frame shows it.
DEFAULT_SPACING_RADII = 2.2
#: A face centred within this many face half-sides of a more face-on face's centre belongs
#: to the same die (a side face seen under perspective, or a fragment).
SIDE_REACH = 1.8
#: A face further out, up to this many half-sides, belongs to the same die when it is
#: clearly more foreshortened (pips less round by this ratio): it is a side face seen under
#: an oblique camera. Dice resting on the table all show their top faces alike.
SIDE_REACH_OBLIQUE, SIDE_ROUNDNESS_RATIO = 2.8, 0.92
#: ... or when it lies towards the camera from the rounder face (within this cosine).
SIDE_DIRECTION_COS = 0.7


@dataclass
class FaceCandidate:
    """A pip group with what the layout fit made of it."""

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
        return self.group.points.mean(axis=0)


def face_candidates(groups: list[PipGroup]) -> list[FaceCandidate]:
    """Fit every group to the d6 layouts and keep one face per die (its top face)."""
    faces: list[FaceCandidate] = []
    for g in groups:
        try:
            faces.append(FaceCandidate(g, fit_layout(g.points, g.squash, SINGLE_SPACING_RADII * g.pip_length), None))
        except LayoutError as err:
            faces.append(FaceCandidate(g, None, str(err)))
    return _drop_side_faces(faces)


def _axes(face: FaceCandidate, spacing_radii: float) -> np.ndarray:
    """The face's axes: fitted (a lone pip scaled like the frame's other faces), or for pips
    that fit no face, as if the outermost were corners."""
    if face.fit is not None and face.fit.value == 1:
        return face.group.squash * spacing_radii * face.group.pip_length
    if face.fit is not None:
        return face.fit.axes
    return np.eye(2) * float(np.hypot(*(face.group.points - face.centre).T).max()) / np.sqrt(2)


def _drop_side_faces(faces: list[FaceCandidate]) -> list[FaceCandidate]:
    """Keep one face per die: its top face.

    The top face is the least foreshortened face of a die, so faces are taken roundest
    first; a later candidate whose centre lies within a kept face's die (measured in that
    face's own units, which undoes the camera's foreshortening) is one of that die's side
    faces, or a fragment of it, and is dropped. Two dice standing apart have their centres
    at least a whole face (2 * FACE_HALF) apart. Under a camera about 45 degrees oblique
    the top and front faces are foreshortened alike; the side faces a camera sees lie
    between their top face and the point below the camera, so the direction from top to
    side faces (learnt from the clear cases in the frame, else image-down, where a webcam
    in front of the table looks from) tells which of two such faces is on top.
    """
    order = sorted(faces, key=lambda f: (-round(f.roundness, 2), -len(f.group.pips)))
    ratios = [f.fit.spacing / f.pip_length for f in faces if f.fit is not None and f.fit.value > 1]
    spacing_radii = median(ratios) if ratios else DEFAULT_SPACING_RADII
    inverse = {id(f): np.linalg.pinv(_axes(f, spacing_radii)) for f in faces}

    def near(face: FaceCandidate, top: FaceCandidate, reach: float) -> bool:
        """Whether ``face``'s centre is within ``reach`` half-sides of ``top``'s, in ``top``'s units."""
        return float(np.hypot(*(inverse[id(top)] @ (face.centre - top.centre)))) < reach * FACE_HALF

    towards_camera = _towards_camera(order, near)
    kept: list[FaceCandidate] = []
    for f in order:
        if not any(_within_die(f, top, towards_camera, near) for top in kept):
            kept.append(f)
    return kept


def _towards_camera(order: list[FaceCandidate], near) -> np.ndarray:
    """Unit image direction from a top face to the side faces seen with it."""
    votes = np.zeros(2)
    for i, top in enumerate(order):
        for side in order[i + 1:]:
            if side.roundness < SIDE_ROUNDNESS_RATIO * top.roundness and near(side, top, SIDE_REACH_OBLIQUE):
                step = side.centre - top.centre
                votes += step / max(float(np.hypot(*step)), 1e-9)
    norm = float(np.hypot(*votes))
    return votes / norm if norm > 0 else np.array([0.0, 1.0])


def _within_die(face: FaceCandidate, top: FaceCandidate, towards_camera: np.ndarray, near) -> bool:
    """Whether ``face`` is part of the die whose top face is ``top``.

    Faces of one die have pips of one size (a pip's long axis is not foreshortened);
    a 1 may be printed larger than the rest.
    """
    size_ratio = face.pip_length / top.pip_length
    if not 1 / MAX_RADIUS_RATIO <= size_ratio <= MAX_RADIUS_RATIO:
        return False
    if near(face, top, SIDE_REACH):
        return True
    step = face.centre - top.centre
    side_like = (face.roundness < SIDE_ROUNDNESS_RATIO * top.roundness
                 or float(step @ towards_camera) > SIDE_DIRECTION_COS * float(np.hypot(*step)))
    return side_like and near(face, top, SIDE_REACH_OBLIQUE)
