"""Small dice (24-36 pixels across on a 1280x720 frame, pips 2-3 pixels in radius): a webcam
over a big table. Such a die is often one region of the contrast mask as a whole (a light
die on a dark table), its close pips joined at half their contrast with the table."""

from __future__ import annotations

import math

import cv2
import pytest

from reader.camera.frame_reader import SearchScale, read_frame
from reader.camera.pips import find_pips
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, RenderDie, Scene, render

SIZE = 28.5  # pixels: the top face's side

#: A frame of seven small dice on a dark table, a camera tilted by 28 degrees, slightly out
#: of focus (a white die cut out whole with its pips, two tilted 6s whose pips joined).
DARK_TABLE = Scene(
    dice=(RenderDie(5, "white", (891.0, 314.1), SIZE, 60.4), RenderDie(6, "red", (270.7, 473.3), SIZE, 89.8),
          RenderDie(5, "purple", (826.8, 190.9), SIZE, 54.4), RenderDie(3, "purple", (63.7, 54.1), SIZE, 7.0),
          RenderDie(6, "yellow", (868.5, 139.4), SIZE, 87.3), RenderDie(6, "blue", (67.8, 114.2), SIZE, 45.4),
          RenderDie(2, "blue", (47.6, 134.7), SIZE, 45.4)),
    table=TABLES["dark"], light=(1.18, 1.0, 0.84), brightness=0.986, tilt=28.18, glare=0.203, defocus=0.7166,
    noise=2.027, seed=936322889, lamp=(0.177, 0.414, 0.893))


def _lone_die(value: int, colour: str, table: str, angle: float, tilt: float) -> Scene:
    return Scene(dice=(RenderDie(value, colour, (300.0, 250.0), SIZE, angle),), table=TABLES[table], tilt=tilt,
                 defocus=0.7, glare=0.2, seed=1)


@pytest.mark.parametrize("scene", [_lone_die(6, "blue", "dark", 45.4, 28.2), _lone_die(6, "green", "felt", 45.0, 25.0)],
                         ids=["blue-on-dark", "green-on-felt"])
def test_a_small_tilted_six_whose_pips_joined_is_read(scene: Scene) -> None:
    image, truth = render(scene)
    readings = read_frame(image)
    assert [(r.value, r.status) for r in readings] == [(6, ReadStatus.OK)]
    x0, y0, x1, y1 = truth[0].pips
    assert x0 <= readings[0].center[0] <= x1 and y0 <= readings[0].center[1] <= y1


def test_the_joined_pips_of_a_small_six_come_apart_round() -> None:
    image, truth = render(_lone_die(6, "blue", "dark", 45.4, 28.2))
    x0, y0, x1, y1 = truth[0].pips
    pips = [p for p in find_pips(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
            if x0 <= p.x <= x1 and y0 <= p.y <= y1]
    # the top face's six (the side faces' pips, seen edge-on, are long)
    round_pips = [p for p in pips if p.roundness >= 0.7]
    assert len(round_pips) == 6
    assert all(1.5 <= p.radius <= 3.5 for p in round_pips)


def test_small_dice_on_a_dark_table_are_read_and_none_wrongly() -> None:
    image, truth = render(DARK_TABLE)
    centres = [((t.pips[0] + t.pips[2]) / 2, (t.pips[1] + t.pips[3]) / 2) for t in truth]
    right = 0
    for reading in read_frame(image):
        if reading.status is not ReadStatus.OK:
            continue
        nearest = min(range(len(truth)), key=lambda i: math.dist(centres[i], reading.center))
        assert reading.value == truth[nearest].value, f"{truth[nearest].value} read as {reading.value}"
        right += 1
    # the white 5 (one blob with its pips at the table's contrast), the yellow and the blue 6
    # (their pips joined in rows) among them
    assert right >= 5


def test_a_frame_whose_big_pips_are_whole_dice_is_searched_at_full_size() -> None:
    """Dice 24 px across on a dark mat: sized at half size, the light dice are the clearest
    "pips", and the frame is reduced so far that their real pips vanish. The big pips found
    there hold pips when looked at at full size: the frame is searched at full size, and
    so are the camera's next frames."""
    dice = (RenderDie(3, "white", (787.2, 568.1), 24.2, 19.9), RenderDie(4, "yellow", (1038.8, 268.2), 24.2, 89.2),
            RenderDie(3, "blue", (875.1, 341.8), 24.2, 30.6), RenderDie(2, "blue", (897.0, 328.8), 24.2, 30.6),
            RenderDie(2, "grey", (930.7, 617.9), 24.2, 88.3))
    scene = Scene(dice=dice, size=(1280, 720), table=TABLES["dark"], light=(1.18, 1.0, 0.84), brightness=0.97,
                  tilt=18.5, glare=0.06, defocus=0.49, noise=2.25, seed=470350649, lamp=(-0.46, -0.37, 0.81))
    image, truths = render(scene)
    memo = SearchScale()
    readings = read_frame(image, None, memo)
    assert memo.scale == 1.0
    pairs = [(min(truths, key=lambda t: math.dist(r.center, t.centre)).value, r.value) for r in readings]
    assert all(read in (None, truth) for truth, read in pairs), pairs
    assert sum(read is not None for _, read in pairs) >= 4, pairs


def _read_against_truth(scene: Scene) -> list[tuple[int, int | None]]:
    """(true value, value read) for every die the frame read, paired by the nearest centre;
    the frame is JPEG-compressed first, as a webcam's MJPG frames are."""
    image, truths = render(scene)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
    return [(min(truths, key=lambda t: math.dist(r.center, t.centre)).value, r.value) for r in read_frame(image)]


def test_a_frame_sized_on_whole_dice_short_of_the_least_scale_is_searched_again() -> None:
    """Six dice 27 px across on a grey mat: sized at half size, the white and red dice are
    among the clearest "pips" and the frame is reduced to 0.59, not all the way to half; the
    dice found whole there still give the frame away, and it is read at full size."""
    size = 27.402
    dice = (RenderDie(2, "white", (1138.811, 336.074), size, 27.315),
            RenderDie(3, "black/red", (1117.039, 377.406), size, 31.102),
            RenderDie(3, "white", (486.841, 178.786), size, 5.176), RenderDie(2, "grey", (489.454, 207.625), size, 5.176),
            RenderDie(6, "red", (715.240, 69.827), size, 69.425), RenderDie(4, "black", (777.244, 412.286), size, 71.770))
    scene = Scene(dice=dice, table=TABLES["grey"], light=(1.18, 1.0, 0.84), brightness=0.8509, tilt=27.326,
                  glare=0.019, defocus=0.0686, noise=3.2998, seed=415793948, lamp=(-0.3057, 0.0282, 0.9517))
    pairs = _read_against_truth(scene)
    assert all(read in (None, truth) for truth, read in pairs), pairs
    assert sum(read is not None for _, read in pairs) >= 5, pairs


def test_a_few_small_light_dice_cut_out_whole_are_opened() -> None:
    """Three dice 25 px across on a dark mat: the white and the yellow die are blobs of 14 px
    radius with their pips inside, beside a black die's three small red pips. Half the
    frame's round blobs are dice, so a median pip size would be a die's; measured by the
    smaller blobs, the two dice are searched on their own and read."""
    size = 24.6
    dice = (RenderDie(5, "white", (375.9, 443.5), size, 0.1), RenderDie(3, "yellow", (781.5, 642.9), size, 66.3),
            RenderDie(6, "black/red", (1219.1, 229.4), size, 71.8))
    scene = Scene(dice=dice, table=TABLES["dark"], brightness=1.14, tilt=12.5, glare=0.29, defocus=0.47,
                  noise=2.9, seed=1026645209, lamp=(-0.05, -0.29, 0.96))
    pairs = _read_against_truth(scene)
    assert all(read in (None, truth) for truth, read in pairs), pairs
    assert {(5, 5), (3, 3)} <= set(pairs), pairs
