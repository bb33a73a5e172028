"""The dice-table board's motion sensor gates the camera's settle detection, over the real link.

The board is the Python emulator on a pseudo-terminal speaking the real protocol; the host side
is the real :class:`firmware_bridge.motion.watch_motion` feed plugged into the camera source's
:class:`TrayMotion`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from firmware_bridge.emulator import BoardEmulator, PtyBoard
from firmware_bridge.messages import MsgType, u32
from reader.camera.render import RenderDie, Scene, render
from reader.camera.settle import Phase, SettleDetector
from reader.camera.source import TrayMotion

STILL_TABLE = render(Scene(dice=(RenderDie(4, "white", (120, 80), 24, 10),), size=(320, 180), seed=5))[0]


@pytest.fixture
def board_and_tray() -> Iterator[tuple[BoardEmulator, TrayMotion]]:
    emulator = BoardEmulator(seed=1)
    board = PtyBoard(emulator)
    tray = TrayMotion.open(board.path)
    try:
        yield emulator, tray
    finally:
        tray.close()
        board.close()


def _until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the board's motion event never arrived"
        time.sleep(0.01)


def test_no_read_while_the_board_feels_motion_then_one_read_after_it_stops(board_and_tray) -> None:
    emulator, tray = board_and_tray
    detector = SettleDetector(armed=True, tray_moving=tray.moving)
    emulator.emit(MsgType.MOTION_STARTED, u32(0))
    _until(tray.moving)
    # the frames look perfectly still, but the tray is moving: nothing may be read
    reads = [detector.update(STILL_TABLE, t / 30) for t in range(30)]
    assert reads == [None] * 30 and detector.phase is Phase.MOVING
    emulator.emit(MsgType.MOTION_STOPPED, u32(1000))
    _until(lambda: not tray.moving())
    reads = [detector.update(STILL_TABLE, 1 + t / 30) for t in range(30)]
    read_at = [i for i, r in enumerate(reads) if r is not None]
    assert len(read_at) == 1  # once, after the still window (0.25 s = 8 frames at 30 fps)
    assert 6 <= read_at[0] <= 10


def test_without_a_sensor_the_same_still_frames_are_read() -> None:
    detector = SettleDetector(armed=True)
    reads = [detector.update(STILL_TABLE, t / 30) for t in range(30)]
    assert sum(r is not None for r in reads) == 1
