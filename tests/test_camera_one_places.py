"""A lone pip's empty places, where the frame's other dice put their pips. A 1's face is
guessed small (1.5 pip half-lengths to the pip offset: a 1 is often printed larger than
the other pips), and on dice whose pips sit further apart the places of that guess lie on
the rim of a blurred or foreshortened pip: grey showed them inked, and the 1 was refused.
The places now lie as far out as the frame's other dice show. A smeared pip keeps the near
places: its oval shows its track, not its face's slant, and the far places of a face
guessed from it may miss its face's other pips. So does a pip flatter than a top face's
under the usual cameras: more often a side face's, its die's edge or its face's other pips
lie on the near places."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def _read_at(seed: int, index: int, where: tuple[int, int], reach: float = 25.0,
             **options: Any) -> tuple[list[int], list[int | None]]:
    """The labelled values of the die at ``where`` in scene ``index`` of ``render_labelled.py
    --seed SEED`` (with ``options``), and the values read within ``reach`` pixels of it."""
    image, truths = render(nth_scene(seed, index, **options))
    labels = [t.value for t in truths if math.dist(t.centre, where) < 12]
    return labels, [r.value for r in read_frame(as_saved(image)) if math.dist(r.center, where) < reach]


@pytest.mark.parametrize(("seed", "index", "where", "options"), [
    (1901, 12, (196, 360), {}),                                  # a grey 1 seen at 39 degrees
    (1907, 29, (503, 206), {"pip_sizes": (0.1, 0.13)}),          # a white 1 among big-pipped dice
    (1908, 55, (368, 160), {"glare": (0.4, 0.6)}),               # a grey 1 under strong glare
])
def test_a_1_whose_pip_reached_its_guessed_places_is_read(seed: int, index: int, where: tuple[int, int],
                                                          options: dict[str, Any]) -> None:
    assert _read_at(seed, index, where, **options) == ([1], [1])


def test_a_smeared_3_is_no_1() -> None:
    """``--seed 1811 --blur 14``, scene 12: a black 3 with red pips, smeared, whose other
    pips the search lost: its corner pip is not read as a 1."""
    labels, read = _read_at(1811, 12, (245, 204), blur=14.0)
    assert labels == [3]
    assert 1 not in read


def test_a_side_faces_flat_pip_is_no_1() -> None:
    """``--seed 1805 --colours black/red black/gold``, scene 4: a black 5 seen at 35
    degrees, its top face lost, shows a 3 on its front face; that face's middle pip alone
    (0.47 round) is not read as a 1."""
    # (the front face's middle pip lies 48 px below the top face's centre)
    labels, read = _read_at(1805, 4, (972, 443), 60.0, colours=("black/red", "black/gold"))
    assert labels == [5]
    assert 1 not in read
