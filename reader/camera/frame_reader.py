"""Read every d6 in one frame: find pips, group them into top faces, check and read them."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple
from dataclasses import dataclass, replace
from statistics import median

import cv2
import numpy as np

from reader.camera.body_colour import MIN_INK_COLOUR, BodyColours
from reader.camera.camera_direction import TowardsCamera
from reader.camera.colour import medians
from reader.camera.dice_finder import (FACE_HALF, SIDE_DIRECTION_COS, STEEP_VIEW, FaceCandidate,
                                       face_candidates, face_of)
from reader.camera.die_body import compact_body, edged_share
from reader.camera.face_checks import (MIN_FAR_PLACES_ROUNDNESS, NO_PIP, PARTNER_REACH_RADII, Verdict, check_face,
                                      lone_partners, ones_of_two_dice)
from reader.camera.layouts import CORNERS, LayoutFit, within
from reader.camera.pip_groups import MAX_RADIUS_RATIO, PipGroup, group_pips, squash_along
from reader.camera.pipless_dice import PiplessBody, pipless_bodies
from reader.camera.pips import (MIN_HELD_PIPS, MIN_PIP_AREA, ROUND_PIP, Pip, PipSearch, held_pips, round_radii,
                                search_pips, typical_pip_radius)
from reader.camera.reading import DieCandidate, DieReading, ReadStatus
from reader.camera.surface_grain import SurfaceGrain

#: Names a die's colour: (image_bgr, candidate, table_reference_bgr or None) -> (name, confidence).
ColourNamer = Callable[[np.ndarray, DieCandidate, np.ndarray | None], tuple[str, float]]
#: The surface grain (see :mod:`reader.camera.surface_grain`) at a point (x, y) of an image searched.
GrainAt = Callable[[float, float], float]

SIDES = 6
#: Pips that fit no face are reported as an unreadable die when there are at least this
#: many of them, alike and on one surface; fewer are no evidence of a die.
MIN_PIPS_UNFIT_DIE = 3
#: Frames at least this many pixels on their short side are searched at a reduced size
#: when their pips allow: the coarsest size that keeps the pips ``WORK_RADIUS`` pixels in
#: radius, down to ``MIN_WORK_SCALE`` or, for frames over twice ``MIN_WORK_SIDE`` rows, down
#: to ``MIN_WORK_SIDE`` rows (a phone's 12 MP photo needs no more than a 1440p frame's half:
#: searched at half size, its wood grain came out as thousands of blobs, seconds to a minute
#: a photo). The pips' size is told roughly at half size from the ``SIZE_SAMPLE`` clearest
#: pip-like blobs of each polarity (below ``MIN_SIZING_RADIUS`` there it cannot be told;
#: where none can be sized, as on a grainy table whose clearest blobs are grain, the least
#: scale is tried first, and kept if the blobs there measure a pip's size, up to
#: ``SIZING_SLACK`` times ``WORK_RADIUS``). If the pips found at the reduced size are smaller than
#: ``MIN_WORK_RADIUS`` after all, the frame is searched again at twice that size, and so
#: on up to full size.
REDUCE_FROM, MIN_WORK_SCALE, MIN_WORK_SIDE, WORK_RADIUS, MIN_WORK_RADIUS = 600, 0.5, 720, 3.0, 2.5
#: Pips found with a median radius above this many pixels could be searched for at a
#: coarser scale: the next frame has its pips sized afresh.
RESIZE_RADIUS = 2 * WORK_RADIUS
#: Pips found at the scale chosen for them measure up to about this many times
#: ``WORK_RADIUS`` (2.6-3.7 px on rendered frames of dice 40-80 px across); more, and the
#: sizing may have taken whole small dice for pips.
SIZING_SLACK = 1.3
SIZE_SAMPLE, MIN_SIZING_RADIUS = 8, 1.8
#: A frame searched at full size whose round pips measure under this many pixels in radius
#: (dice about 30 px across) is searched again enlarged twice: pips of 1.5-2 px merge with
#: their neighbours and with the rim of their face at the contrast mask's resolution, and a
#: 5 came out as a 3 and a lone pip, or not at all (the rendered small-dice sets read 82-84%
#: right at full size, 93% enlarged). It costs about four times a full-size search.
ENLARGE_BELOW = 2.5
#: There, pips must stand out from a neighbourhood about one die across (a die's side is
#: about this many pip radii), not a tenth of the frame: on a dark table, a tenth of the
#: frame is mostly table, and a light die's dark pips are no darker than that (found only
#: as holes in the die, some of them not at all). Rendered frames of 8 dice 26 px across
#: read 122-125 of 128 dice with such a block (10-14 radii), 105 with a tenth of the frame.
ENLARGED_BLOCK_RADII, MIN_ENLARGED_BLOCK = 12, 15
#: An enlarged frame's blobs count only within this many radii of a blob found at full size
#: that may be a die's pip: a tiny one round which a die's edge is seen (see
#: ``MIN_SMALL_ONE_EDGES``), or one of a pip's size. A die's face and its neighbours' (a
#: die's side is about 12 radii) all lie within that reach; dust on a bare dark tray, each
#: speck alone, lies mostly beyond it (a whole enlarged photo of such a tray held thousands
#: of blobs: seconds to read).
SEED_REACH_RADII = 40
#: How round such a blob must be: a pip on a top face seen up to about 50 degrees obliquely
#: (a wide lens sees the dice at its edges at a slant: a red 4's pips there, 0.67-0.70,
#: were lost at ``ROUND_PIP``).
MIN_SEED_ROUNDNESS = 0.6
#: A face's pips are evidence of a die only if they cover ``MIN_PIP_AREA`` pixels of the
#: frame itself (an enlarged frame shows smaller specks as blobs: a keyboard's glyphs, grain
#: of the table, dust on a dark dice tray, two of which fit a 2), and a lone pip, if it
#: measures under ``ENLARGE_BELOW`` pixels, only where its die's edge is seen round it in at
#: least ``MIN_SMALL_ONE_EDGES`` of the directions: a crumb or a dot of print on a bare table
#: is as round and as centred on its surroundings as a 1.
MIN_FRAME_PIP_RADIUS, MIN_SMALL_ONE_EDGES = math.sqrt(MIN_PIP_AREA / math.pi), 0.15
#: Pips found much bigger than needed at the reduced size may be whole small dice, their
#: pips too small to show there: this many of the clearest are looked at, at full size.
WHOLE_DICE_SAMPLE = 5
#: A 1's own pip lies within this share of its face's half-width from the face's centre
#: (a 1's pip is about 0.2 of it across; the layout fit puts the face's centre on the pip).
OWN_PIP_SHARE = 0.3
#: The smallest neighbourhood (pixels) pips must stand out from when a die is looked at again.
CLOSE_BLOCK_MIN = 9
#: A die's pips are at most this many times the radius of the frame's pips (the median of
#: its faces of two pips or more; some dice have a bigger 1, up to about twice as big):
#: blobs bigger still are whole dice (light ones on a dark table) or the shadows beside
#: small dice, two of which lie as far apart as a big 2's pips.
MAX_ONE_RATIO = 3.0
#: Two touching dice showing 1 put their pips a die's side apart: 4.4 pip offsets of the
#: frame's dice seen square-on, less along the camera's foreshortening (3.2 on the test
#: sets, at a 38-degree tilt); a 2's pips lie 2.8 offsets apart, its face's diagonal.
MIN_ONES_APART = 3.1
#: A 2's pips are printed alike on one face and seen alike. Of a 2 refused, the flatter pip,
#: if also the smaller, at most these shares of the other's roundness and radius, is a side
#: face's pip linked with a 1 (an image reduced for big dice rounds a side face's long pips
#: off). Of the 2s read on the real photos none had pips that unlike (0 of 199), on four
#: rendered sets 2 of 217.
SIDE_PIP_ROUNDNESS, SIDE_PIP_RADIUS = 0.8, 0.9
#: A lone blob refused as no pip (uneven inside: a pip and a highlight round it, cut out
#: as one) may hold its pip at up to this share of its radius (a die cut out whole holds
#: pips of at most ``HELD_RATIO`` of its own).
LIT_ONE_RATIO = 0.75
#: ... where the highlight shows round that pip: its surroundings lie nearer the blob's
#: ink than the blob's own by at least this share of the blob's contrast (a small die's
#: pip blurred into its rim, the die's other pips unfound, has the blob's surroundings).
LIT_RING_SHARE = 0.1
#: A crop round a doubtful die reaches at least this many pip radii past its box (a lone
#: pip's partner, and the ring round the partner, lie inside it) ...
CLOSE_REACH_RADII = 13
#: ... and, read in its ink's colour alone, round a lone pip this many: in grey a highlight
#: beside a coloured pip shrinks it to a fraction of its partner's size, and a 2's face
#: reaches on past the partner. (Not in grey: that far out, a crop holds the front face of
#: a die read already, whose top face it cuts.)
INK_REACH_RADII = 18
#: A coloured pip inside a blob of its highlight (see :meth:`BodyColours.inked_spot`) is
#: taken to be about this share of the blob's radius: smaller than the blob that hides it
#: (10-12 px on the rendered dark dice), so that its ink, not the highlight round it, is
#: what the closer look measures.
GLARED_PIP_SHARE = 0.5
#: A pip read on the crop lies within this many radii of a pip the first look saw: the same.
SAME_PIP_RADII = 2.0
#: Grey levels of the body and of the ink in the image of a die's pips' colour alone (the
#: contrast of light pips on a dark die).
INK_IMAGE_BODY, INK_IMAGE_INK = 50, 210
#: Why a die body whose pips form no face (motion blur, defocus) cannot be read.
NO_READABLE_FACE = "no readable face"
#: A face's die's top face lies between these many pip offsets (its long axis') beyond it
#: when the face is the die's front face (about 2.3 to 3.6 on rendered dice seen at 30 to
#: 45 degrees, up to about 4.4 on the real photos' dice, whose pips sit closer together);
#: a 1's pip is printed as large as the others or larger (a highlight or blur may take a
#: little off it).
TOP_REACH, TOP_PIP_SHARE = (2.0, 4.5), 0.7
#: About this many pixels are read for the table's colour.
TABLE_SAMPLES = 6000
#: A face is a die's only if its pips stand out from its body by this many times the
#: image's texture (see :class:`PipSearch`): on a grainy table, blobs of grain stand out
#: 3 to 5 times as far, and a few of them fit a 1 or a 2 where no die lies (rendered frames
#: with a grain of 14-22 levels showed 18 false dice each, 2.5 of them read as a number).
#: The real photos' dice stand out 23 times their texture or more (77 at the median),
#: rendered dice on plain tables 14 or more, on grainy ones mostly 7 or more. Grain seldom
#: fits a face of three pips or more, and such a face needs only ``LAYOUT_TEXTURE_RATIO``
#: (a red die's white pips, a black die's red ones, stand out least in grey).
TEXTURE_RATIO, LAYOUT_TEXTURE_RATIO = 6, 5
#: ... and by this many times the grain of the surface round it (see
#: :mod:`reader.camera.surface_grain`), which a smooth dice tray on a grainy table hides
#: from the frame's texture: the real webcam photos' dice stand out 21 times their grain or
#: more (66 times, all but 0.5% of them), the rendered dice 22 times or more; the blobs of
#: wood grain read as dice on photos of a tray on a wooden table, 4 to 15 times (9 in 10
#: of those reported unreadable, and a third of those read with a value: most others were
#: dust on the tray, see ``MIN_FRAME_PIP_RADIUS``).
GRAIN_RATIO = 12
#: Pips far from their body in colour are held to neither ratio: a black die's red pips stand
#: out least in grey (on rendered wood, 58 grey levels where the frame's texture was 12: such
#: dice were missed), while grain is mostly the surface's own colour. Mostly: a phone's photo
#: of wood shows specks of other tints, their colour 46-67 from the wood's (as
#: :func:`reader.camera.body_colour.glare_free` gives it; colour tells ink from body from 40
#: on), read as 1s and 2s; the rendered dice's red and gold pips lie 94-209 from black.
STRONG_INK_COLOUR = 2 * MIN_INK_COLOUR
#: Two pips never linked into a face are read as a 2 (see :func:`_partnered_twos`) only if
#: each stands out this many times the image's texture (specks of a grainy table that pass
#: a 2's checks stood out 3 to 6 times; the 2s read so, 23 times or more) and is at least
#: this share of the radius of the frame's faces' pips (a side face's pips: 0.4 and 0.6).
UNLINKED_TEXTURE_RATIO, UNLINKED_RADIUS_SHARE = 2 * TEXTURE_RATIO, 0.8


@dataclass
class SearchScale:
    """The scale the last frame of a camera was searched at (None: not known yet). A fixed
    camera's dice keep their size from frame to frame, so the next frame is searched at it
    at once, without sizing its pips first; the pips found there confirm it or have it
    sized afresh for the frame after."""

    scale: float | None = None


class FrameReading:
    """Reads the frames of one camera or video in turn (a :data:`FrameReader`), keeping the
    scale they are searched at between frames."""

    def __init__(self) -> None:
        self._scale = SearchScale()

    def __call__(self, image_bgr: np.ndarray, namer: ColourNamer | None = None) -> list[DieReading]:
        return read_frame(image_bgr, namer, self._scale)


def read_frame(image_bgr: np.ndarray, namer: ColourNamer | None = None,
               memo: SearchScale | None = None) -> list[DieReading]:
    """Every die whose top face shows in ``image_bgr``, read or marked unreadable with a
    reason. ``memo`` carries the search scale from a camera's previous frame to this one.

    Every die left unreadable is looked at again, at full size, on a crop round it where
    pips need stand out only from the die itself: a frame searched at a reduced size suits
    its bigger dice (a small die's pips may have been too small there), and a light die on
    a dark table stands out from the table as a whole, pips and all.
    """
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    memo = memo if memo is not None else SearchScale()
    grain = SurfaceGrain(grey)
    work, scale, found = _working_image(grey, memo, grain)
    look = _read(image_bgr, work, scale, found, namer, grain=lambda x, y: grain.at(x * scale, y * scale))
    if look.too_coarse:
        # whole dice were taken for pips (a blob read as a 1 holds pips at full size): the
        # frame's pips are too small for the reduced size
        memo.scale, scale = 1.0, 1.0
        found = search_pips(grey)
        look = _read(image_bgr, grey, 1.0, found, namer, grain=grain.at)
    readings, seen, table = look.readings, look.seen, look.table
    # dice whose pips motion blur wiped out still count: unreadable, not missed. Their
    # bodies are measured against the dice read with two pips or more where there are any:
    # a speck of a grainy table read as a 1 would pass off the table's own patches as bodies
    read = [r for r in readings if r.status is ReadStatus.OK]
    sized_by = {id(r) for r in ([r for r in read if r.value > 1] or read)}
    # (a tentative die is no die yet: a body under it still counts)
    other = [r.center for r, made in zip(readings, seen) if id(r) not in sized_by
             and (r.status is ReadStatus.OK or not made.tentative)]
    for body in pipless_bodies(image_bgr, [r.center for r in read if id(r) in sized_by], other):
        cx, cy = body.quad.mean(axis=0)
        cand = DieCandidate(box=body.box, center=(float(cx), float(cy)), quad=body.quad,
                            contour=np.rint(body.quad).astype(np.int32).reshape(-1, 1, 2), body_mask=body.mask)
        colour = namer(image_bgr, cand, table)[0] if namer is not None else "unknown"
        readings.append(DieReading(None, SIDES, colour, cand.center, cand.box, 0.0, ReadStatus.UNREADABLE,
                                   NO_READABLE_FACE))
        seen.append(_pips_on(body, found.pips, scale))
    return _closer_look(image_bgr, grey, readings, seen, namer, table, found.texture, look.die_offset, grain)


def _pips_on(body: PiplessBody, pips: list[Pip], scale: float) -> _Seen:
    """The round pips (found on an image ``1 / scale`` the frame's size) that lie on a
    pipless body, as what the body was seen with: they formed no face, but their colour
    tells the ink's, which the closer look reads the body in (a highlight as bright as the
    pips in grey hides some of them there)."""
    x0, y0, *_ = body.box
    h, w = body.mask.shape
    on = [p for p in pips if p.roundness > ROUND_PIP
          and 0 <= (x := round(p.x * scale) - x0) < w and 0 <= (y := round(p.y * scale) - y0) < h and body.mask[y, x]]
    if not on:
        return _Seen(np.empty((0, 2)), 0.0, False)
    return _Seen(np.array([(p.x, p.y) for p in on]) * scale, float(median([p.radius for p in on])) * scale, False,
                 loose=True)


class _Seen(NamedTuple):
    """What a reading was made from: its pips' centres and radius (in the frame's pixels),
    whether it is only tentative (see :func:`_dice`), whether it is a lone pip that is
    no 1 (its partner joined to a highlight, see :class:`Verdict`), whether the pips
    are loose ones on a pipless body (see :func:`_pips_on`), not a face's, the lone
    blob that may be its die's top face (x, y, radius in the frame's pixels; see
    :func:`_top_beyond`), and whether it is a lone pip refused for a partner like it (see
    :func:`_closer_look`)."""

    points: np.ndarray
    radius: float
    tentative: bool
    no_one: bool = False
    loose: bool = False
    beyond: np.ndarray | None = None
    partnered: bool = False


class _Look(NamedTuple):
    """What one look at a frame (or a crop) read: the readings, what each was made from,
    the table's colour, whether the image was searched too coarse (a 1 read on it
    holds pips at full size; it is dropped), and the pip offset of the dice read (see
    :func:`_die_offset`, in the frame's pixels; None if it read none of 2 pips or more)."""

    readings: list[DieReading]
    seen: list[_Seen]
    table: np.ndarray | None
    too_coarse: bool
    die_offset: float | None


def _read(image_bgr: np.ndarray, grey: np.ndarray, scale: float, found: PipSearch, namer: ColourNamer | None,
          table: np.ndarray | None = None, ink_only: bool = False, die_offset: float | None = None,
          grain: GrainAt | None = None) -> _Look:
    """The dice whose faces the pips ``found`` on ``grey`` (``1 / scale`` the size of
    ``image_bgr``) show; ``table`` is the table's colour if known (else it is measured).
    ``ink_only``: ``grey`` is one ink's colour alone (see :func:`_close_images`), in which
    a dark die and a dark table look alike. ``die_offset``: the pip offset of the frame's
    dice (frame pixels), for an image that shows none of its own. ``grain``: the surface
    grain at a point of ``grey`` (None: not asked), which a face's pips must clear
    ``GRAIN_RATIO`` times."""
    pips = found.pips
    colours = BodyColours(image_bgr, scale)
    groups = group_pips(pips, grey, colours)
    faint = [_faint(g, found.texture, grain, colours) for g in groups]
    faces, towards_camera = face_candidates(groups, colours, faint)
    # (only as faces: the checks of the faces kept still see every pip candidate)
    too_faint = {id(g) for g, weak in zip(groups, faint) if weak}
    faces = [f for f in faces if id(f.group) not in too_faint]
    lone = [g.pips[0] for g in groups if len(g.pips) == 1]
    dice = list(_dice(faces, grey, pips, lone, colours, towards_camera, found.texture, split_twos=not ink_only,
                      frame_offset=die_offset / scale if die_offset is not None else None, grain=grain,
                      scale=scale))
    blobs = [die for die in dice if die.value == 1 and _holds_pips(die.face.group.pips[0], image_bgr, grey, scale)]
    dice = [die for die in dice if not any(die is blob for blob in blobs) and not _speck(die, grey, scale)]
    candidates = [die_candidate(die.face, image_bgr.shape, scale) for die in dice]
    if table is None and namer is not None and candidates:
        table = table_reference(image_bgr, candidates)
    readings = []
    for die, cand in zip(dice, candidates):
        colour = namer(image_bgr, cand, table)[0] if namer is not None else "unknown"
        readings.append(DieReading(die.value, SIDES, colour, cand.center, cand.box, die.confidence,
                                   ReadStatus.OK if die.value is not None else ReadStatus.UNREADABLE, die.reason))
    seen = [_Seen(die.face.group.points * scale, die.face.group.radius * scale, die.tentative, die.no_one,
                  beyond=np.array([die.beyond.x, die.beyond.y, die.beyond.radius]) * scale
                  if die.beyond is not None else None, partnered=die.partnered) for die in dice]
    offset = _die_offset([die.face.fit for die in dice if die.value is not None and die.value > 1])
    return _Look(readings, seen, table, bool(blobs) and scale > 1, offset * scale if offset is not None else None)


def _faint(group: PipGroup, texture: float, grain: GrainAt | None, colours: BodyColours) -> bool:
    """Whether a group's pips stand out too little from their body, against the image's
    ``texture`` (see ``TEXTURE_RATIO``) or the surface ``grain`` round them (see
    ``GRAIN_RATIO``), to be a die's, unless they are far from their body in colour (see
    :func:`_strongly_coloured`; asked only of groups that stand out too little)."""
    contrast = abs(group.body_level - group.pip_level)
    weak = (contrast < (TEXTURE_RATIO if len(group.pips) < 3 else LAYOUT_TEXTURE_RATIO) * texture
            or _under_grain(contrast, float(group.centre[0]), float(group.centre[1]), grain))
    return weak and not _strongly_coloured(colours, group.pips)


def _strongly_coloured(colours: BodyColours, pips: Sequence[Pip]) -> bool:
    """Whether ``pips`` lie at least ``STRONG_INK_COLOUR`` from their body in colour, on a
    face round enough to be a die's top face (see ``MIN_FAR_PLACES_ROUNDNESS``): a flat side
    face's coloured pips, its top face too faint to be seen, were read as the die."""
    if median([p.roundness for p in pips]) < MIN_FAR_PLACES_ROUNDNESS:
        return False
    axis = colours.pips_axis(pips)
    return axis is not None and float(np.hypot(*axis.step)) >= STRONG_INK_COLOUR


def _under_grain(contrast: float, x: float, y: float, grain: GrainAt | None) -> bool:
    """Whether ``contrast`` falls short of ``GRAIN_RATIO`` times the surface ``grain`` at
    (x, y) (never where the grain is not asked)."""
    return grain is not None and contrast < GRAIN_RATIO * grain(x, y)


def _speck(die: _Die, grey: np.ndarray, scale: float) -> bool:
    """Whether a die's pips (found on ``grey``, ``1 / scale`` the frame's size) are specks
    too small to be a die's (see ``MIN_FRAME_PIP_RADIUS``)."""
    group = die.face.group
    radius = group.radius * scale
    if radius < MIN_FRAME_PIP_RADIUS:
        return True
    return len(group.pips) == 1 and radius < ENLARGE_BELOW and edged_share(group.pips[0], group.squash,
                                                                          grey) < MIN_SMALL_ONE_EDGES


def _holds_pips(pip: Pip, image_bgr: np.ndarray, grey: np.ndarray, scale: float) -> bool:
    """Whether a pip (found on ``grey``, ``1 / scale`` the size of ``image_bgr``) holds pips
    when looked at alone at full size (see :func:`held_pips`): on ``grey`` itself where that
    is full size (a crop's, which may be one ink's colour alone: in grey, a coloured pip in
    a highlight comes apart into blobs), else on ``image_bgr`` in grey."""
    reach = math.ceil(pip.radius * scale) + 2
    x, y = round(pip.x * scale), round(pip.y * scale)
    x0, y0 = max(0, x - reach), max(0, y - reach)
    window = (slice(y0, y + reach + 1), slice(x0, x + reach + 1))
    crop = grey[window] if scale == 1 else cv2.cvtColor(image_bgr[window], cv2.COLOR_BGR2GRAY)
    return bool(held_pips(replace(pip, x=pip.x * scale - x0, y=pip.y * scale - y0, radius=pip.radius * scale), crop))


def _closer_look(image_bgr: np.ndarray, grey: np.ndarray, readings: list[DieReading], seen: list[_Seen],
                 namer: ColourNamer | None, table: np.ndarray | None, texture: float,
                 die_offset: float | None, grain: SurfaceGrain) -> list[DieReading]:
    """The readings, each unreadable die read again at full size on a crop round it; the
    dice the crop reads there replace it (else it stays as it was). ``seen`` holds what
    each reading was made from. A die read on the crop is the doubtful one's if its face
    holds every pip seen, or (unless the doubt is tentative) if its centre lies in the
    doubt's box; a pipless body's loose pips lie on one of its dice, so such a die must hold
    one of them (a die seen steeply shows its front face's pips on the body too). A 1 read
    on the crop must account for the pips seen (none of them may lie on its face but its
    own pip). A tentative die the crop does not read is dropped. A face left unread for a
    lone blob beyond it (see :func:`_top_beyond`) is its die's front face if the crop reads
    a 1 in that blob: the die is that 1. The faces read on a crop
    are held to the frame's ``texture`` (see ``TEXTURE_RATIO``), not the crop's: the die
    itself fills much of a crop; and, read in grey, to the frame's ``grain`` round them. A
    crop that holds no die of 2 pips or more takes the size
    of its dice from the frame's (``die_offset``, see :func:`_die_offset`): a lone pip's own
    surroundings cannot tell a 1 from a 2's pip printed small on a dark table, whose edge
    the rays do not see.

    Where those pips differ from their die in colour (red or gold pips on a black die,
    white pips on a red one), the crop is also read in that colour alone, which a
    highlight does not change (in grey, glare on a dark die is as bright as its pips):
    after grey for an unreadable die, before it for a tentative one, which grey's checks
    failed already. A die read on a crop is taken only where its centre lies off every die
    read's face (see :func:`_on_face`) and its face holds none of that die's pips: touching
    dice's boxes hold each other's centres, and a crop may read a die out of a read die's
    pip and one on its front face, centred just off its face (a small 1's). A pipless body's
    dice must lie off the read dice's boxes instead of their faces, or, where one overlaps
    the body, off the face the two share (see :func:`_same_face`). A doubtful die that a
    die read already overlaps first takes a die that another doubt's crop read beside that
    doubt's own (see :func:`_spare_die`), unless it is a pipless body; else its own crop is
    read, and the doubt is dropped if the crop reads none: it may be a face of the die
    read. (Passed over instead, or refused for lying in a read die's box, such dice were
    lost: 140 of 22260 on four rendered batteries.) A doubt left unreadable counts as no
    die read: a later crop may read a die over it, which takes its place if it holds every
    pip it was seen with (else that die is refused: it may be a face of the doubt's die).
    Round a lone pip refused for a partner like it, a die read whose box meets a die read's
    is refused: the crop may have cut that die's top face off and read its front face.
    """
    # the dice read (None beside each) and the doubts left unreadable (with what each was
    # seen with), in the order they are reported
    out: list[tuple[DieReading, _Seen | None]] = [(r, None) for r in readings if r.status is ReadStatus.OK]
    # each die read's pips' centres, by the reading's identity (readings equal in value may
    # be two dice)
    pips_of = {id(r): m.points for r, m in zip(readings, seen) if r.status is ReadStatus.OK}
    # dice a crop read beside its doubtful die: a neighbouring doubt's, perhaps
    spare: list[tuple[DieReading, np.ndarray]] = []
    for doubt, made in ((r, m) for r, m in zip(readings, seen) if r.status is not ReadStatus.OK):
        pips_seen, radius, maybe, no_one = made.points, made.radius, made.tentative, made.no_one
        # (a die already read: the doubt may be one of its faces, a die touching it, or a body
        # holding it and another)
        read = [r for r, was in out if was is None]
        read_there = any(_overlap(doubt, other) for other in read)
        if read_there and not made.loose and (spared := _spare_die(spare, made, read)[:1]):
            out.extend((r, None) for r, _ in spared)
            pips_of.update((id(r), own) for r, own in spared)
            continue
        side = max(doubt.box[2] - doubt.box[0], doubt.box[3] - doubt.box[1])
        apart_from = _on_face if not made.loose else _same_face if read_there else _overlap
        # pips must stand out from the die round them, not from the table beyond it
        block = max(CLOSE_BLOCK_MIN, side // 2) | 1
        here: list[tuple[DieReading, np.ndarray]] = []
        for close in _close_images(image_bgr, grey, doubt.box, pips_seen, radius, maybe):
            cx0, cy0 = close.origin
            look = _read(close.crop, close.image, 1.0, search_pips(close.image, block)._replace(texture=texture),
                         namer, table, close.ink_only, die_offset,
                         None if close.ink_only else lambda x, y: grain.at(x + cx0, y + cy0))
            # (in the frame's pixels)
            on_crop = [(replace(r, center=(r.center[0] + cx0, r.center[1] + cy0),
                                box=(r.box[0] + cx0, r.box[1] + cy0, r.box[2] + cx0, r.box[3] + cy0)), own + (cx0, cy0))
                       for r, (own, *_) in zip(look.readings, look.seen) if r.status is ReadStatus.OK]
            # the dice read where the doubtful one lies (a tentative one's guessed face may
            # be off its die's: there, a die read from its pips), and no die already read.
            # (Only a die centred off a read die's face, and holding none of its pips, is
            # another; a crop's die made of the read die's side face lies within that face:
            # 0.47 and 0.49 of its box side on the rendered sets, touching dice' top faces 0.56
            # or more.) A die left unreadable that such a die overlaps must be it, seen worse:
            # the die holds every pip it was seen with
            here = [(r, own) for r, own in on_crop if _doubts_die(own, r.center, doubt.box, made)
                    and not any(apart_from(r, other) or _held(own, pips_of[id(other)], radius).any()
                                for other in read)
                    and not (r.value == 1 and (no_one or _other_pip_on_face(r, pips_seen)
                                               or _one_of_seen_face(r, pips_seen, radius)))
                    and all(_held(own, was.points, was.radius).all() for u, was in out
                            if was is not None and _overlap(r, u))
                    and not (made.partnered and any(_boxes_meet(r, other) for other in read))]
            if made.beyond is not None:
                tops = [(r, own) for r, own in on_crop
                        if r.value == 1 and _held(own, made.beyond[None, :2], made.beyond[2]).all()]
                here = tops or here
            if here:
                spare.extend((r, own) for r, own in on_crop if not any(r is h for h, _ in here))
                break
        if here:
            out = [(r, was) for r, was in out if was is None or not any(_overlap(r, die) for die, _ in here)]
            out.extend((r, None) for r, _ in here)
            pips_of.update((id(r), own) for r, own in here)
        elif not (maybe or read_there or any(_overlap(doubt, other) for other, _ in out)):
            out.append((doubt, made))
    return [r for r, _ in out]


def _spare_die(spare: list[tuple[DieReading, np.ndarray]], seen: _Seen,
               out: list[DieReading]) -> list[tuple[DieReading, np.ndarray]]:
    """The die read on another doubt's crop (``spare``: each with its pips' centres, as
    returned) that holds every pip a doubtful die was ``seen`` with, and lies off every die
    read (``out``), if any: a doubt that a die read overlaps (its guessed box reaching over a
    touching die) may still be a die of its own, which that crop read whole."""
    return [(r, own) for r, own in spare if r.value is not None and r.value > 1 and len(seen.points)
            and _held(own, seen.points, seen.radius).all() and not any(_overlap(r, other) for other in out)]


class _CloseImage(NamedTuple):
    """A crop of the frame round a doubtful die (``crop``, in colour, its top left corner at
    ``origin`` in the frame) and the image its pips are searched on: its grey, or its ink's
    colour alone (``ink_only``)."""

    crop: np.ndarray
    image: np.ndarray
    origin: tuple[int, int]
    ink_only: bool


def _close_images(image_bgr: np.ndarray, grey: np.ndarray, box: tuple[int, int, int, int], pips: np.ndarray,
                  radius: float, colour_first: bool) -> list[_CloseImage]:
    """The images a doubtful die (its ``box``, its ``pips``: centres in the frame, of
    ``radius``) is read on again: a crop round it in grey and, where its pips differ from
    the body round them in colour, in that colour alone (see :class:`InkAxis`), mapped from
    ``INK_IMAGE_BODY`` (body) to ``INK_IMAGE_INK`` (ink); the colour first if
    ``colour_first``. A lone pip's face is only guessed: the crops reach as far as a
    partner pip may lie (see ``CLOSE_REACH_RADII``, ``INK_REACH_RADII``)."""
    h, w = grey.shape
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)

    def bounds(radii: float) -> tuple[int, int, int, int]:
        reach = max(side, round(radii * radius))
        return max(0, x0 - reach), max(0, y0 - reach), min(w, x1 + reach), min(h, y1 + reach)

    def cropped(image: np.ndarray, at: tuple[int, int, int, int]) -> np.ndarray:
        # (copied once: the checks pick pixels from a crop's rows as one run, which a view
        # of the frame would have copied at every pick)
        return np.ascontiguousarray(image[at[1]:at[3], at[0]:at[2]])

    near = bounds(CLOSE_REACH_RADII)
    crop = cropped(image_bgr, near)
    images = [_CloseImage(crop, cropped(grey, near), near[:2], False)]
    axis = BodyColours(crop).ink_axis(pips - near[:2], radius) if len(pips) and radius > 0 else None
    if axis is None:
        return images
    far = bounds(INK_REACH_RADII) if len(pips) == 1 else near
    far_crop = cropped(image_bgr, far) if far != near else crop
    ink = np.clip(INK_IMAGE_BODY + (INK_IMAGE_INK - INK_IMAGE_BODY) * axis.share(far_crop), 0, 255).astype(np.uint8)
    inked = _CloseImage(far_crop, ink, far[:2], True)
    return [inked] + images if colour_first else images + [inked]


def _other_pip_on_face(one: DieReading, pips: np.ndarray) -> bool:
    """Whether any of ``pips`` (centres) lies on the face of the 1 ``one`` away from its own
    pip: a pip the first look saw there, which the second look missed. A 1's face is only
    guessed (its box): anywhere within the box's corners counts."""
    x0, y0, x1, y1 = one.box
    half = min(x1 - x0, y1 - y0) / 2
    apart = np.hypot(pips[:, 0] - one.center[0], pips[:, 1] - one.center[1])
    return bool(((apart > OWN_PIP_SHARE * half) & (apart <= math.hypot(x1 - x0, y1 - y0) / 2)).any())


def _one_of_seen_face(one: DieReading, pips: np.ndarray, radius: float) -> bool:
    """Whether the 1 ``one`` is one pip of a face of several ``pips`` (centres, of
    ``radius``) the first look saw: the crop missed the others. (The 1's face is guessed
    from its pip's size, and pips printed small lie further out than that reaches.)"""
    return len(pips) > 1 and float(np.hypot(*(pips - one.center).T).min()) <= SAME_PIP_RADII * radius


def _doubts_die(own: np.ndarray, centre: tuple[float, float], box: tuple[int, int, int, int], seen: _Seen) -> bool:
    """Whether a die read on a closer look's crop, its pips at ``own`` and its centre at
    ``centre`` (frame pixels), is the doubtful die whose ``box`` and ``seen`` are given (see
    :func:`_closer_look`)."""
    held = _held(own, seen.points, seen.radius)
    if held.size and held.all():
        return True
    x0, y0, x1, y1 = box
    return (not seen.tentative and x0 <= centre[0] <= x1 and y0 <= centre[1] <= y1
            and (not seen.loose or bool(held.any())))


def _held(own: np.ndarray, pips: np.ndarray, radius: float) -> np.ndarray:
    """For each of ``pips`` (centres; pips of ``radius``), whether a face whose pips lie
    at ``own`` holds it as its own."""
    if not len(own):
        return np.zeros(len(pips), bool)
    apart = np.hypot(pips[:, None, 0] - own[None, :, 0], pips[:, None, 1] - own[None, :, 1])
    return apart.min(axis=1) <= radius


def _same_face(a: DieReading, b: DieReading) -> bool:
    """Whether the readings' centres lie within half a face of each other (the smaller of
    their boxes' sides: a box holds a die's side faces too), each on the other's face."""
    return _on_face(a, b) and _on_face(b, a)


def _on_face(a: DieReading, b: DieReading) -> bool:
    """Whether reading ``a``'s centre lies within half of ``b``'s face from ``b``'s centre
    (the smaller side of ``b``'s box: a side face of ``b``'s die lies that near, and may be
    read on a crop as a die of its own, its face square smaller than ``b``'s)."""
    return math.dist(a.center, b.center) < min(b.box[2] - b.box[0], b.box[3] - b.box[1]) / 2


def _boxes_meet(a: DieReading, b: DieReading) -> bool:
    """Whether the readings' boxes share any pixel."""
    return a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]


def _overlap(a: DieReading, b: DieReading) -> bool:
    """Whether either reading's centre lies in the other's box."""
    return any(box[0] <= c[0] <= box[2] and box[1] <= c[1] <= box[3]
               for c, box in ((a.center, b.box), (b.center, a.box)))


class _Die(NamedTuple):
    """A face that is a die: its value (None: unreadable), the reason it could not be read,
    the confidence of the reading, whether it is only tentative (see :func:`_dice`),
    whether it is a lone pip that is no 1 (see :class:`Verdict`), the lone blob beyond
    it that may be its die's top face (see :func:`_top_beyond`), and whether it is a lone
    pip refused for a partner like it (see :attr:`Verdict.partnered`)."""

    face: FaceCandidate
    value: int | None
    reason: str | None
    confidence: float
    tentative: bool = False
    no_one: bool = False
    beyond: Pip | None = None
    partnered: bool = False


def _dice(faces: list[FaceCandidate], grey: np.ndarray, pips: list[Pip], lone: list[Pip], colours: BodyColours,
          towards_camera: TowardsCamera, texture: float, split_twos: bool = True,
          frame_offset: float | None = None, grain: GrainAt | None = None, scale: float = 1.0) -> Iterator[_Die]:
    """The faces that are dice. A tentative one is a face that failed its checks, on no
    evidence of a die but its pips' colour (coloured pips on a die of another colour),
    which is a die only if a closer look reads it; so is a spot of colourful ink inside a
    lone light blob refused (a pip that the highlight on its dark die took into one blob in
    grey).

    A face that passes its checks is still refused where its die's top face may lie beyond
    it, unread (see :func:`_top_beyond`): it may be that die's front face.

    Unless ``split_twos`` is False, a 2 refused as the 1s of two touching dice is read as
    those 1s (see :func:`_split_ones`), and so are two lone pips refused as each other's
    partners that are such 1s (see :func:`_partnered_ones`), and a 2 refused whose pips are
    unlike in shape is read as a 1 beside a side face's pip (see
    :func:`_ones_beside_side_pips`; ``scale`` maps ``grey``'s pixels to the frame's). In
    one ink's colour alone a dark table looks like the dark die on it, and only the frame's
    colours tell the two dice apart, which a highlight beyond the 2's pips lightens as much
    as a table lighter than the die: there the 2 stays refused. A lone pip refused for a
    partner like it is read with that partner as a 2 where the two pass a 2's checks and
    stand out from the image's ``texture`` (see :class:`PipSearch`) and the surface
    ``grain`` far enough (see :func:`_partnered_twos`).

    A 1's die is taken to be as big as the other dice' (see :func:`_die_offset`), or as
    ``frame_offset`` where no other face shows that."""
    grouped = [f.group.radius for f in faces if len(f.group.pips) > 1]
    # a lone blob many times the size of the frame's pips (its faces' of several pips, if
    # one of them is a die) is a whole die (a light one on a dark table, its pips smeared
    # away), not a 1 (see _held_ones); blobs that big linked as a face are no die's pips at all
    biggest_one = MAX_ONE_RATIO * median(grouped) if grouped else math.inf
    faces = [f for f in faces if len(f.group.pips) == 1 or f.group.radius <= biggest_one]
    # (so every face left bigger than that is a lone blob)
    own_offset = _die_offset([f.fit for f in faces if f.fit is not None])
    die_offset = own_offset if own_offset is not None else frame_offset

    def check(face: FaceCandidate) -> Verdict:
        return check_face(face, grey, pips, lone, colours, die_offset, towards_camera)

    verdicts = {id(face): check(face) for face in faces if face.fit is not None and face.group.radius <= biggest_one}
    if grouped and not any(verdict.reason is None for verdict in verdicts.values()):
        # no face passed its checks: those of several pips are no dice's top faces (a die's
        # side face, specks) and do not tell the size of the frame's pips (two small pips of
        # a black die's front face took both gold 1s of a frame, four times as big, for
        # whole dice)
        biggest_one = math.inf
        verdicts.update({id(face): check(face) for face in faces if face.fit is not None and id(face) not in verdicts})
    if split_twos:
        faces, lone = _split_ones(faces, verdicts, grey, pips, lone, colours, die_offset, towards_camera)
        faces, lone = _ones_beside_side_pips(faces, verdicts, grey, pips, lone, colours, die_offset, towards_camera,
                                             scale)
        faces = _partnered_ones(faces, verdicts, grey, pips, lone, colours, die_offset, towards_camera)
    faces = _partnered_twos(faces, verdicts, grey, pips, lone, colours, die_offset, towards_camera, texture, grain)
    faces, lone = _held_ones(faces, biggest_one, verdicts, grey, pips, lone, colours, die_offset, towards_camera)
    # lone blobs not read as dice: each may be a die's top face (a 1 its checks refused, or
    # dropped as the side face of a touching die's top; or a whole die that stands out from
    # its table as one blob)
    read_ones = {id(face.group.pips[0]) for face in faces if len(face.group.pips) == 1
                 and id(face) in verdicts and verdicts[id(face)].reason is None}
    unread = [pip for pip in lone if id(pip) not in read_ones]
    ones = [pip for pip in lone if id(pip) in read_ones]
    # (and so is each pip of a 2 refused: two such 1s, far apart, may have been linked)
    unread += [pip for face in faces if len(face.group.pips) == 2 and id(face) in verdicts
               and verdicts[id(face)].reason is not None for pip in face.group.pips]
    read: list[LayoutFit] = []
    failed: list[tuple[FaceCandidate, Verdict]] = []
    for face in faces:
        if face.group.radius > biggest_one:
            continue
        if face.fit is None:
            if len(face.group.pips) >= MIN_PIPS_UNFIT_DIE and compact_body(face.group.pips, face.group.squash, grey):
                yield _Die(face, None, face.reason, 0.0)
            continue
        verdict = verdicts[id(face)]
        if face.fit.value > 1 and face.roundness < STEEP_VIEW:
            # (read or refused: a refused one would be reported as a die of its own)
            if _top_beyond(face, _own_tops(face, ones, colours), towards_camera, colours) is not None:
                continue  # the front face of a die read as a 1
            top = _top_beyond(face, unread, towards_camera, colours) if verdict.reason is None else None
            if top is not None:
                # a die, but its top face may be another
                yield _Die(face, None, "ambiguous pips", 0.0, beyond=top)
                continue
        value = face.fit.value if verdict.reason is None else None
        # an unreadable lone blob, or one on no uniform, die-sized body, is clutter, not a die
        if value is not None or (face.fit.value > 1 and verdict.die_like
                                 and compact_body(face.group.pips, face.group.squash, grey)):
            read.extend([face.fit] if value is not None else [])
            yield _Die(face, value, verdict.reason, verdict.confidence)
        else:
            failed.append((face, verdict))
    # pips of another colour than the body round them are evidence of a die (grey's checks
    # may have failed them on glare, as bright as a dark die's coloured pips, or at the
    # reduced size), unless they lie on a die read (its side faces)
    # (and so is a lone pip refused for a partner like it: as the two are no two 1s, it is
    # no 1)
    for face, verdict in failed:
        if _on_a_face(face.centre, read):
            continue
        if colours.pips_axis(face.group.pips) is not None:
            yield _Die(face, None, verdict.reason, 0.0, tentative=True, no_one=verdict.joined_partner)
        elif verdict.partnered:
            yield _Die(face, None, verdict.reason, 0.0, tentative=True, no_one=True, partnered=True)
        elif (inside := _pip_in_highlight(face, colours)) is not None:
            yield _Die(inside, None, verdict.reason, 0.0, tentative=True)


def _pip_in_highlight(face: FaceCandidate, colours: BodyColours) -> FaceCandidate | None:
    """The 1 a refused lone light blob may hide: a pip of ``GLARED_PIP_SHARE`` of its radius at
    the spot inside it of a colour of its own (see :meth:`BodyColours.inked_spot`), if any.
    In grey the highlight on a die and its coloured pip (a black die's red one, a blue die's
    white one) are one blob, refused as a highlight, a pip with no die round it or an
    occluded one; a closer look in the ink's colour tells. (Asked of highlights beside
    coloured pips only, 42 dice fewer were read on four rendered batteries: a 1 or a 4 on a
    black die is often such a blob and nothing else in grey.)"""
    blob = face.group.pips[0]
    if len(face.group.pips) > 1 or blob.dark or (spot := colours.inked_spot(blob)) is None:
        return None
    return face_of(PipGroup((replace(blob, x=spot[0], y=spot[1], radius=GLARED_PIP_SHARE * face.group.radius),)))


def _die_offset(fits: list[LayoutFit]) -> float | None:
    """The median pip offset (pixels) along the long axis (which the camera does not
    foreshorten) of the ``fits`` of 2 pips or more: the size of the dice they are; None if
    there are none."""
    offsets = [fit.long_spacing for fit in fits if fit.value > 1]
    return median(offsets) if offsets else None


def _on_a_face(point: np.ndarray, fits: list[LayoutFit]) -> bool:
    """Whether ``point`` lies on the whole square of any of the faces ``fits``."""
    return any(within(fit.axes, *(point - fit.centre), FACE_HALF) for fit in fits)


def _split_ones(faces: list[FaceCandidate], verdicts: dict[int, Verdict], grey: np.ndarray, pips: list[Pip],
                lone: list[Pip], colours: BodyColours, die_offset: float | None,
                towards_camera: TowardsCamera) -> tuple[list[FaceCandidate], list[Pip]]:
    """The faces and lone pips with each 2 refused as the 1s of two touching dice (see
    :attr:`Verdict.two_ones`) replaced by its two pips, each a 1 of its own, where both pass
    a 1's checks (their verdicts are added to ``verdicts``).

    Two dice of one colour side by side, each showing 1, put their pips as far apart as a
    2's printed small; the 2 is refused where its face does not go on beyond its empty
    corners, and both dice went unread. Each 1 must still sit at the centre of a body of its
    own: a 2's pips lie off their die's centre."""
    for two in [f for f in faces if id(f) in verdicts and verdicts[id(f)].two_ones]:
        read = _as_ones((two,), two.group.pips, faces, verdicts, grey, pips, lone, colours, die_offset, towards_camera)
        if read is not None:
            faces, lone = read, lone + list(two.group.pips)
    return faces, lone


def _ones_beside_side_pips(faces: list[FaceCandidate], verdicts: dict[int, Verdict], grey: np.ndarray,
                           pips: list[Pip], lone: list[Pip], colours: BodyColours, die_offset: float | None,
                           towards_camera: TowardsCamera, scale: float) -> tuple[list[FaceCandidate], list[Pip]]:
    """The faces and lone pips with each 2 refused whose pips are unlike in shape (see
    ``SIDE_PIP_ROUNDNESS``) replaced by its rounder pip, a 1, where that passes a 1's checks
    (its verdict is added to ``verdicts``); the flatter pip is left lone. The flatter pip
    must be a blob of the frame itself (``MIN_FRAME_PIP_RADIUS``, its radius times
    ``scale``): on an image enlarged for tiny pips, a speck beside a smaller one passed a
    1's checks.

    A 1 beside its die's side face, whose long pips come out rounder in a frame searched at
    a reduced size, was linked with the nearest of them as a 2: the 2 was refused (the side
    face's other pips lie on its face, or its corners lie off the die), and the 1 with it.
    (On rendered frames, so were a few 1s seen at 28-40 degrees, searched at any size.)"""
    for two in [f for f in faces if f.fit is not None and f.fit.value == 2 and id(f) in verdicts
                and verdicts[id(f)].reason is not None]:
        top, side = sorted(two.group.pips, key=lambda p: -p.roundness)
        if (side.roundness >= SIDE_PIP_ROUNDNESS * top.roundness or side.radius >= SIDE_PIP_RADIUS * top.radius
                or side.radius * scale < MIN_FRAME_PIP_RADIUS):
            continue
        read = _as_ones((two,), (top,), faces, verdicts, grey, pips, lone, colours, die_offset, towards_camera)
        if read is not None:
            faces, lone = read, lone + [side]
    return faces, lone


def _partnered_ones(faces: list[FaceCandidate], verdicts: dict[int, Verdict], grey: np.ndarray, pips: list[Pip],
                    lone: list[Pip], colours: BodyColours, die_offset: float | None,
                    towards_camera: TowardsCamera) -> list[FaceCandidate]:
    """The faces with each two lone pips refused as each other's partners (see
    :attr:`Verdict.partnered`) read as the 1s of two touching dice, each a 1 of its own,
    where the two taken as a 2 are refused as such 1s (see :func:`ones_of_two_dice`) and
    lie at least ``MIN_ONES_APART`` pip offsets of the frame's dice apart, and both pass a
    1's checks with the other out of the way (their verdicts are added to ``verdicts``).

    Two dice of one colour side by side, each showing 1, whose pips lie too far apart to
    be grouped as a 2, each refused the other as the partner of a 2 printed small: both
    were missed. Where no die of 2 pips or more shows the dice's size, they stay refused."""
    if die_offset is None:
        return faces
    # (a pip read as a 1 of one pair is in no other)
    taken: set[int] = set()
    for first, second in itertools.combinations(_partnered(faces, verdicts), 2):
        pair = (first.group.pips[0], second.group.pips[0])
        apart = math.hypot(pair[0].x - pair[1].x, pair[0].y - pair[1].y)
        reach = PARTNER_REACH_RADII * (pair[0].radius + pair[1].radius) / 2
        if id(pair[0]) in taken or id(pair[1]) in taken or not MIN_ONES_APART * die_offset <= apart <= reach:
            continue
        two, others = _as_two(pair, lone)
        if two is None or not ones_of_two_dice(two, two.fit, grey, colours):
            continue
        read = _as_ones((first, second), pair, faces, verdicts, grey, pips, others, colours, die_offset, towards_camera)
        if read is not None:
            faces, taken = read, taken | {id(pair[0]), id(pair[1])}
    return faces


def _partnered_twos(faces: list[FaceCandidate], verdicts: dict[int, Verdict], grey: np.ndarray, pips: list[Pip],
                    lone: list[Pip], colours: BodyColours, die_offset: float | None,
                    towards_camera: TowardsCamera, texture: float, grain: GrainAt | None) -> list[FaceCandidate]:
    """The faces with each lone pip refused for a partner like it (see
    :attr:`Verdict.partnered`) read with that partner as a 2, where the two taken as a 2
    pass every check of a 2 (its verdict is added to ``verdicts``), and each of them stands
    out from the image's ``texture`` ``UNLINKED_TEXTURE_RATIO`` times (and from the surface
    ``grain`` round it ``GRAIN_RATIO`` times) and is at least
    ``UNLINKED_RADIUS_SHARE`` of the radius of the frame's faces' pips (the median of its
    faces of two pips or more; where there are none, they stay refused).

    A highlight between a 2's pips lights one pip's surroundings more than the two may
    differ to be linked, and neither the first look nor a closer one linked them: each
    refused the other as a partner, and the die was missed. Pips never linked are weaker
    evidence than a face's: specks of a grainy table, and the small pips of a side face,
    pass a 2's checks taken two at a time."""
    partnered = _partnered(faces, verdicts)
    grouped = [f.group.radius for f in faces if len(f.group.pips) > 1]
    if not partnered or not grouped:
        return faces
    least_radius = UNLINKED_RADIUS_SHARE * median(grouped)
    # (a pip read in one such 2 is in no other: a 1 beside a 2 partners its nearer pip too;
    # a partnered face leaves the faces only as such a pip)
    taken: set[int] = set()
    for face in partnered:
        pip = face.group.pips[0]
        if id(pip) in taken:
            continue
        for partner in lone_partners(face, lone, colours):
            if (id(partner) in taken or min(pip.radius, partner.radius) < least_radius
                    or min(pip.contrast, partner.contrast) < UNLINKED_TEXTURE_RATIO * texture
                    or _under_grain(partner.contrast, partner.x, partner.y, grain)):
                continue
            two, others = _as_two((pip, partner), lone)
            if two is None:
                continue
            verdict = check_face(two, grey, pips, others, colours, die_offset, towards_camera)
            if verdict.reason is None:
                faces = [f for f in faces if f is not face and not (len(f.group.pips) == 1
                                                                    and f.group.pips[0] is partner)] + [two]
                verdicts[id(two)] = verdict
                taken |= {id(pip), id(partner)}
                break
    return faces


def _partnered(faces: list[FaceCandidate], verdicts: dict[int, Verdict]) -> list[FaceCandidate]:
    """The faces refused for a partner like their lone pip (see :attr:`Verdict.partnered`)."""
    return [f for f in faces if id(f) in verdicts and verdicts[id(f)].partnered]


def _as_two(pair: tuple[Pip, Pip], lone: list[Pip]) -> tuple[FaceCandidate | None, list[Pip]]:
    """Two lone pips taken together as a 2's face (None if they fit none), and the ``lone``
    pips but those two."""
    two = face_of(PipGroup(pair))
    others = [pip for pip in lone if pip is not pair[0] and pip is not pair[1]]
    return (two if two.fit is not None and two.fit.value == 2 else None), others


def _as_ones(replaced: tuple[FaceCandidate, ...], pair: tuple[Pip, ...], faces: list[FaceCandidate],
             verdicts: dict[int, Verdict], grey: np.ndarray, pips: list[Pip], lone: list[Pip], colours: BodyColours,
             die_offset: float | None, towards_camera: TowardsCamera) -> list[FaceCandidate] | None:
    """``faces`` with the ``replaced`` ones swapped for each pip of ``pair`` (one or two)
    as a 1's face, if every one passes every check of a 1 (see :func:`_read_as_one`; their
    verdicts are added to ``verdicts``); else None."""
    read = [_read_as_one(pip, grey, pips, lone, colours, die_offset, towards_camera) for pip in pair]
    if not all(read):
        return None
    verdicts.update((id(one), verdict) for one, verdict in read)
    return [f for f in faces if not any(f is gone for gone in replaced)] + [one for one, _ in read]


def _read_as_one(pip: Pip, grey: np.ndarray, pips: list[Pip], lone: list[Pip], colours: BodyColours,
                 die_offset: float | None, towards_camera: TowardsCamera) -> tuple[FaceCandidate, Verdict] | None:
    """``pip`` as a 1's face, with its verdict, if it passes every check of a 1 (among the
    pip candidates ``pips``, ``lone`` of them alone); else None."""
    one = face_of(PipGroup((pip,)))
    if one.fit is None:
        return None
    verdict = check_face(one, grey, pips, lone, colours, die_offset, towards_camera)
    return (one, verdict) if verdict.reason is None else None


def _held_ones(faces: list[FaceCandidate], biggest_one: float, verdicts: dict[int, Verdict], grey: np.ndarray,
               pips: list[Pip], lone: list[Pip], colours: BodyColours, die_offset: float | None,
               towards_camera: TowardsCamera) -> tuple[list[FaceCandidate], list[Pip]]:
    """The faces and lone pips with each lone blob too big for a 1 (bigger than
    ``biggest_one``) or refused as no pip that holds a single pip of its own (see
    :func:`held_pips`) replaced by that pip, a 1, where it passes a 1's checks (its verdict
    is added to ``verdicts``).

    A die lighter than a dark table stands out from it as one blob with its pips inside;
    the search takes such a blob apart only where it holds two pips or more (one pip left
    of a blob that is no die would read as a 1), so a die showing 1 stayed a blob. A light
    1 in a highlight as light as its rim is cut out with the highlight, a blob uneven
    inside: such a blob is looked into too (see ``LIT_ONE_RATIO``), unless it lies on a face
    of more pips (small pips put a 5's corners outside a 1's typical face, where its checks
    do not look). The pip must still pass every check of a 1 (at the centre of its body, no
    stray beside it, its empty places clear), with the blob out of the way: a face of more
    pips, part of it cut out with one of them, shows its other pips beside that one or at a
    1's empty places."""
    fits = [f.fit for f in faces if len(f.group.pips) > 1 and f.fit is not None]

    def lit_one(face: FaceCandidate) -> bool:
        return (len(face.group.pips) == 1 and id(face) in verdicts and verdicts[id(face)].reason == NO_PIP
                and not _on_a_face(face.centre, fits))

    for blob_face in [f for f in faces if f.group.radius > biggest_one or lit_one(f)]:
        blob = blob_face.group.pips[0]
        if blob_face.group.radius > biggest_one:
            inner = held_pips(blob, grey)
        else:
            # (towards the blob's ink: lighter round a light pip)
            inner = [p for p in held_pips(blob, grey, LIT_ONE_RATIO)
                     if (blob.ring - p.ring if blob.dark else p.ring - blob.ring) >= LIT_RING_SHARE * blob.contrast]
        if len(inner) != 1:
            continue
        opened = [inner[0] if p is blob else p for p in lone]
        read = _read_as_one(inner[0], grey, [inner[0] if p is blob else p for p in pips], opened, colours,
                            die_offset, towards_camera)
        if read:
            one, verdict = read
            faces = [one if f is blob_face else f for f in faces]
            lone = opened
            verdicts[id(one)] = verdict
    return faces, lone


def _own_tops(face: FaceCandidate, ones: list[Pip], colours: BodyColours) -> list[Pip]:
    """The pips of the 1s read (``ones``), on a body of the face's colour: each may be its
    die's top face (see :func:`_top_beyond`) though the two were not taken as faces of one
    die (a 1 printed large or spread by a highlight, a front face lit apart from its top
    face, a die cut out whole, a die turned about 45 degrees to the camera whose side faces
    lie off the camera's direction).

    Where the 1 is a touching die's, behind the face's, the face is lost with it: over the
    development sets that cost about as many dice as the front faces it drops, which were
    read as dice of their own (a false die each, or the wrong value for the 1's die).
    """
    pip = face.group.pips[0]
    return [one for one in ones if not colours.apart(one, pip)]


def _top_beyond(face: FaceCandidate, unread: list[Pip], towards_camera: TowardsCamera,
                colours: BodyColours) -> Pip | None:
    """The lone blob not read as a die (None: none) that lies where the top face of the
    face's die would lie if the face were its front face: beyond it, away from the camera
    (as the frame's faces show it, ``towards_camera``, or image-up, as for a webcam in front
    of the table: the frame's faces may vote wrong), ``TOP_REACH`` pip offsets out (along
    the face's long axis, which the camera does not foreshorten), of its pips' polarity, at
    least ``TOP_PIP_SHARE`` of their size, on a body of its colour (unless it is many times
    their size: a 1 printed large and spread by a highlight, whose ring reaches past its die).

    Seen obliquely, a die's front face may look as round and as lit as its top face; where
    the top face's checks refused it (a 1 in a highlight, or with the front face's pips
    taken for strays), the front face is all that is left of the die and would be read in
    its place. A touching die's top face there, unread, leaves the throw short of a die
    anyway."""
    offset = face.fit.long_spacing
    pip = face.group.pips[0]
    towards = towards_camera.at(face.centre)
    for blob in unread:
        step = np.array([blob.x - face.centre[0], blob.y - face.centre[1]])
        apart = float(np.hypot(*step))
        if (blob.dark == pip.dark and blob.radius >= TOP_PIP_SHARE * face.group.radius
                and TOP_REACH[0] * offset <= apart <= TOP_REACH[1] * offset
                and min(step @ towards, step[1]) <= -SIDE_DIRECTION_COS * apart
                and (blob.radius > MAX_RADIUS_RATIO * face.group.radius or not colours.apart(blob, pip))):
            return blob
    return None


def _working_image(grey: np.ndarray, memo: SearchScale, grain: SurfaceGrain) -> tuple[np.ndarray, float, PipSearch]:
    """The grey image to search, the factor that maps its coordinates back to the frame's,
    and what the search for pips found in it; ``memo`` is the scale to try first, and is
    left holding the scale to try on the next frame; ``grain``: the frame's surface grain
    (see :func:`_enlarged_if_tiny`)."""
    remembered = memo.scale
    sized = remembered if remembered is not None else _scale_for(grey)
    unsized = sized is None
    scale = _least_scale(grey.shape) if unsized else sized
    while scale < 1.0:
        size = (round(grey.shape[1] * scale), round(grey.shape[0] * scale))
        work = cv2.resize(grey, size, interpolation=cv2.INTER_LINEAR)
        size_ratio = grey.shape[1] / size[0]
        found = search_pips(work)
        pips = found.pips
        radii = round_radii(pips)
        if not radii or median(radii) < MIN_WORK_RADIUS:
            # on a grainy table the grain's specks outnumber the dice's pips: the pips are
            # those that clear it (asked only here: a clean frame's pips pass as they are)
            radii = round_radii(_clear_of_grain(pips, grain, size_ratio))
        typical = median(radii) if radii else 0.0
        if typical >= MIN_WORK_RADIUS:
            if unsized and typical > SIZING_SLACK * WORK_RADIUS:
                # a frame whose blobs gave no size (wood grain, or a lone small die lighter than
                # a dark table, cut out whole) is kept reduced only for blobs of a pip's size:
                # bigger ones may be whole dice, and the frame is searched at full size
                break
            # a frame sized afresh whose pips come out bigger than WORK_RADIUS (reduced as far
            # as allowed), or clearly bigger (reduced less), may have been sized on whole
            # small dice: at half size their own pips are too small to show, and the dice
            # look like big pips (a few dice among the sized blobs shift the median)
            expected = WORK_RADIUS if scale <= _least_scale(grey.shape) else SIZING_SLACK * WORK_RADIUS
            sized_on_dice = remembered is None and typical > expected
            doubtful = sized_on_dice or typical > RESIZE_RADIUS
            if not doubtful or not _whole_dice(pips, grey, size_ratio):
                # pips much bigger than needed: the dice came nearer, size them afresh next time
                memo.scale = scale if typical <= RESIZE_RADIUS else None
                return work, size_ratio, found
            # the big "pips" are small dice cut out whole: this camera's frames are searched
            # at full size
            memo.scale = 1.0
            return _enlarged_if_tiny(grey, search_pips(grey), grain)
        if remembered is not None:
            memo.scale = None
            return _working_image(grey, memo, grain)
        # the pips are too small at this size: searched again at twice it (a frame reduced
        # to half size or less is searched at full size next)
        scale = min(1.0, 2 * scale)
    found = search_pips(grey)
    radii = round_radii(found.pips)
    reducible = min(grey.shape) >= REDUCE_FROM and radii and median(radii) > RESIZE_RADIUS
    memo.scale = None if reducible else 1.0
    return _enlarged_if_tiny(grey, found, grain)


def _enlarged_if_tiny(grey: np.ndarray, found: PipSearch, grain: SurfaceGrain) -> tuple[np.ndarray, float, PipSearch]:
    """The full-size image and what was ``found`` on it, or, if its pips are smaller than
    ``ENLARGE_BELOW``, the image enlarged twice and what is found there (with the scale that
    maps back). Tiny pips must stand out ``GRAIN_RATIO`` times the surface ``grain`` round
    them, as a face's pips must: on a grainy table hundreds of specks a pixel or two across
    outnumber the dice's pips, and the frame was searched enlarged for them (seconds a frame).
    Enlarged, only the neighbourhoods of the blobs that may be pips are searched (see
    ``SEED_REACH_RADII``); where there are none, the full-size search stands.
    """
    radii = round_radii(found.pips)
    if not radii or median(radii) >= ENLARGE_BELOW:
        return grey, 1.0, found
    # (the grain is asked only here: a few dozen points cost a millisecond or two)
    clear_pips = _clear_of_grain(found.pips, grain)
    clear = round_radii(clear_pips)
    if not clear or median(clear) >= ENLARGE_BELOW:
        return grey, 1.0, found
    seeds = [pip for pip in clear_pips if pip.roundness >= MIN_SEED_ROUNDNESS
             and (pip.radius >= ENLARGE_BELOW
                  or edged_share(pip, squash_along(pip.angle, pip.roundness), grey) >= MIN_SMALL_ONE_EDGES)]
    if not seeds:
        return grey, 1.0, found
    big = cv2.resize(grey, (grey.shape[1] * 2, grey.shape[0] * 2), interpolation=cv2.INTER_CUBIC)
    # (the neighbourhood is sized by every blob, as before the grain was asked: sized by the
    # clear ones alone, photos of a tray on wood showed 9 more specks as dice)
    block = max(MIN_ENLARGED_BLOCK, round(ENLARGED_BLOCK_RADII * 2 * median(radii))) | 1
    return big, 0.5, search_pips(big, block, where=_near(big.shape, seeds))


def _clear_of_grain(pips: list[Pip], grain: SurfaceGrain, scale: float = 1.0) -> list[Pip]:
    """The pips (found on an image ``1 / scale`` the frame's size) that stand out
    ``GRAIN_RATIO`` times the surface ``grain`` where they lie."""
    return [pip for pip in pips if not _under_grain(pip.contrast, pip.x * scale, pip.y * scale, grain.at)]


def _near(shape: tuple[int, ...], seeds: list[Pip]) -> np.ndarray:
    """A mask (of an image enlarged twice, ``shape``) of where a die's pips may lie: within
    ``SEED_REACH_RADII`` radii of each blob found at full size that may be a pip (``seeds``)."""
    mask = np.zeros(shape[:2], np.uint8)
    for pip in seeds:
        cv2.circle(mask, (round(2 * pip.x), round(2 * pip.y)), round(2 * SEED_REACH_RADII * pip.radius), 1, -1)
    return mask


def _whole_dice(pips: list[Pip], grey: np.ndarray, scale: float) -> bool:
    """Whether the ``WHOLE_DICE_SAMPLE`` clearest pips (found on an image ``1 / scale`` the
    size of ``grey``) are whole dice: at full size, one of them holds ``MIN_HELD_PIPS``
    pips or more (a pip holds none, or a glint), or at least half of them hold a pip (a
    small die showing 1 holds one; a frame of a few small dice has few blobs, among them
    the pips of its 1s). A die seen obliquely, or a pair of touching dice, is no round
    blob: all the clearest count."""
    clearest = sorted(pips, key=lambda p: -p.contrast)[:WHOLE_DICE_SAMPLE]
    held = [len(held_pips(replace(p, x=p.x * scale, y=p.y * scale, radius=p.radius * scale), grey))
            for p in clearest]
    return max(held, default=0) >= MIN_HELD_PIPS or 2 * sum(count > 0 for count in held) >= len(held) > 0


def _scale_for(grey: np.ndarray) -> float | None:
    """The coarsest scale (down to the frame's least, see ``MIN_WORK_SIDE``) that keeps the
    frame's pips ``WORK_RADIUS`` pixels in radius, as sized on the frame at half size; 1
    for frames too small to reduce or whose pips are too small to size; None for frames
    whose blobs give no pip size at all."""
    if min(grey.shape) < REDUCE_FROM:
        return 1.0
    half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
    radius = typical_pip_radius(half, SIZE_SAMPLE)
    if radius is None:
        return None
    if radius < MIN_SIZING_RADIUS:
        return 1.0
    return max(_least_scale(grey.shape), min(1.0, WORK_RADIUS / (2 * radius)))


def _least_scale(shape: tuple[int, ...]) -> float:
    """The coarsest scale a frame of ``shape`` is searched at (see ``MIN_WORK_SIDE``)."""
    return min(MIN_WORK_SCALE, MIN_WORK_SIDE / min(shape[:2]))


#: The corners of a fitted face's whole square, in its own units.
_FACE_SQUARE = CORNERS * FACE_HALF


def die_candidate(face: FaceCandidate, shape: tuple[int, ...], scale: float = 1) -> DieCandidate:
    """The outline and body pixels of a face's die (the fitted face square, or an estimate).

    ``scale`` maps the face's coordinates (found on a reduced image) to ``shape``'s.
    """
    group = face.group
    centre = face.centre * scale
    if face.fit is not None:
        quad = face.fit.to_image(_FACE_SQUARE) * scale
    else:
        spread = (float(np.hypot(*(group.points - face.centre).T).max()) + 3 * group.radius) * scale
        quad = centre + CORNERS * spread
    h, w = shape[:2]
    xs, ys = quad.T.tolist()
    x0, y0 = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
    x1, y1 = min(w, math.ceil(max(xs)) + 1), min(h, math.ceil(max(ys)) + 1)
    contour = np.rint(quad).astype(np.int32).reshape(-1, 1, 2)
    mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
    # the inner part of the face, without the pips: the die's own colour
    inner = centre + (quad - centre) * 0.8
    cv2.fillPoly(mask, [np.rint(inner - (x0, y0)).astype(np.int32)], 255)
    for p in group.pips:
        cv2.circle(mask, (round(p.x * scale - x0), round(p.y * scale - y0)), math.ceil(1.8 * p.radius * scale),
                   0, -1)
    return DieCandidate(box=(x0, y0, x1, y1), center=(float(centre[0]), float(centre[1])),
                        quad=quad.astype(np.float32), contour=contour, body_mask=mask,
                        pip_polarity="dark" if group.pips[0].dark else "light", pip_radius=group.radius * scale)


def table_reference(image_bgr: np.ndarray, candidates: list[DieCandidate]) -> np.ndarray:
    """Median BGR of the pixels outside every die (sampled on a grid): the table's colour."""
    h, w = image_bgr.shape[:2]
    step = max(1, int(np.sqrt(h * w / TABLE_SAMPLES)))
    grid = image_bgr[::step, ::step]
    keep = np.ones(grid.shape[:2], bool)
    for c in candidates:
        x0, y0, x1, y1 = c.box
        pad_x, pad_y = (x1 - x0) // 2, (y1 - y0) // 2
        # grid cells whose pixel lies in the padded box: ceil((lo) / step) .. ceil(hi / step)
        keep[-(-max(0, y0 - pad_y) // step):-(-(y1 + pad_y) // step),
             -(-max(0, x0 - pad_x) // step):-(-(x1 + pad_x) // step)] = False
    if not keep.any():
        keep[:] = True
    # channel by channel: picking a channel's kept cells is much cheaper than picking pixels
    return medians(np.array([channel[keep] for channel in cv2.split(grid)]))
