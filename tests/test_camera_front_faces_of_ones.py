"""A 1 seen obliquely, and the front face of its die.

Whether a lone pip sits at the centre of its die is told by rays to the body's edge; a pair
of rays whose farther end runs over the die's front face (towards the camera) is not asked.
The frame's faces vote one direction towards the camera for the whole frame, and a die off
the frame's middle shows its front face turned from it: image-down now counts as towards
the camera too, as it does where a top face is looked for beyond a face. With more such 1s
read on the first look, a face lying where such a 1's front face would (beyond which the 1
lies, away from the camera) is dropped as that front face, as it was where the 1 was left
unread (and as it was already beside a 1 printed large or shaded apart)."""

from __future__ import annotations

import sys
from pathlib import Path

from rendered_places import assert_read_at, render_and_read

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from render_labelled import nth_scene  # noqa: E402


def test_a_1_whose_front_face_lies_off_the_frames_camera_direction_is_read() -> None:
    """``render_labelled.py --seed 2407 --pip-size 0.1-0.13``, scene 42: a black die seen
    37 degrees oblique showing a white 1, its front face straight below it while the frame's
    faces put the camera 32 degrees off image-down. It was refused ("no die body")."""
    truths, readings = render_and_read(nth_scene(2407, 42, pip_sizes=(0.1, 0.13)))
    assert_read_at(truths, readings, (835, 361), 1)


def test_the_front_face_of_a_1_read_is_not_a_die() -> None:
    """``render_labelled.py --seed 2104 --tilt 40``, scene 54: a 1 seen 40 degrees oblique,
    now read on the first look, and its die's front face, a 4, 37 pixels below it, lit as
    the 1's surroundings (1.04 times): the 4 is no die."""
    truths, readings = render_and_read(nth_scene(2104, 54, tilt=40))
    assert_read_at(truths, readings, (1116, 341), 1)
    assert_read_at(truths, readings, (1121, 378), None)
