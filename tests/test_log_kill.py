"""The roll log survives SIGKILL at any instant: every acknowledged throw is there, intact."""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from reader.log.store import RollLog

REPO = Path(__file__).resolve().parents[1]

# Logs camera throws with a crop each, forever, printing "ack THROW_ID N" after each commit.
WRITER = """
import sys
import tempfile
from reader.log.store import RollLog
from rules.dice import DiceRequest, DieSpec, Face, Role, Throw
log = RollLog(sys.argv[1])
request = DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6), DieSpec(6)))
check = log.begin("check", "opend6", {"dice": 3})
n = int(sys.argv[2])
while True:
    faces = (Face(n % 6 + 1, 6, Role.WILD, "red", "w1"), Face(n // 6 % 6 + 1, 6, die_id="b1"), Face(3, 6))
    throw_id = log.append(Throw(faces, "camera", {"crops": [bytes([n % 256]) * 300, b"jpeg"]}), request, check)
    print("ack", throw_id, n, flush=True)
    n += 1
"""


def _run_and_kill(log_path: Path, acks_path: Path, first: int, rng: random.Random) -> list[tuple[int, int]]:
    with acks_path.open("w") as out:
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(log_path), str(first)], stdout=out,
                                  cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
        time.sleep(rng.uniform(0.25, 0.6))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    acks = []
    for line in acks_path.read_text().splitlines(keepends=True):
        if line.endswith("\n"):  # a line cut by the kill was never a complete acknowledgement
            _, throw_id, n = line.split()
            acks.append((int(throw_id), int(n)))
    return acks


def test_sigkill_at_random_moments_loses_no_acknowledged_throw(tmp_path: Path) -> None:
    rng = random.Random(7)
    # A kill (unlike a power cut) does not depend on fsync reaching the disk, so a RAM-backed folder
    # lets the writer commit thousands of throws in a few seconds with the same crash semantics.
    shm = Path("/dev/shm")
    work = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() and os.access(shm, os.W_OK) else tmp_path
    try:
        _kill_repeatedly(work, tmp_path, rng)
    finally:
        if work != tmp_path:
            shutil.rmtree(work, ignore_errors=True)


def _kill_repeatedly(work: Path, tmp_path: Path, rng: random.Random) -> None:
    log_path = work / "rolls.sqlite3"
    acked: list[tuple[int, int]] = []
    for round_ in range(6):
        acked += _run_and_kill(log_path, tmp_path / f"acks{round_}.txt", 100_000 * round_, rng)
    assert len(acked) > 1000, "the writer should have logged thousands of throws"
    with sqlite3.connect(log_path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with RollLog(log_path) as log:
        for throw_id, n in acked:
            logged = log.throw(throw_id)
            assert logged is not None, f"acknowledged throw {throw_id} is missing"
            assert [f["value"] for f in logged.faces] == [n % 6 + 1, n // 6 % 6 + 1, 3]
            assert logged.faces[0]["die_id"] == "w1" and logged.faces[0]["colour"] == "red"
            assert log.evidence_blob(throw_id, 0) == bytes([n % 256]) * 300
        # The log is still writable after the kills.
        assert log.begin("check") > 0
