"""A camera's frames are searched at the scale found for the frame before, and sized afresh
when the dice no longer suit it."""

from __future__ import annotations

from reader.camera.frame_reader import FrameReading, SearchScale, read_frame
from reader.camera.reading import ReadStatus
from reader.camera.render import TABLES, Scene, render, scatter


def _values(readings) -> list[int]:
    return sorted(r.value for r in readings if r.status is ReadStatus.OK)


def _within(read: list[int], truth: list[int]) -> bool:
    """Whether every value read is one of the dice shown (none read twice, none invented)."""
    left = list(truth)
    for value in read:
        if value not in left:
            return False
        left.remove(value)
    return True


def _frame(die_size: float, seed: int) -> tuple:
    dice = scatter(5, (1280, 720), die_size=die_size, seed=seed, colours=("white", "red", "blue"))
    image, truths = render(Scene(dice=dice, table=TABLES["felt"], seed=seed))
    return image, sorted(t.value for t in truths)


def test_a_cameras_frames_are_read_at_the_scale_found_first() -> None:
    image, truth = _frame(70.0, 4)
    memo = SearchScale()
    first = _values(read_frame(image, None, memo))
    assert _within(first, truth) and len(first) >= len(truth) - 1
    assert memo.scale is not None and memo.scale < 1.0  # big pips: searched at a reduced size
    scale = memo.scale
    again, truth_again = _frame(70.0, 5)
    read = _values(read_frame(again, None, memo))
    assert read == _values(read_frame(again)) and _within(read, truth_again) and len(read) >= len(truth_again) - 1
    assert memo.scale == scale


def test_dice_that_grow_or_shrink_in_view_are_sized_afresh() -> None:
    reader = FrameReading()
    for die_size, seed in ((40.0, 1), (130.0, 2), (40.0, 3), (90.0, 4)):
        image, truth = _frame(die_size, seed)
        read = _values(reader(image))
        assert read == _values(read_frame(image)) and _within(read, truth), (die_size, read, truth)


def test_a_wrong_remembered_scale_is_dropped_not_trusted() -> None:
    image, truth = _frame(40.0, 6)
    memo = SearchScale(0.5)  # too coarse for these small pips
    read = _values(read_frame(image, None, memo))
    assert read == _values(read_frame(image)) and _within(read, truth)
    assert memo.scale is None or memo.scale > 0.5
