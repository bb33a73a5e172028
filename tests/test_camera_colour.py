"""Die colours: the designated die is found under warm and cold light; grey and white never read red."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.colour import ColourCalibration, ColourProfile, load_colours, save_colours
from calibration.store import CalibrationError
from reader.camera.colour import ColourNames, bgr_to_lab, learn_profiles, saturation, table_reference
from reader.camera.reading import DieCandidate
from reader.camera.render import COLD, NEUTRAL, TABLES, WARM, DieLook, RenderDie, Scene, render, scatter

SIZE = (480, 270)
COLOURS = ("red", "white", "grey", "black", "blue", "green", "yellow", "orange", "purple", "black/red")


def _candidate(truth) -> DieCandidate:
    """What the die finder hands the namer: the box and the middle of the face (pips mostly excluded)."""
    x0, y0, x1, y1 = truth.box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    radius = int(min(x1 - x0, y1 - y0) * 0.3)
    cv2.circle(mask, (int(truth.centre[0] - x0), int(truth.centre[1] - y0)), radius, 255, -1)
    return DieCandidate(truth.box, truth.centre, np.zeros((4, 2), np.float32), np.zeros((0, 1, 2), np.int32), mask)


def _names(scene: Scene, namer: ColourNames) -> list[tuple[str, str]]:
    image, truth = render(scene)
    return [(t.colour, namer(image, _candidate(t), None)[0]) for t in truth]


DICE = scatter(len(COLOURS), SIZE, die_size=34, seed=5, colours=COLOURS)


def _calibration(table: tuple[int, int, int]) -> ColourCalibration:
    image, truth = render(Scene(dice=DICE, size=SIZE, table=table))
    table_bgr, profiles = learn_profiles(image, [_candidate(t) for t in truth], [t.colour for t in truth])
    return ColourCalibration(table_bgr, profiles)


@pytest.mark.parametrize("light", [NEUTRAL, WARM, COLD], ids=["neutral", "warm", "cold"])
@pytest.mark.parametrize("table", sorted(TABLES))
def test_calibrated_colours_survive_the_white_balance(table: str, light) -> None:
    namer = ColourNames(_calibration(TABLES[table]))
    named = _names(Scene(dice=DICE, size=SIZE, table=TABLES[table], light=light, seed=9, tilt=12), namer)
    assert [got for _, got in named] == [want for want, _ in named]


@pytest.mark.parametrize("light", [NEUTRAL, WARM, COLD], ids=["neutral", "warm", "cold"])
@pytest.mark.parametrize("table", ["grey", "dark"])
def test_uncalibrated_colours_use_a_neutral_table_as_white(table: str, light) -> None:
    named = _names(Scene(dice=DICE, size=SIZE, table=TABLES[table], light=light, seed=2), ColourNames())
    assert [got for _, got in named] == [want for want, _ in named]


@pytest.mark.parametrize("light", [WARM, COLD], ids=["warm", "cold"])
@pytest.mark.parametrize("table", ["felt", "wood"])
def test_uncalibrated_on_a_coloured_table_the_red_die_is_found_and_no_other(table: str, light) -> None:
    named = _names(Scene(dice=DICE, size=SIZE, table=TABLES[table], light=light, seed=4), ColourNames())
    assert [want for want, got in named if got == "red"] == ["red"]


@settings(max_examples=300, deadline=None)
@given(level=st.integers(15, 255), warmth=st.floats(0.8, 1.25), tint=st.floats(0.92, 1.08),
       table=st.sampled_from(sorted(TABLES)), calibrated=st.booleans())
def test_grey_and_white_never_read_red(level: int, warmth: float, tint: float, table: str, calibrated: bool) -> None:
    gains = np.array([1 / warmth, tint, warmth], np.float32)  # a light along the warm-cold axis, a green tint
    die = np.clip(np.full(3, level, np.float32) * gains, 0, 255)
    seen_table = np.clip(np.array(TABLES[table], np.float32) * gains, 0, 255)
    namer = ColourNames(ColourCalibration(TABLES[table], ()) if calibrated else None)
    name = namer.name_colour(die, seen_table)[0]
    assert name != "red"
    if calibrated or (table in ("grey", "dark") and 0.85 <= warmth <= 1.18):
        # the table gives the light's white balance back (uncalibrated: a grey table, a usual cast)
        assert name in {"white", "grey", "black"}


@settings(max_examples=200, deadline=None)
@given(level=st.integers(0, 255), table=st.integers(0, 255), calibrated=st.booleans())
def test_an_achromatic_die_on_a_grey_table_stays_achromatic(level: int, table: int, calibrated: bool) -> None:
    namer = ColourNames(ColourCalibration((table, table, table), ()) if calibrated else None)
    assert namer.name_colour(np.full(3, level, np.float32), np.full(3, table, np.float32))[0] in {
        "white", "grey", "black"}


def test_dark_dice_with_coloured_pips_are_named_by_their_body() -> None:
    dice = (RenderDie(2, "black/red", (100, 100), 40), RenderDie(5, "black/gold", (200, 100), 40))
    assert [got for _, got in _names(Scene(dice=dice, size=(300, 200)), ColourNames())] == ["black", "black"]


def test_a_calibrated_colour_outside_the_defaults_is_recognised() -> None:
    pink = DieLook((180, 120, 240), (30, 30, 30))
    dice = (RenderDie(3, "pink", (100, 100), 40, look=pink), RenderDie(4, "white", (200, 100), 40))
    image, truth = render(Scene(dice=dice, size=(300, 200), table=TABLES["felt"]))
    namer = ColourNames(ColourCalibration(*learn_profiles(image, [_candidate(t) for t in truth], ["pink", "white"])))
    assert "pink" in namer.known and "pink" not in ColourNames().known
    warm, truth = render(Scene(dice=dice, size=(300, 200), table=TABLES["felt"], light=WARM, seed=3))
    assert [namer(warm, _candidate(t), None)[0] for t in truth] == ["pink", "white"]


def test_table_reference_is_the_tables_colour() -> None:
    image, _ = render(Scene(dice=DICE, size=SIZE, table=TABLES["wood"], noise=0, grain=0))
    assert np.abs(table_reference(image) - np.array(TABLES["wood"])).max() < 12


def test_lab_and_saturation_helpers() -> None:
    assert bgr_to_lab((255, 255, 255)) == pytest.approx([100, 0, 0], abs=0.5)
    assert bgr_to_lab((0, 0, 255))[1] > 60  # red has a large positive a*
    assert saturation((0, 0, 0)) == 0 and saturation((0, 0, 200)) == 1 and saturation((100, 100, 100)) == 0


def test_profiles_round_trip_through_the_config_folder(dicetable_home) -> None:
    assert load_colours() is None
    profiles = (ColourProfile("red", (45.0, 60.0, 40.0), 0.8, 2), ColourProfile("white", (92.0, 0.5, 1.0), 0.02))
    path = save_colours((60.0, 100.0, 45.0), profiles)
    assert path.parent == dicetable_home
    loaded = load_colours()
    assert loaded is not None and loaded.profiles == profiles and loaded.table_bgr == (60.0, 100.0, 45.0)
    assert json.loads(path.read_text())["schema"] == 1
    assert ColourNames.load().known.count("red") == 1


@pytest.mark.parametrize("text", ["{}", '{"schema": 1, "table_bgr": [1, 2], "profiles": {}}',
                                  '{"schema": 1, "table_bgr": [1, 2, 3], "profiles": {"red": {"lab": "x"}}}',
                                  "not json"])
def test_a_malformed_calibration_is_a_clear_error(dicetable_home, text: str) -> None:
    dicetable_home.mkdir(parents=True, exist_ok=True)
    (dicetable_home / "colours.json").write_text(text)
    with pytest.raises(CalibrationError, match="colour"):
        load_colours()


def test_real_white_dice_on_a_wooden_table_are_never_red() -> None:
    """The shared webcam photos (white dice, light wooden table, uncalibrated light)."""
    from collections import Counter
    from pathlib import Path

    from reader.camera.frame_reader import read_frame

    photos = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "d6-webcam" / "valid"
    if not photos.is_dir():
        pytest.skip("shared/data/d6-webcam is not beside the repository")
    names: Counter[str] = Counter()
    namer = ColourNames()
    for path in sorted(photos.glob("*.jpg"))[::2]:
        names.update(r.colour for r in read_frame(cv2.imread(str(path)), namer))
    total = sum(names.values())
    assert total > 50 and names["red"] == 0
    assert names["white"] + names["grey"] >= 0.95 * total and names["white"] >= 0.75 * total


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([np.uint8, np.uint16, np.int32]), st.integers(1, 4), st.integers(0, 150), st.integers(0, 2**31 - 1))
def test_integer_medians_match_numpys(dtype, rows: int, count: int, seed: int) -> None:
    """The medians the colour code uses (radix-sorted for long rows) are numpy's medians,
    empty rows included."""
    from reader.camera.colour import medians

    values = np.random.default_rng(seed).integers(0, np.iinfo(dtype).max, (rows, count), endpoint=True).astype(dtype)
    got = medians(values)
    if count == 0:
        assert got.shape == (rows,) and np.isnan(got).all()
    else:
        assert np.array_equal(got, np.median(values, axis=-1))
