"""The camera as a dice source: wait for a settled throw, read it, check it against the request.

:class:`CameraSource` answers a :class:`~rules.dice.DiceRequest` with the dice thrown in
front of the camera. It never guesses: when the number of dice (or of dice of a designated
colour) differs from the request, or a die cannot be read, it says so in one line and waits
for the player to fix the dice or throw again. Dice left lying from the previous throw (same
place, same face, same colour) are not part of a new throw, so the OpenD6 wild die can be
thrown again on its own while the other dice stay on the table.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from reader.camera.colour import ColourNames
from reader.camera.frame_reader import ColourNamer
from reader.camera.reading import DieReading, ReadStatus
from reader.camera.settle import Phase, SettleConfig, SettleDetector, vote
from reader.camera.video import Frame, FrameInput, InputError, open_input
from reader.sources.base import DiceSource
from rules.dice import DiceRequest, DieSpec, Face, Throw, face_from_shown
from rules.errors import DicetableError, ThrowMismatch

if TYPE_CHECKING:
    from firmware_bridge.motion import watch_motion

#: Reads every die of one kind in a frame: (image_bgr, colour namer) -> readings.
FrameReader = Callable[[np.ndarray, ColourNamer | None], list[DieReading]]

#: The frame reader for each kind of die, as "module:function" or "module:Class" (imported
#: when first used): pips for the d6, the taught faces of ``dicetable calibrate faces`` for
#: numbered dice.
FRAME_READERS: dict[int, str] = {
    6: "reader.camera.frame_reader:FrameReading",
    **{sides: f"reader.camera.numbered.frame:read_d{sides}" for sides in (4, 8, 10, 12, 20)},
}


class CameraTimeout(DicetableError):
    """No settled throw answering the request was seen in time."""


def frame_reader(sides: int) -> FrameReader:
    """The reader registered for ``sides``-sided dice (a class registered there is a reader
    that keeps something from frame to frame: a new one is made for each stream)."""
    if sides not in FRAME_READERS:
        kinds = ", ".join(f"d{s}" for s in sorted(FRAME_READERS))
        raise ThrowMismatch(f"the camera cannot read a d{sides} yet (it reads {kinds})")
    module, _, function = FRAME_READERS[sides].partition(":")
    reader = getattr(importlib.import_module(module), function)
    return reader() if isinstance(reader, type) else reader


def _stderr(text: str) -> None:
    sys.stderr.write(f"dicetable: {text}\n")
    sys.stderr.flush()


def _quiet(text: str) -> None:
    """A trace that goes nowhere."""


@dataclass(frozen=True)
class Verdict:
    """What a settled scene says about a request: the throw (and the readings behind its faces,
    in the same order), or why it does not answer the request."""

    throw: Throw | None
    problem: str | None = None
    dice: tuple[DieReading, ...] = ()


def _same_die(a: DieReading, b: DieReading) -> bool:
    """The same die lying where it lay (or nudged by half its size while the others were thrown)."""
    reach = max(a.box[2] - a.box[0], a.box[3] - a.box[1]) * 0.5
    return (abs(a.center[0] - b.center[0]) <= reach and abs(a.center[1] - b.center[1]) <= reach
            and a.value == b.value and a.colour == b.colour)


def crop_jpeg(image: np.ndarray, box: tuple[int, int, int, int], largest: int = 96) -> bytes:
    """A small JPEG of a die (its box grown by a quarter): the roll log stores it as a blob."""
    x0, y0, x1, y1 = box
    pad = max(x1 - x0, y1 - y0) // 4
    h, w = image.shape[:2]
    crop = image[max(0, y0 - pad):min(h, y1 + pad), max(0, x0 - pad):min(w, x1 + pad)]
    scale = largest / max(crop.shape[:2])
    if scale < 1:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return data.tobytes() if ok else b""


def require_colours(request: DiceRequest) -> None:
    """Refuse a request whose designated dice the camera could only tell apart by guessing.

    Dice without a colour are told apart from the coloured ones; among themselves they must all
    play the same part (plain dice, or the wild dice thrown again alone), else it would be a guess.
    """
    blind = {spec.role for spec in request.dice if not spec.colour}
    if len(blind) > 1:
        roles = " and ".join(sorted(role.value for role in blind if role is not None))
        raise ThrowMismatch(f"the camera tells designated dice apart by colour, and the {roles} dice have none "
                            "(name the wild die's colour with --wild, the tens die's with --tens)")


def _face(spec: DieSpec, reading: DieReading) -> Face:
    value = reading.value if reading.value is not None and 1 <= reading.value <= spec.sides else \
        face_from_shown(int(reading.value or 0), spec.sides)
    return Face(value, spec.sides, spec.role, reading.colour, None, round(reading.confidence, 3))


def match_request(request: DiceRequest, readings: list[DieReading], left: int = 0) -> Verdict:
    """Order ``readings`` as ``request`` asks (designated colours first) or say what is wrong.

    ``left`` is the number of dice lying from the previous throw that were not counted.
    """
    unread = [r for r in readings if r.status is not ReadStatus.OK]
    if unread:
        r = unread[0]
        where = f"the {r.colour} die at ({r.center[0]:.0f}, {r.center[1]:.0f})"
        more = f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""
        return Verdict(None, problem=f"cannot read {where}{more}: {r.reason or 'unreadable'}; "
                                     "turn it flat on the table or throw again")
    if len(readings) != request.count:
        lying = f", not counting {left} left from the last throw" if left else ""
        return Verdict(None, problem=f"{request.purpose}: expected {request.count} dice ({request.describe()}), "
                                     f"see {len(readings)}{lying}; fix the dice or throw again")
    wrong_sides = [r for r in readings if r.sides not in {s.sides for s in request.dice}]
    if wrong_sides:
        return Verdict(None, problem=f"{request.purpose}: a d{wrong_sides[0].sides} is not part of "
                                     f"{request.describe()}")
    pool = sorted(readings, key=lambda r: (round(r.center[1] / 40), r.center[0]))
    by_colour: dict[str, list[DieSpec]] = {}
    for spec in request.dice:
        if spec.role is not None and spec.colour:
            by_colour.setdefault(spec.colour, []).append(spec)
    for colour, specs in by_colour.items():
        seen = sum(r.colour == colour for r in pool)
        if seen != len(specs):
            roles = " and ".join(sorted({s.role.value for s in specs if s.role}))
            return Verdict(None, problem=f"{request.purpose}: expected {len(specs)} {colour} dice ({roles}), "
                                         f"see {seen}; fix the dice or throw again")
    faces: list[Face] = []
    chosen: list[DieReading] = []
    for spec in request.dice:
        designated = spec.role is not None and spec.colour
        reading = next(r for r in pool if (r.colour == spec.colour if designated else r.colour not in by_colour))
        pool.remove(reading)
        chosen.append(reading)
        faces.append(_face(spec, reading))
    return Verdict(Throw(tuple(faces), "camera"), dice=tuple(chosen))


@dataclass(frozen=True)
class SettledScene:
    """The dice of one settled throw (voted over its last still frames) and the frame they lie in."""

    frame: Frame
    readings: list[DieReading]


def settled_scenes(frames: FrameInput, read: FrameReader, namer: ColourNamer | None,
                   settle: SettleConfig = SettleConfig(), trace: Callable[[str], None] = _quiet,
                   armed: bool | None = None,
                   tray_moving: Callable[[], bool] | None = None) -> Iterator[SettledScene | None]:
    """Per frame: ``None`` while nothing settled, the read scene when a throw has just settled.

    Each still image is a settled scene of its own. A live camera starts disarmed (unless
    ``armed`` says otherwise): what lies on the table belongs to an earlier throw. Phase
    changes go to ``trace``. ``tray_moving`` gates settling on a tray motion sensor.
    """
    detector = SettleDetector(settle, armed=not frames.live if armed is None else armed, tray_moving=tray_moving)
    phase = None
    for frame in frames.frames():
        if frames.continuous:
            stills = detector.update(frame.image, frame.time)
            if detector.phase is not phase:
                phase = detector.phase
                trace(f"{frame.time:6.2f} s  {PHASE_TEXT[phase]}")
            if stills is None:
                yield None
                continue
        else:
            stills = [frame.image]
        yield SettledScene(frame, vote([read(image, namer) for image in stills]))


#: What each settle phase means to a player watching the demo.
PHASE_TEXT: dict[Phase, str] = {
    Phase.STILL: "scene still, waiting a moment to be sure",
    Phase.MOVING: "motion (dice rolling, a hand moving): frames are not read",
    Phase.HAND: "a hand is in view: not reading",
    Phase.READ: "settled: reading the dice",
    Phase.DONE: "read; waiting for the next throw",
}


_ENDED = SettledScene(Frame(0.0, np.zeros((1, 1, 3), np.uint8), "end of input"), [])


class CameraSource(DiceSource):
    """Dice thrown in front of a camera (or recorded in a video, or photographed)."""

    name = "camera"

    def __init__(self, frames: FrameInput, namer: ColourNamer | None = None, *,
                 settle: SettleConfig = SettleConfig(), timeout: float | None = None,
                 notify: Callable[[str], None] = _stderr, trace: Callable[[str], None] = _quiet,
                 reader: FrameReader | None = None, tray: TrayMotion | None = None) -> None:
        self._input = frames
        self._namer = namer
        self._settle = settle
        self._timeout = timeout
        self._notify = notify
        self._trace = trace
        self._reader = reader
        self._tray = tray
        self._scenes: Iterator[SettledScene | None] | None = None
        self._last: list[DieReading] = []

    def _scene_stream(self, sides: int) -> Iterator[SettledScene | None]:
        if self._scenes is None:
            read = self._reader or frame_reader(sides)
            moving = self._tray.moving if self._tray is not None else None
            self._scenes = settled_scenes(self._input, read, self._namer, self._settle, self._trace,
                                          tray_moving=moving)
        return self._scenes

    async def throw(self, request: DiceRequest) -> Throw:
        sides = {spec.sides for spec in request.dice}
        if len(sides) > 1:
            raise ThrowMismatch(f"the camera reads one kind of die per throw, not {request.describe()}")
        require_colours(request)
        scenes = self._scene_stream(sides.pop())
        self._notify(f"throw {request.describe()} ({request.purpose})")
        started = time.monotonic()
        while True:
            if self._timeout is not None and time.monotonic() - started > self._timeout:
                raise CameraTimeout(f"no settled throw of {request.describe()} within {self._timeout:g} s")
            # a live camera blocks while waiting for its next frame: keep the event loop free
            scene = await asyncio.to_thread(next, scenes, _ENDED) if self._input.live else next(scenes, _ENDED)
            if scene is _ENDED:
                raise InputError(f"{self._input.name} ended before a throw of {request.describe()} was read")
            if scene is None:
                continue
            readings = scene.readings
            self._trace(f"{'':8} {describe_readings(readings)}")
            new = readings
            if self._input.continuous and self._last:
                new = [r for r in readings if not any(_same_die(r, old) for old in self._last)]
            if not new and self._input.continuous:
                continue  # nothing was thrown (a hand passed over the table)
            if len(new) < len(readings):
                self._trace(f"{'':8} {len(readings) - len(new)} left lying from the last throw; "
                            f"thrown now: {describe_readings(new)}")
            verdict = match_request(request, new, len(readings) - len(new))
            if verdict.throw is None:
                self._notify(verdict.problem or "")
                continue
            self._last = readings
            image = scene.frame.image
            evidence = {"camera": {"input": self._input.name, "frame": scene.frame.label,
                                   "time": round(scene.frame.time, 3), "dice": [r.to_json() for r in verdict.dice],
                                   "crops_jpeg": [crop_jpeg(image, r.box) for r in verdict.dice]}}
            return Throw(verdict.throw.faces, self.name, evidence)

    async def close(self) -> None:
        self._input.close()
        if self._tray is not None:
            self._tray.close()


def describe_readings(readings: list[DieReading]) -> str:
    """``3 dice: 6 (red), 3 (white), ? (white: cocked)`` style text."""
    parts = [f"{r.value} ({r.colour})" if r.status is ReadStatus.OK else f"? ({r.colour}: {r.reason})"
             for r in readings]
    if not parts:
        return "no dice on the table"
    return f"{len(parts)} {'die' if len(parts) == 1 else 'dice'}: " + ", ".join(parts)


def known_colour(namer: ColourNames, colour: str | None, option: str) -> None:
    """Refuse a designated colour the namer can never give (a typo would wait forever)."""
    if colour and colour not in namer.known:
        raise InputError(f"{option} {colour}: not a colour the camera knows ({', '.join(namer.known)}); "
                         "calibrate it with 'dicetable calibrate colours'")


def open_camera_source(scheme: str, rest: str, args: argparse.Namespace) -> DiceSource:
    """The ``--source camera:0`` / ``camera:PATH`` factory (see ``reader/cli/sources.py``)."""
    namer = ColourNames.load()
    known_colour(namer, getattr(args, "wild", None), "--wild")
    known_colour(namer, getattr(args, "tens", None), "--tens")
    frames = open_input(rest or "0")
    timeout = getattr(args, "timeout", None) if frames.live else None
    board = getattr(args, "board", None)
    return CameraSource(frames, namer, timeout=timeout, tray=TrayMotion.open(board) if board else None)


class TrayMotion:
    """The dice-table board's tray motion sensor, watched over its serial link for the camera."""

    def __init__(self, watcher: watch_motion) -> None:
        self._watcher = watcher
        self._feed = watcher.__enter__()  # opens the link; close() leaves it

    @classmethod
    def open(cls, where: str) -> TrayMotion:
        """Open the board at ``where`` (a port, ``usb:VID:PID`` or a pyserial URL) and watch its motion."""
        from firmware_bridge.motion import watch_motion

        return cls(watch_motion(where))

    def moving(self) -> bool:
        """True while the board last reported the tray moving."""
        return bool(self._feed.moving)

    def close(self) -> None:
        """Release the serial link."""
        self._watcher.__exit__(None, None, None)
