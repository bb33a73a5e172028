"""When to read a throw: after the dice have come to rest, once, with no hand in view.

Each frame is turned grey and shrunk to a small thumbnail (area averaging also averages
sensor noise away) and compared with the previous thumbnail and with the first thumbnail of the current
still stretch, so neither a tumble nor a slow slide passes as still. A throw is *settled*
when the scene has been still for ``window`` seconds of frame time (timestamps, not frame
counts, so a slow camera waits as long as a fast one) and no hand is in view. The detector
then hands out the last few still frames for voting and disarms; the next motion re-arms it.

A hand (or an arm, a sleeve) is a large region that differs from the table's colour and
touches the frame's border, since arms reach in from the edge. Whatever already touches the
border in the very first frame (a cable, a laptop's edge, a dice tray's wall) is scenery and
ignored. The hand test runs only when a read is about to happen, so the per-frame cost stays
that of the thumbnail and two differences (see ``bench/camera_speed.py``).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum

import cv2
import numpy as np

from reader.camera.reading import DieReading, ReadStatus


@dataclass(frozen=True)
class SettleConfig:
    """Tuning of the settle detector (thumbnail pixels are grey levels 0-255)."""

    window: float = 0.25          # seconds the scene must stay still before a read
    width: int = 160              # thumbnail width; height follows the frame's aspect
    pixel_change: int = 14        # a thumbnail pixel changed when it moved by more than this
    moving_pixels: float = 0.0004  # fraction of changed pixels (at least 3) that means motion
    votes: int = 3                # still frames handed out for a per-die vote
    table_difference: int = 45    # colour distance from the table that counts as an object
    reference_difference: int = 10  # colour change since the last read scene that counts as new
    hand_patience: float = 3.0    # seconds a "hand" may stay perfectly still before it is scenery
    hand_area: float = 0.02       # fraction of the frame a border-touching object needs to be a hand


class Phase(str, Enum):
    """What the detector is waiting for."""

    MOVING = "moving"      # something moved in the last frame
    STILL = "still"        # still, but not yet for the whole window (or a hand is in view)
    HAND = "hand"          # still long enough, but a hand is in view
    READ = "read"          # the throw was just handed out for reading
    DONE = "done"          # read; waiting for the next motion to re-arm


class SettleDetector:
    """Feed it every frame with its timestamp; it says when a throw has settled.

    ``armed=False`` waits for motion before the first read (a live camera: dice already on
    the table belong to an earlier throw). ``tray_moving``, when given, is asked on every frame
    whether a motion sensor feels the table move (see :mod:`firmware_bridge.motion`); while it
    does, no frame counts as still.
    """

    def __init__(self, config: SettleConfig = SettleConfig(), armed: bool = True,
                 tray_moving: Callable[[], bool] | None = None) -> None:
        self.config = config
        self.armed = armed
        self._tray_moving = tray_moving
        self.phase = Phase.STILL if armed else Phase.DONE
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None
        self._still_since = 0.0
        self._scenery: np.ndarray | None = None
        self._reference = np.zeros((1, 1, 3), np.int16)
        self._frames: deque[np.ndarray] = deque(maxlen=config.votes)

    def thumbnail(self, frame: np.ndarray) -> np.ndarray:
        """The frame shrunk to ``width`` (grey for the motion test, colour for the hand test)."""
        h, w = frame.shape[:2]
        width = min(self.config.width, w)
        return cv2.resize(frame, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> bool:
        diff = cv2.absdiff(a, b)
        _, mask = cv2.threshold(diff, self.config.pixel_change, 255, cv2.THRESH_BINARY)
        return cv2.countNonZero(mask) >= max(3, self.config.moving_pixels * a.size)

    def is_still(self, frame: np.ndarray) -> bool:
        """The per-frame still check alone (what the benchmark times); updates the state."""
        grey = self.thumbnail(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
        if self._prev is None or self._anchor is None:
            small = self.thumbnail(frame)
            self._scenery = self._border_objects(self._off_table(small) > self.config.table_difference)
            self._learn_scene(small)
            self._prev = self._anchor = grey
            return True
        moving = self._changed(grey, self._prev) or self._changed(grey, self._anchor)
        self._prev = grey
        if moving:
            self._anchor = grey
        return not moving

    def update(self, frame: np.ndarray, time: float) -> list[np.ndarray] | None:
        """Feed one frame; returns the still frames to read when the throw has just settled."""
        first = self._prev is None
        # a motion sensor in the tray (the dice-table board) overrules a frame that looks still:
        # dice sliding slowly or rocking on an edge can fool frame differencing, not the sensor
        still = self.is_still(frame) and not (self._tray_moving is not None and self._tray_moving())
        if first or not still:
            if not still:
                self.armed = True
            self._still_since = time
            self._frames.clear()
        self._frames.append(frame)
        if not self.armed:
            self.phase = Phase.DONE
        elif not still:
            self.phase = Phase.MOVING
        elif time - self._still_since < self.config.window - 1e-6:
            self.phase = Phase.STILL
        else:
            small = self.thumbnail(frame)
            if self.hand_in_view(small, time - self._still_since):
                self.phase = Phase.HAND
                return None
            self._learn_scene(small)
            self.armed = False
            self.phase = Phase.READ
            return list(self._frames)
        return None

    def _border_objects(self, mask: np.ndarray) -> np.ndarray:
        """The parts of ``mask`` that look like a hand: large components touching the border, or
        very large ones anywhere (an arm the colour of the table shows only as a hand)."""
        mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        h, w = mask.shape
        big = np.zeros(count, bool)
        for i in range(1, count):
            x, y, bw, bh, area = stats[i]
            touches = x == 0 or y == 0 or x + bw == w or y + bh == h
            big[i] = area >= self.config.hand_area * w * h * (1 if touches else 2.5)
        return big[labels]

    def _off_table(self, small: np.ndarray) -> np.ndarray:
        """Per-pixel colour distance from the table (the median colour of the thumbnail)."""
        table = np.median(small.reshape(-1, 3), axis=0).astype(np.int16)
        return np.abs(small.astype(np.int16) - table).max(axis=2)

    def _learn_scene(self, small: np.ndarray) -> None:
        """Remember the scene as it is: what a hand is told apart from."""
        self._reference = small.astype(np.int16)

    def hand_in_view(self, small: np.ndarray, still_for: float = 0.0) -> bool:
        """True when a large object reaches in from the border that was not there before.

        An object is what is far from the table's colour, or what changed since the last read
        scene (skin on a wooden table is close to the table's colour).
        Whatever touched the border in the first frame is scenery. A change over most of the
        frame is the light or the camera, not a hand; and a "hand" that has not trembled for
        ``hand_patience`` seconds is scenery too (a real hand is never that still).
        """
        cfg = self.config
        off_table = self._off_table(small)
        changed = np.abs(small.astype(np.int16) - self._reference).max(axis=2) > cfg.reference_difference
        if changed.mean() > 0.5:
            self._learn_scene(small)
            changed[:] = False
        mask = (off_table > cfg.table_difference) | changed
        objects = self._border_objects(mask)
        if self._scenery is not None:
            objects &= ~self._scenery
        # half the area again: scenery the hand overlaps is subtracted from it
        hand = int(objects.sum()) >= cfg.hand_area * objects.size * 0.5
        if hand and still_for >= cfg.window + cfg.hand_patience:
            self._learn_scene(small)
            return False
        return hand


def vote(frames: list[list[DieReading]]) -> list[DieReading]:
    """One reading per die from several still frames' readings (matched by centre).

    Dice are taken from the last frame; each gets the majority value of the frames in which a
    die lies at the same place. A die whose frames disagree without a majority is unreadable.
    """
    *earlier, last = frames
    voted = []
    for die in last:
        reach = max(die.box[2] - die.box[0], die.box[3] - die.box[1]) * 0.4
        same = [die] + [r for readings in earlier for r in readings
                        if abs(r.center[0] - die.center[0]) <= reach and abs(r.center[1] - die.center[1]) <= reach]
        values = Counter(r.value for r in same if r.status is ReadStatus.OK)
        colour = Counter(r.colour for r in same).most_common(1)[0][0]
        value, n = values.most_common(1)[0] if values else (None, 0)
        if n * 2 > len(same):
            best = max((r for r in same if r.value == value), key=lambda r: r.confidence)
            voted.append(replace(best, center=die.center, box=die.box, colour=colour,
                                 confidence=best.confidence * n / len(same)))
        elif len(values) > 1:
            voted.append(replace(die, value=None, colour=colour, status=ReadStatus.UNREADABLE, confidence=0.0,
                                 reason=f"the face read differently in the still frames ({dict(values)})"))
        else:
            failed = next(r for r in same if r.status is ReadStatus.UNREADABLE)
            voted.append(replace(failed, center=die.center, box=die.box, colour=colour))
    return voted
