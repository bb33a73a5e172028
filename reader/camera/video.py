"""Where camera frames come from: a live camera, a video file, an image, or a folder of images.

``open_input("0")`` opens webcam 0; any other text is a path. Live cameras and videos are
*continuous* (a throw is read when the scene settles); images are *stills*, each of which is
one throw at rest. Every failure to open is an :class:`InputError` with a one-line message.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules.errors import DicetableError

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})

# OpenCV's own warnings ("can't open camera by index") would break the one-line error rule
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)


#: V4L2 takes 1 for manual exposure; older OpenCV backends took 0.25.
MANUAL_EXPOSURE, LEGACY_MANUAL_EXPOSURE = 1, 0.25


class InputError(DicetableError):
    """A camera, video, image or folder could not be opened or read."""


@dataclass(frozen=True)
class Frame:
    """One frame: its time in seconds (from the start of the input), pixels and a label."""

    time: float
    image: np.ndarray
    label: str
    index: int = 0


class FrameInput(ABC):
    """A source of frames. ``continuous`` inputs need settle detection; stills do not.
    ``live`` inputs (cameras) block while waiting for a frame and show dice from before the start."""

    continuous: bool = True
    live: bool = False
    name: str = "input"

    @abstractmethod
    def frames(self) -> Iterator[Frame]:
        """The frames in order; a live camera never ends."""

    def close(self) -> None:
        """Release the device or file."""


class CameraInput(FrameInput):
    """A webcam opened with MJPG at 1280x720, its exposure and white balance then locked.

    Auto exposure and white balance run for ``settle_frames`` frames so the picture starts
    right; the values they settled on are then kept and the automatics switched off where
    the driver allows it (``locked`` says what held): a drifting white balance would change
    the dice's colours between throws, a drifting exposure their brightness.
    ``open_capture`` opens the device (OpenCV's by default; tests pass a simulated one).
    """

    live = True

    def __init__(self, index: int, size: tuple[int, int] = (1280, 720), settle_frames: int = 15,
                 open_capture: Callable[[int], cv2.VideoCapture] = cv2.VideoCapture) -> None:
        self.name = f"camera {index}"
        self._capture = open_capture(index)
        if not self._capture.isOpened():
            raise InputError(f"no camera at index {index} (is it plugged in and not used by another program?)")
        cap = self._capture
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        for _ in range(settle_frames):
            if not cap.read()[0]:
                cap.release()
                raise InputError(f"camera {index} opened but delivers no frames")
        self.locked = {"exposure": _lock(cap, (cv2.CAP_PROP_AUTO_EXPOSURE, (MANUAL_EXPOSURE, LEGACY_MANUAL_EXPOSURE)),
                                         cv2.CAP_PROP_EXPOSURE),
                       "white_balance": _lock(cap, (cv2.CAP_PROP_AUTO_WB, (0,)), cv2.CAP_PROP_WB_TEMPERATURE)}
        self._start = time.monotonic()

    def frames(self) -> Iterator[Frame]:
        index = 0
        while True:
            ok, image = self._capture.read()
            if not ok:
                raise InputError(f"{self.name} stopped delivering frames")
            yield Frame(time.monotonic() - self._start, image, self.name, index)
            index += 1

    def close(self) -> None:
        self._capture.release()


class VideoInput(FrameInput):
    """A video file; frame times come from the frame number and the file's frame rate."""

    def __init__(self, path: Path) -> None:
        self.name = str(path)
        self._capture = cv2.VideoCapture(str(path))
        if not self._capture.isOpened():
            raise InputError(f"cannot read video {path}")
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if 1 <= fps <= 1000 else 30.0

    def frames(self) -> Iterator[Frame]:
        index = 0
        while True:
            ok, image = self._capture.read()
            if not ok:
                if index == 0:
                    raise InputError(f"cannot read video {self.name}")
                return
            yield Frame(index / self.fps, image, f"{self.name}@{index / self.fps:.2f}s", index)
            index += 1

    def close(self) -> None:
        self._capture.release()


class StillsInput(FrameInput):
    """Image files, each one a throw at rest."""

    continuous = False

    def __init__(self, paths: list[Path], name: str) -> None:
        self.name = name
        self._paths = paths

    def frames(self) -> Iterator[Frame]:
        for index, path in enumerate(self._paths):
            yield Frame(float(index), load_image(path), str(path), index)


def _lock(cap: cv2.VideoCapture, automatic: tuple[int, tuple[float, ...]], value: int) -> bool:
    """Switch an automatic off (trying each of its "off" settings) and keep the value it had
    chosen, as drivers may jump back to a stored default; whether the switch held."""
    chosen = cap.get(value)
    switch, offs = automatic
    if not any(cap.set(switch, off) for off in offs):
        return False
    if chosen > 0:
        cap.set(value, chosen)
    return True


def load_image(path: Path) -> np.ndarray:
    """Read an image file as BGR, or raise :class:`InputError`."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise InputError(f"cannot read image {path}")
    return image


def open_input(spec: str) -> FrameInput:
    """The frames ``spec`` names: a camera index (``0``), or a video, image or folder path."""
    if spec.isdigit():
        return CameraInput(int(spec))
    path = Path(spec).expanduser()
    if not spec or not path.exists():
        raise InputError(f"no camera, video, image or folder named {spec!r}")
    if path.is_dir():
        images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not images:
            raise InputError(f"folder {path} holds no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        return StillsInput(images, str(path))
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return StillsInput([path], str(path))
    return VideoInput(path)
