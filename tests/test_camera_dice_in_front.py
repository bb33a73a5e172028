"""A die lying in front of another's top face, towards the camera, is read when its body goes
on beyond it.

A camera about 45 degrees oblique sees a die's front face as round as its top face and often
as bright: a face in front of a top face is taken for that die's front face, or, darker, for
its shaded side. But past a die's front face lies the table, where past the top face of a
touching die in front its own front face goes on, in its colour: a face as round as the top
face with its die's colour that far beyond it (as far as the top face lies behind it) is
another die's top face. A third die there, not centred where that die's front face would
be, shows nothing of the kind."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "options", "behind", "front"), [
    (1802, 11, {}, ((971, 276), 6), ((997, 318), 6)),
    (1815, 6, {"distance": 0.8}, ((210, 256), 2), ((245, 289), 5)),
    (1809, 14, {"grain": (14, 22)}, ((453, 268), 6), ((461, 319), 5)),
])
def test_a_die_in_front_of_a_top_face_is_read(seed: int, index: int, options: dict[str, object],
                                             behind: tuple[tuple[int, int], int],
                                             front: tuple[tuple[int, int], int]) -> None:
    """``render_labelled.py --seed 1802``, scene 11: an orange 6 in front of a red 6, as round
    and as bright, seen 44 degrees oblique; ``--seed 1815 --distance 0.8``, scene 6: a yellow
    5 in front of a yellow 2; ``--seed 1809 --grain 14-22``, scene 14: a grey 5 in front of a
    white 6, darker. The front dice were dropped as the others' front or shaded side faces
    and missed."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert_read_at(truths, readings, *behind)
    assert_read_at(truths, readings, *front)


def test_a_front_face_with_a_third_die_beyond_it_is_read_as_no_die() -> None:
    """``render_labelled.py --seed 3111 --blur 14``, scene 28: an orange die showing 5, its
    front face (a 4, as round) below it, and beyond that a red die, near the orange's colour,
    whose face is not centred where a die in front's own front face would be."""
    truths, readings = render_and_read(nth_scene(3111, 28, blur=14.0))
    assert_read_at(truths, readings, (391, 256), 5)
    assert_read_at(truths, readings, (401, 293), None)
