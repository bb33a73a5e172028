"""A die lighter than a dark table, showing 1: it stands out from the table as one blob
with its pip inside, many times a pip's size. Where that blob holds a single pip of its own
and the pip passes every check of a 1, the die is read as a 1 (it went unread)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "options", "where"), [
    (1801, 11, {}, (604, 77)),                                            # orange die, white 1, grey cloth
    (1814, 5, {"colours": ("yellow", "grey", "orange")}, (150, 452)),     # orange die, white 1, dark cloth
])
def test_a_light_die_cut_out_whole_shows_its_1(seed: int, index: int, options: dict[str, object],
                                               where: tuple[int, int]) -> None:
    """``render_labelled.py --seed SEED [options]``, scene INDEX: the die at ``where`` shows
    1 and is read as a 1, once."""
    image, truths = render(nth_scene(seed, index, **options))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [1]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [1]


def test_a_blob_holding_one_pip_of_a_4_is_no_1() -> None:
    """``render_labelled.py --seed 1802``, scene 48: part of a purple 4 on orange cloth
    stands out as a blob too big for a pip, holding a single pip of the 4. The 4's other
    pips, found beside it, lie on that 1's face (strays): it is not read as a 1, and the 4
    is read."""
    where = (1028, 389)
    image, truths = render(nth_scene(1802, 48))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [4]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [4]


def test_a_1_in_a_highlight_is_read_from_the_blob_they_make() -> None:
    """``render_labelled.py --seed 2108 --glare 0.4-0.6``, scene 45: a blue die's white 1 in
    a highlight as light as the pip's rim. The pip and the highlight are cut out as one
    blob, uneven inside, refused as no pip; the pip it holds, over half its radius, is read
    as a 1."""
    where = (929, 213)
    image, truths = render(nth_scene(2108, 45, glare=(0.4, 0.6)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [1]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [1]


def test_the_middle_pip_of_a_5_in_a_highlight_is_no_1() -> None:
    """``render_labelled.py --seed 1906 --pip-size 0.055-0.075``, scene 13: an orange 5 of
    small white pips, its middle pip and a highlight round it one uneven blob. The pip that
    blob holds lies inside the face its four other pips make (small pips put them outside
    a 1's typical face): it is not read as a 1, and the 5 is read."""
    where = (1073, 595)
    image, truths = render(nth_scene(1906, 13, pip_sizes=(0.055, 0.075)))
    assert [t.value for t in truths if math.dist(t.centre, where) < 15] == [5]
    readings = read_frame(as_saved(image))
    assert [r.value for r in readings if math.dist(r.center, where) < 25] == [5]
