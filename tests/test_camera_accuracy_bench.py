"""How the accuracy bench pairs readings with labelled dice (``bench/camera_accuracy.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from camera_accuracy import LabelledDie, LabelledImage, Tally, evaluate, load_folder, main, match  # noqa: E402

from reader.camera.reading import DieReading, ReadStatus  # noqa: E402

SHAPE = (400, 400, 3)


def _reading(value: int, centre: tuple[float, float], side: int = 40) -> DieReading:
    x, y = centre
    box = (round(x - side / 2), round(y - side / 2), round(x + side / 2), round(y + side / 2))
    return DieReading(value, 6, "white", centre, box, 0.9, ReadStatus.OK, None)


def _die(value: int, centre: tuple[float, float], half: float = 5) -> LabelledDie:
    x, y = centre
    return LabelledDie(value, ((x - half) / 400, (y - half) / 400, (x + half) / 400, (y + half) / 400))


def test_a_side_face_read_beside_an_unmatched_die_is_that_dies_wrong_reading() -> None:
    """A 1 whose pip was not seen, its front face's 2 read 35 px below it: one wrong die,
    not a missed die and a phantom."""
    pairs, extra = match((_die(1, (200, 200)),), [_reading(2, (200, 235))], SHAPE)
    assert extra == [] and pairs[0] is not None and pairs[0].value == 2
    tally = Tally()
    tally.add(Path("x.jpg"), _die(1, (200, 200)), pairs[0])
    assert (tally.wrong, tally.missed, tally.false_detections) == (1, 0, 0)


def test_false_detections_with_a_value_beside_a_read_die_are_told_apart(tmp_path: Path) -> None:
    """A die read in its place, its front face read as a die of its own 35 px below it (a die
    counted twice), an unreadable blob beside it and a 3 far off: three false detections,
    two with a value, one of them beside the labelled die."""
    image = tmp_path / "a.png"
    cv2.imwrite(str(image), np.zeros(SHAPE, np.uint8))
    blob = DieReading(None, 6, "white", (170.0, 230.0), (150, 210, 190, 250), 0.0, ReadStatus.UNREADABLE, "blurred")
    readings = [_reading(1, (200, 200)), _reading(2, (200, 235)), blob, _reading(3, (60, 60))]
    tally, _ = evaluate([LabelledImage(image, (_die(1, (200, 200)),))], lambda _: readings)
    assert (tally.correct, tally.false_detections, tally.false_read, tally.false_beside) == (1, 3, 2, 1)


def test_a_reading_further_than_its_face_side_stays_a_false_detection() -> None:
    pairs, extra = match((_die(1, (200, 200)),), [_reading(2, (200, 260))], SHAPE)
    assert pairs == [None] and len(extra) == 1


def test_a_neighbour_read_in_its_own_place_is_not_taken_for_a_side_face() -> None:
    """Two touching dice: the one read in its place keeps its reading; the other is missed."""
    dice = (_die(1, (200, 200)), _die(5, (200, 240)))
    pairs, extra = match(dice, [_reading(5, (200, 240))], SHAPE)
    assert pairs[0] is None and pairs[1] is not None and pairs[1].value == 5 and extra == []


def test_a_folder_of_labelled_folders_gives_theirs(tmp_path: Path) -> None:
    """A set kept as ``train/`` and ``valid/`` is measured by naming its own folder."""
    for split, value in (("train", 3), ("valid", 5)):
        (tmp_path / split).mkdir()
        (tmp_path / split / "a.png").write_bytes(b"")
        (tmp_path / split / "a.txt").write_text(f"{value - 1} 0.5 0.5 0.1 0.1\n")
    assert [(image.path.parent.name, image.dice[0].value) for image in load_folder(tmp_path)] == [("train", 3),
                                                                                               ("valid", 5)]


def test_a_folder_with_no_labelled_images_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "photo.png").write_bytes(b"")
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path)])
    assert stop.value.code == 2
    assert "holds no labelled images" in capsys.readouterr().err


def test_every_reading_of_a_photo_without_dice_is_a_false_detection(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    """``--no-dice``: photos known to show no pip d6 (numbered dice, a bare tray); here a
    rendered frame of three dice stands in, each of its readings counted false."""
    from reader.camera.render import Scene, render, scatter

    image, _ = render(Scene(dice=scatter(3, (640, 480), die_size=60.0, seed=5), size=(640, 480), seed=5))
    cv2.imwrite(str(tmp_path / "three.png"), image)
    assert main(["--no-dice", str(tmp_path)]) == 0
    summary = capsys.readouterr().out.splitlines()[0]
    assert summary.startswith("dice: 0 ") and "false detections: 3 (3 with a value" in summary


def test_no_folder_at_all_is_a_one_line_error(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2
    assert "give a labelled folder" in capsys.readouterr().err
