"""``dicetable read``, ``dicetable demo`` and ``dicetable calibrate colours`` from the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import pytest

from calibration.colour import load_colours
from reader.camera.render import RenderDie, Scene, ThrowPlan, render, render_clip, write_video
from reader.cli import camera_cmds
from reader.cli.main import build_parser, main

SIZE = (640, 360)
WHITE = (RenderDie(3, "white", (180, 140), 46, 15), RenderDie(5, "white", (330, 220), 46, 50),
         RenderDie(2, "white", (470, 120), 46, 70))


def _photo(path: Path, dice=WHITE, **scene) -> list:
    image, truth = render(Scene(dice=dice, size=SIZE, **scene))
    cv2.imwrite(str(path), image)
    return truth


def _lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_read_prints_one_json_line_per_image_in_pixel_coordinates(tmp_path, capsys) -> None:
    truth = _photo(tmp_path / "table.png")
    assert main(["read", str(tmp_path / "table.png"), "--json"]) == 0
    (line,) = _lines(capsys.readouterr().out)
    assert line["image"] == str(tmp_path / "table.png")
    dice = sorted(line["dice"], key=lambda d: d["center"][0])
    assert [d["value"] for d in dice] == [3, 5, 2] and {d["colour"] for d in dice} == {"white"}
    for die, t in zip(dice, truth):
        assert abs(die["center"][0] - t.centre[0]) < 6 and abs(die["center"][1] - t.centre[1]) < 6
        x0, y0, x1, y1 = die["box"]
        assert x0 < t.centre[0] < x1 and y0 < t.centre[1] < y1


def test_read_checks_the_expected_number_of_dice(tmp_path, capsys) -> None:
    _photo(tmp_path / "table.png")
    assert main(["read", str(tmp_path / "table.png"), "--expect", "3d6", "--json"]) == 0
    (line,) = _lines(capsys.readouterr().out)
    assert "problem" not in line
    assert main(["read", str(tmp_path / "table.png"), "--expect", "4d6", "--json"]) == 0
    captured = capsys.readouterr()
    (line,) = _lines(captured.out)
    assert line["problem"] == "expected 4 dice, found 3"
    assert "expected 4 dice, found 3" in captured.err


def test_read_a_folder_and_annotate(tmp_path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    _photo(folder / "b.png")
    _photo(folder / "a.jpg", WHITE[:2])
    out_dir = tmp_path / "drawn"
    assert main(["read", f"camera:{folder}", "--json", "--annotate", str(out_dir)]) == 0
    lines = _lines(capsys.readouterr().out)
    assert [Path(line["image"]).name for line in lines] == ["a.jpg", "b.png"]
    assert [len(line["dice"]) for line in lines] == [2, 3]
    drawn = cv2.imread(lines[1]["annotated"])
    original = cv2.imread(str(folder / "b.png"))
    assert drawn.shape == original.shape and (drawn != original).any()
    x0, y0, x1, _ = lines[1]["dice"][0]["box"]
    assert (drawn[y0, x0:x1] != original[y0, x0:x1]).any()  # the box is drawn where the die is


def test_read_a_video_prints_each_settled_throw_once(tmp_path, capsys) -> None:
    more = (RenderDie(6, "white", (560, 280), 46, 30),)
    frames, throws = render_clip(Scene(size=SIZE, seed=5), [ThrowPlan(WHITE, roll=0.6, rest=0.6),
                                                           ThrowPlan(more, roll=0.5, rest=0.6)], fps=15, lead=0.3)
    write_video(str(tmp_path / "throws.avi"), frames, 15)
    assert main(["read", str(tmp_path / "throws.avi"), "--json"]) == 0
    lines = _lines(capsys.readouterr().out)
    assert [len(line["dice"]) for line in lines] == [3, 4]
    for line, throw in zip(lines, throws):
        assert throw.rest_time <= line["time"] <= throw.rest_time + 0.3 + 1 / 15


def test_read_human_output(tmp_path, capsys) -> None:
    _photo(tmp_path / "t.png")
    assert main(["read", str(tmp_path / "t.png")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{tmp_path / 't.png'}: 3 dice:") and out.count("(white)") == 3


@pytest.mark.parametrize("argv", [["read", "/no/such/photo.png"], ["read", "camera:9"],
                                  ["check", "opend6", "--code", "3D", "--difficulty", "10", "--source", "camera:9"],
                                  ["check", "opend6", "--code", "3D", "--difficulty", "10", "--source",
                                   "camera:/no/such/clip.avi"],
                                  ["read", "--expect", "d7", "PLACEHOLDER"]])
def test_missing_inputs_are_one_line_and_exit_2(argv, tmp_path, capsys) -> None:
    _photo(tmp_path / "t.png")
    argv = [str(tmp_path / "t.png") if a == "PLACEHOLDER" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dicetable: error:")


def test_an_unreadable_video_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    (tmp_path / "broken.avi").write_bytes(b"not a video at all")
    assert main(["read", str(tmp_path / "broken.avi")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "broken.avi" in err


def test_the_demo_clip_ships_with_the_package() -> None:
    clip = camera_cmds.DEMO_CLIP
    assert clip.exists() and clip.stat().st_size < 2_000_000
    assert (clip.parent / "__init__.py").exists()  # a package, so setuptools ships its *.avi
    assert (clip.parent / "make_clip.py").exists()
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert '"*.avi"' in pyproject


def test_demo_runs_the_whole_path_with_an_exploding_wild_die(capsys) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "motion (dice rolling" in out and "settled: reading the dice" in out
    assert "throw wild d6 (red) + 3d6" in out and "wild die again" in out
    assert "total 21 vs 15" in out and "SUCCESS" in out


def test_calibrate_colours_learns_the_dice_left_to_right(tmp_path, capsys) -> None:
    dice = (RenderDie(3, "white", (150, 180), 46, 15), RenderDie(5, "yellow", (320, 170), 46, 30),
            RenderDie(4, "blue", (490, 190), 46, 60))
    _photo(tmp_path / "row.png", dice)
    assert main(["calibrate", "colours", "white", "yellow", "blue", "--source", str(tmp_path / "row.png")]) == 0
    assert "saved 3 colours" in capsys.readouterr().out
    stored = load_colours()
    assert stored is not None
    profiles = {p.name: p for p in stored.profiles}
    assert sorted(profiles) == ["blue", "white", "yellow"]
    white, yellow, blue = profiles["white"], profiles["yellow"], profiles["blue"]
    assert white.saturation < 0.2 < blue.saturation and yellow.lab[2] > 40 and blue.lab[2] < -20


def test_calibrate_colours_refuses_a_wrong_count(tmp_path, capsys) -> None:
    _photo(tmp_path / "row.png")
    assert main(["calibrate", "colours", "red", "white", "--source", str(tmp_path / "row.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "named 2 dice" in err and "see 3" in err and load_colours() is None


def test_other_modules_can_add_calibrate_subcommands(capsys) -> None:
    def register_lens(subs: argparse._SubParsersAction) -> None:
        lens = subs.add_parser("lens", help="learn the lens distortion")
        lens.set_defaults(run=lambda args: print("lens calibrated") or 0)

    camera_cmds.add_calibrate_command(register_lens)
    try:
        args = build_parser().parse_args(["calibrate", "lens"])
        assert args.run(args) == 0 and capsys.readouterr().out == "lens calibrated\n"
    finally:
        camera_cmds.CALIBRATE_COMMANDS.remove(register_lens)
    assert "faces" in build_parser().parse_args(["calibrate", "faces", "--die", "d20"]).what
