"""The camera dice source: settled throws in, checked and ordered faces out, problems said and waited out."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from reader.camera.colour import ColourNames
from reader.camera.reading import DieReading, ReadStatus
from reader.camera.render import WARM, ClipThrow, RenderDie, Scene, ThrowPlan, render, render_clip, write_video
from reader.camera.source import CameraSource, match_request
from reader.camera.video import InputError, open_input
from reader.cli.main import build_parser, main
from rules.dice import DiceRequest, DieSpec, Role, requested
from rules.notation import parse_die_code
from rules.opend6 import OpenD6Check, resolve_check
from rules.protocol import drive_async

SIZE = (640, 360)
DIE = 44.0
WILD_SIX = (RenderDie(6, "red", (210, 150), DIE, 12), RenderDie(3, "white", (340, 110), DIE, 33),
            RenderDie(5, "white", (440, 230), DIE, 58), RenderDie(2, "white", (270, 265), DIE, 77))
WILD_AGAIN = (RenderDie(4, "red", (500, 115), DIE, 24),)
WILD_FOUR = (replace(WILD_SIX[0], value=4), *WILD_SIX[1:])


def _reading(value: int | None, colour: str, x: float, y: float = 100.0) -> DieReading:
    ok = value is not None
    return DieReading(value, 6, colour, (x, y), (int(x) - 20, int(y) - 20, int(x) + 20, int(y) + 20), 0.9,
                      ReadStatus.OK if ok else ReadStatus.UNREADABLE, None if ok else "cocked")


WILD_CHECK = DiceRequest((DieSpec(6, Role.WILD, "red"), *requested(6, 3)))


def test_designated_dice_come_first_whatever_their_place() -> None:
    readings = [_reading(2, "white", 50), _reading(5, "blue", 150), _reading(6, "red", 250), _reading(1, "white", 350)]
    verdict = match_request(WILD_CHECK, readings)
    assert verdict.problem is None and verdict.throw is not None
    faces = verdict.throw.faces
    assert [(f.value, f.role, f.colour) for f in faces] == [
        (6, Role.WILD, "red"), (2, None, "white"), (5, None, "blue"), (1, None, "white")]
    assert [r.center[0] for r in verdict.dice] == [250, 50, 150, 350]


def test_a_wrong_count_is_said_not_resolved() -> None:
    verdict = match_request(WILD_CHECK, [_reading(6, "red", 50), _reading(3, "white", 150)], left=2)
    assert verdict.throw is None
    assert "expected 4 dice" in verdict.problem and "see 2" in verdict.problem and "2 left" in verdict.problem


def test_two_dice_of_the_wild_colour_are_refused() -> None:
    readings = [_reading(6, "red", 50), _reading(3, "red", 150), _reading(2, "white", 250), _reading(1, "white", 350)]
    verdict = match_request(WILD_CHECK, readings)
    assert verdict.throw is None and "expected 1 red" in verdict.problem and "see 2" in verdict.problem


def test_an_unreadable_die_is_reported_with_its_reason() -> None:
    readings = [_reading(6, "red", 50), _reading(None, "white", 150), _reading(2, "white", 250),
                _reading(1, "white", 350)]
    verdict = match_request(WILD_CHECK, readings)
    assert verdict.throw is None and "cocked" in verdict.problem and "white" in verdict.problem


def test_designated_dice_without_a_colour_are_refused_rather_than_guessed() -> None:
    from reader.camera.source import require_colours
    from rules.errors import ThrowMismatch

    require_colours(WILD_CHECK)
    require_colours(DiceRequest(requested(6, 2, Role.BONUS_WILD)))  # all alike: any order is right
    require_colours(DiceRequest((DieSpec(10, Role.TENS, "blue"), DieSpec(10, Role.UNITS))))  # the other one
    with pytest.raises(ThrowMismatch, match="tens"):
        require_colours(DiceRequest((DieSpec(10, Role.TENS), DieSpec(10, Role.UNITS))))
    with pytest.raises(ThrowMismatch, match="bonus_wild"):
        require_colours(DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6, Role.BONUS_WILD), DieSpec(6))))


class TruthReader:
    """Stand-in for the vision core in logic tests: finds dice as blobs off the table colour and
    takes their faces from the renderer's ground truth (nearest centre)."""

    def __init__(self, throws: list[ClipThrow]) -> None:
        self.truth = [t for throw in throws for t in throw.on_table]

    def __call__(self, image: np.ndarray, namer) -> list[DieReading]:
        table = np.median(image.reshape(-1, 3), axis=0)
        mask = (np.abs(image.astype(int) - table).max(axis=2) > 60).astype(np.uint8)
        count, _, stats, centres = cv2.connectedComponentsWithStats(mask)
        readings = []
        for i in range(1, count):
            x, y, w, h, area = stats[i]
            if area < DIE * DIE * 0.4:
                continue
            cx, cy = centres[i]
            t = min(self.truth, key=lambda t: (t.centre[0] - cx) ** 2 + (t.centre[1] - cy) ** 2)
            readings.append(DieReading(t.value, 6, t.colour, t.centre, t.box, 0.95, ReadStatus.OK, None))
        return readings


def _clip(plans: list[ThrowPlan], path: Path | None = None, **scene) -> tuple[list, list[ClipThrow]]:
    frames, throws = render_clip(Scene(size=SIZE, seed=11, **scene), plans, fps=15, lead=0.4)
    if path is not None:
        write_video(str(path), frames, 15)
    return frames, throws


@pytest.fixture(scope="module")
def exploding(tmp_path_factory) -> tuple[Path, list[ClipThrow]]:
    path = tmp_path_factory.mktemp("clips") / "wild.avi"
    _, throws = _clip([ThrowPlan(WILD_SIX, roll=0.7, rest=0.8),
                       ThrowPlan(WILD_AGAIN, roll=0.6, rest=0.8, hand=0.5, remove=(0,))], path)
    return path, throws


def _check(source: CameraSource, code: str = "4D+1", difficulty: int = 15):
    from reader.cli.sources import designate

    options = build_parser().parse_args(["check", "opend6", "--code", code, "--difficulty", str(difficulty),
                                         "--source", "camera:clip.avi", "--wild", "red"])

    async def run():
        try:
            return await drive_async(resolve_check(OpenD6Check(parse_die_code(code), difficulty)),
                                     lambda request: source.throw(designate(request, options)))
        finally:
            await source.close()
    return asyncio.run(run())


def test_the_wild_die_explodes_and_is_read_alone_while_the_others_stay(exploding) -> None:
    path, throws = exploding
    said: list[str] = []
    source = CameraSource(open_input(str(path)), ColourNames(), reader=TruthReader(throws), notify=said.append)
    result = _check(source)
    assert [f.value for f in result.faces if f.role is Role.WILD] == [6, 4]
    assert sorted(f.value for f in result.faces if f.role is None) == [2, 3, 5]
    assert result.total == 6 + 4 + 3 + 5 + 2 + 1
    assert said[0].startswith("throw wild d6 (red) + 3d6") and "wild d6 (red)" in said[1]
    assert len(said) == 2  # no complaint: the white dice left lying are not part of the second throw


def test_evidence_holds_each_dies_reading_and_crop(exploding) -> None:
    path, throws = exploding
    source = CameraSource(open_input(str(path)), ColourNames(), reader=TruthReader(throws), notify=lambda _: None)
    request = DiceRequest((DieSpec(6, Role.WILD, "red"), *requested(6, 3)))
    throw = asyncio.run(source.throw(request))
    camera = throw.evidence["camera"]
    assert [d["value"] for d in camera["dice"]] == list(throw.values)
    assert camera["time"] >= throws[0].rest_time
    crop = cv2.imdecode(np.frombuffer(camera["crops_jpeg"][0], np.uint8), cv2.IMREAD_COLOR)
    assert crop is not None and max(crop.shape[:2]) <= 96
    assert crop[..., 2].mean() > crop[..., 1].mean()  # the wild die's crop is red


def test_a_missing_die_is_said_and_the_fixed_throw_is_read(tmp_path) -> None:
    extra = (RenderDie(1, "white", (560, 290), DIE, 5),)
    frames, throws = _clip([ThrowPlan(WILD_FOUR[:3], roll=0.6, rest=0.6), ThrowPlan(extra, roll=0.5, rest=0.6)])
    path = tmp_path / "fix.avi"
    write_video(str(path), frames, 15)
    said: list[str] = []
    source = CameraSource(open_input(str(path)), ColourNames(), reader=TruthReader(throws), notify=said.append)
    result = _check(source)
    assert said[1].count("\n") == 0 and "expected 4 dice" in said[1] and "see 3" in said[1]
    assert [f.value for f in result.faces] == [4, 3, 5, 1]  # wild first, then left to right


def test_a_clip_that_ends_first_is_a_clear_error(exploding) -> None:
    path, throws = exploding
    source = CameraSource(open_input(str(path)), ColourNames(), reader=TruthReader(throws), notify=lambda _: None)
    request = DiceRequest(requested(6, 5))
    with pytest.raises(InputError, match="ended before a throw of 5d6"):
        asyncio.run(source.throw(request))


def test_check_resolves_end_to_end_from_a_clip(exploding, capsys) -> None:
    path, _ = exploding
    code = main(["check", "opend6", "--code", "4D+1", "--difficulty", "15", "--source", f"camera:{path}",
                 "--wild", "red", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    wild = [f for f in result["faces"] if f["role"] == "wild"]
    assert [f["value"] for f in wild] == [6, 4] and {f["colour"] for f in wild} == {"red"}
    assert sorted(f["value"] for f in result["faces"] if f["role"] is None) == [2, 3, 5]
    assert result["total"] == 21 and result["success"] is True


def test_check_reads_a_warm_oblique_table_end_to_end(tmp_path, capsys) -> None:
    dice = (RenderDie(3, "red", (220, 170), DIE, 20), RenderDie(5, "white", (360, 140), DIE, 40),
            RenderDie(2, "white", (450, 250), DIE, 65))
    _clip([ThrowPlan(dice, roll=0.6, rest=0.6)], tmp_path / "warm.avi", light=WARM, tilt=12)
    code = main(["check", "opend6", "--code", "3D", "--difficulty", "10", "--source",
                 f"camera:{tmp_path / 'warm.avi'}", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [f["value"] for f in json.loads(out)["faces"]] == [3, 5, 2]


def test_a_folder_of_photos_is_read_photo_by_photo(tmp_path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    three, _ = render(Scene(dice=WILD_FOUR[:3], size=SIZE))
    four, _ = render(Scene(dice=WILD_FOUR, size=SIZE, seed=2))
    cv2.imwrite(str(folder / "a.png"), three)
    cv2.imwrite(str(folder / "b.png"), four)
    code = main(["check", "opend6", "--code", "4D", "--difficulty", "10", "--source", f"camera:{folder}", "--json"])
    out, err = capsys.readouterr()
    problems = [line for line in err.splitlines() if "expected 4 dice" in line]
    assert len(problems) == 1 and "see 3" in problems[0] and "a.png" not in out
    assert code == 0, err
    assert [f["value"] for f in json.loads(out)["faces"]] == [4, 3, 5, 2]


def test_an_unknown_wild_colour_is_refused_at_once(exploding, capsys) -> None:
    path, _ = exploding
    code = main(["check", "opend6", "--code", "4D", "--difficulty", "10", "--source", f"camera:{path}",
                 "--wild", "crimson"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "crimson" in err and "calibrate" in err
