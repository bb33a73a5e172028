"""A black die with big coloured pips under glare: its face, pips and the lit patches between
them, is one hole in the die's dark region, too big for a pip. Its pips are searched on the
die alone, the glare flattened; before, such a die was missed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


@pytest.mark.parametrize(("index", "place", "value"), [(10, (899, 414), 6), (6, (149, 449), 2)])
def test_a_glared_black_die_with_big_red_pips_is_read(index: int, place: tuple[int, int], value: int) -> None:
    """``render_labelled.py --seed 4007 --pip-size 0.1-0.13``: a black die with red pips a
    quarter of its side across, on a grey (scene 10) and a green (scene 6) table, its pips
    as light as the table and run together with the glare between them."""
    truths, readings = render_and_read(nth_scene(4007, index, pip_sizes=(0.1, 0.13)))
    assert_read_at(truths, readings, place, value)


def test_a_lit_strip_along_a_front_face_is_no_face_hole() -> None:
    """``render_labelled.py --seed 1805 --colours black/red black/gold``, scene 24: a black
    die read as a 4, seen 38 degrees obliquely, a lit strip along its front face making a
    hole 29 x 18 px in its region. Searched as a face, the strip's two pips were reported
    as an unreadable die of their own."""
    truths, readings = render_and_read(nth_scene(1805, 24, colours=("black/red", "black/gold")))
    assert_read_at(truths, readings, (1130, 257), 4)
    assert_read_at(truths, readings, (1135, 287), None)
