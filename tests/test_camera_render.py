"""The synthetic table renderer: what it draws is where its ground truth says; a d6 is a cube
whose side faces carry the pips of a real die and show on the near side of an oblique camera."""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.render import (COLD, D6_OUTLINE, DARK_LOOKS, LOOKS, TABLES, WARM, DieLook, Hand, RenderDie,
                                  Scene, ThrowPlan, d6_faces, render, render_clip, scatter, scene_camera,
                                  write_video)

BENCH = Path(__file__).resolve().parents[1] / "bench"

SIZE = (320, 180)


def _die_pixels(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return image[y0:y1, x0:x1].reshape(-1, 3).astype(int)


def test_each_die_appears_inside_its_truth_box() -> None:
    dice = scatter(5, SIZE, die_size=24, seed=4, colours=("red", "blue", "yellow"))
    image, truth = render(Scene(dice=dice, size=SIZE, noise=0))
    assert image.shape == (180, 320, 3) and image.dtype == np.uint8
    assert [t.value for t in truth] == [d.value for d in dice]
    assert [t.colour for t in truth] == ["red", "blue", "yellow", "red", "blue"]
    table = np.array(TABLES["felt"])
    for t in truth:
        x0, y0, x1, y1 = t.box
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 180
        assert x0 < t.centre[0] < x1 and y0 < t.centre[1] < y1
        centre = image[int(t.centre[1]), int(t.centre[0])].astype(int)
        assert np.abs(centre - table).max() > 60  # a die, not the table


def test_pips_are_drawn_in_the_ink_colour() -> None:
    die = RenderDie(6, "white", (80, 80), 60)
    image, truth = render(Scene(dice=(die,), size=(160, 160), noise=0, glare=0))
    pixels = _die_pixels(image, truth[0].box)
    dark = (pixels.max(axis=1) < 80).sum()
    one, _ = render(Scene(dice=(RenderDie(1, "white", (80, 80), 60),), size=(160, 160), noise=0, glare=0))
    dark_one = (_die_pixels(one, truth[0].box).max(axis=1) < 80).sum()
    assert dark > 4 * dark_one > 0  # six pips against one


def test_a_face_drawer_hook_draws_numbered_dice() -> None:
    calls = []

    def number(texture: np.ndarray, value: int, look: DieLook) -> None:
        calls.append(value)
        size = texture.shape[0]
        cv2.putText(texture, str(value), (size // 5, size * 3 // 4), cv2.FONT_HERSHEY_SIMPLEX, size / 40,
                    look.ink, max(1, size // 15))

    triangle = np.float32([[0, -1], [0.95, 0.8], [-0.95, 0.8]])
    die = RenderDie(17, "blue", (80, 80), 70, sides=20, outline=triangle, face=number)
    image, truth = render(Scene(dice=(die,), size=(160, 160), noise=0, glare=0))
    assert calls == [17] and truth[0].sides == 20 and truth[0].value == 17
    pixels = _die_pixels(image, truth[0].box)
    assert (pixels.min(axis=1) > 200).sum() > 30  # the white number is on the blue face


def test_white_balance_tints_the_table() -> None:
    warm, _ = render(Scene(size=SIZE, table=TABLES["grey"]))
    cold, _ = render(Scene(size=SIZE, table=TABLES["grey"], light=COLD))
    warmer, _ = render(Scene(size=SIZE, table=TABLES["grey"], light=WARM))
    ratio = [img[..., 2].mean() / img[..., 0].mean() for img in (cold, warm, warmer)]
    assert ratio[0] < ratio[1] < ratio[2]


def test_a_fine_grain_makes_the_table_grainy_where_plain_tables_stay_as_they_were() -> None:
    """The fine grain (wood, cork) varies from pixel to pixel, with knots a few pixels across;
    a scene without it draws nothing more than before, so older seeds render as they did."""
    plain, _ = render(Scene(size=(640, 360), table=TABLES["wood"], seed=5))
    again, _ = render(Scene(size=(640, 360), table=TABLES["wood"], seed=5, fine_grain=0.0))
    grainy, _ = render(Scene(size=(640, 360), table=TABLES["wood"], seed=5, fine_grain=30.0))
    assert np.array_equal(plain, again)

    def strays(image: np.ndarray) -> float:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
        return float(np.median(np.abs(grey - cv2.GaussianBlur(grey, (3, 3), 0))))

    assert strays(grainy) >= 2 * max(strays(plain), 0.5)


def test_oblique_camera_shrinks_the_far_side() -> None:
    near, far = RenderDie(2, "red", (160, 160), 24), RenderDie(3, "red", (160, 25), 24)
    _, flat = render(Scene(dice=(near, far), size=SIZE))
    _, tilted = render(Scene(dice=(near, far), size=SIZE, tilt=25))
    width = [t.box[2] - t.box[0] for t in tilted]
    assert width[1] < width[0]
    assert abs((flat[1].box[2] - flat[1].box[0]) - (flat[0].box[2] - flat[0].box[0])) <= 1


def test_a_hand_covers_part_of_the_table() -> None:
    empty, _ = render(Scene(size=SIZE, noise=0))
    hand, _ = render(Scene(size=SIZE, noise=0, hand=Hand((160, 80), width=50)))
    changed = np.abs(hand.astype(int) - empty.astype(int)).max(axis=2) > 30
    assert changed[80:, 130:190].mean() > 0.5 and changed[:40].mean() == 0


def test_clip_frames_move_then_rest_with_timestamps(tmp_path) -> None:
    dice = scatter(2, SIZE, die_size=22, seed=1)
    frames, throws = render_clip(Scene(size=SIZE), [ThrowPlan(dice, roll=0.5, rest=0.5)], fps=20, lead=0.2)
    times = [f.time for f in frames]
    assert times == pytest.approx([i / 20 for i in range(len(frames))])
    (throw,) = throws
    assert throw.rest_time == pytest.approx(0.7)
    assert [t.value for t in throw.new] == [d.value for d in dice]

    def motion(a, b) -> float:
        return np.abs(a.image.astype(int) - b.image.astype(int)).mean()

    resting = [f for f in frames if f.time >= throw.rest_time]
    rolling = [f for f in frames if 0.2 <= f.time < throw.rest_time]
    assert max(motion(a, b) for a, b in zip(resting, resting[1:])) < 3
    assert min(motion(a, b) for a, b in zip(rolling, rolling[1:])) > motion(resting[0], resting[1])
    path = tmp_path / "clip.avi"
    write_video(str(path), frames, 20)
    capture = cv2.VideoCapture(str(path))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == len(frames)
    assert capture.read()[1].shape == (180, 320, 3)


def test_outline_default_is_a_rounded_square() -> None:
    assert D6_OUTLINE.min() == pytest.approx(-1) and D6_OUTLINE.max() == pytest.approx(1)
    area = cv2.contourArea(D6_OUTLINE)
    assert 3.8 < area < 4.0  # a square of side 2 with slightly rounded corners


def test_touching_dice_are_both_drawn() -> None:
    left, right = RenderDie(2, "white", (100, 80), 40), RenderDie(5, "red", (140, 80), 40)
    image, truth = render(Scene(dice=(left, right), size=(240, 160), noise=0, glare=0, defocus=0.8))
    assert truth[0].box[2] >= truth[1].box[0]  # the faces meet
    assert image[80, 100 - 12].min() > 150  # the white die's face
    red = image[80, 140 + 12].astype(int)
    assert red[2] > 120 and red[2] > 2 * red[1]  # the red die's face beside it


# --- d6 dice as cubes -------------------------------------------------------------------------

CUBE = dict(size=(320, 240), noise=0, glare=0, shadow=0, grain=0, table=TABLES["grey"])
DIRECTIONS = {"top": (0, 0, 1), "bottom": (0, 0, -1), "east": (1, 0, 0), "west": (-1, 0, 0),
              "north": (0, 1, 0), "south": (0, -1, 0)}  # right-handed: north (far side) is +y here


@pytest.mark.parametrize("top", range(1, 7))
def test_every_turn_of_a_die_is_a_real_d6(top: int) -> None:
    seen = set()
    for turn in range(4):
        faces = d6_faces(top, turn)
        assert faces["top"] == top and sorted(faces.values()) == [1, 2, 3, 4, 5, 6]
        assert faces["top"] + faces["bottom"] == faces["east"] + faces["west"] == faces["north"] + faces["south"] == 7
        # 1, 2 and 3 run counter-clockwise round their corner (Western dice), whatever the turn
        where = {value: np.array(DIRECTIONS[side]) for side, value in faces.items()}
        assert np.dot(where[1], np.cross(where[2], where[3])) == 1
        seen.add((faces["east"], faces["north"]))
    assert len(seen) == 4


def _side_face_centre(die: RenderDie, scene: Scene) -> tuple[int, int]:
    """Image position of the middle of the die's side face towards the camera (south)."""
    camera = scene_camera(scene.size, scene.tilt, scene.distance)
    x, y = camera.project(np.array([[die.centre[0], die.centre[1] + die.size / 2, die.size / 2]]))[0]
    return int(round(x)), int(round(y))


def _below_top_face(image: np.ndarray, box: tuple[int, int, int, int], depth: int) -> np.ndarray:
    x0, _, x1, y1 = box
    return image[y1 + 1:y1 + 1 + depth, x0 + 4:x1 - 4].reshape(-1, 3).astype(int)


def test_truth_box_lies_on_the_top_face_one_die_side_above_the_table() -> None:
    die = RenderDie(2, "white", (160, 130), 60, 0, turn=1)
    for tilt in (0, 40):
        image, (truth,) = render(Scene(dice=(die,), tilt=tilt, **CUBE))
        x0, y0, x1, y1 = truth.box
        face = image[y0 + 4:y1 - 4, x0 + 4:x1 - 4].reshape(-1, 3).astype(int)
        assert (face.min(axis=1) > 170).mean() > 0.85  # white body, two small pips
        assert x0 < truth.centre[0] < x1 and y0 < truth.centre[1] < y1
        px0, py0, px1, py1 = truth.pips
        assert x0 < px0 < px1 < x1 and y0 < py0 < py1 < y1
    flat, (top_down,) = render(Scene(dice=(die,), **CUBE))
    assert top_down.box[3] - top_down.box[1] > truth.box[3] - truth.box[1] + 8  # foreshortened when tilted


def test_tilted_camera_sees_the_near_side_face_with_its_pips() -> None:
    die = RenderDie(2, "white", (160, 120), 60, 0, turn=1)  # a 6 on the side towards the camera
    assert d6_faces(2, 1)["south"] == 6
    table = np.array(TABLES["grey"])
    flat, (flat_truth,) = render(Scene(dice=(die,), **CUBE))
    below = _below_top_face(flat, flat_truth.box, 20)
    assert (np.abs(below - table).max(axis=1) < 25).mean() > 0.95  # straight down: only table below the face
    tilted, (truth,) = render(Scene(dice=(die,), tilt=40, **CUBE))
    side = _below_top_face(tilted, truth.box, 30)
    body = side.min(axis=1) > 110  # the side face: the white body in shade
    ink = side.max(axis=1) < 70  # its pips
    assert body.mean() > 0.5 and ink.sum() > 40
    assert np.median(side[body].mean(axis=1)) < np.median(_die_face_brightness(tilted, truth.box)) - 30


def _die_face_brightness(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    face = image[y0 + 4:y1 - 4, x0 + 4:x1 - 4].reshape(-1, 3).astype(int)
    return face[face.min(axis=1) > 110].mean(axis=1)


def test_side_faces_show_the_values_of_a_real_die() -> None:
    def ink_below(turn: int) -> int:
        image, (truth,) = render(Scene(dice=(RenderDie(2, "white", (160, 120), 60, 0, turn=turn),), tilt=40,
                                       **CUBE))
        return int((_below_top_face(image, truth.box, 30).max(axis=1) < 70).sum())

    south = {turn: d6_faces(2, turn)["south"] for turn in range(4)}
    assert south == {0: 1, 1: 6, 2: 3, 3: 4}
    ink = {south[turn]: ink_below(turn) for turn in range(4)}
    assert ink[1] < ink[3] < ink[4] < ink[6]


def test_a_low_lamp_lights_the_side_face_more_than_the_top() -> None:
    die = RenderDie(2, "white", (160, 120), 60, 0, turn=3)  # a 4 on the side: no pip in its middle
    for lamp, top_brighter in (((-0.35, -0.2, 1.0), True), ((0.0, 1.0, 0.2), False)):
        scene = Scene(dice=(die,), tilt=40, lamp=lamp, **CUBE)
        image, (truth,) = render(scene)
        top = image[int(truth.centre[1]), int(truth.centre[0])].astype(int).mean()
        sx, sy = _side_face_centre(die, scene)
        side = image[sy, sx].astype(int).mean()
        assert (top > side + 30) if top_brighter else (side > top + 10)


def test_near_dice_hide_the_dice_behind_them_not_the_other_way_round() -> None:
    far, near = RenderDie(3, "red", (160, 100), 50, 0), RenderDie(4, "white", (160, 151), 50, 0)
    image, (far_t, near_t) = render(Scene(dice=(far, near), tilt=40, **CUBE))
    x = int(near_t.centre[0])
    # the white top face is drawn over the red die's near side, right up to its own edge
    top_edge = image[near_t.box[1] + 2:near_t.box[1] + 6, x - 10:x + 10].reshape(-1, 3).astype(int)
    assert (top_edge.min(axis=1) > 150).mean() > 0.9
    assert far_t.box[3] <= near_t.box[1] + 2  # the top faces do not overlap


def test_a_hand_covers_tilted_dice() -> None:
    die, hand = RenderDie(5, "red", (160, 205), 36, 0), Hand((160, 120), width=90)  # under the palm
    covered, (truth,) = render(Scene(dice=(die,), tilt=30, hand=hand, **CUBE))
    bare, _ = render(Scene(tilt=30, hand=hand, **CUBE))
    uncovered, _ = render(Scene(dice=(die,), tilt=30, **CUBE))
    x0, y0, x1, y1 = truth.box
    diff = np.abs(covered.astype(int) - bare.astype(int))[y0:y1, x0:x1].max(axis=2)
    assert (diff < 8).mean() > 0.95  # nothing of the die shows through the hand
    assert np.abs(uncovered.astype(int) - bare.astype(int))[y0:y1, x0:x1].max(axis=2).mean() > 40


def test_tumbling_dice_at_any_angle_and_tilt_render_cleanly() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for tilt in (0, 25, 45):
            dice = tuple(RenderDie(v % 6 + 1, "blue", (60 + 40 * (v % 6), 60 + 50 * (v // 6)), 24, 7.5 * v,
                                   blur=6.0 + v, blur_angle=10.0 * v) for v in range(12))
            image, truth = render(Scene(dice=dice, size=(320, 180), tilt=tilt))
            assert len(truth) == 12 and image.std() > 5


def test_every_look_renders_as_a_cube_with_its_ink_on_top() -> None:
    names = sorted({*LOOKS, *DARK_LOOKS})
    dice = tuple(RenderDie(6, name, (50 + 70 * (i % 6), 60 + 110 * (i // 6)), 44, 10) for i, name in enumerate(names))
    image, truth = render(Scene(dice=dice, size=(440, 240), tilt=30, noise=0, glare=0))
    for name, t in zip(names, truth):
        look = LOOKS.get(name) or DARK_LOOKS[name]
        x0, y0, x1, y1 = t.pips
        pixels = image[y0:y1, x0:x1].reshape(-1, 3).astype(int)
        ink = np.abs(pixels - np.array(look.ink)).max(axis=1) < 60
        body = np.abs(pixels - np.array(look.body)).max(axis=1) < 60
        assert ink.mean() > 0.08 and body.mean() > 0.08, name


def test_labelled_folder_round_trips_through_the_accuracy_bench(tmp_path) -> None:
    sys.path.insert(0, str(BENCH))
    try:
        labelled = importlib.import_module("render_labelled")
        accuracy = importlib.import_module("camera_accuracy")
    finally:
        sys.path.remove(str(BENCH))
    scene = labelled.random_scene(np.random.default_rng(4), (640, 360), ["red", "black/gold"], ["felt"],
                                  ["warm"], 35.0)
    truth = labelled.write_scene(tmp_path, "one", scene)
    (item,) = accuracy.load_folder(tmp_path)
    assert item.path == tmp_path / "one.jpg" and cv2.imread(str(item.path)).shape == (360, 640, 3)
    assert [d.value for d in item.dice] == [t.value for t in truth] and 3 <= len(truth) <= 8
    for die, t in zip(item.dice, truth):
        box = np.array(die.box) * [640, 360, 640, 360]
        assert box == pytest.approx(t.pips, abs=0.01)
