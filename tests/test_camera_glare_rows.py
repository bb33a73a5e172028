"""Black dice with red pips under a strong highlight, 1s among them: in grey the glare on a
1 is as bright as its pip, and the two are found as one blob centred off the pip. Such a
1 may go unread, but no die of such a row is read wrong (a guard: colour must not make
the glare blob, or the pips beside it, a die's face)."""

from __future__ import annotations

import math

import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import TABLES, RenderDie, Scene, render

#: The dice of the row: a 1 at every other place.
ROW = (1, 3, 1, 5, 1, 2)


def row_readings(table: str, size: float) -> list[int | None | str]:
    """The row of black dice with red pips on ``table`` under a strong highlight: the value
    read at each die (None: read as unreadable; "-": not found)."""
    dice = tuple(RenderDie(v, "black/red", (160 + 190 * k, 200 + 260 * (k % 2)), size=size, angle=12.0 * k)
                 for k, v in enumerate(ROW))
    image, truths = render(Scene(dice=dice, table=TABLES[table], seed=4, glare=0.6))
    out: list[int | None | str] = ["-"] * len(truths)
    for reading in read_frame(image):
        for k, truth in enumerate(truths):
            if math.dist(reading.center, truth.centre) < size / 2:
                out[k] = reading.value
    return out


@pytest.mark.parametrize(("table", "size"), [("felt", 64.0), ("wood", 72.0)])
def test_black_dice_in_glare_are_never_read_wrong(table: str, size: float) -> None:
    read = row_readings(table, size)
    assert all(value in (None, "-", truth) for truth, value in zip(ROW, read)), read
