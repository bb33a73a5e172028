"""``--source serial:...``: board throws become checked throws; motion feed; the command line."""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
from collections.abc import Iterator

import pytest

from firmware_bridge.codec import decode_frame, cobs_encode
from firmware_bridge.emulator import BoardEmulator, PtyBoard
from firmware_bridge.link import BoardError, SerialLink
from firmware_bridge.messages import Capability, DieFace, DieHint, MsgType, Shown, u32
from firmware_bridge.source import SerialDiceSource, ThrowTimeout, match_faces, open_serial_source
from reader.cli.main import main
from rules.dice import DiceRequest, DieSpec, Role, check_throw
from rules.errors import ThrowMismatch
from rules.result import CheckResult, Outcome

WILD_CHECK = DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6), DieSpec(6)))


def face(index: int, sides: int, value: int, colour: str = "", count: int = 3) -> DieFace:
    return DieFace(1, index, count, index + 1, sides, value, colour)


def test_the_designated_die_is_matched_by_colour_first():
    faces = match_faces(WILD_CHECK, [face(0, 6, 2, "white"), face(1, 6, 6, "red"), face(2, 6, 3, "white")])
    assert [(f.value, f.role, f.colour, f.die_id) for f in faces] == [
        (6, Role.WILD, "red", "2"), (2, None, "white", "1"), (3, None, "white", "3")]
    percentile = DiceRequest((DieSpec(10, Role.TENS, "blue"), DieSpec(10, Role.UNITS)))
    tens, units = match_faces(percentile, [face(0, 10, 7, "white", 2), face(1, 10, 10, "blue", 2)])
    assert (tens.value, tens.digit, units.value) == (10, 0, 7)


@pytest.mark.parametrize("faces, message", [
    ([face(0, 6, 2, "white", 2), face(1, 6, 6, "red", 2)], "read 2 dice"),
    ([face(0, 6, 2, "white"), face(1, 6, 6, "blue"), face(2, 6, 3, "white")], "no red d6 for the wild die"),
    ([face(0, 6, 2, "red"), face(1, 8, 6), face(2, 6, 3)], "no d6 for die 3"),
])
def test_dice_that_cannot_answer_are_refused_not_guessed(faces, message):
    with pytest.raises(ThrowMismatch, match=message):
        match_faces(WILD_CHECK, faces)


@pytest.fixture
def board() -> Iterator[PtyBoard]:
    pty = PtyBoard(BoardEmulator(seed=4))
    yield pty
    pty.close()


def run(coro):
    return asyncio.run(coro)


async def throw_once(board: PtyBoard, timeout: float):
    source = SerialDiceSource(SerialLink(board.path), timeout=timeout)
    try:
        return await source.throw(WILD_CHECK)
    finally:
        await source.close()


def test_a_popper_board_throws_the_requested_dice(board: PtyBoard):
    throw = check_throw(WILD_CHECK, run(throw_once(board, 5)))
    assert throw.source == "serial" and throw.faces[0].colour == "red" and throw.faces[0].role is Role.WILD
    frames = [decode_frame(cobs_encode(raw)) for raw in throw.evidence["frames"]]
    assert [f.type for f in frames] == [MsgType.DIE_FACE] * 3
    reported = sorted((DieFace.unpack(f.payload) for f in frames), key=lambda f: f.index)
    assert sorted(f.value for f in reported) == sorted(throw.values)
    assert throw.evidence["board"] == "emulator" and throw.evidence["throw_no"] == reported[0].throw_no


def test_a_hand_throw_after_the_request_answers_it_and_earlier_throws_do_not(board: PtyBoard):
    board.emulator.protocol.capabilities &= ~Capability.POPPER
    dice = [DieHint(6, "white"), DieHint(6, "red"), DieHint(6, "white")]

    async def go():
        source = SerialDiceSource(SerialLink(board.path), timeout=5)
        try:
            await asyncio.to_thread(source.link.wait_ready, 5)
            stale = board.emulator.throw(dice)
            await asyncio.sleep(0.2)
            pending = asyncio.create_task(source.throw(WILD_CHECK))
            await asyncio.sleep(0.2)
            thrown = board.emulator.throw(dice)
            return stale, thrown, await pending
        finally:
            await source.close()

    stale, thrown, throw = run(go())
    assert throw.evidence["throw_no"] == thrown[0].throw_no != stale[0].throw_no
    assert throw.values == (thrown[1].value, thrown[0].value, thrown[2].value)


def test_no_throw_in_time_is_a_clear_error(board: PtyBoard):
    board.emulator.protocol.capabilities &= ~Capability.POPPER
    with pytest.raises(ThrowTimeout, match="within 0.3 s"):
        run(throw_once(board, 0.3))


def test_a_board_that_reads_no_faces_says_so(board: PtyBoard):
    board.emulator.protocol.capabilities = Capability.BUTTON | Capability.MOTION
    with pytest.raises(BoardError, match="reads no dice faces"):
        run(throw_once(board, 1))


@pytest.mark.parametrize("led, shown", [(True, Shown.CRITICAL_FAILURE), (False, Shown.IDLE)])
def test_outcome_is_shown_on_the_board_with_led(board: PtyBoard, led: bool, shown: Shown):
    result = CheckResult("opend6", 3, 10, False, Outcome.CRITICAL_FAILURE, ())

    async def go():
        source = SerialDiceSource(SerialLink(board.path), led=led)
        try:
            await asyncio.to_thread(source.link.wait_ready, 5)
            await source.show_outcome(result)
        finally:
            await source.close()

    run(go())
    assert board.emulator.shown is shown


def test_motion_feed_for_settle_detection(board: PtyBoard):
    seen = []

    async def go():
        source = SerialDiceSource(SerialLink(board.path))
        unsubscribe = source.motion.subscribe(seen.append)
        try:
            await asyncio.to_thread(source.link.wait_ready, 5)
            assert source.motion.moving is None and await source.motion.wait_still(0.1) is None
            events = source.motion.events()
            board.emulator.emit(MsgType.MOTION_STARTED, u32(1000))
            started = await asyncio.wait_for(anext(events), 3)
            waiter = asyncio.create_task(source.motion.wait_still(3))
            await asyncio.sleep(0.05)
            assert not waiter.done() and source.motion.moving is True
            board.emulator.emit(MsgType.MOTION_STOPPED, u32(1500))
            stopped = await waiter
            await events.aclose()
            return started, stopped
        finally:
            unsubscribe()
            await source.close()

    started, stopped = run(go())
    assert (started.moving, started.board_ms) == (True, 1000)
    assert (stopped.moving, stopped.board_ms) == (False, 1500) and stopped.at >= started.at
    assert [m.moving for m in seen] == [True, False]


def test_open_serial_source_needs_a_port():
    with pytest.raises(BoardError, match="serial needs a port"):
        open_serial_source("serial", "", argparse.Namespace(timeout=1, led=False, seed=None))


def test_check_with_the_emulated_board_from_the_command_line(capsys):
    code = main(["check", "opend6", "--code", "3D", "--difficulty", "10", "--source", "serial:emulator",
                 "--seed", "9", "--json", "--led", "--timeout", "10"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    first = result["faces"][0]
    assert result["system"] == "opend6" and len(result["faces"]) >= 3
    assert (first["role"], first["colour"]) == ("wild", "red") and "die_id" in first


def test_board_status_command(capsys):
    assert main(["board", "status", "--port", "emulator", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["board_id"] == "emulator" and report["protocol"] == "1.0"
    assert "faces" in report["capabilities"] and report["ping_ms"] > 0
    assert report["board"]["counters"]["rx_frames"] >= 2 and report["host"]["handshakes"] == 1
    assert main(["board", "status", "--port", "emulator"]) == 0
    assert "capabilities: button, motion, popper" in capsys.readouterr().out


def test_board_status_without_a_board_is_one_line(capsys, tmp_path):
    assert main(["board", "status", "--port", str(tmp_path / "ttyACM9"), "--timeout", "0.5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicetable: error: no handshake") and err.count("\n") == 1


def test_emulator_serves_until_interrupted(tmp_path):
    """``dicetable board emulate --link PATH`` serves a board other programs can open."""
    import signal
    import subprocess
    import sys

    link = tmp_path / "board"
    proc = subprocess.Popen([sys.executable, "-m", "reader", "board", "emulate", "--link", str(link)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == str(link)
        with SerialLink(str(link)) as remote:
            assert remote.open().board_id == "emulator"
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=5) == 0
    assert not link.exists()


def test_a_port_path_source_leaves_no_thread_behind(board: PtyBoard):
    before = threading.active_count()

    async def go():
        source = open_serial_source("serial", board.path, argparse.Namespace(timeout=5, led=False, seed=None))
        try:
            return await source.throw(DiceRequest((DieSpec(20),)))
        finally:
            await source.close()

    assert run(go()).faces[0].sides == 20
    assert threading.active_count() == before


def test_watch_motion_opens_a_feed_of_its_own(board: PtyBoard):
    from firmware_bridge.motion import watch_motion

    with watch_motion(board.path) as feed:
        board.emulator.emit(MsgType.MOTION_STARTED, u32(7))
        for _ in range(300):
            if feed.moving:
                break
            time.sleep(0.01)
        assert feed.moving is True and feed.last is not None and feed.last.board_ms == 7
