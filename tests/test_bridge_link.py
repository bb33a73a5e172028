"""The host link against the Python board emulator over real pseudo-terminals."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware_bridge.board import BoardProtocol
from firmware_bridge.codec import Frame, FrameDecoder, encode_frame
from firmware_bridge.emulator import BoardEmulator, PtyBoard
from firmware_bridge.link import (BoardEvent, BoardRejected, BoardUnavailable, SerialLink, UsbIdentity, find_port,
                                  open_port)
from firmware_bridge.messages import Capability, ErrorCode, Hello, Health, MsgType, NakCode, Shown


@pytest.fixture
def board() -> Iterator[PtyBoard]:
    pty = PtyBoard(BoardEmulator(seed=1))
    yield pty
    pty.close()


def until(condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_handshake_and_commands(board: PtyBoard):
    with SerialLink(board.path) as link:
        info = link.open()
        assert (info.major, info.board_id) == (1, "emulator")
        assert Capability.POPPER in info.capabilities and link.has(Capability.FACES)
        assert link.ping() < 0.5
        link.set_light(300)  # clamped to the byte
        link.show(Shown.CRITICAL_FAILURE)
        assert (board.emulator.light, board.emulator.shown) == (255, Shown.CRITICAL_FAILURE)
        with pytest.raises(BoardRejected) as bad:
            link.command(MsgType.SHOW_OUTCOME, b"\x07")
        assert bad.value.code == NakCode.BAD_PAYLOAD
        with pytest.raises(BoardRejected, match="0x2a: unknown_type"):
            link.command(0x2A)
        assert link.status().rx_unknown == 1


def test_events_reach_listeners_in_order_and_are_acknowledged(board: PtyBoard):
    got: list[BoardEvent] = []
    with SerialLink(board.path) as link:
        link.add_listener(got.append)
        link.open()
        for i in range(300):  # more than the 8-bit seq space: it wraps
            assert until(lambda: board.emulator.protocol.pending < board.emulator.protocol.window)
            assert board.emulator.emit(MsgType.HEALTH, Health(i).pack())
        assert until(lambda: len(got) == 300 and board.emulator.protocol.pending == 0)
    assert [Health.unpack(e.frame.payload).battery_mv for e in got] == list(range(300))
    assert [e.frame.seq for e in got] == [i & 0xFF for i in range(300)]


def test_a_retried_command_is_carried_out_once():
    """The board answers a repeated seq again without executing it (its ACK was lost)."""
    board = BoardProtocol(board_id="t", capabilities=Capability.POPPER, boot_id=1)
    runs: list[int] = []
    board.handlers[MsgType.TRIGGER_ROLL] = lambda frame: runs.append(frame.seq)
    board.receive(encode_frame(Frame(MsgType.HELLO, 1, Hello(77).pack())), 0.0)
    trigger = encode_frame(Frame(MsgType.TRIGGER_ROLL, 9))
    board.receive(trigger, 0.1)
    board.receive(trigger, 0.2)
    # the same host says HELLO again after a reconnect: the retry still is not carried out twice
    board.receive(encode_frame(Frame(MsgType.HELLO, 2, Hello(77).pack())), 0.3)
    board.receive(trigger, 0.4)
    answers = [f for f in FrameDecoder().feed(board.take_output()) if f.type == MsgType.ACK]
    assert runs == [9] and [a.seq for a in answers] == [9, 9, 9]
    # another host (another session) may use seq 9 for a new command
    board.receive(encode_frame(Frame(MsgType.HELLO, 3, Hello(78).pack())), 0.5)
    board.receive(trigger, 0.6)
    assert runs == [9, 9]


def test_the_board_skips_and_counts_unknown_messages():
    board = BoardProtocol(board_id="t", capabilities=Capability(0), boot_id=1)
    board.receive(encode_frame(Frame(MsgType.HELLO, 1, Hello(1).pack())), 0.0)
    board.take_output()
    for unknown in (0x55, 0x87, 0x9F):  # host-to-board unanswered range, board ranges
        board.receive(encode_frame(Frame(unknown, 3, b"xyz")), 0.1)
    assert board.take_output() == b"" and board.counters.rx_unknown == 3


def test_commands_before_hello_are_refused_not_ready():
    board = BoardProtocol(board_id="t", capabilities=Capability(0), boot_id=1)
    board.receive(encode_frame(Frame(MsgType.PING, 4)), 0.0)
    (answer,) = FrameDecoder().feed(board.take_output())
    assert (answer.type, answer.seq, answer.payload[0]) == (MsgType.NAK, 4, NakCode.NOT_READY)


def test_a_board_with_another_major_version_is_refused(board: PtyBoard, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("firmware_bridge.board.PROTO_MAJOR", 2)
    with SerialLink(board.path) as link, pytest.raises(BoardUnavailable, match="protocol 2.0"):
        link.open(timeout=3)


def test_a_rebooted_board_is_greeted_again_and_commands_go_on(board: PtyBoard):
    got: list[BoardEvent] = []
    with SerialLink(board.path) as link:
        link.add_listener(got.append)
        first = link.open()
        board.emulator.emit(MsgType.BUTTON, b"\x01")
        assert until(lambda: len(got) == 1)
        board.emulator.reboot()
        board.emulator.emit(MsgType.BUTTON, b"\x02")  # seq 0 again, in the new boot
        link.ping()  # NOT_READY, HELLO, then the PING again
        assert link.info is not None and link.info.boot_id != first.boot_id
        assert until(lambda: len(got) == 2)
        assert link.stats.board_reboots == 1 and link.stats.naks == 1
    assert [e.frame.payload for e in got] == [b"\x01", b"\x02"]


def test_heartbeats_keep_the_link_and_silence_brings_a_new_hello(board: PtyBoard):
    board.emulator.protocol.heartbeat_every = 0.1
    with SerialLink(board.path, silent_after=1.0) as link:
        link.open()
        time.sleep(1.5)
        assert link.stats.handshakes == 1 and link.ready
        board.emulator.reboot()  # a rebooted board stays silent until a host says HELLO
        board.emulator.protocol.heartbeat_every = 0.1
        assert until(lambda: link.stats.board_reboots == 1 and link.ready)
        assert link.stats.handshakes >= 2


def test_unplugged_and_replugged_no_event_lost_or_repeated(tmp_path: Path):
    pty = PtyBoard(BoardEmulator(seed=2), link=tmp_path / "board")
    got: list[int] = []
    try:
        with SerialLink(pty.path) as link:
            link.add_listener(lambda e: got.append(Health.unpack(e.frame.payload).battery_mv))
            link.open()
            for i in range(10):
                pty.emulator.emit(MsgType.HEALTH, Health(i).pack())
            pty.replug()
            for i in range(10, 20):
                pty.emulator.emit(MsgType.HEALTH, Health(i).pack())
            assert until(lambda: len(got) >= 20)
            time.sleep(0.3)
            assert link.stats.link_losses >= 1 and link.stats.board_reboots == 0
    finally:
        pty.close()
    assert got == list(range(20))


@dataclass
class FakePort:
    device: str
    vid: int | None = 0x2341
    pid: int | None = 0x0043
    serial_number: str | None = "A1B2"


def test_the_board_is_found_again_by_usb_identity_under_a_new_name():
    pty = PtyBoard(BoardEmulator(seed=3))
    ports = [FakePort(pty.path)]
    try:
        with SerialLink(pty.path, comports=lambda: ports) as link:
            link.open()
            first_device = link.device
            pty.replug()  # the old /dev/pts/N is gone, the board shows up elsewhere
            ports[:] = [FakePort("/dev/ttyS0", None, None, None), FakePort(pty.path)]
            assert until(lambda: link.ready and link.device == pty.path)
            assert link.device != first_device
            link.ping()
    finally:
        pty.close()


def test_usb_identity_selects_the_port():
    ports = [FakePort("/dev/ttyACM0", serial_number="OTHER"), FakePort("/dev/ttyACM1")]
    assert find_port(UsbIdentity.parse("2341:0043:A1B2"), lambda: ports) == "/dev/ttyACM1"
    assert find_port(UsbIdentity.parse("2341:0043"), lambda: ports) == "/dev/ttyACM0"
    assert find_port(UsbIdentity.parse("1a86:7523"), lambda: ports) is None
    with pytest.raises(BoardUnavailable, match="VID:PID"):
        UsbIdentity.parse("arduino")


def test_a_second_program_gets_a_clear_error(board: PtyBoard):
    with SerialLink(board.path) as first:
        first.open()
        with SerialLink(board.path) as second, pytest.raises(BoardUnavailable, match="in use by another program"):
            second.open(timeout=2)


def test_ports_open_without_dtr_rts_and_without_blocking():
    port = open_port("loop://")
    try:
        assert (port.dtr, port.rts, port.timeout) == (False, False, 0)
        assert port.read(10) == b""
    finally:
        port.close()


def test_a_full_window_drops_counts_and_reports_the_overflow():
    board = BoardProtocol(board_id="t", capabilities=Capability(0), boot_id=1, window=4)
    board.receive(encode_frame(Frame(MsgType.HELLO, 1, Hello(1).pack())), 0.0)
    sent = [board.emit(MsgType.BUTTON, bytes((i,)), 0.0) for i in range(6)]
    assert sent == [True] * 4 + [False] * 2 and board.counters.events_dropped == 2
    board.take_output()
    board.receive(encode_frame(Frame(MsgType.EVENT_ACK, 3)), 0.1)  # all four acknowledged
    (error,) = FrameDecoder().feed(board.take_output())
    assert (error.type, error.seq, error.payload) == (MsgType.ERROR, 4, bytes((ErrorCode.QUEUE_OVERFLOW, 2)))


def test_malformed_payloads_are_counted_and_the_link_goes_on(board: PtyBoard):
    from firmware_bridge.motion import MotionFeed

    feed = MotionFeed()
    got: list[BoardEvent] = []
    with SerialLink(board.path) as link:
        link.add_listener(feed.handle)
        link.add_listener(got.append)
        link.open()
        board.emulator.emit(MsgType.MOTION_STARTED, b"\x01")  # a board time needs 4 bytes
        board.emulator.emit(MsgType.BUTTON, b"\x03")
        assert until(lambda: len(got) == 2)
        assert link.stats.malformed == 1 and feed.moving is None
        assert link.ping() < 1


def test_an_acknowledgement_meant_for_the_previous_boot_is_ignored():
    board = BoardProtocol(board_id="t", capabilities=Capability(0), boot_id=2)
    board.emit(MsgType.BUTTON, b"\x02", 0.0)  # seq 0 of the new boot, not yet sent
    board.receive(encode_frame(Frame(MsgType.EVENT_ACK, 0)), 0.1)  # the host acknowledging the old boot's seq 0
    board.receive(encode_frame(Frame(MsgType.HELLO, 1, Hello(5).pack())), 0.2)
    frames = FrameDecoder().feed(board.take_output())
    assert [f.type for f in frames] == [MsgType.HELLO_REPLY, MsgType.BUTTON] and board.pending == 1
