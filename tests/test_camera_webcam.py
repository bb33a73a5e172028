"""Opening a webcam: MJPG at 1280x720, automatics settled then locked at the values they chose.

No camera is attached here, so a simulated V4L2 webcam stands in for OpenCV's capture: it
keeps its properties as a driver does, runs auto exposure and auto white balance while they
are on, and (like many UVC drivers) jumps back to a stored default exposure when switched
to manual unless the exposure is written again. Its frames are rendered table scenes lit by
the exposure it is at.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from reader.camera.frame_reader import read_frame
from reader.camera.render import Scene, render, scatter
from reader.camera.video import CameraInput, InputError

STORED_EXPOSURE, AUTO_TARGET = 100.0, 160.0
STORED_TEMPERATURE, AUTO_TEMPERATURE = 6500.0, 4100.0


class SimulatedWebcam:
    """A V4L2 webcam as OpenCV's ``VideoCapture`` shows it."""

    def __init__(self, opened: bool = True, frames: int = 1000, manual_exposure: bool = True,
                 manual_white_balance: bool = True) -> None:
        self.opened, self.frames_left = opened, frames
        self.supports = {cv2.CAP_PROP_AUTO_EXPOSURE: manual_exposure, cv2.CAP_PROP_AUTO_WB: manual_white_balance}
        self.props = {cv2.CAP_PROP_AUTO_EXPOSURE: 3.0, cv2.CAP_PROP_EXPOSURE: STORED_EXPOSURE,
                      cv2.CAP_PROP_AUTO_WB: 1.0, cv2.CAP_PROP_WB_TEMPERATURE: STORED_TEMPERATURE,
                      cv2.CAP_PROP_FOURCC: float(cv2.VideoWriter_fourcc(*"YUYV")),
                      cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0}
        self.released = False
        self.scene = Scene(dice=scatter(3, size=(1280, 720), seed=4, colours=("white", "red")), table=(92, 142, 188))

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        if prop in self.supports:
            manual = value in (1, 0.25) if prop == cv2.CAP_PROP_AUTO_EXPOSURE else value == 0
            if manual and not self.supports[prop]:
                return False
            if manual and prop == cv2.CAP_PROP_AUTO_EXPOSURE:
                self.props[cv2.CAP_PROP_EXPOSURE] = STORED_EXPOSURE  # the driver's stored value
        self.props[prop] = float(value)
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, -1.0)

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.frames_left <= 0:
            return False, None
        self.frames_left -= 1
        if self.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 3.0:  # auto exposure creeps to its target
            self.props[cv2.CAP_PROP_EXPOSURE] += (AUTO_TARGET - self.props[cv2.CAP_PROP_EXPOSURE]) * 0.5
        if self.props[cv2.CAP_PROP_AUTO_WB] == 1.0:
            self.props[cv2.CAP_PROP_WB_TEMPERATURE] = AUTO_TEMPERATURE
        size = (int(self.props[cv2.CAP_PROP_FRAME_WIDTH]), int(self.props[cv2.CAP_PROP_FRAME_HEIGHT]))
        scene = Scene(dice=self.scene.dice, table=self.scene.table, size=(1280, 720),
                      brightness=self.props[cv2.CAP_PROP_EXPOSURE] / AUTO_TARGET)
        image, _ = render(scene)
        return True, cv2.resize(image, size) if size != (1280, 720) else image

    def release(self) -> None:
        self.released = True


def test_webcam_is_asked_for_mjpg_at_720p_and_keeps_what_its_automatics_chose() -> None:
    cam = SimulatedWebcam()
    camera = CameraInput(0, open_capture=lambda index: cam)
    assert camera.locked == {"exposure": True, "white_balance": True}
    assert int(cam.get(cv2.CAP_PROP_FOURCC)) == cv2.VideoWriter_fourcc(*"MJPG")
    assert (cam.get(cv2.CAP_PROP_FRAME_WIDTH), cam.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (1280, 720)
    # the settled exposure is kept, not the driver's stored default it jumps back to
    assert cam.get(cv2.CAP_PROP_EXPOSURE) == pytest.approx(AUTO_TARGET, abs=1)
    assert cam.get(cv2.CAP_PROP_WB_TEMPERATURE) == AUTO_TEMPERATURE
    frames = camera.frames()
    first, later = next(frames), [next(frames) for _ in range(3)][-1]
    assert first.image.shape == (720, 1280, 3) and later.time >= first.time and later.index == 3
    assert float(np.abs(first.image.astype(int) - later.image.astype(int)).mean()) < 3  # nothing drifts
    assert sorted(r.status.value for r in read_frame(later.image)) == ["ok"] * 3
    camera.close()
    assert cam.released


def test_webcam_without_manual_controls_still_opens_and_says_what_did_not_lock() -> None:
    cam = SimulatedWebcam(manual_exposure=False, manual_white_balance=False)
    camera = CameraInput(0, open_capture=lambda index: cam)
    assert camera.locked == {"exposure": False, "white_balance": False}
    assert next(camera.frames()).image.shape == (720, 1280, 3)


def test_missing_or_silent_camera_is_a_one_line_input_error() -> None:
    with pytest.raises(InputError, match="no camera at index 2"):
        CameraInput(2, open_capture=lambda index: SimulatedWebcam(opened=False))
    silent = SimulatedWebcam(frames=3)
    with pytest.raises(InputError, match="delivers no frames"):
        CameraInput(1, open_capture=lambda index: silent)
    assert silent.released
