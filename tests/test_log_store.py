"""The roll log: what is stored, how it is read back, and how the command line fills and shows it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from reader.cli.main import main
from reader.log.since import SinceError, parse_since
from reader.log.store import LOG_NAME, RollLog
from rules.dice import DiceRequest, DieSpec, Face, Role, Throw

REQUEST = DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6)), "check")


def camera_throw(wild: int, plain: int) -> Throw:
    faces = (Face(wild, 6, Role.WILD, "red", confidence=0.97), Face(plain, 6, colour="white"))
    return Throw(faces, "camera", {"crops": [b"\xff\xd8jpeg-wild", b"\xff\xd8jpeg-plain"], "frame": 412})


def test_throws_keep_faces_request_and_evidence(tmp_path: Path) -> None:
    with RollLog(tmp_path / "log.sqlite3") as log:
        check = log.begin("check", "opend6", {"code": "2D"})
        first = log.append(camera_throw(6, 2), REQUEST, check)
        smart = Throw((Face(4, 6, die_id="PX-1", colour="blue"),), "pixels", {"events": [b"\x03\x04\x00"]})
        log.append(smart, DiceRequest((DieSpec(6),), "wild die again"), check)
        log.finish(check, {"outcome": "success", "total": 12, "difficulty": 10})
        [entry] = log.checks()
    assert entry.result["total"] == 12 and entry.params == {"code": "2D"}
    camera, pixels = entry.throws
    assert [f["value"] for f in camera.faces] == [6, 2] and camera.faces[0]["role"] == "wild"
    assert camera.faces[0]["colour"] == "red" and camera.faces[0]["confidence"] == 0.97
    assert camera.request["dice"][0] == {"sides": 6, "role": "wild", "colour": "red"}
    assert camera.evidence["frame"] == 412 and camera.evidence["crops"][1] == {"blob": 1, "bytes": len(b"\xff\xd8jpeg-plain")}
    with RollLog(tmp_path / "log.sqlite3") as log:
        assert log.evidence_blob(first, 1) == b"\xff\xd8jpeg-plain"
        assert log.evidence_blob(pixels.id, 0) == b"\x03\x04\x00"
    assert pixels.faces[0]["die_id"] == "PX-1"


def test_log_uses_wal_and_full_sync(tmp_path: Path) -> None:
    with RollLog(tmp_path / "log.sqlite3") as log:
        assert log._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert log._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_secret_checks_are_hidden_unless_asked(tmp_path: Path) -> None:
    with RollLog(tmp_path / "log.sqlite3") as log:
        open_check = log.begin("check", "osr")
        secret = log.begin("check", "osr", secret=True)
        for check in (open_check, secret):
            log.append(camera_throw(3, 3), REQUEST, check)
            log.finish(check, {"outcome": "success"})
        assert [c.id for c in log.checks()] == [open_check]
        assert [c.secret for c in log.checks(secret=True)] == [False, True]


def test_since_filters_by_time(tmp_path: Path) -> None:
    with RollLog(tmp_path / "log.sqlite3") as log:
        log.append(camera_throw(1, 1), REQUEST)
        assert len(log.checks(since=time.time() - 60)) == 1
        assert log.checks(since=time.time() + 60) == []


def test_parse_since() -> None:
    now = 1_000_000.0
    assert parse_since("2h", now) == now - 7200
    assert parse_since("30m", now) == now - 1800
    assert parse_since("2026-11-21T12:00+00:00") == 1795262400.0
    with pytest.raises(SinceError):
        parse_since("yesterday-ish")


def test_every_cli_throw_is_logged_scripted_marked(dicetable_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "opend6", "--code", "2D", "--difficulty", "9", "--faces", "6,2,4"]) == 0
    assert main(["check", "d6pool", "--dice", "2", "--difficulty", "7", "--seed", "3"]) == 0
    capsys.readouterr()
    assert main(["log", "--json"]) == 0
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert [c["system"] for c in checks] == ["opend6", "d6pool"]
    scripted, virtual = checks
    assert [t["scripted"] for t in scripted["throws"]] == [True, True]
    assert [t["request"]["purpose"] for t in scripted["throws"]] == ["check", "wild die again"]
    assert scripted["result"]["outcome"] == "critical_success" and scripted["params"]["code"] == {"dice": 2, "pips": 0}
    assert virtual["throws"][0]["source"] == "virtual" and not virtual["throws"][0]["scripted"]
    assert (dicetable_home / LOG_NAME).exists()


def test_log_option_chooses_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "elsewhere.sqlite3"
    main(["check", "d20", "--difficulty", "10", "--faces", "12", "--log", str(path)])
    capsys.readouterr()
    main(["log", "--log", str(path)])
    out = capsys.readouterr().out
    assert "check d20  SUCCESS: total 12 vs 10" in out and "[scripted]" in out


def test_a_refused_throw_is_still_logged(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "d20", "--difficulty", "10", "--faces", "25"]) == 2
    capsys.readouterr()
    main(["log", "--json"])
    [check] = json.loads(capsys.readouterr().out)["checks"]
    assert check["result"] is None  # the scripted face 25 never reached a d20; nothing resolved


def test_secret_cli_rolls_are_marked_and_hidden(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "osr", "--ability", "2", "--secret", "--faces", "15"])
    main(["check", "osr", "--ability", "2", "--faces", "4"])
    capsys.readouterr()
    main(["log"])
    out = capsys.readouterr().out
    assert "[secret]" not in out and "1 secret roll(s) hidden" in out
    main(["log", "--secret", "--json"])
    checks = json.loads(capsys.readouterr().out)["checks"]
    secret = [c for c in checks if c["secret"]]
    assert len(secret) == 1 and secret[0]["result"]["total"] == 17  # the hidden result is logged in full
