"""The d6 reader on the shared real webcam photos (white dice, black pips, light wood).

The photos live beside the repository in ``../shared/data/d6-webcam`` and are never
copied into it; the test skips when they are absent.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "data" / "d6-webcam"

sys.path.insert(0, str(ROOT / "bench"))
from camera_accuracy import Tally, enlarged, evaluate, load_folder  # noqa: E402

from reader.camera.frame_reader import read_frame  # noqa: E402
from reader.camera.reading import DieReading  # noqa: E402


def _tally(*splits: str, scale: float = 1.0, reader: Callable[[np.ndarray], list[DieReading]] = read_frame,
           only: str | None = None) -> Tally:
    """The tally of the photos of ``splits`` (only the one named ``only``, if given) read by
    ``reader`` on the photos enlarged ``scale`` times."""
    folders = [PHOTOS / split for split in splits]
    if not all(f.is_dir() for f in folders):
        pytest.skip("shared d6-webcam photos not present")
    reader = reader if scale == 1.0 else enlarged(reader, scale)
    tally = Tally()
    for folder in folders:
        evaluate([image for image in load_folder(folder) if only in (None, image.path.stem)], reader, tally)
    return tally


def test_valid_split_reads_at_least_99_percent_and_almost_never_wrong() -> None:
    tally = _tally("valid")
    assert tally.dice == 255
    assert tally.correct >= 0.99 * tally.dice, tally.rows
    assert tally.wrong < 0.005 * tally.dice, tally.wrong_cases


def test_all_photos_are_almost_never_read_wrong_and_seldom_show_phantom_dice() -> None:
    """Over all 396 frames at least 99 % of the dice are read and a wrong number stays under
    0.5 %; the rest is reported unreadable (dice smeared till their pips run together) or
    missed. Few readings match no labelled die: keys
    of the laptop's keyboard, print on labels and the side faces of very oblique dice are
    not dice (a few unlabelled blurred dice, rightly reported unreadable, count here too)."""
    tally = _tally("train", "valid")
    assert tally.dice == 1206
    assert tally.wrong < 0.005 * tally.dice, tally.wrong_cases
    assert tally.correct >= 0.99 * tally.dice, tally.rows
    phantoms = [row for row in tally.rows if row[1] == 0]
    assert len(phantoms) <= 40, phantoms
    # a lone mark (a key's symbol) read as a 1 was most of them before bodies were checked
    assert sum(1 for row in phantoms if row[2] == "1") <= 20, phantoms


def test_large_frames_searched_at_reduced_size_read_as_well() -> None:
    """The photos enlarged to 1280x960 are searched at the reduced size their pips allow,
    and read as well as at their own size."""
    tally = _tally("valid", scale=2.0)
    assert tally.correct >= 0.99 * tally.dice, tally.rows
    assert tally.wrong < 0.005 * tally.dice, tally.wrong_cases


def _dim(image: np.ndarray) -> np.ndarray:
    """The photo as in a dim room: levels to the power 1.8, at 70 %. The white dice come out
    grey, much nearer the table's level than their pips'."""
    return np.clip((image.astype(np.float32) / 255) ** 1.8 * 0.7 * 255, 0, 255).astype(np.uint8)


def test_photos_of_a_dim_room_read_almost_as_well() -> None:
    """Darkened, the photos show the dice's edges against the table, and a 1's die, seen
    obliquely and evenly lit, reaches further towards the camera (over its front face) than
    away from it. 1182 of the 1206 dice were read before the rays over the front face were
    set aside (1196 undarkened), 1186 now; one is read wrong, as undarkened."""
    tally = _tally("train", "valid", reader=lambda image: read_frame(_dim(image)))
    assert tally.correct >= 1185, tally.rows
    assert tally.wrong < 0.005 * tally.dice, tally.wrong_cases


def test_dice_smeared_by_motion_are_read_while_their_pips_stand_apart() -> None:
    """Three dice still sliding: their pips are ovals along the track, twice as long as
    wide, but each stands apart; the 3s are read (and the whole frame with them)."""
    tally = _tally("train", only="three_29")
    assert (tally.dice, tally.correct, tally.false_detections) == (3, 3, 0), tally.rows


@pytest.mark.parametrize("name", ["dice_42", "four_16", "dice_25"])
def test_oblique_dice_are_read_by_their_top_faces_only(name: str) -> None:
    """Dice seen obliquely show side faces with pips below their top faces: a 1 on top of
    a 5 lit alike, a 4 on top of a shaded 2, a 1 on top of a 3 a little darker, down and to
    the left of it (the die is turned to the camera). Every die is read by its top face, and
    no side face is reported as a die of its own."""
    tally = _tally("train", only=name)
    assert tally.correct == tally.dice, tally.rows
    assert tally.false_detections == 0, tally.rows


@pytest.mark.parametrize("name", ["dice_19", "dice_23", "dice_31"])
def test_ones_beside_their_side_faces_are_read_in_frames_searched_reduced(name: str) -> None:
    """Enlarged 1.5 times (960x720), the photos are searched at about 0.6 of that size, where
    a side face's long pips come out rounder: a 1 was linked with the nearest of them as a
    2, refused, and went unread with it (on ``dice_19`` a second 1 too, taken for the front
    face of that 2). Every die is read, and no side face as a die of its own."""
    tally = _tally("train", scale=1.5, only=name)
    assert tally.correct == tally.dice, tally.rows
    assert tally.false_detections == 0, tally.rows
