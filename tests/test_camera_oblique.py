"""Dice seen by an oblique camera (40 degrees from straight down): their top faces are read,
their front and side faces never.

Under such a camera a die's top and front faces look much alike, and their pips lie close:

- a 2 on top with a pip of its front face below it forms three pips, which a 1 on top with
  a front face's 2 forms as well: no lone pip is split off them as a 1;
- a front face is foreshortened more than its top face, if less so than from straight
  above: it is dropped as a side face, not read as a die of its own;
- two dice side by side show top faces foreshortened the same way, while a die's left and
  right faces are foreshortened across its top face: a top face beside another is kept.

The scenes are those of ``bench/render_labelled.py --seed 401 --tilt 40`` (each read
wrong, or a side face read as a die, or a die missed, before the change these tests came
with); a real photo guards what must not change: a 1 on top beside its side face's pips.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.reading import DieReading, ReadStatus
from reader.camera.render import DARK_LOOKS, LOOKS, TABLES, DieTruth, RenderDie, Scene, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import LIGHTS, nth_scene, random_scene  # noqa: E402

SEED, TILT, SIZE = 401, 40.0, (1280, 720)
#: A reading belongs to a die when its centre lies within the die's top face box grown by
#: this fraction of the box on every side.
GROW = 0.25
#: The JPEG quality ``bench/render_labelled.py`` saves its scenes with.
JPEG_QUALITY = 90

PHOTOS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "d6-webcam"


@cache
def _scene(index: int) -> Scene:
    """Scene ``index`` of the labelled set rendered with ``SEED`` at ``TILT``."""
    rng = np.random.default_rng(SEED)
    for _ in range(index + 1):
        scene = random_scene(rng, SIZE, sorted({*LOOKS, *DARK_LOOKS}), sorted(TABLES), sorted(LIGHTS), TILT)
    return scene


def _owner(reading: DieReading, truths: list[DieTruth]) -> DieTruth | None:
    """The die whose (grown) top face box holds the reading's centre, nearest first."""
    def holds(truth: DieTruth) -> bool:
        x0, y0, x1, y1 = truth.box
        gx, gy = GROW * (x1 - x0), GROW * (y1 - y0)
        return x0 - gx <= reading.center[0] <= x1 + gx and y0 - gy <= reading.center[1] <= y1 + gy
    owners = [t for t in truths if holds(t)]
    return min(owners, key=lambda t: np.hypot(*np.subtract(t.centre, reading.center))) if owners else None


def _read(scene: Scene) -> tuple[list[DieTruth], dict[int, int], list[DieReading]]:
    """The scene's dice, the value read for each die read (by index; a die unreadable or
    missed has none) and the readings with a value that belong to no die (side faces read
    as dice)."""
    image, truths = render(scene)
    # as the labelled set holds it (and a webcam sends it): JPEG-compressed
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1], cv2.IMREAD_COLOR)
    values: dict[int, int] = {}
    stray = []
    for reading in read_frame(image):
        if reading.status is not ReadStatus.OK:
            continue
        owner = _owner(reading, truths)
        if owner is None:
            stray.append(reading)
        else:
            values[truths.index(owner)] = reading.value
    return truths, values, stray


def _wrong(truths: list[DieTruth], values: dict[int, int]) -> list[tuple[int, int]]:
    """(truth, value read) of every die read wrong."""
    return [(truths[k].value, v) for k, v in values.items() if v != truths[k].value]


@pytest.mark.parametrize("index", [45, 192])
def test_top_two_beside_a_front_pip_is_read_as_two(index: int) -> None:
    """A black die with coloured pips shows a 2 on top, a pip of its front face just below
    the 2's nearer pip: the 2 is read, not its farther pip as a 1."""
    truths, values, _ = _read(_scene(index))
    assert not _wrong(truths, values)
    twos = [k for k, t in enumerate(truths) if t.value == 2]
    assert twos and all(values.get(k) == 2 for k in twos), [(truths[k].centre, values.get(k)) for k in twos]


@pytest.mark.parametrize("index", [37, 113, 124])
def test_front_face_of_a_die_is_not_read(index: int) -> None:
    """A front face, foreshortened more than its top face (but less than seen from steeply
    above), is its die's side face: nothing is read there, and no die is read wrong."""
    truths, values, stray = _read(_scene(index))
    assert not stray, [(r.value, r.center) for r in stray]
    assert not _wrong(truths, values)


@pytest.mark.parametrize("index", [28, 31])
def test_a_white_die_s_shaded_front_face_under_cold_light_is_not_read(index: int) -> None:
    """White dice under cold light, seen at 31 and 37 degrees (``render_labelled.py --seed 11
    --colours white``): a front face in shade takes the room's blue tint, which turned its
    barely colourful body's hue 41 degrees from its lit top face's. Taken for another die's
    colour, it was no side face of that die, and was read as a die of its own (a 6 below
    each of two touching 5s, and below a 3)."""
    truths, values, stray = _read(nth_scene(11, index, ("white",)))
    assert not stray, [(r.value, r.center) for r in stray]
    assert not _wrong(truths, values)


@pytest.mark.parametrize("seed, index", [(7, 136), (0, 37)])
def test_a_side_face_whose_pips_measure_shorter_is_not_read(seed: int, index: int) -> None:
    """A die's side face seen at a grazing angle (``render_labelled.py --seed 7``, scene 136,
    at 37 degrees; ``--seed 0``, scene 37, at 26 degrees): its pips blur into its darker body
    and measure about half as long as its top face's. Taken for another die's pips, the
    face was read as a die of its own (a 1 beside a 2 on top; a 4 beside a 2)."""
    truths, values, stray = _read(nth_scene(seed, index))
    assert not stray, [(r.value, r.center) for r in stray]
    assert not _wrong(truths, values)


@pytest.mark.parametrize("index", [49, 72])
def test_top_faces_side_by_side_are_both_read(index: int) -> None:
    """Dice side by side across the view show top faces foreshortened alike: neither is
    taken for the other's side face, and every die of the scene is read right."""
    truths, values, stray = _read(_scene(index))
    assert not stray and not _wrong(truths, values)
    assert all(values.get(k) == t.value for k, t in enumerate(truths)), \
        [(t.value, values.get(k)) for k, t in enumerate(truths)]


#: Light from the camera's right, 45 degrees up: a die turned 25-65 degrees shows two side
#: faces, its front face (its left one, seen from the camera) a little darker than its top.
RIGHT_LAMP = (0.5, 0.5, 1.0)


@pytest.mark.parametrize("tilt, least_ones", [(45.0, 29), (55.0, 21)])
def test_a_ones_side_face_off_the_camera_s_direction_is_not_read(tilt: float, least_ones: int) -> None:
    """Six frames of five white 1s on a wooden table, each die turned 25 to 65 degrees:
    seen at 45 degrees, 3 of the dice's side faces were read as dice of their own, at 55
    degrees 6 (each lies too far off the camera's direction, and is too round, to be
    dropped as the 1's side face; it is a little darker than the 1's top). None is now, and
    the 1s are read as before (30 and 22 of the 30)."""
    ones = others = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        dice = tuple(RenderDie(1, "white", (200 + 220 * i, 360), 56.0, float(rng.uniform(25, 65)),
                               turn=int(rng.integers(0, 4))) for i in range(5))
        image, _ = render(Scene(dice=dice, table=TABLES["wood"], tilt=tilt, seed=seed, lamp=RIGHT_LAMP, glare=0.1))
        values = [r.value for r in read_frame(image) if r.status is ReadStatus.OK]
        ones += values.count(1)
        others += len(values) - values.count(1)
    assert others == 0
    assert ones >= least_ones


def test_ones_on_top_of_side_face_pips_are_still_split_off() -> None:
    """A real photo's 1s on top, each grouped with pips of its die's side face, one of them
    a side pip off the 1's own face: the 1 is the only lone pip far off the face the rest
    form, so it is split off and read."""
    photo = PHOTOS / "train" / "dice_42.jpg"
    if not photo.exists():
        pytest.skip("the shared photos are not beside the repository")
    readings = read_frame(cv2.imread(str(photo)))
    near = [r for r in readings if r.status is ReadStatus.OK
            and min(np.hypot(r.center[0] - x, r.center[1] - y) for x, y in ((298, 97), (176, 177))) < 12]
    assert sorted(r.value for r in near) == [1, 1]


def test_a_front_face_is_not_read_where_its_top_one_is_in_a_highlight() -> None:
    """A green die showing 1, seen at 40 degrees: its pip, spread by the highlight, is
    refused as a 1, and its front face, a 5 nearly as round as a top face, was read as the
    die. The 5 is the 1's side face (its pips measure shorter, its body is darker): it is
    never read. The white pip inside the highlight is a spot far off the green body's colour,
    and a closer look in that colour reads the 1 there."""
    scene = Scene(dice=(RenderDie(1, "green", (914.0078361046204, 445.1908433064285), 68.85010480707017,
                                  67.79995694421356),),
                  table=(44, 40, 38), light=(1.18, 1.0, 0.84), brightness=0.8957696208764254, tilt=TILT,
                  glare=0.3492180507890148, defocus=0.06502371280541262, noise=3.12554962857345,
                  seed=74832236, lamp=(-0.23288979621423045, -0.19308875266873293, 0.9531416874799502))
    image, labels = render(scene)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1], cv2.IMREAD_COLOR)
    readings = read_frame(image)
    (truth,) = labels
    read = [r for r in readings if r.value is not None]
    assert [r.value for r in read] == [1], readings
    assert np.hypot(read[0].center[0] - truth.centre[0], read[0].center[1] - truth.centre[1]) < 3
