"""Blobs many times the size of a frame's pips are no die's pips: the shadows either side of
a small die under a low lamp, two dark blobs on the table as far apart (in their radii) as
a big 2's pips, read as a grey 2 over the die they flank."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from reader.camera.colour import ColourNames
from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def test_the_shadows_beside_a_small_die_are_no_2() -> None:
    """``render_labelled.py --seed 1916 --tilt 30 --die-size 30-40 --pip-size 0.055-0.11``,
    scene 55: an orange 2 (white pips of 2 px) between two shadows of 16-20 px radius."""
    scene = nth_scene(1916, 55, tilt=30, die_sizes=(30, 40), pip_sizes=(0.055, 0.11))
    image, truths = render(scene)
    die = [t for t in truths if math.dist(t.centre, (889, 332)) < 12]
    assert [(t.value, t.colour) for t in die] == [(2, "orange")]
    readings = read_frame(as_saved(image), ColourNames())
    near = [r for r in readings if math.dist(r.center, die[0].centre) < 40]
    assert [(r.value, r.colour) for r in near] == [(2, "orange")]
