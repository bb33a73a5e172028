"""Which way a die's side faces lie from its top face (towards the camera) is voted by
pairs of faces near each other, one clearly more foreshortened or darker than the other.
On a grainy table hundreds of blobs of grain pass for lone pips, pair up every which way
and outvoted the dice: the direction came out sideways, two dice's top faces were taken
for the front faces of the faces beyond them, and both dice were missed. Faces whose pips
stand out too little for the frame's texture (``faint``) no longer vote."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from reader.camera.frame_reader import read_frame
from reader.camera.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import as_saved, nth_scene  # noqa: E402


def test_dice_on_a_grainy_table_keep_their_top_faces() -> None:
    """``render_labelled.py --seed 2309 --grain 14-22``, scene 37: two white dice seen 42
    degrees oblique, touching, each showing 5; both are read as 5s."""
    image, truths = render(nth_scene(2309, 37, grain=(14, 22)))
    places = [(726, 256), (686, 299)]
    assert [[t.value for t in truths if math.dist(t.centre, p) < 15] for p in places] == [[5], [5]]
    readings = read_frame(as_saved(image))
    assert [[r.value for r in readings if math.dist(r.center, p) < 15] for p in places] == [[5], [5]]
