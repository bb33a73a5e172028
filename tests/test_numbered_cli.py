"""The numbered reader through the command line: calibrate faces, read --expect, check and roll from the camera."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from calibration.faces import SHOWN
from reader.camera.render_numbered import NumberedLook, PlacedDie, render_table
from reader.cli.main import main

BLUE = NumberedLook((200, 120, 30), (25, 25, 25), weight=3, mark="dot")
RED = NumberedLook((40, 40, 190), (235, 235, 235), weight=3)


def _teach(tmp_path: Path, kind: str, look: NumberedLook) -> None:
    for shown in SHOWN[kind]:
        folder = tmp_path / kind / str(shown)
        folder.mkdir(parents=True)
        cv2.imwrite(str(folder / "view.png"), render_table([PlacedDie(kind, shown, look, 640, 360, 0.0, 110.0)],
                                                          seed=shown))
    assert main(["calibrate", "faces", "--die", kind, "--from", str(tmp_path / kind)]) == 0


def test_read_expect_reports_sides_and_value_of_every_numbered_die(tmp_path: Path, capsys) -> None:
    _teach(tmp_path, "d00", BLUE)
    _teach(tmp_path, "d10", RED)
    throw = tmp_path / "throw.png"
    cv2.imwrite(str(throw), render_table([PlacedDie("d00", 30, BLUE, 400, 300, 180.0, 110.0),
                                          PlacedDie("d10", 0, RED, 900, 400, 120.0, 110.0)], seed=3))
    capsys.readouterr()
    assert main(["read", "--expect", "2d10", str(throw), "--json"]) == 0
    (line,) = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    dice = sorted(line["dice"], key=lambda d: d["center"][0])
    assert [(d["sides"], d["value"], d["status"]) for d in dice] == [(10, 3, "ok"), (10, 10, "ok")]
    assert [d["shape"] for d in dice] == ["kite", "kite"] and "problem" not in line
    assert main(["roll", "d%", "--tens", "blue", "--source", f"camera:{throw}", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == 30  # tens 30 and units 0


def test_reading_a_kind_nobody_taught_is_a_clear_error(tmp_path: Path, capsys) -> None:
    photo = tmp_path / "d12.png"
    cv2.imwrite(str(photo), render_table([PlacedDie("d12", 4, RED, 500, 300)]))
    assert main(["read", "--expect", "d12", str(photo)]) == 2
    assert "calibrate faces --die d12" in capsys.readouterr().err
