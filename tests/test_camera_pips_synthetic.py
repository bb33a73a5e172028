"""The d6 reader on dice drawn with OpenCV: many die and pip colours, tables light and dark,
scales, rotations, touching dice, and dice that must come out unreadable."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.layouts import CANONICAL
from reader.camera.reading import DieCandidate, ReadStatus

#: Pip offset and pip radius as fractions of the face side (typical of real d6).
PIP_OFFSET, PIP_RADIUS = 0.25, 0.085


@dataclass(frozen=True)
class Die:
    """A die to draw: value, centre (px), face side (px), rotation (deg), colours (BGR)."""

    value: int
    centre: tuple[float, float]
    side: float
    angle: float
    body: tuple[int, int, int]
    pips: tuple[int, int, int]
    squash: float = 1.0  # foreshortening of the face along its rotated y axis
    pip_radius: float = PIP_RADIUS  # as a fraction of the face side


def face_points(die: Die, canonical: np.ndarray) -> np.ndarray:
    """Image positions of canonical face points (units: half the face side)."""
    t = np.radians(die.angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.asarray(die.centre) + (np.asarray(canonical, float) * [1, die.squash]) @ rot.T * die.side / 2


def draw_die(img: np.ndarray, die: Die, shade: float = 0.7) -> None:
    """A die seen from above and slightly in front: shaded side faces, then the top face."""
    corners = face_points(die, [[-1, -1], [1, -1], [1, 1], [-1, 1]])
    drop = np.array([0, die.side * 0.2])
    for p, q in zip(corners, np.roll(corners, -1, axis=0)):
        if (p + q)[1] / 2 > die.centre[1]:  # edges on the camera's side show their side face
            _poly(img, np.array([p, q, q + drop, p + drop]), tuple(int(c * shade) for c in die.body))
    _poly(img, corners, die.body)
    r = die.pip_radius * die.side
    for x, y in face_points(die, CANONICAL[die.value] * PIP_OFFSET * 2):
        cv2.ellipse(img, (int(round(x * 16)), int(round(y * 16))), (int(r * 16), int(r * die.squash * 16)),
                    die.angle, 0, 360, die.pips, -1, cv2.LINE_AA, shift=4)


def _poly(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(img, [np.rint(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def render_scene(dice: list[Die], background: tuple[int, int, int], size: tuple[int, int] = (640, 480),
                 seed: int = 0, noise: float = 3.0) -> np.ndarray:
    """Dice on a plain table with a soft lighting gradient and sensor noise."""
    w, h = size
    rng = np.random.default_rng(seed)
    ramp = np.linspace(0.85, 1.1, w)[None, :, None] * np.ones((h, 1, 1))
    img = np.clip(np.array(background, float) * ramp, 0, 255).astype(np.uint8)
    for die in dice:
        draw_die(img, die)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)


def reading_at(readings, centre, tolerance):
    """The reading whose centre is within ``tolerance`` px of ``centre`` (None if none)."""
    near = [r for r in readings if np.hypot(r.center[0] - centre[0], r.center[1] - centre[1]) < tolerance]
    assert len(near) <= 1, near
    return near[0] if near else None


WHITE, BLACK = (235, 235, 235), (25, 25, 25)
#: (die body, pips, table) in BGR: light and dark dice and tables, coloured pips.
PALETTES = [
    (WHITE, BLACK, (120, 170, 205)),          # white die, black pips, light wood
    ((30, 30, 200), WHITE, (40, 90, 40)),      # red die, white pips, green felt
    (BLACK, WHITE, (200, 200, 200)),           # black die, white pips, light grey table
    ((180, 90, 20), (240, 240, 240), (245, 245, 245)),  # blue die, white pips, white table
    ((40, 210, 230), BLACK, (35, 35, 35)),     # yellow die, black pips, black table
    (WHITE, (40, 40, 200), (60, 40, 30)),      # white die, red pips, dark wood
    ((60, 140, 40), (20, 20, 20), (150, 150, 150)),  # green die, black pips, grey
]


@pytest.mark.parametrize("palette", range(len(PALETTES)))
@pytest.mark.parametrize("side", [36, 70])
def test_every_face_reads_on_every_palette(palette: int, side: int) -> None:
    body, pips, table = PALETTES[palette]
    rng = np.random.default_rng(palette * 100 + side)
    dice = [Die(v, (110 + (v - 1) % 3 * 200, 130 + (v - 1) // 3 * 220), side, float(rng.uniform(0, 90)), body, pips)
            for v in range(1, 7)]
    readings = read_frame(render_scene(dice, table, seed=palette))
    for die in dice:
        got = reading_at(readings, die.centre, side / 2)
        assert got is not None, f"d6 showing {die.value} not found"
        assert (got.status, got.value) == (ReadStatus.OK, die.value), got
        assert got.sides == 6 and 0 < got.confidence <= 1
    assert len(readings) == len(dice)


@pytest.mark.parametrize("angle", [0.0, 17.0, 33.0, 45.0, 61.0, 78.0])
def test_rotations_and_large_frames(angle: float) -> None:
    dice = [Die(v, (200 + (v - 1) % 3 * 400, 200 + (v - 1) // 3 * 330), 110, angle + 7 * v, WHITE, BLACK)
            for v in range(1, 7)]
    readings = read_frame(render_scene(dice, (120, 170, 205), size=(1280, 720), seed=int(angle)))
    assert sorted(r.value for r in readings) == [1, 2, 3, 4, 5, 6]


def test_oblique_camera_foreshortened_faces_still_read() -> None:
    dice = [Die(v, (110 + (v - 1) % 3 * 200, 130 + (v - 1) // 3 * 220), 60, 10.0 * v, WHITE, BLACK, squash=0.75)
            for v in range(1, 7)]
    readings = read_frame(render_scene(dice, (60, 40, 30), seed=5))
    assert sorted(r.value for r in readings if r.status is ReadStatus.OK) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("values", [(6, 6), (2, 5), (3, 4), (1, 6)])
def test_touching_dice_are_told_apart(values: tuple[int, int]) -> None:
    side = 60
    dice = [Die(values[0], (270, 240), side, 0.0, WHITE, BLACK), Die(values[1], (270 + side + 1, 240), side, 0.0, WHITE, BLACK)]
    img = render_scene(dice, (120, 170, 205), seed=sum(values))
    cv2.line(img, (270 + side // 2, 200), (270 + side // 2, 280), (150, 150, 150), 1)  # the seam between them
    readings = read_frame(img)
    for die in dice:
        got = reading_at(readings, die.centre, side / 2)
        assert got is not None and got.value == die.value, (die.value, readings)


def test_blurred_die_is_never_read() -> None:
    die = Die(5, (320, 240), 60, 20.0, WHITE, BLACK)
    img = render_scene([die], (120, 170, 205))
    sharp = read_frame(img)
    assert [r.value for r in sharp] == [5]
    blurred = cv2.GaussianBlur(img, (0, 0), 5.0)
    readings = read_frame(blurred)
    assert all(r.status is ReadStatus.UNREADABLE for r in readings), readings
    assert all(r.reason for r in readings)


@pytest.mark.parametrize("value", [4, 5, 6])
def test_half_occluded_die_is_unreadable(value: int) -> None:
    die = Die(value, (320, 240), 70, 0.0, WHITE, BLACK)
    img = render_scene([die], (120, 170, 205), seed=value)
    cv2.rectangle(img, (320, 150), (420, 330), (70, 110, 160), -1)  # a hand over the right half
    readings = read_frame(img)
    assert all(r.status is ReadStatus.UNREADABLE for r in readings), readings
    assert all(r.reason in {"occluded", "ambiguous pips"} for r in readings)


def test_cocked_die_is_unreadable() -> None:
    die = Die(4, (320, 240), 70, 0.0, WHITE, BLACK, squash=0.3)
    readings = read_frame(render_scene([die], (120, 170, 205)))
    assert readings and all(r.status is ReadStatus.UNREADABLE for r in readings)
    assert {r.reason for r in readings} <= {"cocked", "ambiguous pips"}


def test_impossible_pip_pattern_is_not_a_guess() -> None:
    """Seven pips, and three pips in an L, are not faces of a d6."""
    img = render_scene([Die(1, (200, 240), 80, 0.0, WHITE, WHITE), Die(1, (440, 240), 80, 0.0, WHITE, WHITE)],
                       (120, 170, 205))
    r = PIP_RADIUS * 80
    for cx, spots in ((200, [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1), (0, 0)]),
                      (440, [(-1, -1), (-1, 1), (1, 1)])):
        for sx, sy in spots:
            cv2.circle(img, (int(cx + sx * 20), int(240 + sy * 20)), int(r), BLACK, -1, cv2.LINE_AA)
    readings = read_frame(img)
    assert readings and all(r.status is ReadStatus.UNREADABLE for r in readings), readings


def test_readings_carry_geometry_and_colour_from_the_namer() -> None:
    die = Die(3, (300, 220), 60, 30.0, (30, 30, 200), WHITE)
    img = render_scene([die], (40, 90, 40))
    seen: list[tuple[DieCandidate, np.ndarray | None]] = []

    def namer(image: np.ndarray, cand: DieCandidate, table: np.ndarray | None) -> tuple[str, float]:
        seen.append((cand, table))
        x0, y0, x1, y1 = cand.box
        body = image[y0:y1, x0:x1][cand.body_mask > 0]
        return ("red" if body[:, 2].mean() > 150 > body[:, 1].mean() else "other"), 0.9

    (reading,) = read_frame(img, namer)
    assert reading.colour == "red" and reading.value == 3
    cand, table = seen[0]
    assert cand.body_mask.shape == (cand.box[3] - cand.box[1], cand.box[2] - cand.box[0])
    assert cand.pip_polarity == "light" and cand.quad.shape == (4, 2)
    assert table is not None and np.allclose(table, (40, 90, 40), atol=15)
    x0, y0, x1, y1 = reading.box
    assert x0 < 300 < x1 and y0 < 220 < y1
    assert reading.to_json()["value"] == 3 and reading.to_json()["status"] == "ok"


@pytest.mark.parametrize("value", [2, 4, 6])
def test_die_cut_by_the_frame_edge_is_not_read_short(value: int) -> None:
    """Half a 2, 4 or 6 past the bottom of the frame must not read as the pips left in view."""
    die = Die(value, (320, 472), 64, 0.0, WHITE, BLACK)
    readings = read_frame(render_scene([die], (120, 170, 205), seed=value))
    assert all(r.status is ReadStatus.UNREADABLE for r in readings), readings


#: Dark dice whose pips are coloured, on light tables: pips lighter than the die but
#: darker than the table (or darker than both), which stand out from neither's average.
DARK_DICE = [
    ((20, 20, 20), (200, 60, 30), (200, 200, 200)),   # black die, blue pips, light grey table
    ((20, 20, 20), (40, 40, 200), (120, 170, 205)),   # black die, red pips, light wood
    ((25, 25, 25), (60, 180, 60), (120, 170, 205)),   # black die, green pips, light wood
    ((90, 30, 20), (40, 180, 220), (200, 200, 200)),  # navy die, gold pips, light grey
    ((40, 40, 200), (20, 20, 20), (200, 200, 200)),   # red die, black pips, light grey
]


def _read_six(body: tuple[int, int, int], pips: tuple[int, int, int], table: tuple[int, int, int],
              side: float, **die: float) -> list[tuple[int, int | None]]:
    """Every face on one table; (shown, read) for each die found (read None: unreadable)."""
    rng = np.random.default_rng(int(side))
    dice = [Die(v, (110 + (v - 1) % 3 * 200, 130 + (v - 1) // 3 * 220), side, float(rng.uniform(0, 90)), body, pips,
                **die) for v in range(1, 7)]
    readings = read_frame(render_scene(dice, table, seed=3))
    found = []
    for d in dice:
        near = [r for r in readings if np.hypot(r.center[0] - d.centre[0], r.center[1] - d.centre[1]) < side]
        found.extend((d.value, r.value) for r in near)
    assert len(found) == len(readings), "a reading away from every die"
    return found


@pytest.mark.parametrize("palette", range(len(DARK_DICE)))
@pytest.mark.parametrize("side", [36, 60])
def test_dark_dice_with_coloured_pips_are_never_misread(palette: int, side: int) -> None:
    found = _read_six(*DARK_DICE[palette], side)
    assert all(read in (None, shown) for shown, read in found), found


@pytest.mark.parametrize("palette", [1, 2, 3])
def test_coloured_pips_darker_than_the_table_are_found(palette: int) -> None:
    found = _read_six(*DARK_DICE[palette], 60)
    assert sorted(read for _, read in found if read is not None) == [1, 2, 3, 4, 5, 6], found


@pytest.mark.parametrize("side", [30, 36, 44])
def test_small_pips_far_apart_are_not_read_as_fewer(side: int) -> None:
    """Pips small for their face lie many radii apart: a 2 must not read as two 1s, nor a
    3 as a 2 or 1 (at worst they are unreadable)."""
    found = _read_six(WHITE, BLACK, (120, 170, 205), side, pip_radius=0.06)
    assert all(read in (None, shown) for shown, read in found), found
    assert sum(read == shown for shown, read in found) >= 4, found


@pytest.mark.parametrize("side", [40, 60, 90])
def test_large_frames_are_read_at_the_scale_their_pips_allow(side: int) -> None:
    rng = np.random.default_rng(side)
    dice = [Die(v, (200 + (v - 1) % 3 * 400, 200 + (v - 1) // 3 * 330), side, float(rng.uniform(0, 90)), WHITE, BLACK)
            for v in range(1, 7)]
    readings = read_frame(render_scene(dice, (120, 170, 205), size=(1280, 720), seed=side))
    for die in dice:
        got = reading_at(readings, die.centre, side / 2)
        assert got is not None and got.value == die.value, (die.value, readings)
        assert abs(got.center[0] - die.centre[0]) < side / 8 and abs(got.center[1] - die.centre[1]) < side / 8


def keyboard_beside_dice(seed: int) -> np.ndarray:
    """A laptop keyboard (dark keycaps, one light legend near a corner of each) on the
    table beside a white 1 and 3."""
    img = render_scene([Die(1, (500, 380), 60, 20.0, WHITE, BLACK), Die(3, (380, 400), 60, 50.0, WHITE, BLACK)],
                       (120, 170, 205), seed=seed, noise=0)
    rng = np.random.default_rng(seed)
    cv2.rectangle(img, (20, 20), (440, 250), (175, 170, 165), -1)
    for row in range(4):
        for col in range(8):
            x0, y0 = 30 + col * 51, 30 + row * 55
            cv2.rectangle(img, (x0, y0), (x0 + 44, y0 + 46), (38, 36, 35), -1)
            legend = (x0 + int(rng.choice([9, 35])), y0 + int(rng.choice([9, 37])))
            cv2.circle(img, legend, int(rng.integers(2, 5)), (215, 215, 215), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 0.7)
    return np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed", range(4))
def test_key_legends_are_not_read_as_ones(seed: int) -> None:
    """A lone mark off the middle of its surface is no 1: a 1's pip is centred on its face.
    (Before bodies were checked, 11 to 22 of these 32 keys were read as 1s.)"""
    readings = read_frame(keyboard_beside_dice(seed))
    one, three = reading_at(readings, (500, 380), 30), reading_at(readings, (380, 400), 30)
    assert one is not None and three is not None and (one.value, three.value) == (1, 3), readings
    on_keys = [r for r in readings if r.center[1] < 260]
    assert len(on_keys) <= 1, on_keys


def smeared_die_beside_sharp_ones(seed: int, palette: tuple, length: int = 31) -> tuple[np.ndarray, Die]:
    """A 2, 4 and 6 at rest and a fourth die smeared along a line by its motion, with a
    die-sized block of a colour no die has on the table."""
    body, pips, table = palette
    rng = np.random.default_rng(seed)
    moving = Die(int(rng.integers(1, 7)), (320, 330), 60, float(rng.uniform(0, 90)), body, pips)
    img = render_scene([Die(v, (130 + i * 190, 120), 60, float(rng.uniform(0, 90)), body, pips)
                        for i, v in enumerate((2, 4, 6))] + [moving], table, seed=seed)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    window = img[160:500, 150:490]
    img[230:430, 220:420] = cv2.filter2D(window, -1, kernel / kernel.sum())[70:270, 70:270]
    cv2.rectangle(img, (520, 300), (575, 355), (160, 40, 160), -1)
    return img, moving


@pytest.mark.parametrize("palette", range(len(PALETTES)))
def test_die_smeared_past_reading_is_reported_unreadable(palette: int) -> None:
    """A die whose pips motion blur wiped out still counts as a die (unreadable, with the
    reason), so a check waits instead of seeing too few dice; a blank block is no die."""
    img, moving = smeared_die_beside_sharp_ones(palette, PALETTES[palette])
    readings = read_frame(img)
    assert sorted(r.value for r in readings if r.status is ReadStatus.OK) == [2, 4, 6]
    smeared = reading_at(readings, moving.centre, 40)
    assert smeared is not None and smeared.status is ReadStatus.UNREADABLE and smeared.reason
    assert len(readings) == 4, readings


@pytest.mark.parametrize("value", [4, 5, 6])
def test_face_running_past_the_frame_edge_reads_when_every_pip_place_is_in_view(value: int) -> None:
    """No pip can hide beyond a face's corner pips: a 4, 5 or 6 whose border runs past the
    frame but whose pip places are all in view is read; a lone pip there is not."""
    side = 64
    centre_y = 480 - 0.45 * side  # the face's border 0.05 of a side past the frame
    dice = [Die(value, (220, centre_y), side, 0.0, WHITE, BLACK), Die(1, (440, centre_y), side, 0.0, WHITE, BLACK)]
    readings = read_frame(render_scene(dice, (120, 170, 205), seed=value))
    got = reading_at(readings, dice[0].centre, side / 2)
    assert got is not None and (got.status, got.value) == (ReadStatus.OK, value), readings
    lone = reading_at(readings, dice[1].centre, side / 2)
    assert lone is None or lone.status is ReadStatus.UNREADABLE, lone


@pytest.mark.parametrize("front", [2, 5])
def test_top_face_one_above_a_front_face_lit_alike_reads_as_one_die(front: int) -> None:
    """An oblique camera sees a 1 on top and, below it, the die's front face lit as brightly
    with its pips foreshortened alike: the die reads 1 and the front face is no die."""
    side, squash = 64.0, 0.7
    img = render_scene([], (120, 170, 205), seed=front)
    top = Die(1, (320.0, 200.0), side, 0.0, WHITE, BLACK, squash=squash)
    under = Die(front, (320.0, 200.0 + side * squash), side, 0.0, WHITE, BLACK, squash=squash)
    for die in (under, top):
        corners = face_points(die, [[-1, -1], [1, -1], [1, 1], [-1, 1]])
        _poly(img, corners, die.body)
        r = die.pip_radius * die.side
        for x, y in face_points(die, CANONICAL[die.value] * PIP_OFFSET * 2):
            cv2.ellipse(img, (int(round(x * 16)), int(round(y * 16))), (int(r * 16), int(r * squash * 16)),
                        0.0, 0, 360, die.pips, -1, cv2.LINE_AA, shift=4)
    readings = read_frame(cv2.GaussianBlur(img, (0, 0), 0.7))
    got = reading_at(readings, top.centre, side / 3)
    assert got is not None and (got.status, got.value) == (ReadStatus.OK, 1), readings
    assert all(r is got or r.status is ReadStatus.UNREADABLE for r in readings), readings


@pytest.mark.parametrize("value", [3, 5])
@pytest.mark.parametrize("palette", [1, 6])
def test_glare_round_the_middle_pip_never_reads_it_alone(value: int, palette: int) -> None:
    """A glossy die's highlight brightens the surroundings of its middle pip more than its
    corners': the middle pip is no 1. A 5 is read whole; a 3 (three marks in a row, as
    letters of print are) may go unread, but is never read as anything else."""
    body, pips, table = PALETTES[palette]
    side = 60
    die = Die(value, (320, 240), side, 20.0, body, pips)
    img = render_scene([die], table, seed=value).astype(np.float32)
    yy, xx = np.mgrid[0:480, 0:640]
    glare = np.exp(-((xx - 320) ** 2 + (yy - 240) ** 2) / (2 * (0.2 * side) ** 2)) * 60
    img = np.clip(img + glare[..., None], 0, 255).astype(np.uint8)
    readings = read_frame(img)
    if value == 3:
        assert all(r.value in (None, 3) for r in readings), readings
    else:
        got = reading_at(readings, die.centre, side / 2)
        assert got is not None and (got.status, got.value) == (ReadStatus.OK, value) and len(readings) == 1, readings
