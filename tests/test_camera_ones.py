"""Dice showing 1 on glossy dice: a lone pip is read only on strong evidence, but a highlight
beside it or its own halo is no edge of its face."""

from __future__ import annotations

import math

from reader.camera.frame_reader import read_frame
from reader.camera.render import TABLES, RenderDie, Scene, render

#: Eight glossy dice on felt under a high lamp, a camera tilted by 18 degrees; the blue 1 has
#: a highlight beside its pip.
GLOSSY = Scene(
    dice=(RenderDie(6, "blue", (736.9, 244.8), 50.9, 27.5), RenderDie(1, "orange", (99.9, 197.4), 50.9, 9.4),
          RenderDie(5, "orange", (152.8, 188.7), 50.9, 9.4), RenderDie(2, "purple", (884.2, 517.5), 50.9, 33.9),
          RenderDie(1, "purple", (840.0, 547.1), 50.9, 33.9), RenderDie(6, "red", (958.3, 308.5), 50.9, 80.7),
          RenderDie(1, "blue", (726.9, 455.3), 50.9, 80.1), RenderDie(5, "orange", (620.4, 470.6), 50.9, 30.9)),
    size=(1280, 720), table=TABLES["felt"], brightness=1.12, tilt=17.8, glare=0.32, defocus=0.07, noise=2.4,
    seed=50162530, lamp=(-0.17, 0.14, 0.98))


def test_a_one_with_a_highlight_beside_its_pip_is_read() -> None:
    image, truths = render(GLOSSY)
    readings = read_frame(image)
    pairs = [(min(truths, key=lambda t: math.dist(r.center, t.centre)), r) for r in readings]
    assert all(r.value in (None, t.value) for t, r in pairs), pairs
    blue_one = [r.value for t, r in pairs if t.value == 1 and math.dist(t.centre, (726.9, 455.3)) < 20]
    assert blue_one == [1], pairs
