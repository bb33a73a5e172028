"""Checks that a fitted top face is really what it seems, before its value is trusted.

Each check looks at grey levels the fit predicts: places where the layout has no pip must
show the die's body, the face around the pips must be body too (not a hand, another die
or the table: the die would be occluded), and pip rims must be sharp (not motion-blurred).
Levels are compared as a fraction of the way from the pips' level (0) to the body's (1).
A face must also account for every pip of its die: pips that went unseen or ungrouped
(faint coloured pips, small pips far apart) must not leave a smaller face that fits, so
the geometry that only part of a bigger face would show is refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from statistics import median

import numpy as np

from reader.camera.body_colour import INK_CHROMA, NEUTRAL_CHROMA, BodyColours, colours_apart, ring_directions
from reader.camera.camera_direction import TowardsCamera
from reader.camera.colour import shade_distance
from reader.camera.die_body import centred_on_body, face_half
from reader.camera.dice_finder import (DEFAULT_SPACING_RADII, FACE_HALF, MIN_BEYOND_APART, SINGLE_SPACING_RADII,
                                      FaceCandidate)
from reader.camera.layouts import (ALL_SPOTS, CANONICAL, CORNERS, MAX_RESIDUAL, LayoutError, LayoutFit, fit_layout,
                                   within)
from reader.camera.pip_groups import MAX_RADIUS_RATIO, MIN_CONTRAST_RATIO, MIN_ROUNDNESS_RATIO, squash_along
from reader.camera.pips import Pip
from reader.camera.smear import Smear, face_smear, smeared

#: Why a lone blob is no printed pip (a soft-edged highlight, or a blob uneven inside).
NO_PIP = "no pip"
#: An empty pip spot must be at least this far from the pip level towards the body.
MIN_EMPTY_SPOT = 0.6
#: Face samples between the pips and the edge may stray this far from the body level.
MAX_BODY_STRAY = 0.4
#: At least this share of those samples must be body for the candidate to be a die at all.
MIN_BODY_SHARE = 0.5
#: The grey levels of a die's body vary (sensor noise, grain) by at most this fraction of
#: the pip contrast (standard deviation in a small square); by at most ``SMOOTH_BODY_GRAIN``
#: on a body smooth enough for shading to be told from a ray's very start (see
#: :func:`centred_on_body`): lone 1s in a highlight on rendered dice 0.05-0.07, specks on a
#: finely grained table and on a wooden tray 0.12 and 0.17.
MAX_BODY_GRAIN, SMOOTH_BODY_GRAIN = 0.2, 0.1
#: A 1's die is about as big as the frame's other dice: its edge lies within this many of
#: their pip offsets of its pip, all round (a die's half-side is about 2 offsets;
#: perspective and dice of a little bigger make up the rest).
ONE_DIE_REACH = 2.6
#: A lone pip's face is guessed 1.5 pip half-lengths to its pip offset (a 1 is often
#: printed larger than the other pips), and its empty places lie that far out: on dice
#: whose pips sit further apart (3 half-lengths and more on the renderer's), a blurred or
#: foreshortened pip's own rim reaches into them, and the 1 was refused. Where the frame's
#: other dice show their pip offset, the places are moved out to it, up to this many of
#: the lone pip's half-lengths; only for a pip at least ``MIN_FAR_PLACES_ROUNDNESS``
#: round: a top face's pips are that round under a camera up to 55 degrees from straight
#: above, and a flatter one is more often a side face's, whose near places (on its die's
#: edge, or on its face's other pips) are what refuses it.
MAX_ONE_PLACES, MIN_FAR_PLACES_ROUNDNESS = 4.0, 0.55
#: Where the face is sampled for occlusion, in units of the pip offset: points between the
#: outer pips and the face's edge (which is 1.8 to 2.4 out, depending on the dice), clear of
#: every pip place, and out along both diagonals to ``DIAGONAL_REACH`` (beyond a 2's or 3's
#: empty corners).
DIAGONAL_REACH = 1.45
BODY_SAMPLES = np.array([[x * 1.5, y * 0.5] for x in (-1, 1) for y in (-1, 1)]
                        + [[x * 0.5, y * 1.5] for x in (-1, 1) for y in (-1, 1)]
                        + [[x * DIAGONAL_REACH, y * DIAGONAL_REACH] for x in (-1, 1) for y in (-1, 1)], float)
#: Beyond a 2's empty corners, in pip offsets (as far out as the diagonal body samples):
#: a 2's face reaches there, two touching dice whose 1s lie as far apart do not.
BEYOND_EMPTY_TWO = DIAGONAL_REACH * np.array([[1.0, -1.0], [-1.0, 1.0]])
#: A colourful body keeps at least this share of its chroma there, shaded or not, and its
#: grey level strays from the body's by at most this share of the pips' contrast.
BEYOND_CHROMA_SHARE, BEYOND_STRAY = 0.5, 0.25
#: A body sample within ``RIM_RADII`` pip radii plus ``RIM_BLUR`` pixels of a pip's centre
#: lies on its blurred rim (its square, half a radius across, reaching into the pip's blur).
RIM_RADII, RIM_BLUR = 1.3, 1.0
#: Body samples all on pips' rims are moved out to this many times their place (in pip
#: offsets, the side samples from 1.5 to 1.65 out, the diagonal ones from 1.45 to 1.6):
#: still short of the face's edge, 1.8 out or more.
BODY_SAMPLE_PUSH = 1.1
#: Pip rims wider than ``BLUR_SLOPE * radius + BLUR_OFFSET`` pixels mean a blurred die. A
#: lone blob whose rim is wider than ``SOFT_SLOPE * radius + BLUR_OFFSET`` is no printed pip
#: at all but a highlight on a glossy die (its rim widens with its size; a pip's rim is the
#: camera's blur, and lone pips on real photos, blurred ones included, stay under 0.6).
BLUR_SLOPE, BLUR_OFFSET, SOFT_SLOPE = 0.8, 2.0, 0.65
#: Pips much longer than the face's own foreshortening explains were smeared by motion.
MAX_SMEAR = 0.3
#: Pips are circles printed on the face, so a face is foreshortened as much as its pips
#: are: a layout fitted much flatter than the pips look is pips of another face (a 6 with
#: pips unseen, fitted as a slanted 4).
MAX_SKEW = 0.25
#: A place holds a pip when the ring around it is above the second of these fractions (from
#: ink, 0, to body, 1) and its level below the first, or at least ``PIP_DEPTH`` below its
#: ring (on a face lit unevenly, a pip where the light is brighter is lighter than the
#: face's other pips).
PIP_LIKE, PIP_DEPTH = (0.35, 0.7), 0.6
#: A foreseen place's ring leaves out its samples within this many pip radii of another
#: place foreseen in its row or of the face's own pips (the ring lies 2.2 radii out).
RING_CLEAR_RADII = 1.2
#: Pips of a bigger face beside a 2 or 3 show beside at least this many of its pips: both
#: of a 2's, two of a 3's (a column of a 6 beside a small die's three may show two, its
#: third merged into the die cut out whole, or lost in glare).
MIN_BESIDE = 2
#: A pip foreseen beside a 2 or 3 is looked for this many pip radii about its place, too.
PLACE_NUDGE = 0.6
#: Two pips of a 2 lie up to this many pip radii apart (dice with small pips: pip offset
#: up to 4.5 radii; a 2's pips are 2 * sqrt(2) offsets apart).
PARTNER_REACH_RADII = 13.0
#: A lone pip's inside, sampled out to ``INSIDE_REACH`` of its radius, varies by at most
#: ``MOTTLED`` of its contrast (standard deviation): ink is one level.
INSIDE_REACH, MOTTLED = 0.6, 0.2
#: A partner's contrast is at least this fraction of the lone pip's (or the reverse): a
#: pip near the edge of a face seen obliquely is fainter, and doubt only costs a reading.
MIN_PARTNER_CONTRAST = 0.5
#: ... but two dark pips whose bodies are lit this much apart (the level round one at most
#: this fraction of the level round the other), and whose contrasts part as far as their
#: bodies' levels, give or take ``SHADE_MATCH``, lie on two faces turned differently to the
#: light: a shaded face darkens ink and body alike, where a highlight adds light to both and
#: leaves the contrast.
PARTNERS_LIT_APART, SHADE_MATCH = 0.75, 1.3
#: Pips at least this round show no direction; the long axes of two ovals of one face
#: turn from each other by at most this much (radians).
ROUND_PIP, MAX_AXIS_TURN = 0.85, math.radians(25)
#: Highest confidence in a face read through motion smear.
SMEARED_CONFIDENCE = 0.6
#: Highest confidence in a 1: a lone pip shows no layout to check, and clutter (a round
#: mark, a key's symbol) can look like one.
SINGLE_PIP_CONFIDENCE = 0.6
#: A place that grey shows inked holds ink only if its colour lies at least this share of
#: its grey's way from the body's towards the ink's (where the two differ in colour; see
#: ``BodyColours.ink_share``): a pip shows both alike, a highlight only grey.
MIN_INK_SHARE = 0.4
#: ... and only if grey shows it at least this far from the ink towards the body (0 ink, 1 body).
MIN_GLARE_LEVEL = 0.25
#: An empty place of a face of two pips or more that grey shows inked is only lit if the
#: median grey on rings ``GLARE_RING_RADII`` pip radii round it (``GLARE_RING_SAMPLES``
#: points on each) lies less than ``GLARE_RIM_STEP`` nearer the body (0 ink, 1 body; see
#: :func:`_rim_steps`): a pip's rim lies about a whole step nearer, a highlight's 0.2 or
#: less. (A 6's pips beside its empty middle places take up a quarter of the rings' points
#: at most: the median is the body's. A lone pip's face is a guess: its places are lit only
#: where colour says so too, or round a round black pip, see :func:`_lone_lit`; on the real
#: photos a USB plug's hole, an oval, passed for a 1 with a lit place that grey alone excused.)
GLARE_RING_RADII, GLARE_RING_SAMPLES, GLARE_RIM_STEP = (1.8, 2.2), 16, 0.3
#: ... and only if grey shows it at least this far from the ink (a highlight's places on
#: the test sets lie 0.45 to 0.6 from it, nearly all; one nearer, at 0.27, was a front
#: face's place on its top face's pip).
MIN_GLARED_LEVEL = 0.4
#: The other way, an empty place that grey shows empty holds a pip if its rings lie this
#: much nearer the body than it: a dark pip under a highlight, lifted past
#: ``MIN_EMPTY_SPOT`` with its rim (a grey die's 5 whose middle pip the pip search lost in
#: the light was read as a 4). Not on a smeared face, whose pips' tracks cross its places.
HIDDEN_RIM_STEP = 0.35
#: An empty place of a face of dark pips whose colour lies this far from the body's
#: towards the ink's holds a pip, however light it is in grey (glare on it).
HIDDEN_INK_SHARE = 0.75
#: A place whose colour lies this far from the body's towards the ink's holds a pip; a
#: lone coloured pip's other places are looked for at these multiples of a typical face.
MIN_PLACE_INK, INK_PLACE_SCALES = 0.5, (1.0, 1.3)
#: ... and a pip's place is ringed by body: its ring's colour lies at most this far towards
#: the ink's.
MAX_RING_INK = 0.25
#: A lone coloured pip's partner joined to a highlight in one blob lies out on the blob's
#: rim: it is looked for at these shares of the blob's long semi-axis, not within
#: ``OWN_INK_RADII`` pip radii of the lone pip.
JOINED_RIM, OWN_INK_RADII = (0.75, 1.0), 2.0
#: Places that may hold pips smaller than this (radius, pixels) are sampled a pixel at a
#: time: a 3 x 3 mean spreads a blurred 2-pixel pip into the body.
SMALL_PIP_RADIUS = 3.0
#: How far out (in pip offsets, per axis) a pip place with its rim reaches: the corner
#: pips sit 1 out, and a pip's rim about half an offset beyond its centre.
PIP_PLACES_REACH = 1.6
#: A pip candidate this far out from the face centre (in pip offsets, per axis) is on the
#: face: the edge is about 2.2 out.
STRAY_REACH = 1.9
#: A pip down to ``1 / MAX_SMALL_STRAY`` of the face's pips' radius is stray too when it
#: lies within ``SMALL_STRAY_REACH`` of the face's centre (in pip offsets, per axis).
MAX_SMALL_STRAY, SMALL_STRAY_REACH = 2.5, 1.2
#: A stray beside a face of two pips or more stands out at least this share of their
#: contrast (a pip in a highlight keeps more of it). A lone pip counts every stray: marks
#: that are no dice (a key's symbol) are lone, and faint marks round them tell them apart.
MIN_STRAY_CONTRAST = 0.25
#: A lone pip's face is refused for a stray up to this many times its pip's size: a
#: highlight spreads a small coloured pip over twice its size, or more.
MAX_ONE_STRAY_RATIO = 2.5
#: A lone pip's face measured from its body (a die of big pips) is taken as at least this
#: share of a typical die's: a highlight or a rim may end the body early.
MIN_OWN_FACE_SHARE = 0.7
#: Pips less round than this mean the face is seen too edge-on: a cocked die.
MIN_FACE_ROUNDNESS = 0.45
#: A face whose pips are at least this round may be a top face seen by a camera up to 45
#: degrees from straight down (cos 45 degrees is 0.71), which sees its die's side faces
#: flatter than it: only beside such a face is a flatter pip taken for a side face's.
MIN_TOP_ROUNDNESS = 0.7
#: Pips of a real face sit at least this many pip radii apart along a face axis (the pips
#: of a 6's columns do not touch, so about 2; real dice measure 2.2 to 3): two pips closer
#: than that are a corner and the centre of a 3 or 5 whose other pips went unseen.
MIN_SPACING_RADII = 1.6


@dataclass(frozen=True)
class Verdict:
    """The outcome of the checks: ``reason`` is None when the face can be read.

    ``die_like`` says whether what was checked looks like a die at all (most of the face
    around the pips is one uniform body); an unreadable candidate that does not is clutter
    (print, a keyboard, a cable), not a die to report.
    """

    reason: str | None
    confidence: float
    die_like: bool = True
    #: a lone pip whose partner, joined to a highlight, shows its ink (see
    #: :func:`_joined_partner`): it is no 1, however a closer look reads it
    joined_partner: bool = False
    #: a 2 refused as the 1s of two touching dice (see :func:`ones_of_two_dice`): each of
    #: its pips may be read as a 1 of its own
    two_ones: bool = False
    #: a lone pip refused for a partner pip like it (see :func:`lone_partners`): the two
    #: may be a die's face that a closer look reads whole
    partnered: bool = False


def check_face(face: FaceCandidate, grey: np.ndarray, others: Sequence[Pip] = (), lone: Sequence[Pip] = (),
               colours: BodyColours | None = None, die_offset: float | None = None,
               towards_camera: TowardsCamera | None = None) -> Verdict:
    """Run every check on a face with a layout fit; the first failure gives the reason.

    ``others`` are the frame's other pip candidates: one of them inside the face, alike
    the face's own pips, is a pip the layout does not account for. ``lone`` are the pips
    grouped with no other: two of them alike, on one body and as far apart as a 2's pips
    may be, are no two 1s - unless ``colours`` (the frame in colour) shows their bodies
    apart, as two dice. ``die_offset`` is the pip offset (in pixels, along a face's long
    axis) of the frame's other dice: a 1's die is about as big, and its pip lies at the
    centre of that much (see ``ONE_DIE_REACH``). ``towards_camera`` gives the image
    direction in which a die shows its side faces (see :func:`centred_on_body`).

    A face that fails, and whose pips were smeared by motion (see :mod:`smear`), is
    checked again with the smear accounted for: its pips' ovals then say nothing of the
    face's slant (a 2 or 3 is taken as seen square-on), and its empty places may hold the
    ink the tracks of its pips bring, but no more.
    """
    assert face.fit is not None
    # (the frame's dice's pip offset in the face units of this face's pips; only a lone
    # pip's checks ask for it)
    offset = die_offset / face.group.pip_length if die_offset is not None and face.fit.value == 1 else None
    front = (towards_camera.at(face.centre), FACE_HALF * offset) \
        if towards_camera is not None and offset is not None else None
    places_out = min(max(offset / SINGLE_SPACING_RADII, 1.0), MAX_ONE_PLACES / SINGLE_SPACING_RADII) \
        if offset is not None and face.roundness >= MIN_FAR_PLACES_ROUNDNESS else 1.0
    verdict = _checked(face, face.fit, grey, others, lone, colours, None, front, places_out)
    if face.fit.value == 1:
        if verdict.reason is None and offset is not None and not centred_on_body(
                face.group.pips[0], face.group.squash, grey, others, reach=ONE_DIE_REACH * offset,
                smooth=_smooth_body(face, grey)):
            # a 2's pip printed small lies near an edge of a die bigger than a 1's rays look
            return Verdict("ambiguous pips", 0.0, False)
        return verdict
    if verdict.reason is None:
        return verdict
    smear = face_smear(face.group.pips, grey)
    if smear is None:
        return verdict
    try:
        fit = face.fit if face.fit.value >= 4 else fit_layout(face.group.points)
    except LayoutError:
        return verdict
    retry = _checked(face, fit, grey, others, lone, colours, smear)
    if retry.reason is not None:
        return verdict
    return replace(retry, confidence=min(retry.confidence, SMEARED_CONFIDENCE))


def _checked(face: FaceCandidate, fit: LayoutFit, grey: np.ndarray, others: Sequence[Pip], lone: Sequence[Pip],
             colours: BodyColours | None, smear: Smear | None,
             front: tuple[np.ndarray, float] | None = None, places_out: float = 1.0) -> Verdict:
    """The checks of :func:`check_face` on ``fit``, with ``smear`` (None: none) accounted for;
    ``front``: see :func:`centred_on_body`; ``places_out``: how much further out than the
    fit puts them a lone pip's empty places lie (see ``MAX_ONE_PLACES``)."""
    pips = face.group.pips
    radius = face.group.radius
    ink, body = face.group.pip_level, face.group.body_level
    pip_xy = face.group.points

    @cache
    def sampled() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The places the body round the pips is sampled, their levels, and how far those
        seen stray from the body's; taken once a check asks (most lone blobs are refused
        before any does)."""
        places, clear = _body_samples(fit, pip_xy, radius)
        if smear is not None:
            clear &= smear.ink_at(places, pip_xy) == 0
        levels = _levels(grey, places[clear], max(1.0, 0.5 * radius), ink, body)
        stray = np.abs(levels - 1)
        return places[clear], levels, stray[np.isfinite(stray)]

    def die_like() -> bool:  # asked only of faces that fail a check, or show a lone pip
        # a die's body is uniform round its pips, and smooth (noise and texture are not)
        places, _, seen = sampled()
        return (bool(seen.size) and float(np.mean(seen <= MAX_BODY_STRAY)) >= MIN_BODY_SHARE
                and _grain(grey, places, max(1.0, 0.5 * radius), ink, body) <= MAX_BODY_GRAIN)

    @cache
    def light_excused() -> bool:  # asked only where grey refuses a lone pip's place or body
        # (not where the guessed face is doubtful, nor on a body the table may be)
        return (fit.value == 1 and colours is not None and not _any_pip_on(face, others)
                and not _ink_round(face, colours) and _off_table(face, colours))

    if fit.value == 1:
        # an unreadable lone pip is never reported (it is no evidence of a die): the cheap
        # checks first, and no word on whether it looks like a die
        if pips[0].edge_width > SOFT_SLOPE * radius + BLUR_OFFSET:
            return Verdict(NO_PIP, 0.0, False)  # a soft-edged blob: a highlight, not a printed pip
        if _mottled(pips[0], grey):
            return Verdict(NO_PIP, 0.0, False)  # a small die on a table of the other polarity
        if _cut_by_frame(fit, grey.shape):
            return Verdict("occluded", 0.0, False)
        # (this one first: whichever check refuses the pip, a closer look must know it)
        if _joined_partner(face, others, colours):
            return Verdict("ambiguous pips", 0.0, False, joined_partner=True)
        # a typical die's face first: measuring the die's own is dearer, and needed only
        # where something lies on the typical face (on a die of big pips, its side faces);
        # the stray test first of all, the cheapest and the one that refuses most blobs
        stray = _stray_pip(face, others)
        if stray and _crowded(face, others, colours, _own_face_share(face, grey, others)):
            return Verdict("ambiguous pips", 0.0, False)
        if lone_partners(face, lone, colours):
            return Verdict("ambiguous pips", 0.0, False, partnered=True)
        if _glare_by_ink(face, others, colours):
            return Verdict("ambiguous pips", 0.0, False)
        # (no stray on the typical face is none on a smaller one: only the ink is asked again)
        if (not stray and _ink_beside(face, colours)
                and _ink_beside(face, colours, _own_face_share(face, grey, others))):
            return Verdict("ambiguous pips", 0.0, False)
        if not (die_like() and centred_on_body(pips[0], face.group.squash, grey, others, colours,
                                               front=front, smooth=_smooth_body(face, grey))):
            return Verdict("no die body", 0.0, False)  # a lone mark off the middle of its surface
    else:
        if _cut_by_frame(fit, grey.shape):
            return Verdict("occluded", 0.0, die_like())
        if _stray_pip(face, others):
            return Verdict("ambiguous pips", 0.0, die_like())
    if median([p.edge_width for p in pips]) > BLUR_SLOPE * radius + BLUR_OFFSET:
        return Verdict("blurred", 0.0, die_like())
    if smear is None and fit.value >= 4 and fit.aspect - face.roundness > MAX_SMEAR:
        return Verdict("blurred", 0.0, die_like())
    if fit.value >= 4 and face.roundness - fit.aspect > MAX_SKEW:
        return Verdict("ambiguous pips", 0.0, die_like())
    if smear is None and face.roundness < MIN_FACE_ROUNDNESS:
        return Verdict("cocked", 0.0, die_like())  # (smeared pips are long, not slanted)
    if fit.value > 1 and fit.spacing < MIN_SPACING_RADII * radius:
        return Verdict("ambiguous pips", 0.0, die_like())
    if places_out != 1.0 and smeared(pips[0], grey):
        # a smeared pip's oval shows its track, not its face's slant: the guessed face's far
        # places may miss the face's other pips, which the near ones, on the track, still see
        places_out = 1.0
    spots = fit.to_image(_EMPTY_SPOTS[fit.value] * places_out)
    if fit.value in (2, 3):
        # pips on one diagonal do not show the other diagonal's direction: their shape
        # does, unreliably for small pips, so the spots seen square-on must be empty too
        try:
            spots = np.concatenate([spots, fit_layout(face.group.points).to_image(_EMPTY_SPOTS[fit.value])])
        except LayoutError as err:
            return Verdict(str(err), 0.0, die_like())
    spot_levels = _levels(grey, spots, _sample_size(radius), ink, body)
    _, body_levels, seen = sampled()
    if np.isnan(spot_levels).any() or not seen.size or seen.size < MIN_BODY_SHARE * len(body_levels):
        return Verdict("occluded", 0.0, die_like())  # the face runs off the frame
    # an empty place on a smeared pip's track may show that much of its ink, and no more
    empty_enough = MIN_EMPTY_SPOT * (1 - smear.ink_at(spots, pip_xy)) if smear is not None else MIN_EMPTY_SPOT
    inked, colourless = _inked_places(spot_levels, empty_enough, spots, pips, colours) if spot_levels.size \
        else (None, None)
    if inked is not None and len(pips) > 1:
        # a highlight lifts a place with the body round it; a pip shows its rim, however lit
        inked = _inked_by_rims(inked, colourless, spot_levels,
                               _rim_steps(grey, spots, spot_levels, radius, ink, body), smear is not None)
    elif inked is not None and inked.any() and light_excused():
        # a lone pip's face is guessed: a place is lit only where colour (or, round a round
        # black pip, grey) and rims agree
        inked &= ~(_lone_lit(grey, spots, spot_levels, face, colours) & (spot_levels >= MIN_GLARED_LEVEL))
    if inked is not None and inked.any():
        return Verdict("ambiguous pips", 0.0, die_like())
    if fit.value in (2, 3) and _pip_beyond(face, grey, ink, body, colours, others):
        return Verdict("ambiguous pips", 0.0, die_like())
    if fit.value == 2 and ones_of_two_dice(face, fit, grey, colours):
        return Verdict("ambiguous pips", 0.0, die_like(), two_ones=True)
    most = float(seen.max())
    if most > MAX_BODY_STRAY and light_excused():
        # a glossy die's highlight, or its shade, takes a lone pip's body past the stray
        places, levels, _ = sampled()
        strays = np.abs(levels - 1)
        most = float(np.max(strays, where=np.isfinite(strays) & ~_lone_lit(grey, places, levels, face, colours),
                            initial=0.0))
    if most > MAX_BODY_STRAY:
        return Verdict("occluded", 0.0, die_like())
    margins = [1 - fit.residual / MAX_RESIDUAL * 0.5, 1 - most / MAX_BODY_STRAY * 0.5]
    if spot_levels.size:
        # (an empty place that colour alone tells from ink, a highlight, is half sure at most)
        clearance = np.maximum((spot_levels - empty_enough) / (1 - empty_enough), 0.0)
        margins.append(0.5 + 0.5 * min(1.0, float(clearance.min())))
    if fit.value == 1:
        margins.append(SINGLE_PIP_CONFIDENCE)
    return Verdict(None, min(max(float(min(margins)), 0.0), 1.0))


def ones_of_two_dice(face: FaceCandidate, fit: LayoutFit, grey: np.ndarray, colours: BodyColours | None) -> bool:
    """Whether a 2 may be the 1s of two touching dice (as far apart as a 2's pips on dice
    with small pips): beyond its empty corners (``BEYOND_EMPTY_TWO``), where a 2's face
    still lies and two dice in a row do not, it is not its body's grey (``BEYOND_STRAY``),
    or shows another colour than its body's, or on a colourful body a much paler one
    (``BEYOND_CHROMA_SHARE``)."""
    places = fit.to_image(BEYOND_EMPTY_TWO)
    levels = _levels(grey, places, max(1.0, 0.5 * face.group.radius), face.group.pip_level, face.group.body_level)
    if np.isnan(levels).any() or (np.abs(levels - 1) > BEYOND_STRAY).any():
        return True
    if colours is None:
        return False
    body, ink = colours.lab(face.group.pips).mean(axis=0), colours.ink_lab(face.group.pips).mean(axis=0)
    beyond = colours.lab_at(places)
    # lightness too, as the grey image may be one colour's alone (a closer look at a dark die
    # with coloured pips, where the table is as dark as the die)
    lighter = np.abs(beyond[:, 0] - body[0]) > BEYOND_STRAY * max(abs(float(ink[0] - body[0])), 1.0)
    # (a grey table under a blue die is as blue in hue: it is far paler)
    chroma, body_chroma = np.hypot(beyond[:, 1], beyond[:, 2]), math.hypot(body[1], body[2])
    paler = (body_chroma >= NEUTRAL_CHROMA) & (chroma < BEYOND_CHROMA_SHARE * body_chroma)
    return bool((lighter | colours_apart(beyond, body) | paler).any())


def _smooth_body(face: FaceCandidate, grey: np.ndarray) -> bool:
    """Whether a lone pip's body, sampled where its face is for occlusion, shows at most
    ``SMOOTH_BODY_GRAIN``: smooth enough for shading to be told from a ray's very start."""
    radius = face.group.radius
    places, clear = _body_samples(face.fit, face.group.points, radius)
    return bool(_grain(grey, places[clear], max(1.0, 0.5 * radius), face.group.pip_level, face.group.body_level)
                <= SMOOTH_BODY_GRAIN)


def _body_samples(fit: LayoutFit, pips: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a face is sampled for occlusion (``BODY_SAMPLES``, in the image), and which of
    those places lie clear of every pip's blurred rim (``pips``: centres, of ``radius``).

    A sample that lands on a rim says nothing about occlusion (pips sit differently on
    different dice). The blur is about a pixel whatever the die's size, so on a small die
    with big pips it may cover every place between the pips and the face's edge: when no
    sample is clear, each is moved out to ``BODY_SAMPLE_PUSH`` times its place, and taken
    where that clears it.
    """
    rim = RIM_RADII * radius + RIM_BLUR
    places = fit.to_image(BODY_SAMPLES)
    clear = _clearance(places, pips) > rim
    if clear.any():
        return places, clear
    # (canonical places are offsets from the face's centre: moving one out scales it)
    pushed = fit.centre + BODY_SAMPLE_PUSH * (places - fit.centre)
    moved = _clearance(pushed, pips) > rim
    return np.where(moved[:, None], pushed, places), moved


def _clearance(points: np.ndarray, pips: np.ndarray) -> np.ndarray:
    """Each point's distance to the nearest of ``pips`` (centres)."""
    return np.hypot(points[:, None, 0] - pips[None, :, 0], points[:, None, 1] - pips[None, :, 1]).min(axis=1)


def _inked_places(levels: np.ndarray, empty_enough: float | np.ndarray, places: np.ndarray,
                  pips: Sequence[Pip], colours: BodyColours | None) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``places`` (a face's empty places, with grey ``levels``: 0 ink, 1 body) hold
    ink: less than ``empty_enough`` in grey and, where ink and body differ in colour, in
    colour too; and which of those grey shows inked hold none of the ink's colour (less
    than ``MIN_INK_SHARE``). A place part covered by a pip shows as much of the ink's colour
    as of its grey; a highlight (white light, on a dark die as bright as its coloured pips)
    shows its grey alone.

    Colour speaks only for a place part way from ink to body (one as dark as dark ink may
    lie off the die, on the table), or beyond it on a face of light pips (a highlight on a
    dark die is lighter than its coloured pips), and only for a face of two or more
    ``pips``: a lone pip's face is guessed, and its places may lie off it, on another
    face's highlight.
    The other way, a place of dark pips' face that grey calls empty holds ink where its
    colour is the ink's (``HIDDEN_INK_SHARE``): a dark pip under a highlight.
    """
    inked = levels < empty_enough
    doubt = inked & ((levels >= MIN_GLARE_LEVEL) | (not pips[0].dark))
    colourless = np.zeros_like(inked)
    if colours is None or len(pips) < 2 or not (doubt.any() or pips[0].dark):
        return inked, colourless
    share = colours.ink_share(places, pips)
    if share is None:
        return inked, colourless
    inked[doubt] = share[doubt] >= MIN_INK_SHARE * (1 - levels[doubt])
    colourless[doubt] = share[doubt] < MIN_INK_SHARE
    # a dark pip under a highlight is as light as the body round it, or lighter, but white
    # light leaves it the ink's colour, not the body's
    if pips[0].dark:
        inked |= share >= HIDDEN_INK_SHARE
    return inked, colourless


#: The points of the rings round a place, in pip radii.
_RINGS = np.concatenate([k * ring_directions(GLARE_RING_SAMPLES) for k in GLARE_RING_RADII])


def _inked_by_rims(inked: np.ndarray, colourless: np.ndarray, levels: np.ndarray, rims: np.ndarray,
                   smeared: bool) -> np.ndarray:
    """Which of a face's empty places hold ink, told by their rims (``rims``, see
    :func:`_rim_steps`) as well as by ``inked`` (grey and colour, see :func:`_inked_places`;
    ``levels``: grey alone): a place shown inked that a highlight lifts with the body round
    it is empty (see ``GLARE_RIM_STEP``), one shown empty that stands out from its rim as a
    pip does holds one (see ``HIDDEN_RIM_STEP``; not on a ``smeared`` face), unless it is
    ``colourless``: as light as the ink in grey, and none of the ink's colour (a highlight
    on a dark die, as light as its red pips, is white; a red pip under it still shows red)."""
    lit = (levels >= MIN_GLARED_LEVEL) & (rims < GLARE_RIM_STEP)
    return np.where(inked, ~lit, (rims >= HIDDEN_RIM_STEP) & ~colourless & (not smeared))


def _any_pip_on(face: FaceCandidate, others: Sequence[Pip]) -> bool:
    """Whether a pip of a lone pip's polarity, of any size or shape, lies on its face
    measured as a typical die's. :func:`_stray_pip` passes over the pips a side face or a
    highlight may show there; this asks for none at all before light on a face only guessed
    is excused (see :func:`_lone_lit`): a black die's red 5, its corner pips found but
    grouped apart from its middle one, one of them lost, had that pip read as a 1."""
    own, dark = set(map(id, face.group.pips)), face.group.pips[0].dark
    axes, (cx, cy) = _typical_axes(face.fit).tolist(), face.centre.tolist()
    return any(within(axes, p.x - cx, p.y - cy, FACE_HALF) for p in others if id(p) not in own and p.dark == dark)


def _off_table(face: FaceCandidate, colours: BodyColours) -> bool:
    """Whether a lone pip's body cannot be the table's surface in more light: the table's
    colour (the frame's median) lies at least ``MIN_BEYOND_APART`` from every shade of the
    body's (see :func:`shade_distance`). On the real photos of numbered dice, white specks
    on the pink wood round a black dice tray, the black the frame's median, had the wood's
    streaks excused as light and shade, and were read as 1s."""
    return shade_distance(colours.table_lab, colours.lab(face.group.pips)[0]) >= MIN_BEYOND_APART


def _ink_round(face: FaceCandidate, colours: BodyColours) -> bool:
    """Whether a lone pip's ink shows about a 2's diagonal from it, just past a typical
    face's edge (see ``PARTNER_RING_SHARE``): a 2 whose other pip the pip search lost, or a
    3 whose corner pips it lost or set apart (a highlight shrinks them), its guessed face
    too small for the die. Light on such a face is not excused (see :func:`_lone_lit`): it
    made each of them a 1."""
    return _ink_at(face, colours, _PARTNER_RING)


def _lone_lit(grey: np.ndarray, places: np.ndarray, levels: np.ndarray, face: FaceCandidate,
              colours: BodyColours) -> np.ndarray:
    """Which of ``places`` round a lone pip (grey ``levels``: 0 ink, 1 body) show its body under
    a highlight or in shade, however far grey takes them from the body's level: smooth (the
    rings round them lie within ``GLARE_RIM_STEP`` of them, see :func:`_rim_steps`; a pip, or
    another thing's edge, is a step), with less of the ink's colour than ``MIN_INK_SHARE``
    and the body's own tint (see :meth:`BodyColours.shaded_body`). Where colour cannot tell
    the ink from the body (a grey die's black pip), smooth places of the body's tint are
    excused round a round black pip alone (see :func:`_round_black`): light lifts a light
    die's places away from its dark ink, but lights a dark die's as bright as its light
    pips. Grey alone made 1s of a hole in a metal plug on the real photos (an oval), and
    of white specks and a dark brown one on the wood round a dice tray (light, or of a
    colour). Specks on grey tables are round and black: the table's colour refuses them
    (see ``light_excused``)."""
    share = colours.ink_share(places, face.group.pips)
    if share is None and not _round_black(face, colours):
        return np.zeros(len(places), bool)
    rims = _rim_steps(grey, places, levels, face.group.radius, face.group.pip_level, face.group.body_level)
    lit = (np.abs(rims) < GLARE_RIM_STEP) & colours.shaded_body(places, face.group.pips)
    return lit if share is None else lit & (share < MIN_INK_SHARE)


def _round_black(face: FaceCandidate, colours: BodyColours) -> bool:
    """Whether a lone pip is round (``ROUND_PIP``), darker than its body and of no colour
    (``NEUTRAL_CHROMA``): a black pip, printed round."""
    (pip,) = face.group.pips
    return pip.dark and face.roundness >= ROUND_PIP and math.hypot(*colours.ink_lab([pip])[0][1:]) < NEUTRAL_CHROMA


def _rim_steps(grey: np.ndarray, places: np.ndarray, levels: np.ndarray, radius: float, ink: float,
               body: float) -> np.ndarray:
    """How much nearer the body (0 ink, 1 body) the grey on rings round each of ``places``
    (``GLARE_RING_RADII`` radii of a pip of ``radius`` out) lies than the place itself (its
    grey ``levels``): about a whole step round a pip, lit or not (light adds to a pip and
    its rim alike), little round a place a highlight lifts with the body round it; NaN
    (which no test passes) where a ring leaves the image."""
    reach = GLARE_RING_RADII[-1] * radius + 1
    (x0, y0), (x1, y1) = places.min(axis=0), places.max(axis=0)
    h, w = grey.shape
    if min(x0, y0) < reach or x1 + reach >= w or y1 + reach >= h:
        return np.full(len(places), np.nan)
    xy = np.rint(places[:, None, :] + radius * _RINGS[None, :, :]).astype(int)
    # (the upper of the two middle values: quicker than numpy's median, and as good here)
    middle = len(_RINGS) // 2
    rings = (np.partition(grey[xy[..., 1], xy[..., 0]], middle, axis=1)[:, middle] - ink) / (body - ink)
    return rings - levels


def _cut_by_frame(fit: LayoutFit, shape: tuple[int, ...]) -> bool:
    """Whether a pip of the face may lie past the frame's edge, unseen.

    Every pip place lies within the square of the corner pips, so a face whose pip places
    are all in view may run past the edge itself: nothing that counts is hidden there. A
    lone pip must show its whole face: it is a die only on a body centred on it.
    """
    reach = FACE_HALF if fit.value == 1 else PIP_PLACES_REACH
    corners = fit.centre + CORNERS * reach @ _typical_axes(fit).T
    h, w = shape[:2]
    return bool(((corners < 0) | (corners >= (w, h))).any())



def _mottled(pip: Pip, grey: np.ndarray) -> bool:
    """Whether the blob's inside is far from one level: a printed pip is one ink, while a
    small light die on a dark table (a blob too, with the table round it) holds its pips.
    The inside is read out to ``INSIDE_REACH`` of the blob's own radius (see
    :func:`_own_radius`): a small pip's blurred rim is a large part of the blob as cut."""
    offsets = _INSIDE * (INSIDE_REACH * _own_radius(pip, grey))
    points = np.array([pip.x, pip.y]) + offsets
    inside, patches = _patches(grey, points, 0.0)
    if inside.sum() < len(points) // 2:
        return False
    return float(patches.std()) > MOTTLED * pip.contrast


def _own_radius(pip: Pip, grey: np.ndarray) -> float:
    """The blob's radius at half its own contrast (halfway between its ring and its inside's
    level), at most the radius it was cut at. A blob is cut halfway between its ink and
    the wider surroundings: a pip on a light die on a dark table is cut nearer the table
    than its face, its blurred rim taken in."""
    half = math.ceil(pip.radius)
    inside, patches = _patches(grey, np.array([pip.x, pip.y]), half)
    if not inside.all():
        return pip.radius
    level = (pip.level + pip.ring) / 2
    beyond = np.count_nonzero(patches < level if pip.dark else patches > level)
    return min(pip.radius, math.sqrt(beyond / math.pi))


_INSIDE = np.array([[x, y] for x in np.linspace(-1, 1, 5) for y in np.linspace(-1, 1, 5) if x * x + y * y <= 1.0])


def _typical_axes(fit: LayoutFit, share: float = 1.0) -> np.ndarray:
    """The face's axes; a lone pip's scaled to the pip offset of a typical die, not the
    small one it was fitted with (which errs small for grouping), times ``share``."""
    return fit.axes * (share * DEFAULT_SPACING_RADII / SINGLE_SPACING_RADII) if fit.value == 1 else fit.axes


def _crowded(face: FaceCandidate, others: Sequence[Pip], colours: BodyColours | None, share: float) -> bool:
    """Whether a lone pip's face, ``share`` of a typical die's, holds another pip (see
    :func:`_stray_pip`) or its ink's colour at another pip place (see :func:`_ink_beside`)."""
    return _stray_pip(face, others, share) or _ink_beside(face, colours, share)


def _own_face_share(face: FaceCandidate, grey: np.ndarray, others: Sequence[Pip]) -> float:
    """How big a lone pip's face is, as a share of a typical die's (at most 1, at least
    ``MIN_OWN_FACE_SHARE``), as far as its body is seen round it (see :func:`face_half`).
    A die whose pips are printed big is smaller, in their radii, than a typical die: its
    typical face reaches over its edges onto its side faces and their pips."""
    half = face_half(face.group.pips[0], face.group.squash, grey, others)
    return min(1.0, max(MIN_OWN_FACE_SHARE, half / (FACE_HALF * DEFAULT_SPACING_RADII)))


def _stray_pip(face: FaceCandidate, others: Sequence[Pip], share: float = 1.0) -> bool:
    """Whether a pip like the face's own, but not one of them, lies on the face (a 1's
    face measured as a typical die's, times ``share``: the corner pips of a 3 or 5 whose
    middle pip was not grouped with them lie on it)."""
    own = set(map(id, face.group.pips))
    radius, dark, contrast = face.group.radius, face.group.pips[0].dark, face.group.pips[0].contrast
    # (plain numbers: they are tested against every pip)
    axes, (cx, cy) = _typical_axes(face.fit, share).tolist(), face.centre.tolist()
    # a lone pip's face is only guessed: anything like a pip out to its edge counts
    reach = FACE_HALF if face.fit.value == 1 else STRAY_REACH
    biggest = MAX_ONE_STRAY_RATIO if face.fit.value == 1 else MAX_RADIUS_RATIO
    span_x, span_y = _spans(axes, reach * (MAX_RADIUS_RATIO if face.fit.value == 1 else 1.0))
    for p in others:
        # (most pips lie off the face's box: that cheap test first, within() decides the rest)
        if abs(p.x - cx) > span_x or abs(p.y - cy) > span_y:
            continue
        ratio = p.radius / radius
        if id(p) in own or p.dark != dark or not 1 / MAX_SMALL_STRAY <= ratio <= biggest:
            continue
        if face.fit.value > 1 and p.contrast < MIN_STRAY_CONTRAST * contrast:
            continue  # a faint mark (a side face's pip seen edge-on), no pip of a bigger face
        if ratio > MAX_RADIUS_RATIO and p.contrast < MIN_PARTNER_CONTRAST * contrast:
            continue  # a faint highlight, not a pip glare spread (which stays as clear)
        if (face.fit.value == 1 and ratio < 1 and p.contrast >= MIN_PARTNER_CONTRAST * contrast
                and not _shaped_alike(p, face.group.pips[0])):
            continue  # a side face's pip: printed as clearly, foreshortened another way
        # a much smaller pip counts between the face's pips: the face's "pips" may be pips
        # run together, or pips of two dice, with the real ones between them
        near = reach if ratio >= 1 / MAX_RADIUS_RATIO else SMALL_STRAY_REACH
        if face.fit.value == 1 and ratio > 1:
            # a bigger pip alike means a bigger face (a highlight shrank this pip)
            near *= min(ratio, MAX_RADIUS_RATIO)
        if within(axes, p.x - cx, p.y - cy, near):
            return True
    return False


def _spans(axes: list[list[float]], reach: float) -> tuple[float, float]:
    """How far along x and along y a step that :func:`within` keeps within ``reach`` of a
    face with ``axes`` may go (the half-sides of the box round that parallelogram), with a
    margin that leaves rounding to :func:`within`."""
    (a, b), (c, d) = axes
    return 1.01 * reach * (abs(a) + abs(b)) + 1e-9, 1.01 * reach * (abs(c) + abs(d)) + 1e-9


def _glare_by_ink(face: FaceCandidate, others: Sequence[Pip], colours: BodyColours | None) -> bool:
    """Whether a lone blob is a highlight beside coloured pips: it has its body's colour
    (white light on a black die has), while a smaller blob of its polarity on its face has
    a colour of its own (a red or gold pip, which glare may spread or shrink)."""
    (pip,) = face.group.pips
    if colours is None or colours.pips_axis([pip]) is not None:
        return False
    axes = _typical_axes(face.fit)
    return any(p is not pip and p.dark == pip.dark and p.radius < pip.radius
               and within(axes, p.x - pip.x, p.y - pip.y, FACE_HALF)
               and colours.pips_axis([p]) is not None for p in others)


def _ink_beside(face: FaceCandidate, colours: BodyColours | None, share: float = 1.0) -> bool:
    """Whether a lone pip of a colour of its own (a red pip on a black die) has that colour
    at another pip place of a typical face round it (times ``share``): pips that glare hid
    from grey, whose colour it does not hide."""
    # pips may lie further apart, in their radii, than on a typical die
    return colours is not None and _ink_at(face, colours, _INK_PLACES, share)


def _ink_at(face: FaceCandidate, colours: BodyColours, offsets: np.ndarray, share: float = 1.0) -> bool:
    """Whether a lone pip's ink's colour (``MIN_PLACE_INK`` of it) shows at any of ``offsets``
    (in pip offsets of a typical face, times ``share``) from it."""
    inked = colours.ink_share(face.fit.centre + offsets @ _typical_axes(face.fit, share).T, face.group.pips)
    return inked is not None and bool((inked >= MIN_PLACE_INK).any())


def _joined_partner(face: FaceCandidate, others: Sequence[Pip], colours: BodyColours | None) -> bool:
    """Whether a blob of a lone coloured pip's polarity, bigger than a pip of its face,
    lies within a 2's diagonal of it, on a body of its colour, with the pip's ink on its
    rim, of the pip's hue: a partner pip joined to a highlight in one blob (the blob's
    middle is glare). A neighbouring die's pips of another ink (red beside gold) are no
    partner. Only a colourful ink on a body of no colour (a black die's red or gold pips)
    is told from glare so: a white pip is as white as a highlight, on any body."""
    if colours is None:
        return False
    (pip,) = face.group.pips
    # (the blobs by size and place first: most lone pips have none, and need no colour read)
    blobs = [p for p in others if p.dark == pip.dark and p.radius > MAX_RADIUS_RATIO * pip.radius
             and math.hypot(p.x - pip.x, p.y - pip.y) <= PARTNER_REACH_RADII * pip.radius]
    if not blobs:
        return False
    ink = colours.ink_lab([pip])[0]
    if math.hypot(*ink[1:]) < INK_CHROMA or math.hypot(*colours.lab([pip])[0][1:]) >= NEUTRAL_CHROMA:
        return False
    places = [(p.x, p.y) + (rim * p.radius / math.sqrt(p.roundness)) * _RING_DIRECTIONS for p in blobs
              if not colours.apart(p, pip) for rim in JOINED_RIM]
    if not places:
        return False
    points = np.concatenate(places)
    # (not where the lone pip's own ink lies: a highlight beside a 1 may touch it)
    points = points[np.hypot(*(points - (pip.x, pip.y)).T) > OWN_INK_RADII * pip.radius]
    share = colours.ink_share(points, face.group.pips)
    if share is None:
        return False
    inked = points[share >= MIN_PLACE_INK]
    return bool(len(inked)) and not colours_apart(colours.lab_at(inked), ink).all()


def _pip_beyond(face: FaceCandidate, grey: np.ndarray, ink: float, body: float,
                colours: BodyColours | None, others: Sequence[Pip]) -> bool:
    """Whether pips of a bigger face lie beside a 2 or 3 (ink ringed by body, whether or not
    they were found as pips).

    A 2 may be the centre and a corner of a 3 or 5 (a pip one step further along its
    diagonal), or two corners along the edge of a 4, 5 or 6, turned 45 degrees from a 2's
    (pips a square's step to one side of both). Three pips in a row may be one column of
    a 6 (pips two steps to one side of them). Where ``colours`` shows the pips' ink
    differ from their body in colour, a pip of that colour one step further along a 2's
    diagonal counts too, whatever grey shows (glare hides a red pip's grey, not its red).
    A place where a pip was found (one of ``others``) foreshortened unlike the face's pips
    holds a side face's pip (see :func:`_other_faces_pips`), and counts for nothing: at a
    steep tilt a die's front face lies just below its top face, and a neighbour's side face
    may lie beside it.
    """
    points = face.group.points
    if len(points) == 2:
        row, apart = points, 1.0
        step = row[1] - row[0]
        beyond = np.array([row[1] + step, row[0] - step])
    else:
        # (the sum over the count is the mean np.mean takes, without its overhead)
        row, apart = points[np.argsort((points - points.sum(axis=0) / len(points)) @ (points[-1] - points[0]))], 2.0
        step, beyond = (row[-1] - row[0]) / 2, np.empty((0, 2))
    # the step turned a quarter in the face's plane: undo the slant, turn, put it back; oval
    # pips may be smeared, not slanted, so the face is also taken as seen square-on
    squashes = [face.group.squash] + ([np.eye(2)] if face.roundness < ROUND_PIP else [])
    if len(points) == 3 and face.roundness < ROUND_PIP:
        # a small pip's long axis is a rough measure: a column of a 6 is also looked for as
        # if the face were foreshortened across the row (the row itself keeps its length)
        squashes.append(squash_along(math.atan2(step[1], step[0]), face.roundness))
    sides = np.array([apart * _turned(squash, step) for squash in squashes])
    beside = row[None, None] + np.array([1.0, -1.0])[None, :, None, None] * sides[:, None, None, :]
    places = np.concatenate([beyond, beside.reshape(-1, 2)])
    radius = face.group.radius
    # each place's samples: a few about it (it is only foreseen: the darkest stands for it),
    # then a ring round it
    samples = places[:, None, :] + radius * _PLACE_SAMPLES[None]
    levels = _levels(grey, samples.reshape(-1, 2), _sample_size(radius), ink, body).reshape(len(places), -1)
    nudged, around = levels[:, :len(_NUDGES)], levels[:, len(_NUDGES):]
    # a ring leaves out the face's own pips and the places foreseen in the same row as its
    # own: the places beside a 6's column are a column too, a step apart, as close as its ring
    clear = RING_CLEAR_RADII * radius
    rings = samples[:, len(_NUDGES):]
    covered = _near_any(rings, points, clear)
    rows = beside.reshape(-1, len(row), 2)
    covered[len(beyond):] |= _near_any(rings[len(beyond):].reshape(len(rows), -1, 2), rows,
                                       clear).reshape(-1, rings.shape[1])
    around = np.where(covered, np.nan, around)
    centre = np.where(np.isnan(nudged), np.inf, nudged).min(axis=1)
    # places off the frame's edge have no level (NaN) and say nothing; a ring wholly off it
    # shows no pip
    with np.errstate(invalid="ignore"):
        ring = _row_medians(around)
        pip = ((centre < PIP_LIKE[0]) | (ring - centre >= PIP_DEPTH)) & (ring > PIP_LIKE[1])

    def bigger_face(side_pips: np.ndarray) -> bool:
        # pips ahead on the diagonal, or beside ``MIN_BESIDE`` pips of the row, on either
        # side, off ``side_pips``; a coloured pip ahead that glare hides from grey shows in
        # colour (the places beside a real 2 or 3 may lie off the die, on a table of any
        # colour: grey alone speaks for them)
        held = pip & ~side_pips
        beside_pips = held[len(beyond):].reshape(-1, len(row)).sum(axis=1)
        return bool(held[:len(beyond)].any() or (beside_pips >= MIN_BESIDE).any()
                    or (len(beyond) and (_coloured_pips(samples[:len(beyond)], face.group.pips, colours)
                                         & ~side_pips[:len(beyond)]).any()))

    # (side faces' pips are looked for only where the places refuse the face without them:
    # most faces pass)
    return bigger_face(np.zeros(len(places), bool)) and bigger_face(_other_faces_pips(places, face, others))


def _other_faces_pips(places: np.ndarray, face: FaceCandidate, others: Sequence[Pip]) -> np.ndarray:
    """Which ``places`` hold a pip found there (one of ``others``, within the face's pip
    radius) that is no pip of the face: of its polarity, no bigger than its pips, and
    foreshortened unlike every one of them (see :func:`_side_shaped`): a side face's pip.
    Beside a face too flat to be a top face (see ``MIN_TOP_ROUNDNESS``) no place does: a
    front face's row of three, seen edge-on, has its neighbouring side face's pips beside it."""
    out = np.zeros(len(places), bool)
    if face.roundness < MIN_TOP_ROUNDNESS:
        return out
    own = set(map(id, face.group.pips))
    radius, dark = face.group.radius, face.group.pips[0].dark
    for p in others:
        if id(p) in own or p.dark != dark or p.radius > radius:
            continue
        if not all(_side_shaped(p, q) for q in face.group.pips):
            continue
        out |= np.hypot(places[:, 0] - p.x, places[:, 1] - p.y) <= radius
    return out


def _coloured_pips(samples: np.ndarray, pips: Sequence[Pip], colours: BodyColours | None) -> np.ndarray:
    """Which places (each a row of ``samples``: nudged about it, then a ring round it, as
    ``_PLACE_SAMPLES`` lays them) hold a pip of the colour of ``pips``' ink ringed by their
    body's colour: a coloured pip that glare hides from grey does not hide its colour (all
    False where ink and body do not differ in colour)."""
    share = colours.ink_share(samples.reshape(-1, 2), pips) if colours is not None else None
    if share is None:
        return np.zeros(len(samples), bool)
    share = share.reshape(len(samples), -1)
    return ((share[:, :len(_NUDGES)].max(axis=1) >= MIN_PLACE_INK)
            & (np.median(share[:, len(_NUDGES):], axis=1) <= MAX_RING_INK))


def _near_any(points: np.ndarray, centres: np.ndarray, reach: float) -> np.ndarray:
    """Whether each of ``points`` (..., N x 2) lies closer than ``reach`` to any of
    ``centres`` (..., K x 2; leading axes alike, or none), as ... x N."""
    apart = points[..., :, None, :] - centres[..., None, :, :]
    return (np.hypot(apart[..., 0], apart[..., 1]) < reach).any(axis=-1)


def _turned(squash: np.ndarray, step: np.ndarray) -> np.ndarray:
    """``step`` turned a quarter in the plane of a face that ``squash`` foreshortens."""
    # (plain numbers: the same sums, without numpy's overhead on single values)
    (a, b), (c, d) = squash.tolist()
    x, y = step.tolist()
    det = a * d - b * c
    return squash @ np.array([-((a * y - c * x) / det), (d * x - b * y) / det])


def _row_medians(levels: np.ndarray) -> np.ndarray:
    """The median of each row's levels that are not NaN (NaN for a row of NaN only); much
    cheaper than ``np.nanmedian`` on a few short rows."""
    ordered = np.sort(levels, axis=1)  # NaN sorts last
    count = (~np.isnan(levels)).sum(axis=1)
    rows = np.arange(len(levels))
    low, high = np.maximum(count - 1, 0) // 2, count // 2
    return np.where(count > 0, (ordered[rows, low] + ordered[rows, high]) / 2, np.nan)


_NUDGES = np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]], float)
_RING_DIRECTIONS = ring_directions(8)
#: A 2's other pip, 2 * sqrt(2) pip offsets from the one seen, is looked for at
#: ``PARTNER_RING_SHARE`` of that (just past a typical face's edge: the 2's pips may be
#: closer than a typical die's), in 16 directions.
PARTNER_RING_SHARE = 0.85
_PARTNER_RING = PARTNER_RING_SHARE * 2 * math.sqrt(2) * ring_directions(16)
#: Where a foreseen place is sampled, in pip radii: nudged about it, then on a ring round it.
_PLACE_SAMPLES = np.vstack([PLACE_NUDGE * _NUDGES, 2.2 * _RING_DIRECTIONS])


def lone_partners(face: FaceCandidate, lone: Sequence[Pip], colours: BodyColours | None) -> list[Pip]:
    """The other lone pips like this one (size, ink, foreshortening), on a body of the
    same colour where the colours are known, that lie within a 2's diagonal: the two may be
    a 2 whose pips are small for its face (too far apart, in radii, to be grouped), not two
    1s. What lies between them is no help: a highlight between a dark die's light pips
    looks like table, and no seam may show between two touching dice. A partner bigger
    than the pip need not be foreshortened alike: a highlight merged with a 2's other pip
    swells it out of shape (a yellow pip on a black die, 0.50 round beside its partner's
    0.74). Nor is a dark pip on a face lit apart from this one's (see
    ``PARTNERS_LIT_APART``)."""
    (pip,) = face.group.pips
    alike = [p for p in lone if p is not pip and p.dark == pip.dark
             and 1 / MAX_RADIUS_RATIO <= p.radius / pip.radius <= MAX_RADIUS_RATIO
             and MIN_PARTNER_CONTRAST <= p.contrast / pip.contrast <= 1 / MIN_PARTNER_CONTRAST
             and math.hypot(p.x - pip.x, p.y - pip.y) <= PARTNER_REACH_RADII * (p.radius + pip.radius) / 2
             and (p.radius > pip.radius or _shaped_alike(p, pip))
             and not (colours is not None and colours.apart(p, pip)) and not _shaded_apart(p, pip)]
    return alike


def _shaded_apart(a: Pip, b: Pip) -> bool:
    """Whether pips ``a`` and ``b``, both dark, lie on faces lit apart (see
    ``PARTNERS_LIT_APART``). Light pips are not asked: the level of their ink, which is their
    light, a highlight pales in one ink's colour alone as shade does."""
    if not (a.dark and b.dark):
        return False
    shading = math.log(max(a.ring, 1.0) / max(b.ring, 1.0))
    fading = math.log(max(a.contrast, 1.0) / max(b.contrast, 1.0))
    return (abs(shading) > -math.log(PARTNERS_LIT_APART) and abs(fading) > -math.log(MIN_CONTRAST_RATIO)
            and abs(shading - fading) <= math.log(SHADE_MATCH))


def _shaped_alike(a: Pip, b: Pip) -> bool:
    """Whether two pips may lie on one face by their shapes: about as round, and, where
    they are clearly oval, foreshortened along one direction (a side face is foreshortened
    along another)."""
    if not MIN_ROUNDNESS_RATIO <= a.roundness / b.roundness <= 1 / MIN_ROUNDNESS_RATIO:
        return False
    return max(a.roundness, b.roundness) >= ROUND_PIP or not _axes_turned(a, b)


def _side_shaped(side: Pip, top: Pip) -> bool:
    """Whether pip ``side`` is foreshortened as a side face beside ``top``'s face is: flatter
    (a camera less than 45 degrees from straight down sees a die's top face the least
    foreshortened), and along another direction where both are clearly oval, else much
    flatter (a side face seen edge-on beside a face seen square-on). A pip flatter along
    the same direction may be one of the face's own, measured flat where shade or an edge
    meets it."""
    if side.roundness >= top.roundness:
        return False
    if top.roundness < ROUND_PIP:
        return _axes_turned(side, top)
    return side.roundness < MIN_ROUNDNESS_RATIO * top.roundness


def _axes_turned(a: Pip, b: Pip) -> bool:
    """Whether two pips' long axes lie more than ``MAX_AXIS_TURN`` apart."""
    turn = abs(a.angle - b.angle) % math.pi
    return min(turn, math.pi - turn) > MAX_AXIS_TURN


def _empty_spots(value: int) -> np.ndarray:
    """Canonical pip places that ``value`` leaves empty."""
    used = CANONICAL[value]
    keep = [s for s in ALL_SPOTS if not np.any(np.all(np.isclose(used, s), axis=1))]
    if value == 1:
        # a lone pip does not show the face's orientation: test the spots at 45 degrees too
        keep += [s @ np.array([[1, -1], [1, 1]]) * np.sqrt(0.5) for s in keep]
    return np.array(keep, float).reshape(-1, 2)


_EMPTY_SPOTS = {value: _empty_spots(value) for value in CANONICAL}
#: A lone pip's other pip places, where :func:`_ink_beside` looks for its ink.
_INK_PLACES = np.vstack([_EMPTY_SPOTS[1] * k for k in INK_PLACE_SCALES])


def _sample_size(radius: float) -> float:
    """Half the side of the square a place that may hold a pip of ``radius`` is sampled on:
    half the radius, or a single pixel for a pip smaller than ``SMALL_PIP_RADIUS``."""
    return 0.5 * radius if radius >= SMALL_PIP_RADIUS else 0.0


def _levels(grey: np.ndarray, points: np.ndarray, radius: float, ink: float, body: float) -> np.ndarray:
    """Mean grey level in a small square at each point, as a fraction from ink (0) to body (1);
    NaN where the square leaves the image."""
    inside, patches = _patches(grey, points, radius)
    # each square's sum as its product with ones: exact (a sum of bytes), and quicker
    levels = (patches.dot(np.ones(patches.shape[1])) / patches.shape[1] - ink) / (body - ink)
    if len(levels) == len(inside):
        return levels  # (every square inside, as is usual: nothing to fill in)
    out = np.full(len(inside), np.nan)
    out[inside] = levels
    return out


def _grain(grey: np.ndarray, points: np.ndarray, radius: float, ink: float, body: float) -> float:
    """The median spread (standard deviation) of the grey levels in a small square at each
    point, as a fraction of the pip contrast; NaN if no square lies inside the image."""
    inside, patches = _patches(grey, points, radius)
    return float(np.median(patches.std(axis=1))) / abs(body - ink) if inside.any() else math.nan


def _patches(grey: np.ndarray, points: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Which points' squares of half-side ``ceil(radius)`` lie inside the image, and those
    squares' grey levels (one row per such point, in the image's own type)."""
    h, w = grey.shape
    r = math.ceil(radius)
    room, index, offsets = _squares(r, w, h)
    centres = np.rint(np.asarray(points, float).reshape(-1, 2)).astype(np.intp)
    # r <= x < w - r (and so for y) as one comparison each: x - r, as unsigned, is below
    # w - 2r; the two columns joined by hand, quicker than ``all(axis=1)``
    fits = (centres - r).view(np.uintp) < room
    inside = fits[:, 0] & fits[:, 1]
    # picked from the image as one row of pixels (a view unless the image is a crop) by
    # index: much quicker than picking by row and column
    return inside, grey.ravel().take(centres[inside].dot(index)[:, None] + offsets)


@lru_cache(maxsize=64)
def _squares(r: int, width: int, height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For squares of half-side ``r`` in an image ``width`` x ``height``: the bounds of
    their centres' ``x - r`` and ``y - r`` (unsigned), the weights of a pixel's column and
    row in its index in the image's row of pixels, and the square's pixels' offsets there."""
    dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
    return (np.array([max(0, width - 2 * r), max(0, height - 2 * r)], np.uintp), np.array([1, width], np.intp),
            (dy * width + dx).ravel())
