"""A dark pip under a highlight on a colourful die: glare makes it as light in grey as the
red body round it, so grey alone calls its place empty and reads a 3 as a 2 (its middle pip
gone) or a 5 as a 4. White light leaves the pip black, not red: where ink and body differ
in colour, a place of the ink's colour holds a pip however light it is."""

from __future__ import annotations

import math

import cv2

from reader.camera.frame_reader import read_frame
from reader.camera.render import TABLES, DieLook, RenderDie, Scene, render

#: A red die with black pips (small ones, 7.5% of the side).
RED_BLACK = DieLook((38, 36, 192), (25, 25, 25), 0.075)


def test_a_middle_pip_under_a_highlight_still_counts() -> None:
    """Five red dice on a dark mat under a strong highlight: the two on the right (a 3 and a
    5) have the glare on their middle pip."""
    spec = [(3, (200.0, 209.569), 63.509, 84.459), (3, (400.0, 486.434), 49.978, 58.257),
            (6, (600.0, 167.543), 67.460, 5.219), (2, (800.0, 432.988), 57.195, 20.087),
            (5, (1000.0, 193.688), 50.522, 59.989)]
    dice = tuple(RenderDie(value, "red", centre, size, angle, look=RED_BLACK) for value, centre, size, angle in spec)
    image, truths = render(Scene(dice=dice, table=TABLES["dark"], tilt=20.714, glare=0.3319, defocus=0.4, seed=3))
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR)
    pairs = sorted((min(truths, key=lambda t: math.dist(t.centre, r.center)).value, r.value) for r in read_frame(image))
    assert all(read in (None, truth) for truth, read in pairs), pairs
    assert {(3, 3), (5, 5)} <= set(pairs), pairs
