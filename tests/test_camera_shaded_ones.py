"""A 1 in a highlight: the ring round its pip is lighter than the face further out, and the
face's light falls off smoothly, sooner one way than the other, well inside the face. A ray
that runs into such shading (darker than the body by more than its edge step, with no step
on the way and none for a while after) says nothing of where the face ends, and no longer
makes the 1 off-centre. A die's edge is a step, or is soon followed by one; round a pip so
faint that the edge step is the noise's floor, the body's own noise crosses it without a
step, and nothing is excused."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from rendered_places import REACH, assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


@pytest.mark.parametrize(("seed", "index", "options", "where"), [
    (1802, 16, {}, (172, 352)),
    (1806, 20, {"pip_sizes": (0.055, 0.075)}, (1053, 117)),
    (1810, 17, {"tilt": 0.0, "distance": 0.8}, (772, 345)),
    (1805, 17, {"colours": ("black/red", "black/gold")}, (639, 207)),
])
def test_a_1_in_a_highlight_is_read(seed: int, index: int, options: dict[str, object],
                                    where: tuple[int, int]) -> None:
    """``render_labelled.py --seed 1802``, scene 16: a grey die's dark 1, 11 degrees oblique,
    its face's light falling from 168 round the pip to 130 towards one edge; ``--seed 1806
    --pip-size 0.055-0.075``, scene 20: a black die's white 1 in a highlight. Both were
    missed, refused as "no die body" (not centred). ``--seed 1810 --tilt 0 --distance 0.8``,
    scene 17: a big grey 1 seen from straight above, and ``--seed 1805 --colours black/red
    black/gold``, scene 17: a black die's red 1 in a highlight. Round each, the face darkens
    smoothly from where the rays start: a ray left the body within the first three samples,
    the span shading is judged over, and was not told to be shading; they were missed too."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert_read_at(truths, readings, where, 1)


@pytest.mark.parametrize(("seed", "index", "options", "where", "value"), [
    (1803, 20, {"die_sizes": (24.0, 36.0)}, (269, 452), 2),
    (2409, 26, {"grain": (14.0, 22.0)}, (481, 422), None),
    (3617, 8, {"fine_grain": (25.0, 45.0)}, (253, 690), None),
])
def test_faint_marks_are_not_excused(seed: int, index: int, options: dict[str, object],
                                     where: tuple[int, int], value: int | None) -> None:
    """``--seed 1803 --die-size 24-36``, scene 20: a small black die's 2 (touching an
    orange 2), one of its pips faint; ``--seed 2409 --grain 14-22``, scene 26: a speck on a
    grainy felt. Both stand out by less than four times the noise's floor (the edge step is
    that floor); with their shading excused too, each was read as a 1. ``--seed 3617
    --fine-grain 25-45``, scene 8: a speck on a dark, finely grained table, its rays off the
    body at once into the grain's dark streaks, which they leave again. A ray that leaves the
    body before its first few samples must stay off it for as many more samples as it lacks;
    judged over the usual span alone, two of these rays passed as shading, and the speck was
    read as a 1."""
    truths, readings = render_and_read(nth_scene(seed, index, **options))
    assert [t.value for t in truths if math.dist(t.centre, where) < REACH] in ([], [value])
    assert [r.value for r in readings if math.dist(r.center, where) < REACH] in ([], [value])
