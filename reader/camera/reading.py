"""What the camera reader reports for each die it finds in a frame."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np


class ReadStatus(str, Enum):
    """Whether a die's top face could be read."""

    OK = "ok"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class DieCandidate:
    """A die found in the image, before (or independently of) reading its value.

    ``quad`` holds the four corners (float32, shape 4x2, image pixels) of the top face;
    ``contour`` is the same outline as an OpenCV contour (int32, shape Nx1x2).
    ``body_mask`` is box-local: a uint8 array of the shape of ``box`` (rows y0..y1, columns
    x0..x1, end-exclusive) that is 255 on the top face's body pixels (pips and the face's
    border excluded), i.e. the pixels to name the die's colour from.
    ``pip_polarity`` is ``"dark"`` (pips darker than the body), ``"light"`` or ``None``
    when no pips were seen. ``pip_radius`` is the mean pip radius in pixels (0 if none).
    """

    box: tuple[int, int, int, int]
    center: tuple[float, float]
    quad: np.ndarray
    contour: np.ndarray
    body_mask: np.ndarray
    pip_polarity: str | None = None
    pip_radius: float = 0.0


@dataclass(frozen=True)
class DieReading:
    """One die as read from a frame: its value, or why it could not be read.

    ``shape`` is the class of the die's outline seen from above (numbered dice: ``triangle``,
    ``bar``, ``kite``, ``square``, ``hexagon``, ``decagon``), ``None`` where it is not measured.
    """

    value: int | None
    sides: int
    colour: str
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float
    status: ReadStatus
    reason: str | None
    shape: str | None = None

    def to_json(self) -> dict[str, object]:
        """The reading as plain JSON types (``shape`` only where it was measured)."""
        out: dict[str, object] = {
            "value": self.value, "sides": self.sides, "colour": self.colour,
            "center": [round(float(c), 1) for c in self.center],
            "box": [int(v) for v in self.box], "confidence": round(float(self.confidence), 3),
            "status": self.status.value, "reason": self.reason}
        if self.shape is not None:
            out["shape"] = self.shape
        return out
