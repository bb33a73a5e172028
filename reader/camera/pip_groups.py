"""Group pip candidates into faces.

Pips of one face lie on one uniform surface: the straight path between two of them
crosses only the die's body (no gap, seam or shadow between two touching dice, no table),
and they are alike (one size, one foreshortening, one ink, one lighting). Pips are linked
when that holds; linked pips that form no real face are split at their weakest links.
"""

from __future__ import annotations

import math
from itertools import combinations
from dataclasses import dataclass
from functools import cached_property
from statistics import median

import numpy as np

from reader.camera.body_colour import BodyColours
from reader.camera.layouts import LayoutError, LayoutFit, fit_layout
from reader.camera.pips import Pip

#: Farthest two pips of one face can be, in pip radii (the diagonal of a 2 or a 6).
MAX_LINK_RADII = 10.0
#: Two pips of one face have radii within this ratio.
MAX_RADIUS_RATIO = 1.6
#: Pips of one face are foreshortened alike: the less round of two is at least this
#: fraction as round as the other.
MIN_ROUNDNESS_RATIO = 0.7
#: Pips of one face sit on one equally lit plane: their surroundings differ by at most
#: this fraction of the pip contrast (another face of the die is shaded differently).
MAX_RING_DIFFERENCE = 0.12
#: ... but never less than this many grey levels (the noise of a ring's median level).
RING_NOISE = 8.0
#: Pips of one face are printed alike: the fainter of two has at least this fraction of
#: the other's contrast (merged strokes of a side face are fainter than round top pips).
MIN_CONTRAST_RATIO = 0.7
#: A group that is no real face is only split at a link weaker than this: a visible seam
#: or shading step between the pips, or pips unlike each other.
MAX_CUT_LINK = 0.85
#: Along the path between two pips of one face the grey level stays at least this far
#: (as a fraction of the pip contrast) from the pip level towards the body level.
MIN_PATH_BODY = 0.6
#: Unlinked groups on one body are joined only into faces of this many pips or more, from
#: a group and up to ``MAX_JOIN_PARTS`` others.
MIN_JOINED, MAX_JOIN_PARTS = 4, 4
#: ... and only groups lit at least this fraction as brightly as the group they join (a
#: face's small pips show a paler ink than its big ones; a side face is darker still).
JOIN_LIGHT = 0.9
#: Two faces side by side: every pip of each lies this far out (in the other face's units,
#: per axis) from the other's centre. A face's edge is 1.9 to 2.3 out, so the nearest
#: pips of a touching die lie 2.8 or more out; a lone pip that is a 1 on a neighbouring
#: face (a top face above its side face) lies 3.8 or more out, while three pips of one
#: face in an L reach 3 out from the 2 that two of them form. Groups of at most
#: ``MAX_SIDE_BY_SIDE`` pips are searched for two such faces.
APART_REACH, APART_REACH_LONE, MAX_SIDE_BY_SIDE = 2.6, 3.6, 12


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
        doubled = sum(complex(math.cos(2 * p.angle), math.sin(2 * p.angle)) for p in self.pips)
        angle = math.atan2(doubled.imag, doubled.real) / 2
        roundness = median([p.roundness for p in self.pips])
        c, s = math.cos(angle), math.sin(angle)
        # rotation @ diag(1, roundness) @ rotation.T
        return np.array([[c * c + roundness * s * s, (1 - roundness) * c * s],
                         [(1 - roundness) * c * s, s * s + roundness * c * c]])

    @cached_property
    def pip_level(self) -> float:
        return median([p.level for p in self.pips])

    @cached_property
    def light(self) -> float:
        """How brightly the face is lit: the level of the lighter of its body and its ink
        (a dark die's gold pips show the light better than its black body)."""
        return max(self.body_level, self.pip_level)

    def layout(self, single_spacing: float) -> tuple[LayoutFit | None, str | None]:
        """The d6 face these pips form (a lone pip: a 1 with that pip offset), or None and
        why they form none."""
        return _fitted(self, single_spacing) if len(self.pips) == 1 else self._layout

    @cached_property
    def _layout(self) -> tuple[LayoutFit | None, str | None]:
        return _fitted(self, 1.0)


def _fitted(group: PipGroup, single_spacing: float) -> tuple[LayoutFit | None, str | None]:
    try:
        return fit_layout(group.points, group.squash, single_spacing), None
    except LayoutError as err:
        return None, str(err)


def group_pips(pips: list[Pip], grey: np.ndarray, colours: BodyColours | None = None) -> list[PipGroup]:
    """Split pip candidates into groups that each lie on one face (``colours``, the frame in
    colour, keeps pips on bodies of clearly different colours apart).

    Pips are linked when they may share a face, each link scored by how clearly the path
    between them stays on the body and how alike the two pips are. Linked pips whose
    layout is not a real face (two touching dice, a side face joined to a top face) are
    split at their weakest links until every part is a face or a lone pip.
    """
    if not pips:
        return []
    xy = np.array([(p.x, p.y) for p in pips], float)
    alike, placeable = _alike(pips, xy)
    first, second = np.nonzero(np.triu(placeable, 1))
    if colours is not None and len(first):
        same_colour = ~colours.apart_pairs(pips, first, second)
        first, second = first[same_colour], second[same_colour]
    scores = path_scores(grey, pips, first, second)
    on_body = scores >= MIN_PATH_BODY
    links = [(float(s * alike[i, j]), int(i), int(j))
             for s, i, j in zip(scores[on_body], first[on_body], second[on_body]) if alike[i, j] > 0]
    groups: list[PipGroup] = []
    for members in _components(range(len(pips)), links):
        groups.extend(_split(members, links, pips))
    return _join_unevenly_lit(groups, list(zip(first[on_body].tolist(), second[on_body].tolist())), pips)


def _alike(pips: list[Pip], xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every pair of pips, how alike they are (1 = same size, shape, ink and
    surroundings), or 0 when they cannot share a face (too unlike, or too far apart); and
    whether they may share a face by place, size and shape alone, whatever their light."""
    radius, roundness, contrast, ring, dark = (np.array([getattr(p, k) for p in pips], float)
                                               for k in ("radius", "roundness", "contrast", "ring", "dark"))

    def ratio(v: np.ndarray) -> np.ndarray:
        return np.minimum.outer(v, v) / np.maximum.outer(v, v)

    r_ratio, round_ratio, c_ratio = ratio(radius), ratio(roundness), ratio(contrast)
    ring_gap = np.abs(np.subtract.outer(ring, ring))
    mean_contrast = np.add.outer(contrast, contrast) / 2
    distance = np.hypot(np.subtract.outer(xy[:, 0], xy[:, 0]), np.subtract.outer(xy[:, 1], xy[:, 1]))
    placeable = ((dark[:, None] == dark[None, :]) & (r_ratio >= 1 / MAX_RADIUS_RATIO)
                 & (round_ratio >= MIN_ROUNDNESS_RATIO)
                 & (distance <= MAX_LINK_RADII * np.add.outer(radius, radius) / 2))
    ok = (placeable & (c_ratio >= MIN_CONTRAST_RATIO)
          & (ring_gap <= np.maximum(MAX_RING_DIFFERENCE * mean_contrast, RING_NOISE)))
    likeness = r_ratio * round_ratio * c_ratio * (1 - ring_gap / np.maximum.outer(contrast, contrast))
    return np.where(ok, likeness, 0.0), placeable


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
    """``members`` as one group if they form a face; else as the two faces side by side
    they form (two dice touching, whether or not a seam shows between them, or a top face
    and a side face seen round a die's edge); else split at the weakest link."""
    group = PipGroup(tuple(pips[i] for i in members))
    if len(members) == 1 or _is_face(group):
        return [group]
    parts = _side_by_side(group)
    if parts is not None:
        return [out for part in parts for out in _split([members[k] for k in part], links, pips)]
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
    return group.layout(1.0)[0] is not None


def _join_unevenly_lit(groups: list[PipGroup], on_body: list[tuple[int, int]], pips: list[Pip]) -> list[PipGroup]:
    """Join groups that together form one face, their pips on one body but some of them in
    a highlight (glare on a glossy die) or cut apart from the rest where a touching die's
    pips were linked with them.

    ``on_body`` holds the pairs of pips (indices into ``pips``) that may share a face by
    place, size and shape, with only body between them, whatever their light. Each group
    of two or more pips, largest first, takes in those of the groups so linked to it, lit
    about as brightly or more, with which it forms the largest face: a side face is shaded, and
    its pips with a top face's may well fit some face too. Only faces of ``MIN_JOINED``
    pips or more are made so: any marks in a row (letters of print) fit a 2 or a 3, but
    few fit the corners of a 4, 5 or 6.
    """
    group_of = {id(p): k for k, g in enumerate(groups) for p in g.pips}
    linked: dict[int, set[int]] = {k: set() for k in range(len(groups))}
    for i, j in on_body:
        a, b = group_of[id(pips[i])], group_of[id(pips[j])]
        if a != b:
            linked[a].add(b)
            linked[b].add(a)
    taken: set[int] = set()
    out = []
    for anchor in sorted(range(len(groups)), key=lambda k: -len(groups[k].pips)):
        if anchor in taken:
            continue
        taken.add(anchor)
        joined = _largest_face_with(groups, anchor, sorted(k for k in linked[anchor] - taken
                                                           if groups[k].light >= JOIN_LIGHT * groups[anchor].light))
        if joined is None:
            out.append(groups[anchor])
        else:
            members, union = joined
            taken.update(members)
            out.append(union)
    return out


def _largest_face_with(groups: list[PipGroup], anchor: int, others: list[int]) -> tuple[list[int], PipGroup] | None:
    """The most pips (at least ``MIN_JOINED``, at most six) that the anchor group and some
    of the ``others`` (the ``MAX_JOIN_PARTS`` nearest) form a face with: the groups taken
    and the joined group; None if they form no such face."""
    if len(groups[anchor].pips) < 2 or not others:
        return None
    centre = groups[anchor].points.mean(axis=0)
    nearest = sorted(others, key=lambda k: float(np.hypot(*(groups[k].points.mean(axis=0) - centre))))[:MAX_JOIN_PARTS]
    best: tuple[list[int], PipGroup] | None = None
    for size in range(len(nearest), 0, -1):
        for chosen in combinations(nearest, size):
            pips = groups[anchor].pips + tuple(p for k in chosen for p in groups[k].pips)
            if MIN_JOINED <= len(pips) <= 6 and (best is None or len(pips) > len(best[1].pips)):
                union = PipGroup(pips)
                if _is_face(union):
                    best = ([anchor, *chosen], union)
    return best


def _side_by_side(group: PipGroup) -> tuple[list[int], list[int]] | None:
    """The group's pips (their indices) split into two faces side by side, each part's pips
    at least ``APART_REACH`` (a lone pip ``APART_REACH_LONE``) out from the other part's
    face centre, in that face's units; None if no split does it, or if splits that do it
    disagree on the values shown.

    Splits tried: at every place along either of the group's principal axes (two dice side
    by side), and each single pip against the rest (a 1 on top of a side face's pips).
    """
    n = len(group.pips)
    if not 3 <= n <= MAX_SIDE_BY_SIDE:
        return None
    points = group.points - group.points.mean(axis=0)
    splits = {(k,) for k in range(n)}
    for axis in np.linalg.svd(points, full_matrices=False)[2]:
        order = np.argsort(points @ axis, kind="stable")
        splits.update(tuple(sorted(order[:k].tolist())) for k in range(1, n))
    found: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    for split in splits:
        first, second = list(split), [k for k in range(n) if k not in split]
        fits = [PipGroup(tuple(group.pips[k] for k in part)).layout(1.0)[0] for part in (first, second)]
        reach = APART_REACH_LONE if min(len(first), len(second)) == 1 else APART_REACH
        if (fits[0] is not None and fits[1] is not None
                and _outside(fits[0], group.points[second], reach) and _outside(fits[1], group.points[first], reach)):
            found.setdefault(tuple(sorted((fits[0].value, fits[1].value))), (first, second))
    return next(iter(found.values())) if len(found) == 1 else None


def _outside(fit: LayoutFit, points: np.ndarray, reach: float) -> bool:
    """Whether every point lies at least ``reach`` out from the face's centre, per axis in
    the face's own units (a lone pip shows no extent: nothing lies on its face)."""
    if fit.value == 1:
        return True
    units = np.linalg.solve(fit.axes, (points - fit.centre).T)
    return bool((np.abs(units).max(axis=0) >= reach).all())


def path_scores(grey: np.ndarray, pips: list[Pip], first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """How clearly the straight path from pip ``first[k]`` to pip ``second[k]`` stays on the
    body, for every pair k.

    The darkest (for dark pips) point of a path, as a fraction of the way from the pip
    level (0) to the body level (1), leaving out the points on any pip; 1 for a path that
    runs over pips only. The paths are sampled about once a pixel, all pairs at once.
    """
    if not len(first):
        return np.zeros(0)
    xy = np.array([(p.x, p.y) for p in pips], float)
    radii = np.array([p.radius for p in pips])
    ring = np.array([p.ring for p in pips])
    level = np.array([p.level for p in pips])
    start, end = xy[first], xy[second]
    counts = np.maximum(np.hypot(*(end - start).T).astype(int), 2)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pair = np.repeat(np.arange(len(first)), counts)
    t = (np.arange(counts.sum()) - offsets[pair]) / (counts[pair] - 1)
    points = start[pair] + t[:, None] * (end - start)[pair]
    # a point within a pip (and its blurred rim) says nothing about the body between
    near_pip = ((points[:, None, 0] - xy[None, :, 0]) ** 2 + (points[:, None, 1] - xy[None, :, 1]) ** 2
                <= (1.5 * radii + 1) ** 2)
    free = ~near_pip.any(axis=1)
    h, w = grey.shape
    values = grey[np.clip(np.rint(points[:, 1]).astype(int), 0, h - 1),
                  np.clip(np.rint(points[:, 0]).astype(int), 0, w - 1)].astype(float)
    ink = (level[first] + level[second]) / 2
    body = (ring[first] + ring[second]) / 2
    fraction = np.where(free, (values - ink[pair]) / (body - ink)[pair], np.inf)
    lowest = np.minimum.reduceat(fraction, offsets)
    return np.where(np.add.reduceat(free.astype(int), offsets) < 2, 1.0, lowest)
