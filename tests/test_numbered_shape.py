"""Outline classes of numbered dice seen from above, and how the reader uses them to choose a die's kind."""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.faces import SHOWN
from reader.camera.numbered.finder import DieBlob, find_dice
from reader.camera.numbered.frame import read_numbered
from reader.camera.numbered.shape import SURE_SHAPE, DieShape, classify
from reader.camera.numbered.teaching import TeachingError, TeachingSession, teach_from_photos
from reader.camera.reading import ReadStatus
from reader.camera.render_numbered import PlacedDie, render_table
from tests.test_numbered_reading import RED, teach

TOWER = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "numeral-tower"

#: Outlines drawn from corner lists (unit circle, then stretched along x): what each must be called.
POLYGONS = {
    DieShape.TRIANGLE: (3, 1.0),
    DieShape.SQUARE: (4, 1.0),
    DieShape.HEXAGON: (6, 1.0),
    DieShape.DECAGON: (10, 1.0),
    DieShape.KITE: (6, 1.35),  # corners on the long axis: pointed ends
}


def _outline(points: np.ndarray, angle: float, size: float) -> DieBlob:
    """The finder's blob of a filled polygon (unit-size ``points``) turned and scaled."""
    turn = np.deg2rad(angle)
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    corners = points @ rot.T * size + 200
    mask = np.zeros((400, 400), np.uint8)
    cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    m = cv2.moments(contour)
    return DieBlob(m["m10"] / m["m00"], m["m01"] / m["m00"], float(np.sqrt(m["m00"] / np.pi)), contour)


def _regular(corners: int, stretch: float) -> np.ndarray:
    t = np.arange(corners) * 2 * np.pi / corners
    return np.stack([stretch * np.cos(t), np.sin(t)], axis=1)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(POLYGONS)), st.floats(0, 360), st.floats(30, 120))
def test_polygon_outlines_are_named_at_any_rotation_and_size(expected: DieShape, angle: float, size: float) -> None:
    blob = _outline(_regular(*POLYGONS[expected]), angle, size)
    verdict = classify(blob.contour, blob.elongation)
    assert verdict.shape is expected and verdict.confidence >= SURE_SHAPE


@settings(max_examples=20, deadline=None)
@given(st.floats(0, 360), st.floats(1.35, 1.6))
def test_a_long_rectangle_is_a_bar_not_a_kite(angle: float, length: float) -> None:
    rectangle = np.array([[-length, -1.0], [length, -1.0], [length, 1.0], [-length, 1.0]]) / 1.3
    blob = _outline(rectangle, angle, 50.0)
    verdict = classify(blob.contour, blob.elongation)
    assert verdict.shape is DieShape.BAR and verdict.fits("d4") and not verdict.fits("d10")


def test_a_kite_may_be_a_d10_or_a_crystal_d4_but_not_a_round_die() -> None:
    blob = _outline(_regular(6, 1.6), 30.0, 45.0)  # a long prism with pointed ends
    verdict = classify(blob.contour, blob.elongation)
    assert verdict.shape is DieShape.KITE and verdict.confidence >= SURE_SHAPE
    assert [verdict.fits(k) for k in ("d4", "d8", "d10", "d00", "d12", "d20")] == [True, False, True, True, False, False]


def test_an_outline_between_classes_is_not_sure() -> None:
    # a hexagon stretched just to the elongation where a d20 ends and a d10 begins
    blob = _outline(_regular(6, 1.15), 10.0, 60.0)
    assert classify(blob.contour, blob.elongation).confidence < SURE_SHAPE


RENDERED = {"d4": DieShape.TRIANGLE, "d8": DieShape.HEXAGON, "d10": DieShape.KITE, "d00": DieShape.KITE,
            "d12": DieShape.DECAGON, "d20": DieShape.HEXAGON}


@pytest.mark.parametrize("kind", list(RENDERED))
def test_rendered_dice_show_their_kinds_outline(kind: str) -> None:
    rng = np.random.default_rng(len(kind))
    for shown in SHOWN[kind][:3]:
        die = PlacedDie(kind, shown, RED, rng.uniform(200, 1000), rng.uniform(150, 550), rng.uniform(0, 360),
                        rng.uniform(75, 110))
        (blob,) = find_dice(render_table([die], seed=shown))
        verdict = classify(blob.contour, blob.elongation)
        assert verdict.shape is RENDERED[kind] and verdict.fits(kind) and verdict.confidence >= SURE_SHAPE


@pytest.mark.skipif(not (TOWER / "labels.csv").is_file(), reason="numeral-tower photos not present")
def test_every_real_photo_shows_an_outline_of_its_kind() -> None:
    # The numeral-tower d4s are long barrel d4s: a bar, not a triangle.
    with (TOWER / "labels.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    seen = {}
    for row in rows[::2]:
        (blob,) = find_dice(cv2.imread(str(TOWER / row["file"])))
        verdict = classify(blob.contour, blob.elongation)
        seen.setdefault(row["die"], set()).add(verdict.shape)
        assert verdict.fits(row["die"]), (row["file"], verdict)
    assert seen["d4"] == {DieShape.BAR} and seen["d6"] == {DieShape.SQUARE} and seen["d10"] == {DieShape.KITE}


def test_a_die_of_another_shape_than_requested_is_unreadable_with_the_reason() -> None:
    d20 = teach("d20", RED)
    frame = render_table([PlacedDie("d4", 3, RED, 400, 300, 25.0, 110.0),
                          PlacedDie("d12", 7, RED, 900, 400, 70.0, 110.0)], seed=6)
    readings = sorted(read_numbered(frame, None, {"d20"}, [d20]), key=lambda r: r.center[0])
    assert [r.status for r in readings] == [ReadStatus.UNREADABLE] * 2
    assert [r.reason for r in readings] == ["shape looks like a d4 (triangle), expected d20",
                                            "shape looks like a d12 (decagon), expected d20"]


def test_the_outline_chooses_between_taught_kinds_of_the_same_size_and_roundness() -> None:
    d20, d12 = teach("d20", RED), teach("d12", RED)
    frame = render_table([PlacedDie("d12", 5, RED, 350, 300, 40.0, 110.0),
                          PlacedDie("d20", 5, RED, 900, 400, 200.0, 110.0)], seed=2)
    readings = sorted(read_numbered(frame, None, None, [d20, d12]), key=lambda r: r.center[0])
    assert [(r.status, r.sides, r.value) for r in readings] == [(ReadStatus.OK, 12, 5), (ReadStatus.OK, 20, 5)]


def test_teaching_refuses_a_die_whose_outline_the_kind_never_shows(tmp_path: Path) -> None:
    photo = tmp_path / "d12.png"
    cv2.imwrite(str(photo), render_table([PlacedDie("d12", 4, RED, 640, 360, 0.0, 110.0)], seed=4))
    with pytest.raises(TeachingError, match=r"looks like a d12 \(decagon\), which a d20 never shows"):
        teach_from_photos([(photo, 4)], "d20")
    assert teach_from_photos([(photo, 4)], "d12").kind == "d12"
    session = TeachingSession("d8")
    step = session.offer(render_table([PlacedDie("d10", 3, RED, 500, 300, 30.0, 110.0)], seed=1))
    assert step.message.startswith("not learnt") and not step.needs_answer and session.pending is None
