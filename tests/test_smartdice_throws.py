"""The events -> throw state machine, without any radio."""

from __future__ import annotations

import pytest

from reader.smartdice.die_events import Crooked, Handled, Rest, Rolling, Status
from reader.smartdice.errors import RegistryError
from reader.smartdice.registry import Family, RegisteredDie
from reader.smartdice.throws import DieState, ThrowTracker
from rules.dice import DiceRequest, DieSpec, Role

RED = RegisteredDie("r1", Family.PIXELS, "d6", colour="red")
BLUE = RegisteredDie("b1", Family.PIXELS, "d6", colour="blue", name="Bluey")
GREEN = RegisteredDie("g1", Family.PIXELS, "d6", colour="green")
D20 = RegisteredDie("t1", Family.PIXELS, "d20")
DICE = [RED, BLUE, GREEN, D20]
WILD_PLUS_ONE = DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6)))


def rolled(value: int, sides: int = 6) -> Rest:
    return Rest(value, sides, rolled=True)


def test_designated_die_first_then_plain_dice_in_claim_order() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    tracker.feed(GREEN, Rolling())
    tracker.feed(RED, Rolling())
    tracker.feed(BLUE, Rolling())  # too late: the one plain slot is taken by green
    tracker.feed(GREEN, rolled(4))
    assert not tracker.complete
    tracker.feed(RED, rolled(6))
    assert tracker.complete
    faces = tracker.throw("pixels").faces
    assert [(f.value, f.role, f.colour, f.die_id) for f in faces] == [(6, Role.WILD, "red", "r1"),
                                                                     (4, None, "green", "g1")]


def test_designation_by_name_and_by_registered_role() -> None:
    tracker = ThrowTracker(DiceRequest((DieSpec(6, Role.WILD, "bluey"),)), DICE)
    assert tracker.slots[0].die is BLUE
    wild = RegisteredDie("w1", Family.PIXELS, "d6", colour="black", role=Role.WILD)
    tracker = ThrowTracker(DiceRequest((DieSpec(6, Role.WILD, "red"),)), [*DICE, wild])
    assert tracker.slots[0].die is wild  # the registered role beats the colour


def test_percentile_tens_die_is_the_registered_d00() -> None:
    d00 = RegisteredDie("p0", Family.GODICE, "d00")
    d10 = RegisteredDie("p1", Family.GODICE, "d10")
    tracker = ThrowTracker(DiceRequest((DieSpec(10, Role.TENS), DieSpec(10, Role.UNITS))), [d10, d00])
    assert [s.die for s in tracker.slots] == [d00, None]  # any other d10 may be the units die
    tracker.feed(d10, Rolling())
    tracker.feed(d00, Rest(7, 10, rolled=True))
    tracker.feed(d10, Rest(10, 10, rolled=True))
    assert [(f.value, f.role, f.die_id) for f in tracker.throw("godice").faces] == [
        (7, Role.TENS, "p0"), (10, Role.UNITS, "p1")]
    with pytest.raises(RegistryError):  # two plain d10s: which one is the tens die?
        ThrowTracker(DiceRequest((DieSpec(10, Role.TENS), DieSpec(10, Role.UNITS))), [d10, d10])


def test_missing_or_ambiguous_designated_die_is_an_error() -> None:
    with pytest.raises(RegistryError, match="no registered die fits"):
        ThrowTracker(DiceRequest((DieSpec(6, Role.WILD, "purple"),)), DICE)
    twin = RegisteredDie("r2", Family.PIXELS, "d6", colour="red")
    with pytest.raises(RegistryError, match="several registered dice"):
        ThrowTracker(DiceRequest((DieSpec(6, Role.WILD, "red"),)), [*DICE, twin])
    with pytest.raises(RegistryError, match="needs 4 more d6"):
        ThrowTracker(DiceRequest(tuple(DieSpec(6) for _ in range(4))), DICE)


def test_repeated_rolling_messages_then_rest() -> None:
    tracker = ThrowTracker(DiceRequest((DieSpec(20),)), DICE)
    for _ in range(5):
        tracker.feed(D20, Rolling())
    assert tracker.slots[0].state is DieState.ROLLING
    tracker.feed(D20, Rest(17, 20, rolled=None))  # older firmware: "on face", roll unknown
    assert tracker.complete and tracker.throw("pixels").values == (17,)


def test_rest_without_roll_does_not_count_and_is_reported() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    notes = tracker.feed(RED, Handled()) + tracker.feed(RED, Rest(3, 6, rolled=False))
    assert any("without a roll" in n for n in notes)
    notes = tracker.feed(RED, Rest(3, 6, rolled=None))  # older firmware, never seen rolling
    assert tracker.slots[0].state is DieState.WAITING and notes
    assert tracker.feed(GREEN, Rest(2, 6, rolled=None)) == []  # an unclaimed plain die is just ignored
    assert tracker.slots[1].die is None


def test_rolling_then_fake_rest_frees_the_plain_slot() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    tracker.feed(GREEN, Rolling())
    assert tracker.slots[1].die is GREEN
    notes = tracker.feed(GREEN, Rest(5, 6, rolled=False))  # GoDice fake-stable
    assert notes and tracker.slots[1].die is None
    tracker.feed(BLUE, rolled(2))
    assert tracker.slots[1].die is BLUE


def test_caught_in_the_air_must_roll_again() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    tracker.feed(RED, Rolling())
    assert tracker.feed(RED, Handled())
    tracker.feed(RED, Rest(6, 6, rolled=None))
    assert tracker.slots[0].state is DieState.WAITING


def test_settled_die_picked_up_and_put_back() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    tracker.feed(RED, rolled(5))
    tracker.feed(RED, Handled())
    assert tracker.slots[0].state is DieState.DISTURBED
    assert tracker.feed(RED, Rest(5, 6, rolled=False)) == []  # back on the same face: still 5
    assert tracker.slots[0].state is DieState.SETTLED
    notes = tracker.feed(RED, Rest(6, 6, rolled=False))  # turned to a 6 by hand
    assert any("moved" in n for n in notes) and tracker.slots[0].state is DieState.WAITING


def test_rerolled_settled_die_counts_its_new_face_once() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    tracker.feed(RED, rolled(2))
    assert tracker.feed(RED, Rolling())
    tracker.feed(RED, rolled(4))
    tracker.feed(GREEN, rolled(1))
    assert tracker.throw("pixels").values == (4, 1)


def test_crooked_die_is_reported_and_must_be_rolled_again() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    tracker.feed(RED, Rolling())
    notes = tracker.feed(RED, Crooked())
    assert any("tilted" in n for n in notes)
    assert tracker.feed(RED, Crooked()) == []  # reported once
    tracker.feed(RED, Rest(4, 6, rolled=False))  # nudged flat by hand: still not a roll
    assert tracker.slots[0].state is DieState.CROOKED
    assert any("tilted" in p for p in tracker.pending())
    tracker.feed(RED, Rolling())
    tracker.feed(RED, rolled(3))
    assert tracker.slots[0].state is DieState.SETTLED


def test_snapshots_after_reconnect() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    # a die that was idle reports its old rest: not a roll
    tracker.feed(RED, Rest(6, 6, rolled=True, snapshot=True))
    assert tracker.slots[0].state is DieState.WAITING
    # a die whose link dropped mid-roll: the snapshot finishes the roll
    tracker.feed(RED, Rolling())
    tracker.feed(RED, Rest(2, 6, rolled=False, snapshot=True))
    assert tracker.slots[0].state is DieState.SETTLED and tracker.slots[0].value == 2
    # the same state again (another reconnect) changes nothing
    tracker.feed(RED, Rest(2, 6, rolled=True, snapshot=True))
    assert tracker.slots[0].value == 2
    tracker.feed(GREEN, Rolling())
    tracker.feed(GREEN, rolled(3))
    assert tracker.throw("pixels").values == (2, 3)


def test_status_events_do_not_touch_the_throw() -> None:
    tracker = ThrowTracker(WILD_PLUS_ONE, DICE)
    assert tracker.feed(RED, Status(battery=50)) == []
    assert all(s.state is DieState.WAITING for s in tracker.slots)


def test_incomplete_throw_cannot_be_built() -> None:
    with pytest.raises(RuntimeError):
        ThrowTracker(WILD_PLUS_ONE, DICE).throw("pixels")
