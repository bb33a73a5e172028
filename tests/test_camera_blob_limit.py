"""A search keeps at most ``MAX_BLOBS`` blobs, those that stand out most: a 12 MP photo of
fine wood grain gave 13000, and comparing every blob and face with every other took 13 GB."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import reader.camera.pips as pips_module
from reader.camera.pips import search_pips

#: The table's level, and how far the clear and the faint dots stand out from it.
TABLE, CLEAR, FAINT = 180, 150, 45


def _dots() -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A grey table with a grid of dots 4 px in radius, every third one dark and clear, the
    rest faint; and the clear dots' centres."""
    image = np.full((600, 800), TABLE, np.uint8)
    clear = []
    for k, (y, x) in enumerate((y, x) for y in range(30, 600, 40) for x in range(30, 800, 40)):
        level = TABLE - (CLEAR if k % 3 == 0 else FAINT)
        cv2.circle(image, (x, y), 4, level, -1, cv2.LINE_AA)
        if k % 3 == 0:
            clear.append((x, y))
    return image, clear


def test_only_the_clearest_blobs_are_kept_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    image, clear = _dots()
    every = search_pips(image).pips
    assert len(every) == 300  # (15 rows of 20 dots: under the limit, all are kept)
    monkeypatch.setattr(pips_module, "MAX_BLOBS", 150)
    kept = search_pips(image).pips
    assert len(kept) == 150
    # every clear dot is among them, and the rest are the clearest of the faint ones
    assert all(any(abs(p.x - x) < 1 and abs(p.y - y) < 1 for p in kept) for x, y in clear)
    least_kept = min(p.contrast for p in kept)
    assert sum(p.contrast > least_kept for p in every) < 150
