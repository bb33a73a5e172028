"""Settle detection on rendered clips: one read per throw, never during motion or with a hand in view."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from reader.camera.reading import DieReading, ReadStatus
from reader.camera.render import TABLES, WARM, ClipFrame, Hand, RenderDie, Scene, ThrowPlan, render, render_clip
from reader.camera.settle import Phase, SettleConfig, SettleDetector, vote

SIZE = (320, 180)
BASE = Scene(size=SIZE, seed=3)
FIRST = (RenderDie(5, "white", (100, 70), 24, 10), RenderDie(2, "red", (190, 110), 24, 40),
         RenderDie(4, "blue", (250, 60), 24, 70))
AGAIN = (RenderDie(3, "red", (150, 140), 24, 20),)


def _reads(frames: list[ClipFrame], detector: SettleDetector) -> list[float]:
    return [f.time for f in frames if detector.update(f.image, f.time) is not None]


@pytest.fixture(scope="module")
def two_throws() -> tuple[list[ClipFrame], list]:
    return render_clip(BASE, [ThrowPlan(FIRST, roll=0.6, rest=0.8),
                              ThrowPlan(AGAIN, roll=0.5, rest=0.8, hand=0.5, remove=(1,))], fps=30, lead=0.3)


def test_one_read_per_throw_within_a_third_of_a_second_of_rest(two_throws) -> None:
    frames, throws = two_throws
    reads = _reads(frames, SettleDetector(armed=False))
    assert len(reads) == len(throws) == 2
    for read, throw in zip(reads, throws):
        assert throw.rest_time <= read <= throw.rest_time + 0.3


def test_no_frame_is_read_while_dice_move_or_a_hand_is_in_view(two_throws) -> None:
    frames, throws = two_throws
    detector = SettleDetector(armed=False)
    phases = []
    for f in frames:
        stills = detector.update(f.image, f.time)
        phases.append(detector.phase)
        assert stills is None or all(s.shape == f.image.shape for s in stills)
    hand_start = throws[0].rest_time + 0.8
    during_hand = [p for f, p in zip(frames, phases) if hand_start + 0.3 <= f.time < hand_start + 0.5]
    assert during_hand and set(during_hand) == {Phase.HAND}
    rolling = [p for f, p in zip(frames, phases) if 0.34 <= f.time < throws[0].rest_time]
    assert set(rolling) == {Phase.MOVING}


def test_the_window_is_measured_in_seconds_not_frames() -> None:
    delays = []
    for fps in (10, 40):
        frames, (throw,) = render_clip(BASE, [ThrowPlan(FIRST[:1], roll=0.4, rest=0.6)], fps=fps, lead=0.2)
        (read,) = _reads(frames, SettleDetector(armed=False))
        delays.append(read - throw.rest_time)
        assert 0.25 - 1e-6 <= read - throw.rest_time <= 0.25 + 1.5 / fps
    assert delays[0] == pytest.approx(delays[1], abs=0.11)


def test_a_still_table_is_not_read_until_something_moves() -> None:
    image, _ = render(replace(BASE, dice=FIRST))
    detector = SettleDetector(armed=False)
    assert not any(detector.update(image, i / 30) for i in range(30))
    detector = SettleDetector(armed=True)
    assert sum(detector.update(image, i / 30) is not None for i in range(30)) == 1


def test_a_slow_slide_never_counts_as_still() -> None:
    frames = []
    for i in range(40):
        die = RenderDie(5, "white", (100.3 + i * 0.1, 80), 24, 10)
        frames.append(ClipFrame(i / 30, render(replace(BASE, dice=(die,), frame=i))[0]))
    detector = SettleDetector(armed=True)
    detector.update(frames[0].image, 0.0)
    assert _reads(frames[1:], detector) == []


def test_scenery_touching_the_border_from_the_start_is_not_a_hand(two_throws) -> None:
    frames, throws = two_throws
    laptop = [ClipFrame(f.time, cv2.rectangle(f.image.copy(), (0, 150), (120, 180), (90, 90, 90), -1))
              for f in frames]
    reads = _reads(laptop, SettleDetector(armed=False))
    assert len(reads) == 2 and reads[0] <= throws[0].rest_time + 0.3


def _reading(value: int | None, x: float, confidence: float = 0.9, colour: str = "white") -> DieReading:
    status = ReadStatus.OK if value is not None else ReadStatus.UNREADABLE
    return DieReading(value, 6, colour, (x, 50.0), (int(x) - 10, 40, int(x) + 10, 60), confidence, status,
                      None if value else "cocked")


def test_vote_takes_each_dies_majority() -> None:
    frames = [[_reading(3, 50), _reading(6, 150)], [_reading(5, 51), _reading(6, 149)],
              [_reading(3, 50.5), _reading(6, 150)]]
    voted = vote(frames)
    assert [r.value for r in voted] == [3, 6]
    assert voted[0].confidence == pytest.approx(0.9 * 2 / 3)
    assert voted[1].confidence == pytest.approx(0.9)


def test_vote_refuses_a_face_without_majority() -> None:
    voted = vote([[_reading(3, 50)], [_reading(5, 50)], [_reading(None, 50)]])
    assert voted[0].status is ReadStatus.UNREADABLE and voted[0].value is None
    assert "differently" in voted[0].reason
    alone = vote([[_reading(None, 50)]])
    assert alone[0].status is ReadStatus.UNREADABLE and alone[0].reason == "cocked"


def test_thumbnail_keeps_the_aspect_ratio() -> None:
    detector = SettleDetector(SettleConfig(width=160))
    assert detector.thumbnail(np.zeros((720, 1280, 3), np.uint8)).shape == (90, 160, 3)


@pytest.mark.parametrize("table", ["wood", "felt", "dark"])
def test_a_hand_close_to_the_tables_colour_still_stops_the_read(table: str) -> None:
    base = replace(BASE, table=TABLES[table], light=WARM)
    frames, throws = render_clip(base, [ThrowPlan(FIRST[:1], roll=0.4, rest=0.5),
                                        ThrowPlan(AGAIN, roll=0.4, rest=0.5, hand=0.8)], fps=20, lead=0.2)
    detector = SettleDetector(armed=False)
    phases = {f.time: (detector.update(f.image, f.time) is not None, detector.phase) for f in frames}
    hand_start, hand_end = throws[0].rest_time + 0.5, throws[1].rest_time - 0.4
    hand = [phase for t, (_, phase) in phases.items() if hand_start + 0.3 <= t < hand_end - 0.05]
    assert hand and set(hand) == {Phase.HAND}
    assert sum(read for read, _ in phases.values()) == 2


def test_a_hand_that_never_trembles_becomes_scenery() -> None:
    image, _ = render(replace(BASE, dice=FIRST))
    with_hand, _ = render(replace(BASE, dice=FIRST, hand=Hand((160, 90), width=60)))
    detector = SettleDetector(SettleConfig(hand_patience=1.0), armed=True)
    detector.update(image, 0.0)
    reads = [t / 20 for t in range(1, 40) if detector.update(with_hand, t / 20) is not None]
    assert len(reads) == 1 and reads[0] >= 0.25 + 1.0
