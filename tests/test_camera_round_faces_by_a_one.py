"""Two faces both seen from steeply above are two dice's tops: a die shows no two faces that
round. That holds only where the two lie further apart than fragments of one face do. A
lone pip shows no face size of its own, so a 1 and a face of several pips are measured in
the bigger face's units, as they are where a face is asked whether it lies on a die. In
the 1's units, guessed from its pip, a 5 in front of it lay within reach of its fragments:
the 5 was taken for the 1's front face and dropped."""

from __future__ import annotations

import sys
from pathlib import Path

from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


def test_a_round_face_in_front_of_a_one_is_read() -> None:
    """``render_labelled.py --seed 1805 --colours black/red black/gold``, scene 35: a 5 (0.98
    round) seen from 15 degrees, in front of a touching die's 1 (0.89 round). The 5's centre
    lies 3.50 of the 1's guessed face units from it (fragments reach 3.52), 3.95 of its own.
    The 5 was missed."""
    truths, readings = render_and_read(nth_scene(1805, 35, colours=("black/red", "black/gold")))
    assert_read_at(truths, readings, (297, 411), 5)
    assert_read_at(truths, readings, (280, 369), 1)
