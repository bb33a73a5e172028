"""How grainy a frame's surface is round a point: the fine texture a die's pips must clear.

A table's grain (wood, cork, a noisy sensor in dim light) throws up specks and knots that
stand out from their neighbourhood as far as a faint pip does. The frame's texture as a
whole (:class:`reader.camera.pips.PipSearch`) cannot tell: a photo of a dark dice tray on
a wooden table is mostly smooth tray, and the wood round it showed dozens of dice. Here the
grain is measured where each face lies: the median, over a neighbourhood about one and a
half times a pip's search block across, of how far each pixel strays from its 3 x 3
neighbourhood's mean. A die's body is smooth, and its pips' rims are a small share of the
neighbourhood: the dice themselves hardly raise it. (Near the edge of a grainy patch the
smooth surface beside it makes up part of the neighbourhood and lowers the grain measured
there.)
"""

from __future__ import annotations

import cv2
import numpy as np

from reader.camera.pips import pip_block_size

#: The grain is read on every ``GRAIN_STEP``-th pixel of every ``GRAIN_STEP``-th row: sensor
#: noise and grain a pixel or two across still show there, at a quarter of the cost.
GRAIN_STEP = 2
#: The neighbourhood is this many of the frame's pip search blocks across (a tenth of the
#: frame's short side each, see :func:`reader.camera.pips.pip_block_size`).
GRAIN_BLOCKS = 1.5


class SurfaceGrain:
    """The grain of one grey frame, read at a point on demand (a frame asks at each group of
    pips it finds: a dozen or so, a few thousand on a grainy photo)."""

    def __init__(self, grey: np.ndarray) -> None:
        sampled = np.ascontiguousarray(grey[::GRAIN_STEP, ::GRAIN_STEP])
        self._strays = cv2.absdiff(sampled, cv2.GaussianBlur(sampled, (3, 3), 0))
        self._reach = max(1, round(GRAIN_BLOCKS * pip_block_size(grey.shape) / (2 * GRAIN_STEP)))

    def at(self, x: float, y: float) -> float:
        """The grain (grey levels) round the point (x, y) of the frame."""
        col, row = int(x) // GRAIN_STEP, int(y) // GRAIN_STEP
        reach = self._reach
        window = self._strays[max(0, row - reach):max(0, row + reach + 1),
                              max(0, col - reach):max(0, col + reach + 1)].ravel()
        if not window.size:
            return 0.0
        middle = window.size // 2
        return float(np.partition(window, middle)[middle])
