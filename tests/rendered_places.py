"""One rendered scene read as the labelled sets hold it, and what lies at a place of it,
shared by the camera tests that look at single dice of a scene."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from reader.camera.frame_reader import read_frame
from reader.camera.reading import DieReading
from reader.camera.render import DieTruth, Scene, render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved  # noqa: E402

#: How near a place (pixels) a die's or a reading's centre lies to be at it.
REACH = 15.0


def render_and_read(scene: Scene) -> tuple[list[DieTruth], list[DieReading]]:
    """The scene's dice, and every reading of it as saved to a labelled set (JPEG)."""
    image, truths = render(scene)
    return truths, read_frame(as_saved(image))


def assert_read_at(truths: list[DieTruth], readings: list[DieReading], place: tuple[float, float],
                   value: int | None, reach: float = REACH) -> None:
    """A die showing ``value`` lies at ``place`` and is read so, and nothing else is read
    there; ``value`` None: no die lies there and nothing (not even an unreadable die) is
    reported there."""
    there = [t.value for t in truths if math.dist(t.centre, place) < reach]
    read = [r.value for r in readings if math.dist(r.center, place) < reach]
    expected = [] if value is None else [value]
    assert there == expected, (place, "scene holds", there)
    assert read == expected, (place, "read", read)
