"""The real reference firmware, built with avr-gcc and run in qemu-system-avr, over a pty.

Skips (saying what to install) only when avr-gcc, make or qemu-system-avr is missing.
QEMU pitfalls handled here: the firmware is built with NO_SLEEP (qemu-system-avr 7.2 never
wakes the CPU from SLEEP), QEMU drops what the board sends while no program has the pty
open (the host speaks first and repeats HELLO), and there is no ADC, EEPROM or GPIO model
(the battery reads as USB power, the boot id is 1, the pins stay low).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.link import BoardEvent, BoardRejected, SerialLink
from firmware_bridge.messages import Capability, DieFace, MsgType, NakCode, Shown
from firmware_bridge.motion import MotionFeed
from reader.cli.main import main

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware_bridge" / "firmware"
TOOLS = ("avr-gcc", "avr-objcopy", "make", "qemu-system-avr")
MISSING = [tool for tool in TOOLS if shutil.which(tool) is None]

pytestmark = pytest.mark.skipif(
    bool(MISSING), reason=f"{', '.join(MISSING)} not installed: apt-get install gcc-avr avr-libc make qemu-system-misc")


def build(out: Path, *flags: str) -> Path:
    """``make`` the firmware into ``out`` (never into the source tree); returns the ELF."""
    subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={out}", *flags], check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def elf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("avr")
    build(out)  # the production build (sleeping, no test hook) must compile too
    assert (out / "dicetable.hex").stat().st_size > 0
    build(out, "TEST_HOOK=1", "NO_SLEEP=1")
    return out / "dicetable-test-nosleep.elf"


@pytest.fixture(scope="module")
def qemu_pty(elf: Path) -> Iterator[str]:
    proc = subprocess.Popen(["qemu-system-avr", "-machine", "uno", "-bios", str(elf), "-nographic",
                             "-serial", "pty", "-monitor", "none"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"(/dev/pts/\d+)", line)
        assert match, f"qemu did not print its pty: {line!r}"
        yield match.group(1)
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def link(qemu_pty: str) -> Iterator[SerialLink]:
    with SerialLink(qemu_pty, command_timeout=0.5) as link:
        link.open(timeout=10)
        yield link


def test_handshake_reports_the_reference_board(link: SerialLink):
    info = link.info
    assert info is not None
    assert (info.major, info.board_id, info.firmware) == (1, "uno-ref", (1, 0, 0))
    for cap in (Capability.BUTTON, Capability.MOTION, Capability.POPPER, Capability.LIGHT, Capability.OUTCOME,
                Capability.TEST_HOOK, Capability.FACES):
        assert cap in info.capabilities
    status = link.status()
    assert status.health.flags & 4  # no battery on A0 under QEMU: USB power
    assert status.rx_frames >= 2 and status.rx_errors == 0


def test_commands_are_acked_and_bad_ones_refused(link: SerialLink):
    before = link.status().rx_unknown
    assert link.ping() < 1.0
    link.set_light(128)
    link.show(Shown.CRITICAL_SUCCESS)
    link.show(Shown.IDLE)
    with pytest.raises(BoardRejected) as unknown:
        link.command(0x2A)
    assert unknown.value.code == NakCode.UNKNOWN_TYPE
    with pytest.raises(BoardRejected) as bad:
        link.command(MsgType.SHOW_OUTCOME, b"\x09")
    assert bad.value.code == NakCode.BAD_PAYLOAD
    assert link.status().rx_unknown == before + 1
    assert link.stats.naks == 2


def test_injected_events_arrive_in_order_once(link: SerialLink):
    got: list[BoardEvent] = []
    motion = MotionFeed()
    link.add_listener(got.append)
    link.add_listener(motion.handle)
    link.inject(MsgType.BUTTON, b"\x00")
    link.inject(MsgType.MOTION_STARTED, b"\x00\x00\x01\x00")
    link.inject(MsgType.MOTION_STOPPED, b"\x00\x00\x02\x00")
    link.inject(0xBE, b"future")  # an event type this host does not know: counted and skipped
    link.inject(MsgType.ERROR, b"\x02\x07")
    deadline = time.monotonic() + 3
    while len(got) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [e.type for e in got] == [MsgType.BUTTON, MsgType.MOTION_STARTED, MsgType.MOTION_STOPPED, MsgType.ERROR]
    assert motion.moving is False and motion.last is not None and motion.last.board_ms == 0x200
    assert link.stats.unknown == 1
    seqs = [e.frame.seq for e in got]
    assert seqs == sorted(seqs) and len(set(seqs)) == 4


def test_a_check_resolved_from_the_firmware_through_the_command_line(qemu_pty: str, link: SerialLink, capsys):
    # arm the board: at the next TRIGGER_ROLL it reports these four faces (the red wild die third)
    faces = [(6, "white", 4), (6, "white", 2), (6, "red", 5), (6, "white", 5)]
    for i, (sides, colour, value) in enumerate(faces):
        link.inject(MsgType.DIE_FACE, DieFace(42, i, 4, 10 + i, sides, value, colour).pack(), at_next_roll=True)
    link.close()
    code = main(["check", "opend6", "--code", "4D+1", "--difficulty", "15", "--timeout", "20",
                 "--source", f"serial:{qemu_pty}", "--json", "--led"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert (result["total"], result["success"], result["margin"]) == (17, True, 2)
    wild = result["faces"][0]
    assert (wild["role"], wild["value"], wild["colour"], wild["die_id"]) == ("wild", 5, "red", "12")
    assert [f["value"] for f in result["faces"][1:]] == [4, 2, 5]
