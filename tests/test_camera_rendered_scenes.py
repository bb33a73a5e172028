"""The d6 reader on rendered table scenes: dice as cubes whose side faces show pips too,
touching one another, seen straight down and obliquely.

These scenes stand for tables, lights and dice the shared photos do not show; the figures
for many random scenes come from ``bench/render_labelled.py`` and ``bench/camera_accuracy.py``.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.reading import DieReading, ReadStatus
from reader.camera.render import DARK_LOOKS, LOOKS, TABLES, RenderDie, Scene, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from camera_accuracy import Tally, evaluate, load_folder  # noqa: E402
from render_labelled import main as render_labelled  # noqa: E402

SIZE = 60.0


def _reading_near(readings: list[DieReading], centre: tuple[float, float]) -> DieReading | None:
    near = [r for r in readings if math.dist(r.center, centre) < SIZE / 2]
    assert len(near) <= 1, near
    return near[0] if near else None


def _touching(first: int, second: int, across: bool, angle: float = 20.0) -> tuple[RenderDie, RenderDie]:
    """Two white dice whose faces meet, side by side across the view or one behind the other
    (the renderer turns dice anticlockwise, with the table's y axis pointing down)."""
    step = math.radians(angle if across else angle + 90)
    x, y = 640.0, 360.0
    return (RenderDie(first, "white", (x, y), SIZE, angle),
            RenderDie(second, "white", (x + SIZE * math.cos(step), y - SIZE * math.sin(step)), SIZE, angle))


@pytest.mark.parametrize("values", [(1, 5), (3, 3), (2, 6), (4, 1), (6, 6)])
@pytest.mark.parametrize("across", [True, False])
def test_touching_dice_seen_from_above_are_both_read(values: tuple[int, int], across: bool) -> None:
    """No seam need show between two dice whose faces meet: their pips form two faces."""
    dice = _touching(*values, across)
    image, truths = render(Scene(dice=dice, table=TABLES["wood"], tilt=0.0, seed=sum(values)))
    readings = read_frame(image)
    for truth in truths:
        got = _reading_near(readings, truth.centre)
        assert got is not None and (got.status, got.value) == (ReadStatus.OK, truth.value), (truth, readings)
    assert len(readings) == 2, readings


@pytest.mark.parametrize(("values", "colour", "turn"),
                         [(values, colour, 45.0) for values in [(2, 5), (3, 5), (2, 4), (3, 4), (2, 6), (3, 6)]
                          for colour in ["black", "black/gold"]]
                         + [((3, 4), "black/gold", 30.0), ((3, 6), "black/gold", 30.0)])
def test_touching_dark_dice_one_turned_against_the_other_are_both_read(values: tuple[int, int], colour: str,
                                                                        turn: float) -> None:
    """A die turned against its neighbour, its corner against the other's side beside a
    pip: no seam shows between two black bodies, and the nearest pips of the two lie closer,
    in either face's units, than those of dice square to each other. At 30 degrees the 3's
    pip nearest the other die, apart from its own face's others under a highlight, is
    linked with that die's face instead."""
    first, second = values
    look = replace({**LOOKS, **DARK_LOOKS}[colour], pip_radius=0.07)
    t = math.radians(turn)
    reach = SIZE / 2 * (1 + math.cos(t) + math.sin(t))  # the centres of a side and a corner that meet
    along = (-0.3 if first == 2 else 0.3) * SIZE  # beside the first die's corner pip
    dice = (RenderDie(first, colour, (640.0, 360.0), SIZE, 0.0, look=look),
            RenderDie(second, colour, (640.0 + reach, 360.0 + along), SIZE, turn, look=look))
    image, truths = render(Scene(dice=dice, table=TABLES["grey"], tilt=10.0, seed=first * 10 + second + int(turn)))
    readings = read_frame(image)
    for truth in truths:
        got = _reading_near(readings, truth.centre)
        assert got is not None and (got.status, got.value) == (ReadStatus.OK, truth.value), (truth, readings)
    assert len(readings) == 2, readings


@pytest.mark.parametrize("values", [(1, 5), (3, 3), (2, 6), (4, 1), (6, 6)])
@pytest.mark.parametrize("tilt", [25.0, 40.0])
def test_touching_dice_seen_obliquely_are_read_by_their_top_faces_or_not_at_all(values: tuple[int, int],
                                                                                 tilt: float) -> None:
    """Side by side across an oblique view, their side faces showing pips too: every die
    read is read by its top face, nothing read is a side face, and at most a lone 1 beside
    another die goes unread (its single pip shows too little of its face)."""
    dice = _touching(*values, across=True)
    image, truths = render(Scene(dice=dice, table=TABLES["felt"], tilt=tilt, seed=sum(values)))
    readings = read_frame(image)
    for truth in truths:
        got = _reading_near(readings, truth.centre)
        assert (got is not None and got.value == truth.value) or (truth.value == 1 and got is None), (truth, readings)
    assert all(any(math.dist(r.center, t.centre) < SIZE / 2 for t in truths) for r in readings), readings


def test_random_white_dice_scenes_are_read_and_never_misread(tmp_path: Path) -> None:
    """Twelve random scenes (tables, lights, lamps, tilts 0-45 degrees, some dice touching):
    almost every white die is read, none wrongly."""
    folder = tmp_path / "scenes"
    assert render_labelled([str(folder), "--images", "12", "--seed", "3", "--colours", "white"]) == 0
    tally, _ = evaluate(load_folder(folder), read_frame, Tally())
    assert tally.dice > 40
    assert tally.wrong == 0, tally.wrong_cases
    assert tally.correct >= 0.9 * tally.dice, [row for row in tally.rows if row[3] != "ok"]


def test_lone_lamp_low_on_one_side_still_reads_the_top_face() -> None:
    """A lamp low on one side lights a side face more than the top: the top face is read."""
    dice = (RenderDie(3, "white", (500.0, 360.0), SIZE, 10.0), RenderDie(5, "white", (760.0, 380.0), SIZE, 35.0))
    image, truths = render(Scene(dice=dice, table=TABLES["grey"], tilt=30.0, lamp=(0.0, 1.0, 0.35), seed=2))
    readings = read_frame(image)
    assert all(r.value in (None, t.value) for r in readings for t in truths
               if math.dist(r.center, t.centre) < SIZE / 2), readings
    assert sorted(r.value for r in readings if r.status is ReadStatus.OK) == [3, 5], readings
    assert np.isfinite([r.confidence for r in readings]).all()


@pytest.mark.parametrize("colours", [("white", "white"), ("red", "purple"), ("blue", "yellow"), ("green", "white")])
def test_touching_dice_showing_one_each_are_never_read_as_a_two(colours: tuple[str, str]) -> None:
    """Two touching dice showing 1 each look, in grey, like a 2 whose pips lie far apart
    (a red and a purple body have one grey level): the reader may leave them unread, but
    never reads a 2, nor a 1 anywhere but on a die's own face."""
    first, second = _touching(1, 1, across=True)
    dice = (RenderDie(1, colours[0], first.centre, SIZE, first.angle),
            RenderDie(1, colours[1], second.centre, SIZE, second.angle))
    image, truths = render(Scene(dice=dice, table=TABLES["dark"], tilt=0.0, seed=4))
    readings = read_frame(image)
    assert all(r.value in (None, 1) for r in readings), readings
    assert all(any(math.dist(r.center, t.centre) < SIZE / 4 for t in truths)
               for r in readings if r.status is ReadStatus.OK), readings


@pytest.mark.parametrize("colour", ["black/red", "white"])
def test_a_two_whose_pip_sits_in_a_highlight_is_never_read_as_a_one(colour: str) -> None:
    """A glossy die's highlight round one pip of a 2 makes the two pips look unlike and
    what lies between them look like table, and the highlight itself is a soft blob:
    neither pip nor highlight is read as a 1. (Known limit: black dice with gold pips,
    searched at half size, can still show a highlight as a 1.)"""
    dice = tuple(RenderDie(2, colour, (300.0 + 220 * k, 360.0), SIZE, 15.0 + 30 * k) for k in range(4))
    image, truths = render(Scene(dice=dice, table=TABLES["dark"], tilt=12.0, glare=0.9, seed=8))
    readings = read_frame(image)
    assert all(r.value in (None, 2) for r in readings), readings


def test_dice_left_unread_are_looked_at_again_closer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve random scenes (seed 3): each die left unreadable is looked at again on a crop
    where its pips need stand out only from the die itself. The second look reads more dice
    and never a wrong value."""
    from render_labelled import LIGHTS, random_scene

    from reader.camera import frame_reader
    from reader.camera.render import DARK_LOOKS, LOOKS

    rng = np.random.default_rng(3)
    scenes = [random_scene(rng, (1280, 720), sorted({*LOOKS, *DARK_LOOKS}), sorted(TABLES), sorted(LIGHTS), None)
              for _ in range(12)]
    rendered = [render(scene) for scene in scenes]

    def tally() -> tuple[int, int]:
        right = wrong = 0
        for image, truths in rendered:
            for reading in read_frame(image):
                near = [t for t in truths if math.dist(reading.center, t.centre) < 20]
                if reading.value is not None and near:
                    right += near[0].value == reading.value
                    wrong += near[0].value != reading.value
        return right, wrong

    with_second_look = tally()
    monkeypatch.setattr(frame_reader, "_closer_look", lambda image, grey, readings, *rest: readings)
    first_look_only = tally()
    assert with_second_look[1] <= first_look_only[1], (with_second_look, first_look_only)
    assert with_second_look[0] > first_look_only[0], (with_second_look, first_look_only)


def test_a_small_light_die_on_a_dark_table_is_no_lone_pip() -> None:
    """Searched at the scale its big neighbours call for, a small orange die on a black mat
    is a light blob with the table round it, like a big pip: its mottled inside (its own
    pips) shows it is none, and it is never read as a 1."""
    big = tuple(RenderDie(v, "white", (180.0 + 300 * k, 170.0), 130.0, 10.0 * k) for k, v in enumerate((5, 3, 6, 4)))
    small = tuple(RenderDie(v, colour, (150.0 + 200 * k, 520.0), 44.0, 25.0 + 7 * k)
                  for k, (v, colour) in enumerate(((1, "orange"), (2, "yellow"), (3, "orange"), (4, "red"),
                                                   (5, "orange"), (6, "green"))))
    image, truths = render(Scene(dice=big + small, table=TABLES["dark"], tilt=0.0, seed=12))
    readings = read_frame(image)
    for reading in readings:
        truth = min(truths, key=lambda t: math.dist(reading.center, t.centre))
        assert reading.value in (None, truth.value), (reading, truth)
    assert sum(r.value is not None for r in readings) >= 4, readings
