"""Strays: a pip like a face's own lying on the face refuses it (it may be a bigger face's);
a faint mark there (a side face's pip seen edge-on) does not."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from reader.camera.dice_finder import FaceCandidate
from reader.camera.face_checks import check_face
from reader.camera.layouts import fit_layout
from reader.camera.pip_groups import PipGroup
from reader.camera.pips import find_pips
from tests.test_camera_pips_synthetic import BLACK, WHITE, Die, face_points, render_scene

TABLE = (60, 110, 60)


@pytest.mark.parametrize(("ink", "refused"), [(200, False), (90, True)])
def test_a_three_is_refused_by_a_stray_as_dark_as_a_pip_not_by_a_faint_mark(ink: int, refused: bool) -> None:
    """A white 3 with a mark about 1.5 pip offsets out from its centre, inside the reach
    where a bigger face's pips would lie, off its empty places: grey 200 on a body of about
    235 is a faint mark (a sixth of the pips' contrast), grey 90 a pip (in a highlight)."""
    die = Die(3, (320, 240), 80, 0.0, WHITE, BLACK)
    image = render_scene([die], TABLE, seed=3)
    (mark,) = face_points(die, np.array([[0.7, -0.2]]))
    cv2.circle(image, (round(mark[0]), round(mark[1])), round(0.085 * die.side), (ink, ink, ink), -1, cv2.LINE_AA)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = [p for p in find_pips(grey) if math.dist((p.x, p.y), die.centre) < 45]
    stray = [p for p in found if math.dist((p.x, p.y), tuple(mark)) < 4]
    own = [p for p in found if p not in stray]
    assert len(own) == 3 and len(stray) == 1
    group = PipGroup(tuple(own))
    face = FaceCandidate(group, fit_layout(group.points, group.squash), None)
    assert face.fit.value == 3
    assert (check_face(face, grey, found).reason is not None) is refused
