"""Numbered dice: face values of each kind, and the face model store (JSON + npz, no pickle)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.faces import FaceModel, faces_dir, load_face_model, load_face_models, save_face_model
from calibration.store import CalibrationError
from reader.camera.numbered.kinds import check_kind, label, value_of
from rules.errors import ThrowMismatch


@pytest.mark.parametrize(("kind", "shown", "value"), [
    ("d10", 0, 10), ("d10", 7, 7), ("d00", 0, 10), ("d00", 30, 3), ("d00", 90, 9), ("d20", 20, 20), ("d4", 1, 1)])
def test_shown_numbers_become_face_values(kind: str, shown: int, value: int) -> None:
    assert value_of(kind, shown) == value


def test_impossible_numbers_and_kinds_are_refused() -> None:
    with pytest.raises(ThrowMismatch):
        value_of("d00", 35)
    with pytest.raises(ThrowMismatch):
        value_of("d8", 9)
    with pytest.raises(ThrowMismatch):
        check_kind("d7")
    assert check_kind("D100") == "d00" and label("d00", 0) == "00" and label("d10", 0) == "0"


def _model(kind: str = "d4", colour: str | None = "green") -> FaceModel:
    rng = np.random.default_rng(0)
    return FaceModel(kind, colour, np.array([1, 2, 2, 3]), rng.random((4, 16), dtype=np.float32), 31.5,
                     (50.0, -20.0, 30.0), "vertex")


def test_a_model_round_trips_through_json_and_npz() -> None:
    model = _model()
    path = save_face_model(model)
    assert path.parent == faces_dir() and path.name == "d4-green.json"
    meta = json.loads(path.read_text())
    assert meta["missing"] == [4] and meta["views"] == 4 and meta["convention"] == "vertex"
    back = load_face_model(path, 16)
    assert back.name == "d4-green" and back.missing() == [4] and back.convention == "vertex"
    assert np.array_equal(back.shown, model.shown) and np.allclose(back.inks, model.inks)
    assert [m.name for m in load_face_models({"d4"})] == ["d4-green"] and load_face_models({"d20"}) == []


def test_a_model_of_another_patch_size_is_refused() -> None:
    path = save_face_model(_model())
    with pytest.raises(CalibrationError, match="another reader version"):
        load_face_model(path, 4096)


def test_a_pickled_or_damaged_array_file_is_refused_not_loaded() -> None:
    path = save_face_model(_model())
    arrays = path.with_suffix(".npz")
    np.savez(arrays, shown=np.array([object()], dtype=object), inks=np.zeros((1, 16), np.float32))
    with pytest.raises(CalibrationError, match="damaged"):
        load_face_model(path)
    path.write_text("{not json")
    with pytest.raises(CalibrationError):
        load_face_model(path)
