"""A group of linked pips that forms no face, but would if one pip beside it were left out:
that pip is a touching die's (whose own face's other pips were not linked with it), unless
it lies where a 6's third row lies beyond a 4."""

from __future__ import annotations

from itertools import combinations

import pytest

from reader.camera.pip_groups import _split
from reader.camera.pips import Pip

OFFSET = 16.0  # a face's pip offset (pixels); pips 4 px in radius


def _pip(x: float, y: float) -> Pip:
    return Pip(x=x, y=y, radius=4.0, roundness=1.0, angle=0.0, contrast=100.0, level=200.0, ring=40.0,
               edge_width=1.0, dark=False)


def _split_strongly_linked(points: list[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """The groups ``_split`` makes of pips all linked to one another with no weak link to cut at."""
    pips = [_pip(x, y) for x, y in points]
    links = [(1.0, i, j) for i, j in combinations(range(len(pips)), 2)]
    return sorted(sorted((p.x, p.y) for p in group.pips) for group in _split(list(range(len(pips))), links, pips))


FOUR = [(-OFFSET, -OFFSET), (OFFSET, -OFFSET), (-OFFSET, OFFSET), (OFFSET, OFFSET)]


@pytest.mark.parametrize("stray", [(2.6 * OFFSET, 0.0), (-2.5 * OFFSET, 2.0 * OFFSET), (0.0, -2.7 * OFFSET)])
def test_a_touching_die_s_pip_beside_a_four_is_split_off(stray: tuple[float, float]) -> None:
    assert _split_strongly_linked(FOUR + [stray]) == sorted([sorted(FOUR), [stray]])


def test_a_six_missing_a_pip_is_not_read_as_a_four_and_a_stray() -> None:
    """Rows of a 6 seen with one pip lost: two full rows form a 4 whose units are half the
    6's across the rows, and the third row's pip lies (1, 3) out from it."""
    rows = [(x, y) for y in (-OFFSET, 0.0) for x in (-OFFSET, OFFSET)]
    assert _split_strongly_linked(rows + [(OFFSET, OFFSET)]) == [sorted(rows + [(OFFSET, OFFSET)])]


def test_a_pip_near_a_face_s_edge_stays_with_it() -> None:
    """A pip 2 units out lies on the face's own edge: it is no other die's."""
    assert len(_split_strongly_linked(FOUR + [(2.0 * OFFSET, 0.0)])) == 1
