"""A 1 in a highlight: the rays that tell whether a lone pip sits at the centre of its die's
body pass over a highlight beside the pip (lighter than the body round the pip, reached and
left without a step) instead of ending there. A die's edge, a seam and a key symbol's
narrow strokes still end them."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from reader.camera.die_body import _past_highlight
from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402

STEP = 24.0  # the edge's threshold (grey levels off the body round the pip)
ONSET, SPAN = 3, 15  # samples


def first_edge(levels: list[float]) -> int:
    """Where a ray with these levels (against the body's) ends, past highlights."""
    values = np.array(levels, float)
    off = np.abs(values) > STEP
    edge = off[:-1] & off[1:]
    at = int(np.argmax(edge)) if edge.any() else -1
    return _past_highlight(values, off, edge, at, STEP, ONSET, SPAN)


BODY, TABLE = [2.0, -3.0, 1.0, 0.0], [-80.0] * 6


def test_a_highlight_the_ray_starts_in_is_passed_over() -> None:
    ramp = [28.0, 30.0, 32.0, 31.0, 27.0, 22.0, 15.0, 8.0]
    assert first_edge(ramp + BODY + TABLE) == len(ramp) + len(BODY)


def test_a_highlight_reached_gradually_is_passed_over() -> None:
    ramp = [5.0, 12.0, 18.0, 26.0, 30.0, 32.0, 29.0, 20.0, 10.0]
    assert first_edge(ramp + BODY + TABLE) == len(ramp) + len(BODY)


def test_a_step_to_a_lighter_table_is_an_edge_though_a_neighbour_follows() -> None:
    # a dark die, a light seam of table, a touching dark die beyond
    levels = BODY + [90.0, 95.0, 90.0, 92.0] + BODY + TABLE
    assert first_edge(levels) == len(BODY)


def test_a_narrow_light_stroke_is_an_edge() -> None:
    # a key's symbol: a stroke two samples wide, reached gently by blur
    levels = BODY + [14.0, 28.0, 29.0, 12.0] + BODY + TABLE
    assert first_edge(levels) == len(BODY) + 1


def test_light_that_does_not_give_way_to_the_body_is_an_edge() -> None:
    levels = BODY + [10.0, 20.0] + [30.0] * 20
    assert first_edge(levels) == len(BODY) + 2


def test_a_dark_sample_in_the_light_run_makes_it_an_edge() -> None:
    levels = BODY + [10.0, 20.0, 30.0, 32.0, -60.0, 30.0, 28.0] + BODY + TABLE
    assert first_edge(levels) == len(BODY) + 2


@pytest.mark.parametrize(("seed", "index", "pip_sizes", "where"),
                         [(1806, 7, (0.055, 0.075), (908, 447)), (913, 36, (0.055, 0.07), (439, 262))])
def test_a_1_beside_a_highlight_is_read(seed: int, index: int, pip_sizes: tuple[float, float],
                                        where: tuple[int, int]) -> None:
    """Light dice with small pips under a lamp (``render_labelled.py --seed SEED --pip-size
    ...``, scene INDEX): the 1 at ``where`` has its pip at the edge of its face's
    highlight, whose lightest part, a few pip radii out, ended the rays on that side, and
    the pip looked off its body's centre ("no die body"). It is read, and nothing else is
    read there."""
    image, truths = render(nth_scene(seed, index, pip_sizes=pip_sizes))
    assert [t.value for t in truths if math.dist(t.centre, where) < 2] == [1]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 15] == [1]
