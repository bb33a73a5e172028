"""Group pip candidates into faces.

Pips of one face lie on one uniform surface: the straight path between two of them
crosses only the die's body (no gap, seam or shadow between two touching dice, no table),
and they are alike (one size, one foreshortening, one ink, one lighting - or a lighting
that a highlight on a glossy face changes smoothly along that path). Pips are linked when
that holds; linked pips that form no real face are split at their weakest links.
"""

from __future__ import annotations

import math
from itertools import combinations
from dataclasses import dataclass
from functools import cached_property
from statistics import median
from typing import NamedTuple

import numpy as np

from reader.camera.body_colour import BodyColours
from reader.camera.layouts import MAX_SQUASHED, MOST_PIPS, LayoutError, LayoutFit, centroid, fit_layout
from reader.camera.pips import Pip
from reader.camera.smear import smeared

#: Farthest two pips of one face can be, in pip radii (the diagonal of a 2 or a 6), on
#: dice with pips of the usual size (their radius about 0.08 of the face's side or more)...
MAX_LINK_RADII = 10.0
#: ... and on dice with small pips set far out (casino-style, a radius of 0.055 of the
#: side: a 2's diagonal is 15 radii, a 4's side 10.5). Pips linked only this far are one
#: face only if together they form one; a group that forms none is taken apart as the
#: shorter links join it (the pips of touching dice, not one small-pipped face).
MAX_FAR_LINK_RADII = 16.0
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
#: A highlight on a glossy face lights one pip's surroundings more than another's: their
#: surroundings may differ by up to this fraction of the pip contrast when the path between
#: them shows the light changing smoothly from one to the other. A seam between two dice,
#: or the edge onto another face, changes it in a step.
MAX_GLARE_RING_DIFFERENCE = 0.25
#: The path shows that only when it crosses at least this many pip radii of body ...
MIN_GLARE_PATH_RADII = 1.0
#: ... whose ends differ the way the pips' surroundings do, by at least this fraction of
#: their difference (a difference the path does not show lies beyond the pips) ...
MIN_GLARE_SHOWN = 0.3
#: ... and along which the level changes by at most this fraction of the pip contrast
#: between points ``GLARE_STEP`` samples (about as many pixels) apart.
MAX_GLARE_STEP, GLARE_STEP = 0.15, 2
#: Pips of one face are printed alike: the fainter of two has at least this fraction of
#: the other's contrast (merged strokes of a side face are fainter than round top pips).
MIN_CONTRAST_RATIO = 0.7
#: ... but a highlight over a dark pip lifts its ink and not its surroundings, which are
#: light already: two dark pips whose surroundings are lit alike (within ``RING_NOISE``)
#: and whose shapes are nearly the same (round ratio ``MIN_GLARED_INK_SHAPE``; the fainter
#: strokes of a side face seen edge-on are flatter) may differ in contrast down to this
#: fraction.
MIN_GLARED_INK_RATIO, MIN_GLARED_INK_SHAPE = 0.5, 0.85
#: A group that is no real face is only split at a link weaker than this: a visible seam
#: or shading step between the pips, or pips unlike each other.
MAX_CUT_LINK = 0.85
#: Along the path between two pips of one face the grey level stays at least this far
#: (as a fraction of the pip contrast) from the pip level towards the body level.
MIN_PATH_BODY = 0.6
#: ... except under a highlight between two light pips (a dark or colourful die's white
#: pips, a lamp's reflection between them): it lifts the body towards the ink's level,
#: smoothly, where the table seen between two dice is entered in a step at their edges.
#: A path that shows no step (see ``MAX_GLARE_STEP``) may come this near the light ink.
MIN_GLARED_PATH_BODY = 0.3
#: Unlinked groups on one body are joined only into faces of this many pips or more, from
#: a group and up to ``MAX_JOIN_PARTS`` others ...
MIN_JOINED, MAX_JOIN_PARTS = 4, 4
#: ... or of ``MIN_JOINED_LIT_APART`` where the pips' surroundings differ by more than one
#: evenly lit face's do (``MAX_RING_DIFFERENCE``): a 3 on a small die with a highlight over
#: one of its pips, whose pips lie too close for the face between them to show the light
#: changing smoothly (rendered 3s 40 px across under glare of 0.5: 18 of 60 read before, 53).
MIN_JOINED_LIT_APART = 3
#: ... and only groups lit at least this fraction as brightly as the group they join (a
#: face's small pips show a paler ink than its big ones; a side face is darker still).
JOIN_LIGHT = 0.9
#: Two faces side by side: every pip of each lies this far out (in the other face's units,
#: per axis) from the other's centre. A face's edge is 1.9 to 2.3 out, so the nearest
#: pips of a touching die lie 2.8 or more out when the two dice stand square to each
#: other, but from 2.45 out when one is turned about 45 degrees against the other (a 2
#: whose pips point at a 5's corner: rendered seed 915, 2.45 and 2.64 out); a lone pip
#: that is a 1 on a neighbouring face (a top face above its side face) lies 3.8 or more
#: out, while three pips of one face in an L reach 3 out from the 2 that two of them
#: form. Groups of at most ``MAX_SIDE_BY_SIDE`` pips are searched for two such faces.
APART_REACH, APART_REACH_LONE, MAX_SIDE_BY_SIDE = 2.4, 3.6, 12
#: A group of more pips than a face has is two faces whatever their spacing: where no
#: split of it lies ``APART_REACH`` apart, one lying this far apart will do. Dice with big
#: pips (a radius of 0.1 of the side or more) set near their edges put a touching die's
#: nearest pips 2.3-2.5 out when the two stand square to each other.
APART_REACH_MANY = 2.2
#: Groups of this many pips or more that form no face are searched for one stray pip beside
#: the face the others form (see ``_stray_beside``) ...
MIN_STRAY_GROUP = 5
#: ... which is not one lying where a 6's third row lies beyond the 4 its other rows make:
#: (1, 3) out in that 4's units, give or take this much per axis.
SIXTH_ROW, SIXTH_ROW_SLACK = np.array([1.0, 3.0]), 0.6
#: A pip of a die's front face lies about 2.2 + 1.2 tan(tilt) out from its top face (its
#: edge, then down the front face to the pip), 2.9 or more under a camera 30 degrees or
#: more from straight above, and is more foreshortened than the top face's pips (less round
#: by ``FRONT_FLATTER``): when a pip that may be such lies beside the pips of a face, and
#: another lone pip lies far out too, either may be the top face's 1.
LONE_DOUBT, FRONT_FLATTER = 2.9, 0.92
#: Slack (pixels) in telling which pips may lie near a path (see ``_Paths._near_pip``).
NEAR_MARGIN = 1.0


@dataclass(frozen=True)
class PipGroup:
    """Pips (of one polarity) that lie on one continuous surface."""

    pips: tuple[Pip, ...]

    @cached_property
    def points(self) -> np.ndarray:
        return np.array([(p.x, p.y) for p in self.pips], float)

    @cached_property
    def centre(self) -> np.ndarray:
        return np.array(centroid([(p.x, p.y) for p in self.pips]))

    @cached_property
    def radius(self) -> float:
        return median([p.radius for p in self.pips])

    @cached_property
    def body_level(self) -> float:
        return median([p.ring for p in self.pips])

    @cached_property
    def pip_length(self) -> float:
        """Median pip half-length (radius along the pip's long axis, which foreshortening keeps)."""
        return median([p.radius / math.sqrt(p.roundness) for p in self.pips])

    @cached_property
    def long_axis(self) -> float:
        """The image angle (radians) of the pips' common long axis, which foreshortening keeps."""
        doubled = sum(complex(math.cos(2 * p.angle), math.sin(2 * p.angle)) for p in self.pips)
        return math.atan2(doubled.imag, doubled.real) / 2

    @cached_property
    def squash(self) -> np.ndarray:
        """The face's foreshortening as its pips show it: a 2x2 map that keeps the pips' long
        axis and shortens the other by their roundness (round pips: the identity)."""
        return squash_along(self.long_axis, median([p.roundness for p in self.pips]))

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


def squash_along(angle: float, roundness: float) -> np.ndarray:
    """The 2x2 map that keeps the image direction ``angle`` (radians) and shortens the one
    across it by ``roundness``: a face foreshortened across that direction."""
    c, s = math.cos(angle), math.sin(angle)
    # rotation @ diag(1, roundness) @ rotation.T
    return np.array([[c * c + roundness * s * s, (1 - roundness) * c * s],
                     [(1 - roundness) * c * s, s * s + roundness * c * c]])


def _fitted(group: PipGroup, single_spacing: float) -> tuple[LayoutFit | None, str | None]:
    # four pips or more show the face's foreshortening themselves: the fit takes no squash
    squash = group.squash if len(group.pips) <= MAX_SQUASHED else None
    try:
        return fit_layout(group.points, squash, single_spacing), None
    except LayoutError as err:
        return None, str(err)


def group_pips(pips: list[Pip], grey: np.ndarray, colours: BodyColours | None = None) -> list[PipGroup]:
    """Split pip candidates into groups that each lie on one face (``colours``, the frame in
    colour, keeps pips on bodies of clearly different colours apart).

    Pips are linked when they may share a face, each link scored by how clearly the path
    between them stays on the body and how alike the two pips are; links longer than a
    usual face's (see ``MAX_FAR_LINK_RADII``) only where inks and tints agree. Linked pips
    whose layout is not a real face (two touching dice, a side face joined to a top face)
    are split until every part is a face or a lone pip.
    """
    if not pips:
        return []
    measures = _Measures(pips)
    first, second = _placeable(measures)
    if colours is not None and len(first):
        same_colour = ~colours.apart_pairs(pips, first, second)
        first, second = first[same_colour], second[same_colour]
    likeness, glare_likeness = _alike(measures, first, second)
    paths = _Paths(grey, measures, first, second)
    scores = paths.body_scores()
    on_body = scores >= MIN_PATH_BODY

    def unsmeared(pairs: np.ndarray) -> np.ndarray:
        """Those of the ``pairs`` (indices) neither of whose pips is smeared by motion: a
        smear blurs any edge (between two dice, or two faces of one die) into a smooth
        change of light, as a highlight makes."""
        return np.array([k for k in pairs.tolist() if not (smeared(pips[first[k]], grey)
                                                           or smeared(pips[second[k]], grey))], int)

    glared_path = np.flatnonzero(~on_body & (scores >= MIN_GLARED_PATH_BODY) & (measures.dark[first] == 0))
    if len(glared_path):
        on_body[unsmeared(glared_path[paths.steady(glared_path)])] = True
    glare = unsmeared(np.flatnonzero(on_body & (likeness == 0) & (glare_likeness > 0)))
    if len(glare):
        # the light across a highlight changes smoothly, and it leaves a colourful die's colour
        lit = paths.smooth(glare)
        if colours is not None and not lit.all():
            lit[~lit] = colours.same_colourful_body(pips, first[glare[~lit]], second[glare[~lit]])
        likeness[glare] = np.where(lit, glare_likeness[glare], 0.0)
    near = measures.distance[first, second] <= MAX_LINK_RADII * (measures.radius[first] + measures.radius[second]) / 2
    linked = on_body & (likeness > 0)
    far = np.flatnonzero(linked & ~near)
    if colours is not None and len(far):
        # pips this far apart are as far apart as the 1s of touching dice: one face only if
        # their inks and tints agree too (a black die's gold 1 beside another's white 1)
        apart = (colours.inks_apart_pairs(pips, first[far], second[far])
                 | colours.tints_apart_pairs(pips, first[far], second[far]))
        linked[far[apart]] = False
    weights = scores * likeness

    def links_where(kept: np.ndarray) -> list[tuple[float, int, int]]:
        return list(zip(weights[kept].tolist(), first[kept].tolist(), second[kept].tolist()))

    links, far_links = links_where(linked & near), links_where(linked & ~near)
    groups: list[PipGroup] = []
    for members in _components(range(len(pips)), links + far_links):
        groups.extend(_split(members, links, pips, far_links))
    return _join_unevenly_lit(groups, first[on_body & near], second[on_body & near], pips)


class _Measures:
    """The pips' measures as arrays (one per measure, indexed like the pips, read off the
    pips in one pass) and their ``distance`` apart (pip by pip): the pairwise work below is
    all array arithmetic."""

    def __init__(self, pips: list[Pip]) -> None:
        (self.x, self.y, self.radius, self.roundness, self.contrast, self.ring, self.level,
         self.dark) = np.array([(p.x, p.y, p.radius, p.roundness, p.contrast, p.ring, p.level, p.dark) for p in pips],
                               float).reshape(-1, 8).T
        self.distance = np.hypot(np.subtract.outer(self.x, self.x), np.subtract.outer(self.y, self.y))


def _placeable(measures: _Measures) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of pips (``first[k] < second[k]``) that may share a face by place, size and
    shape alone, whatever their light."""
    def ratio(v: np.ndarray) -> np.ndarray:
        return np.minimum.outer(v, v) / np.maximum.outer(v, v)

    radius = measures.radius
    placeable = (np.equal.outer(measures.dark, measures.dark) & (ratio(radius) >= 1 / MAX_RADIUS_RATIO)
                 & (ratio(measures.roundness) >= MIN_ROUNDNESS_RATIO)
                 & (measures.distance <= MAX_FAR_LINK_RADII * np.add.outer(radius, radius) / 2))
    return np.nonzero(np.triu(placeable, 1))


def _alike(measures: _Measures, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pair (``first[k]``, ``second[k]``) of pips that may share a face by place,
    how alike they are (1 = same size, shape, ink and surroundings), or 0 when they are too
    unlike to share a face; and the same for pairs whose surroundings differ only as much
    as a highlight makes them (0 for every other pair)."""
    def ratio(v: np.ndarray) -> np.ndarray:
        a, b = v[first], v[second]
        return np.minimum(a, b) / np.maximum(a, b)

    contrast_a, contrast_b = measures.contrast[first], measures.contrast[second]
    r_ratio, round_ratio, c_ratio = ratio(measures.radius), ratio(measures.roundness), ratio(measures.contrast)
    ring_gap = np.abs(measures.ring[first] - measures.ring[second])
    mean_contrast = (contrast_a + contrast_b) / 2
    glared_ink = ((c_ratio >= MIN_GLARED_INK_RATIO) & (ring_gap <= RING_NOISE) & (round_ratio >= MIN_GLARED_INK_SHAPE)
                  & (measures.dark[first] > 0))
    inked_alike = (c_ratio >= MIN_CONTRAST_RATIO) | glared_ink
    lit_alike = ring_gap <= np.maximum(MAX_RING_DIFFERENCE * mean_contrast, RING_NOISE)
    glared = ~lit_alike & (ring_gap <= MAX_GLARE_RING_DIFFERENCE * mean_contrast)
    likeness = r_ratio * round_ratio * c_ratio * (1 - ring_gap / np.maximum(contrast_a, contrast_b))
    return np.where(inked_alike & lit_alike, likeness, 0.0), np.where(inked_alike & glared, likeness, 0.0)


def _components(nodes, links: list[tuple[float, int, int]]) -> list[list[int]]:
    """The ``nodes`` split into the sets that ``links`` (score, node, node) join, each in
    the order of ``nodes``, the sets in the order of their first node."""
    nodes = list(nodes)
    # each node's set, shared by its members: the smaller set is moved into the larger
    # (for a few dozen nodes, quicker in Python than a union-find's root walks)
    member_of = {i: [i] for i in nodes}
    for _, i, j in links:
        a, b = member_of.get(i), member_of.get(j)
        if a is not None and b is not None and a is not b:
            if len(a) < len(b):
                a, b = b, a
            a.extend(b)
            for k in b:
                member_of[k] = a
    out: dict[int, list[int]] = {}
    for i in nodes:
        out.setdefault(id(member_of[i]), []).append(i)
    return list(out.values())


def _split(members: list[int], links: list[tuple[float, int, int]], pips: list[Pip],
           far_links: list[tuple[float, int, int]] | None = None) -> list[PipGroup]:
    """``members`` as one group if they form a face; else as the two faces side by side
    they form (two dice touching, whether or not a seam shows between them, or a top face
    and a side face seen round a die's edge); else, if ``far_links`` (see
    ``MAX_FAR_LINK_RADII``) joined them, as the groups ``links`` alone make of them; else
    split at the weakest link."""
    group = PipGroup(tuple(pips[i] for i in members))
    if len(members) == 1 or _is_face(group):
        return [group]
    parts = _side_by_side(group)
    if parts is not None:
        return [out for part in parts for out in _split([members[k] for k in part], links, pips, far_links)]
    stray = _stray_beside(group)
    if stray is not None:
        rest = [i for k, i in enumerate(members) if k != stray]
        return [PipGroup(tuple(pips[i] for i in rest)), PipGroup((pips[members[stray]],))]
    if far_links:
        inside = set(members)
        if any(i in inside and j in inside for _, i, j in far_links):
            return [out for part in _components(members, links) for out in _split(part, links, pips)]
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


def _join_unevenly_lit(groups: list[PipGroup], first: np.ndarray, second: np.ndarray, pips: list[Pip]) -> list[PipGroup]:
    """Join groups that together form one face, their pips on one body but some of them in
    a highlight (glare on a glossy die) or cut apart from the rest where a touching die's
    pips were linked with them.

    The pairs (``first[k]``, ``second[k]``) of pips (indices into ``pips``) are those that
    may share a face by place, size and shape, with only body between them, whatever their
    light. Each group, largest first, takes in those of the groups so linked to it, lit
    about as brightly or more, with which it forms the largest face: a side face is shaded,
    and its pips with a top face's may well fit some face too. Only faces of ``MIN_JOINED``
    pips or more are made so: any marks in a row (letters of print) fit a 2 or a 3, but
    few fit the corners of a 4, 5 or 6; a 3 only where its pips are lit apart, as a
    highlight lights them (see ``MIN_JOINED_LIT_APART``).
    """
    group_of = {id(p): k for k, g in enumerate(groups) for p in g.pips}
    group = np.array([group_of[id(p)] for p in pips], int)
    linked: dict[int, set[int]] = {k: set() for k in range(len(groups))}
    apart = group[first] != group[second]
    for a, b in zip(group[first[apart]].tolist(), group[second[apart]].tolist()):
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
    """The most pips (at least ``MIN_JOINED``, or ``MIN_JOINED_LIT_APART`` lit apart; at
    most six) that the anchor group and some of the ``others`` (the ``MAX_JOIN_PARTS``
    nearest) form a face with: the groups taken and the joined group; None if they form no
    such face."""
    if not others:
        return None
    centre = groups[anchor].centre
    nearest = sorted(others, key=lambda k: float(np.hypot(*(groups[k].centre - centre))))[:MAX_JOIN_PARTS]
    best: tuple[list[int], PipGroup] | None = None
    for size in range(len(nearest), 0, -1):
        for chosen in combinations(nearest, size):
            pips = groups[anchor].pips + tuple(p for k in chosen for p in groups[k].pips)
            # (the cheap tests first: most joins tried are too big or no bigger than the best)
            if (len(pips) <= MOST_PIPS and (best is None or len(pips) > len(best[1].pips))
                    and len(pips) >= _least_joined(pips)):
                union = PipGroup(pips)
                if _is_face(union):
                    best = ([anchor, *chosen], union)
    return best


def _least_joined(pips: tuple[Pip, ...]) -> int:
    """The fewest pips a join of ``pips`` may make a face of: fewer where their surroundings
    are lit apart."""
    rings = [p.ring for p in pips]
    lit_apart = max(rings) - min(rings) > max(MAX_RING_DIFFERENCE * median([p.contrast for p in pips]), RING_NOISE)
    return MIN_JOINED_LIT_APART if lit_apart else MIN_JOINED


def _side_by_side(group: PipGroup) -> tuple[list[int], list[int]] | None:
    """The group's pips (their indices) split into two faces side by side, each part's pips
    at least ``APART_REACH`` (a lone pip ``APART_REACH_LONE``; in a group of more pips than
    a face has, ``APART_REACH_MANY`` if none lies that far) out from the other part's face
    centre, in that face's units; None if no split does it, or if splits that do it
    disagree on the values shown.

    Splits tried: at every place along either of the group's principal axes (two dice side
    by side), and each single pip against the rest (a 1 on top of a side face's pips); the
    latter only when no other single pip, flatter than the rest, lies as far out as
    ``LONE_DOUBT`` (a 2 or 3 on top with a pip of its front face).
    """
    n = len(group.pips)
    if not 3 <= n <= MAX_SIDE_BY_SIDE:
        return None
    points = group.points - group.centre
    splits = {(k,) for k in range(n)}
    for axis in np.linalg.svd(points, full_matrices=False)[2]:
        order = np.argsort(points @ axis, kind="stable")
        splits.update(tuple(sorted(order[:k].tolist())) for k in range(1, n))
    candidates: list[_Split] = []
    doubtful: set[int] = set()  # lone pips that may be a front face's pip (see ``LONE_DOUBT``)
    for split in splits:
        first, second = list(split), [k for k in range(n) if k not in split]
        fits = [PipGroup(tuple(group.pips[k] for k in part)).layout(1.0)[0] for part in (first, second)]
        if fits[0] is None or fits[1] is None:
            continue
        candidate = _Split(first, second, fits[0], fits[1])
        lone = candidate.lone
        if lone and _outside(candidate.rest_fit, group.points[lone], LONE_DOUBT) and _flatter(group, lone[0]):
            doubtful.add(lone[0])
        candidates.append(candidate)
    parts = _apart(group, candidates, doubtful, APART_REACH)
    if parts is None and n > MOST_PIPS:
        parts = _apart(group, candidates, doubtful, APART_REACH_MANY)
    return parts


class _Split(NamedTuple):
    """A group's pips (their indices) in two parts, and the face each part forms."""

    first: list[int]
    second: list[int]
    first_fit: LayoutFit
    second_fit: LayoutFit

    @property
    def lone(self) -> list[int]:
        """The part that is a lone pip, if either is (else empty)."""
        return self.first if len(self.first) == 1 else self.second if len(self.second) == 1 else []

    @property
    def rest_fit(self) -> LayoutFit:
        """The face of the part that is not :attr:`lone` (where there is a lone pip)."""
        return self.second_fit if len(self.first) == 1 else self.first_fit


def _apart(group: PipGroup, splits: list[_Split], doubtful: set[int],
           reach: float) -> tuple[list[int], list[int]] | None:
    """The one split (see :func:`_side_by_side`) whose parts each lie ``reach`` out from
    the other's face (a lone pip ``APART_REACH_LONE``), or None if none does or those that
    do disagree on the values shown; lone pips in ``doubtful`` bar every split showing a 1."""
    found: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    ones: set[int] = set()  # lone pips split off as a 1
    for split in splits:
        first, second, first_fit, second_fit = split
        lone = split.lone
        apart = APART_REACH_LONE if lone else reach
        if _outside(first_fit, group.points[second], apart) and _outside(second_fit, group.points[first], apart):
            found.setdefault(tuple(sorted((first_fit.value, second_fit.value))), (first, second))
            ones.update(lone)
    if doubtful - ones:
        # a top face's 1 beside its front face's pips, or a front face's pip beside the top
        # face's pips: the pips do not tell which is the odd one out (only a lone pip is a 1)
        found = {values: parts for values, parts in found.items() if 1 not in values}
    return next(iter(found.values())) if len(found) == 1 else None


def _stray_beside(group: PipGroup) -> int | None:
    """The one pip of a group of at least ``MIN_STRAY_GROUP`` that lies ``APART_REACH`` out
    from the face all its other pips form (a pip of a touching die whose own face's other
    pips were not linked with it: that die turned against this one, or lit apart by a
    highlight); None if no pip or more than one does, or if the pip lies where a 6's third
    row would lie beyond a 4 (a 6 missing a pip is no 4 and a stray)."""
    if len(group.pips) < MIN_STRAY_GROUP:
        return None
    found = []
    for k in range(len(group.pips)):
        fit = PipGroup(group.pips[:k] + group.pips[k + 1:]).layout(1.0)[0]
        if fit is None:
            continue
        # (the others are four pips or more: their face is no 1, and has units per axis)
        units = np.abs(np.linalg.solve(fit.axes, group.points[k] - fit.centre))
        sixth_row = fit.value == 4 and np.abs(np.sort(units) - SIXTH_ROW).max() < SIXTH_ROW_SLACK
        if units.max() >= APART_REACH and not sixth_row:
            found.append(k)
    return found[0] if len(found) == 1 else None


def _flatter(group: PipGroup, k: int) -> bool:
    """Whether the group's pip ``k`` is foreshortened more than the others, as a front
    face's pip beside its top face's pips is."""
    rest = [p.roundness for i, p in enumerate(group.pips) if i != k]
    return group.pips[k].roundness < FRONT_FLATTER * median(rest)


def _outside(fit: LayoutFit, points: np.ndarray, reach: float) -> bool:
    """Whether every point lies at least ``reach`` out from the face's centre, per axis in
    the face's own units (a lone pip shows no extent: nothing lies on its face)."""
    if fit.value == 1:
        return True
    units = np.linalg.solve(fit.axes, (points - fit.centre).T)
    return bool((np.abs(units).max(axis=0) >= reach).all())


class _Paths:
    """The straight paths from pip ``first[k]`` to pip ``second[k]``, for every pair k, sampled
    about once a pixel, all pairs at once; the points on any pip (and its blurred rim) are
    not free: they say nothing about the body between."""

    def __init__(self, grey: np.ndarray, measures: _Measures, first: np.ndarray, second: np.ndarray) -> None:
        # per pair: the two pips' mean radius, ink level, contrast and ring level, and how
        # much lighter the second's ring is
        self.radius, self.ink, self.contrast, self.body = ((v[first] + v[second]) / 2 for v in (
            measures.radius, measures.level, measures.contrast, measures.ring))
        self.ring_gap = measures.ring[second] - measures.ring[first]
        # (x and y apart: indexing 1-d arrays is cheaper than N x 2 ones)
        x, y = measures.x, measures.y
        x0, y0, dx, dy = x[first], y[first], x[second] - x[first], y[second] - y[first]
        counts = np.maximum(np.hypot(dx, dy).astype(int), 2)
        self.offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int)
        self.pair = np.repeat(np.arange(len(first)), counts)
        t = (np.arange(counts.sum()) - self.offsets[self.pair]) / (counts[self.pair] - 1)
        px, py = x0[self.pair] + t * dx[self.pair], y0[self.pair] + t * dy[self.pair]
        self.free = ~self._near_pip(px, py, measures, first, second, counts)
        h, w = grey.shape
        self.values = grey[np.rint(py).astype(int).clip(0, h - 1), np.rint(px).astype(int).clip(0, w - 1)].astype(float)
        self.free_counts = np.add.reduceat(self.free.astype(int), self.offsets) if len(first) else np.zeros(0, int)

    def _near_pip(self, px: np.ndarray, py: np.ndarray, measures: _Measures, first: np.ndarray, second: np.ndarray,
                  counts: np.ndarray) -> np.ndarray:
        """Which of the paths' points (``px``, ``py``) lie on a pip or its blurred rim.

        Each path's points are tested only against the pips that may lie that near its
        segment: a point of the segment within ``reach`` of a pip puts the pip within
        the ellipse of points whose distances to the segment's ends add up to at most its
        length plus twice ``reach`` (``NEAR_MARGIN`` keeps rounding out of it). Tested
        against every pip, the test costs a point per pip, nearly all of them far apart.
        """
        reach = 1.5 * measures.radius + 1
        distance = measures.distance
        pair, pip = np.nonzero(distance[first] + distance[second]
                               <= (distance[first, second] + NEAR_MARGIN)[:, None] + 2 * reach)
        # every point of each such path, against that pip
        sizes = counts[pair]
        ends = np.cumsum(sizes)
        index = np.arange(ends[-1] if len(ends) else 0) + np.repeat(self.offsets[pair] - (ends - sizes), sizes)
        pip = np.repeat(pip, sizes)
        near = np.zeros(len(px), bool)
        near[index[(px[index] - measures.x[pip]) ** 2 + (py[index] - measures.y[pip]) ** 2 <= reach[pip] ** 2]] = True
        return near

    def body_scores(self) -> np.ndarray:
        """How clearly each path stays on the body: the darkest (for dark pips) free point,
        as a fraction of the way from the pip level (0) to the body level (1); 1 for a path
        that runs over pips only."""
        if not len(self.ring_gap):
            return np.zeros(0)
        fraction = np.where(self.free, (self.values - self.ink[self.pair]) / (self.body - self.ink)[self.pair], np.inf)
        lowest = np.minimum.reduceat(fraction, self.offsets)
        return np.where(self.free_counts < 2, 1.0, lowest)

    def smooth(self, chosen: np.ndarray) -> np.ndarray:
        """Whether each ``chosen`` path (indices of pairs) shows the light changing smoothly
        from the first pip's surroundings to the second's, as across a highlight: it crosses
        enough body, its ends differ the way the pips' surroundings do, and it shows no step."""
        index = np.arange(len(self.values))
        first_free = np.minimum.reduceat(np.where(self.free, index, index[-1]), self.offsets)[chosen]
        last_free = np.maximum.reduceat(np.where(self.free, index, 0), self.offsets)[chosen]
        gap = self.ring_gap[chosen]
        shown = (self.values[last_free] - self.values[first_free]) * np.sign(gap)
        return (shown >= MIN_GLARE_SHOWN * np.abs(gap)) & self.steady(chosen)

    def steady(self, chosen: np.ndarray) -> np.ndarray:
        """Whether each ``chosen`` path crosses enough body and shows no step in its light."""
        steps = np.abs(self.values[GLARE_STEP:] - self.values[:-GLARE_STEP])
        free, pair = self.free, self.pair
        steps[~(free[GLARE_STEP:] & free[:-GLARE_STEP]) | (pair[GLARE_STEP:] != pair[:-GLARE_STEP])] = 0
        steepest = np.maximum.reduceat(np.append(steps, np.zeros(GLARE_STEP)), self.offsets)[chosen]
        return ((self.free_counts[chosen] >= MIN_GLARE_PATH_RADII * self.radius[chosen])
                & (steepest <= MAX_GLARE_STEP * self.contrast[chosen]))
