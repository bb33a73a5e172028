"""Reading rendered numbered dice: any rotation, 6 against 9, d10/d00 values, several dice, no guesses."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.faces import SHOWN, FaceModel, save_face_model
from calibration.store import CalibrationError
from reader.camera.numbered.frame import kinds_for, read_d10, read_d20, read_numbered
from reader.camera.numbered.teaching import build_model, single_die, view_of
from reader.camera.reading import ReadStatus
from reader.camera.render_numbered import NumberedLook, PlacedDie, render_table

RED = NumberedLook((40, 40, 190), (235, 235, 235), weight=3, mark="underline")
BLUE = NumberedLook((200, 120, 30), (25, 25, 25), weight=3, mark="dot")
WIDTH = 110.0


def teach(kind: str, look: NumberedLook, faces: tuple[int, ...] | None = None) -> FaceModel:
    """A model taught from one upright rendered view per face."""
    labelled = []
    for shown in faces or SHOWN[kind]:
        image = render_table([PlacedDie(kind, shown, look, 640, 360, 0.0, WIDTH)], seed=shown)
        labelled.append((shown, view_of(image, single_die(image, f"{kind} {shown}"))))
    return build_model(kind, None, labelled)


@pytest.fixture(scope="module")
def d20() -> FaceModel:
    return teach("d20", RED)


@pytest.mark.parametrize("angle", [17.0, 95.0, 180.0, 263.0])
def test_a_d20_reads_at_any_rotation_and_place(d20: FaceModel, angle: float) -> None:
    rng = np.random.default_rng(int(angle))
    wrong, read = [], 0
    for shown in (1, 6, 9, 11, 17, 20):
        die = PlacedDie("d20", shown, RED, rng.uniform(200, 1000), rng.uniform(150, 550), angle, WIDTH * 0.9)
        (reading,) = read_numbered(render_table([die], seed=shown + 100), None, {"d20"}, [d20])
        assert reading.sides == 20
        if reading.status is ReadStatus.OK:
            read += 1
            if reading.value != shown:
                wrong.append((shown, reading.value))
    assert not wrong and read >= 5


@pytest.mark.parametrize("kind", ["d10", "d00"])
def test_6_and_9_are_told_apart_by_their_mark_and_tens_read_as_values(kind: str) -> None:
    look = BLUE
    model = teach(kind, look)
    six, nine = (6, 9) if kind == "d10" else (60, 90)
    for shown, turn in ((six, 180.0), (nine, 180.0), (six, 0.0), (nine, 90.0)):
        image = render_table([PlacedDie(kind, shown, look, 500, 300, turn, WIDTH)], seed=7)
        (reading,) = read_numbered(image, None, {kind}, [model])
        assert reading.status is ReadStatus.OK and reading.value == shown // (10 if kind == "d00" else 1)
    image = render_table([PlacedDie(kind, 0, look, 700, 400, 180.0, WIDTH)], seed=8)
    (zero,) = read_numbered(image, None, {kind}, [model])
    assert zero.value == 10 and zero.sides == 10  # a d10's 0 and a d00's 00 both read 10


def test_several_kinds_in_one_frame_each_read_with_its_own_sides(d20: FaceModel) -> None:
    d10 = teach("d10", BLUE)
    frame = render_table([PlacedDie("d20", 14, RED, 300, 300, 40.0, WIDTH),
                          PlacedDie("d10", 3, BLUE, 800, 400, 200.0, WIDTH)], seed=5)
    readings = sorted(read_numbered(frame, None, None, [d20, d10]), key=lambda r: r.center[0])
    assert [(r.sides, r.value) for r in readings] == [(20, 14), (10, 3)]
    only_d10 = read_numbered(frame, None, kinds_for(10), [d20, d10])
    assert [(r.sides, r.value) for r in sorted(only_d10, key=lambda r: r.center[0])][1] == (10, 3)


def test_faces_that_look_alike_are_unreadable_never_guessed() -> None:
    # Teach faces 1 and 2 from the very same picture: the reader cannot tell them apart.
    image = render_table([PlacedDie("d20", 5, RED, 640, 360, 0.0, WIDTH)], seed=1)
    view = view_of(image, single_die(image, "d20 5"))
    model = build_model("d20", None, [(1, view), (2, view)])
    probe = render_table([PlacedDie("d20", 5, RED, 400, 300, 120.0, WIDTH)], seed=2)
    (reading,) = read_numbered(probe, None, {"d20"}, [model])
    assert reading.status is ReadStatus.UNREADABLE and reading.value is None
    assert reading.reason is not None and reading.reason.startswith("ambiguous")


def test_a_face_never_taught_is_unreadable(d20: FaceModel) -> None:
    partial = teach("d20", RED, faces=(1, 2, 3, 4))
    probe = render_table([PlacedDie("d20", 18, RED, 400, 300, 10.0, WIDTH)], seed=3)
    (reading,) = read_numbered(probe, None, {"d20"}, [partial])
    assert reading.status is ReadStatus.UNREADABLE


def test_the_source_readers_use_the_stored_models_and_say_when_none_is_taught(d20: FaceModel) -> None:
    frame = render_table([PlacedDie("d20", 12, RED, 640, 360, 75.0, WIDTH)], seed=4)
    with pytest.raises(CalibrationError, match="calibrate faces --die d20"):
        read_d20(frame)
    save_face_model(d20)
    (reading,) = read_d20(frame)
    assert (reading.value, reading.sides, reading.status) == (12, 20, ReadStatus.OK)
    with pytest.raises(CalibrationError, match="d10"):
        read_d10(frame)
