"""A histogram picture of each audited die's face counts (PNG through OpenCV, no plotting library)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rules.audit import DieAudit, Verdict
from rules.errors import DicetableError

if TYPE_CHECKING:  # OpenCV and numpy are imported only when a picture is drawn
    import numpy

PANEL_W, PANEL_H, MARGIN = 720, 260, 40
#: BGR colours of the bars by verdict, and of the fair-die line.
COLOURS = {Verdict.LOADED: (40, 40, 220), Verdict.FAIR: (60, 160, 60), Verdict.UNDECIDED: (160, 160, 160)}
EXPECTED_LINE = (200, 120, 0)


class PlotError(DicetableError):
    """The histogram picture cannot be written."""


def draw(audits: Sequence[tuple[str, DieAudit]]) -> numpy.ndarray:
    """One panel per die: a bar per face, the fair expectation as a line, the verdict as a title."""
    import cv2
    import numpy as np

    image = np.full((PANEL_H * max(1, len(audits)), PANEL_W, 3), 255, np.uint8)
    for row, (name, audit) in enumerate(audits):
        top = row * PANEL_H
        base = top + PANEL_H - MARGIN
        expected = audit.rolls / audit.sides
        peak = max(max(audit.counts, default=0), expected, 1)
        scale = (PANEL_H - 2 * MARGIN - 10) / peak
        width = (PANEL_W - 2 * MARGIN) / audit.sides
        for i, count in enumerate(audit.counts):
            x0 = int(MARGIN + i * width + width * 0.1)
            x1 = int(MARGIN + (i + 1) * width - width * 0.1)
            cv2.rectangle(image, (x0, int(base - count * scale)), (x1, base), COLOURS[audit.verdict], -1)
            if audit.sides <= 30:
                cv2.putText(image, str(i + 1), (x0, base + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1)
        y = int(base - expected * scale)
        cv2.line(image, (MARGIN, y), (PANEL_W - MARGIN, y), EXPECTED_LINE, 2)
        title = f"{name}: {audit.rolls} rolls, p = {audit.p_value:.3g}, {audit.verdict.value}"
        cv2.putText(image, title, (MARGIN, top + 24), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1)
    return image


def write_png(audits: Sequence[tuple[str, DieAudit]], path: Path) -> None:
    """Write the histogram of ``audits`` to ``path`` as PNG."""
    import cv2

    ok, data = cv2.imencode(".png", draw(audits))
    if not ok:
        raise PlotError("OpenCV could not encode the histogram")
    try:
        Path(path).write_bytes(data.tobytes())
    except OSError as err:
        raise PlotError(f"cannot write {path}: {err}") from None
