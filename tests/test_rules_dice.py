"""The dice vocabulary, the request/throw protocol and the virtual and scripted sources."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, strategies as st

from reader.sources.scripted import ScriptedDice, parse_faces
from reader.sources.virtual import VirtualDice
from rules.dice import (DiceRequest, DieSpec, Face, Role, Throw, check_throw, face_from_percentile_tens,
                        face_from_shown, requested)
from rules.errors import ThrowMismatch
from rules.protocol import drive, drive_async


def test_d10_zero_reads_ten_and_digit_round_trips() -> None:
    assert face_from_shown(0, 10) == 10
    assert face_from_shown(7, 10) == 7
    assert Face(10, 10).digit == 0
    with pytest.raises(ThrowMismatch):
        face_from_shown(10, 10)


def test_percentile_tens_printed_values() -> None:
    assert face_from_percentile_tens(0) == 10
    assert face_from_percentile_tens(90) == 9
    with pytest.raises(ThrowMismatch):
        face_from_percentile_tens(55)


@pytest.mark.parametrize("shown,sides", [(0, 6), (7, 6), (21, 20), (-1, 4), (3, 2)])
def test_impossible_faces_are_refused(shown: int, sides: int) -> None:
    with pytest.raises(ThrowMismatch):
        face_from_shown(shown, sides)


def test_unknown_die_size_is_refused() -> None:
    with pytest.raises(ThrowMismatch, match="no d7"):
        DieSpec(7)


def test_check_throw_counts_sides_and_colours() -> None:
    request = DiceRequest((DieSpec(6, Role.WILD, "red"), DieSpec(6)))
    good = check_throw(request, Throw((Face(3, 6, colour="red"), Face(4, 6))))
    assert good.faces[0].role is Role.WILD and good.faces[1].role is None
    with pytest.raises(ThrowMismatch, match="expected 2 dice"):
        check_throw(request, Throw((Face(3, 6),)))
    with pytest.raises(ThrowMismatch, match="should be a d6"):
        check_throw(request, Throw((Face(3, 6), Face(4, 8))))
    with pytest.raises(ThrowMismatch, match="should be red"):
        check_throw(request, Throw((Face(3, 6, colour="blue"), Face(4, 6))))


def test_describe_names_designated_dice_first() -> None:
    request = DiceRequest((DieSpec(6, Role.WILD, "red"), *requested(6, 3)))
    assert request.describe() == "wild d6 (red) + 3d6"


def _two_stage():
    first = yield DiceRequest(requested(6, 2), "first")
    second = yield DiceRequest((DieSpec(6, Role.WILD),), "again")
    return first.values + second.values


def test_drive_answers_each_stage_in_order() -> None:
    assert drive(_two_stage(), ScriptedDice([1, 2, 3]).throw_now) == (1, 2, 3)


def test_scripted_faces_too_few_and_too_many() -> None:
    with pytest.raises(ThrowMismatch, match="too few faces"):
        drive(_two_stage(), ScriptedDice([1, 2]).throw_now)
    source = ScriptedDice([1, 2, 3, 4])
    drive(_two_stage(), source.throw_now)
    with pytest.raises(ThrowMismatch, match="too many faces"):
        source.finish()


def test_scripted_faces_must_be_numbers() -> None:
    with pytest.raises(ThrowMismatch, match="whole numbers"):
        parse_faces("6,x")
    assert parse_faces(" 6, 3,5 ") == [6, 3, 5]


def test_seeded_virtual_dice_repeat_and_stay_in_range() -> None:
    request = DiceRequest(tuple(DieSpec(s) for s in (2, 4, 6, 8, 10, 12, 20)) * 20)
    a = VirtualDice(7).throw_now(request)
    assert a == VirtualDice(7).throw_now(request)
    assert all(1 <= f.value <= f.sides for f in a.faces)
    unseeded = VirtualDice()
    values = {unseeded.throw_now(DiceRequest((DieSpec(20),))).values[0] for _ in range(400)}
    assert len(values) > 10  # the system generator really varies


@given(st.lists(st.integers(-3, 25), min_size=1, max_size=6))
def test_scripted_source_never_returns_an_impossible_face(shown: list[int]) -> None:
    request = DiceRequest(tuple(DieSpec(10) for _ in shown))
    try:
        throw = ScriptedDice(shown).throw_now(request)
    except ThrowMismatch:
        assert any(not 0 <= s <= 9 for s in shown)
    else:
        assert [f.digit for f in throw.faces] == shown


def test_the_same_resolver_runs_inside_asyncio() -> None:
    async def answer(request: DiceRequest) -> Throw:
        await asyncio.sleep(0)  # a real source waits for frames or notifications here
        return ScriptedDice.throw_now(source, request)

    source = ScriptedDice([1, 2, 3])
    assert asyncio.run(drive_async(_two_stage(), answer)) == (1, 2, 3)


def test_a_throw_that_does_not_answer_the_request_never_reaches_the_resolver() -> None:
    seen: list[Throw] = []

    def resolver():
        seen.append((yield DiceRequest(requested(6, 2))))

    with pytest.raises(ThrowMismatch):
        drive(resolver(), lambda request: Throw((Face(3, 6),)))
    assert seen == []
