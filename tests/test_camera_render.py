"""The synthetic table renderer: what it draws is where its ground truth says."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from reader.camera.render import (COLD, D6_OUTLINE, TABLES, WARM, DieLook, Hand, RenderDie, Scene, ThrowPlan,
                                  render, render_clip, scatter, write_video)

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
