"""Teaching numbered dice: photo folders in both layouts, the live guided pass, ``calibrate faces``."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import pytest

from calibration.faces import faces_dir, load_face_models
from reader.camera.numbered.frame import read_numbered
from reader.camera.numbered.teaching import TeachingError, TeachingSession, labelled_photos, teach_from_photos
from reader.camera.reading import ReadStatus
from reader.camera.render_numbered import NumberedLook, PlacedDie, render_table
from reader.cli import faces_cmd

LOOK = NumberedLook((40, 160, 40), (240, 240, 240), weight=3)


def _photo(path: Path, kind: str, shown: int, angle: float = 0.0, x: float = 640.0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), render_table([PlacedDie(kind, shown, LOOK, x, 360, angle, 110.0)], seed=shown))
    return path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    faces_cmd.register_faces(parser.add_subparsers())
    return parser


def test_photos_are_found_in_face_folders_and_in_labels_csv(tmp_path: Path) -> None:
    for shown in (0, 4):
        _photo(tmp_path / "by_face" / str(shown) / "a.png", "d10", shown)
    assert [(p.name, s) for p, s in labelled_photos(tmp_path / "by_face", "d10")] == [("a.png", 0), ("a.png", 4)]
    table = tmp_path / "by_csv"
    _photo(table / "x.png", "d10", 7)
    _photo(table / "y.png", "d20", 3)
    (table / "labels.csv").write_text("file,die,shown\nx.png,d10,7\ny.png,d20,3\n")
    assert [(p.name, s) for p, s in labelled_photos(table, "d10")] == [("x.png", 7)]
    (table / "labels.csv").write_text("file,value\nx.png,7\n")
    with pytest.raises(TeachingError, match="'file' and 'shown'"):
        labelled_photos(table, "d10")


def test_a_photo_with_two_dice_or_a_face_the_die_lacks_is_refused(tmp_path: Path) -> None:
    two = tmp_path / "two.png"
    cv2.imwrite(str(two), render_table([PlacedDie("d8", 1, LOOK, 300, 300), PlacedDie("d8", 2, LOOK, 900, 300)]))
    with pytest.raises(TeachingError, match="exactly one die"):
        teach_from_photos([(two, 1)], "d8")
    with pytest.raises(TeachingError, match="no face 9"):
        teach_from_photos([(_photo(tmp_path / "one.png", "d8", 8), 9)], "d8")


def test_calibrate_faces_from_photos_stores_a_model_the_reader_uses(tmp_path: Path, capsys) -> None:
    for shown in range(1, 9):
        _photo(tmp_path / "d8" / str(shown) / "view.png", "d8", shown, angle=20.0 * shown)
    args = _parser().parse_args(["faces", "--die", "d8", "--colour", "Green", "--from", str(tmp_path / "d8")])
    assert args.run(args) == 0
    assert "taught d8-green: 8 views of 8 faces" in capsys.readouterr().out
    (model,) = load_face_models({"d8"})
    assert model.name == "d8-green" and (faces_dir() / "d8-green.npz").is_file() and model.missing() == []
    probe = render_table([PlacedDie("d8", 5, LOOK, 420, 300, 237.0, 100.0)], seed=9)
    (reading,) = read_numbered(probe, None, {"d8"})
    assert (reading.status, reading.value, reading.sides) == (ReadStatus.OK, 5, 8)


def test_the_live_pass_asks_about_new_faces_and_lists_the_missing_ones(tmp_path: Path, capsys) -> None:
    # a "video" of stills: every face of a d4 once, then face 2 again (recognised without asking)
    shots = tmp_path / "shots"
    for i, shown in enumerate((1, 2, 3, 2, 4)):
        _photo(shots / f"{i:02d}.png", "d4", shown, angle=40.0 * i, x=500 + 40 * i)
    asked: list[str] = []
    answers = iter(["7", "1", "2", "3", "4"])  # 7 is no d4 face: asked again

    def ask(question: str) -> str:
        asked.append(question)
        return next(answers)

    args = _parser().parse_args(["faces", "--die", "d4", "--source", str(shots), "--d4-reads", "vertex"])
    assert faces_cmd.run_calibrate_faces(args, ask) == 0
    out = capsys.readouterr().out
    assert len(asked) == 5 and "saw 2" in out and "every face taught" in out
    assert "3 missing: 2, 3, 4" in out
    (model,) = load_face_models({"d4"})
    assert sorted(model.shown.tolist()) == [1, 2, 2, 3, 4] and model.convention == "vertex"


def test_a_session_without_views_cannot_make_a_model() -> None:
    session = TeachingSession("d20")
    assert session.missing() == list(range(1, 21))
    with pytest.raises(TeachingError):
        session.model()
