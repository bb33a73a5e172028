"""From die events to a throw: which die answers which requested die, and when it is done.

Pure: no I/O, no clock. A :class:`ThrowTracker` is made per request. Designated dice are
bound up front (registered role first, then a name, then a colour matching the request);
a percentile tens die with no colour match is the registered d00, if there is one. Other
dice (plain, units, GM dice) are claimed by the first eligible registered dice that roll. A throw is complete
when every requested die has come to rest after rolling:

* a die that comes to rest without rolling (picked up and put down, a GoDice "fake" or
  "move" stable, a Pixels "on face") does not count, and is reported;
* a settled die that is moved to another face without rolling must be rolled again; one
  picked up and put back on the same face keeps its face; one rolled again counts anew;
* a tilted or crooked die is reported and must be rolled again, never guessed;
* a state a die reports after (re)connecting finishes a roll that was in flight when its
  link dropped, and is otherwise only checked against what we already know: a dropped link
  neither loses nor double-counts a throw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from reader.smartdice.die_events import Crooked, DieEvent, Handled, Rest, Rolling
from reader.smartdice.errors import RegistryError
from reader.smartdice.registry import RegisteredDie
from rules.dice import DiceRequest, DieSpec, Face, Role, Throw


class DieState(Enum):
    """Where a die stands within one throw."""

    WAITING = "not rolled yet"
    ROLLING = "still rolling"
    SETTLED = "settled"
    DISTURBED = "picked up after settling"
    CROOKED = "tilted, roll it again"


#: Roles whose die must be told apart from the others (explodes, reads as tens).
_IDENTIFIED = frozenset({Role.WILD, Role.BONUS_WILD, Role.TENS})


@dataclass
class _Slot:
    spec: DieSpec
    die: RegisteredDie | None  # None until a free slot is claimed
    bound: bool = False  # bound up front to a designated die
    state: DieState = DieState.WAITING
    value: int | None = None
    sides: int | None = None


def _bind(spec: DieSpec, dice: Sequence[RegisteredDie]) -> _Slot:
    """A slot, bound up front when the spec designates a die (units or GM dice need not)."""
    if spec.role is None:
        return _Slot(spec, None)
    if spec.role in _IDENTIFIED or spec.colour or any(d.role is spec.role for d in dice):
        return _Slot(spec, _designated(spec, dice), bound=True)
    return _Slot(spec, None)


def _designated(spec: DieSpec, dice: Sequence[RegisteredDie]) -> RegisteredDie:
    fits = [d for d in dice if d.sides == spec.sides]
    what = f"the {spec.role.value if spec.role else ''} d{spec.sides}{f' ({spec.colour})' if spec.colour else ''}"
    for rule in (lambda d: d.role is spec.role,
                 lambda d: bool(spec.colour and d.name and d.name.lower() == spec.colour.lower()),
                 lambda d: bool(spec.colour and d.colour and d.colour.lower() == spec.colour.lower()),
                 lambda d: spec.role is Role.TENS and d.die_type == "d00"):
        found = [d for d in fits if rule(d)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise RegistryError(f"{what}: several registered dice fit ({', '.join(d.label() for d in found)}); "
                                "give the die a name or a role with 'dicetable dice add'")
    raise RegistryError(f"{what}: no registered die fits; register one with 'dicetable dice add' "
                        f"(registered: {', '.join(d.label() for d in dice) or 'none'})")


class ThrowTracker:
    """Follows the registered dice through one throw answering ``request``."""

    def __init__(self, request: DiceRequest, dice: Sequence[RegisteredDie]) -> None:
        self.request = request
        self.slots = [_bind(spec, dice) for spec in request.dice]
        bound = {s.die.die_id for s in self.slots if s.die}
        self._pool = [d for d in dice if d.die_id not in bound]
        for sides in {s.spec.sides for s in self.slots if s.die is None}:
            need = sum(1 for s in self.slots if s.die is None and s.spec.sides == sides)
            have = sum(1 for d in self._pool if d.sides == sides)
            if have < need:
                raise RegistryError(f"{request.purpose} needs {need} more d{sides}, only {have} registered "
                                    "(register more with 'dicetable dice add')")

    @property
    def dice(self) -> list[RegisteredDie]:
        """Every registered die that may take part (bound or still claimable)."""
        return [s.die for s in self.slots if s.die] + [d for d in self._pool if not self._slot_of(d.die_id)]

    def _slot_of(self, die_id: str) -> _Slot | None:
        return next((s for s in self.slots if s.die and s.die.die_id == die_id), None)

    def _claim(self, die: RegisteredDie) -> _Slot | None:
        if die not in self._pool:
            return None
        slot = next((s for s in self.slots if s.die is None and s.spec.sides == die.sides), None)
        if slot is not None:
            slot.die = die
        return slot

    def feed(self, die: RegisteredDie, event: DieEvent) -> list[str]:
        """Apply one event of ``die``; returns notices for the player."""
        slot = self._slot_of(die.die_id)
        starts_roll = isinstance(event, Rolling) or (isinstance(event, Rest) and event.rolled and not event.snapshot)
        if slot is None and starts_roll:
            slot = self._claim(die)
        if slot is None:
            return []
        notices = _step(slot, event)
        if not slot.bound and slot.state is DieState.WAITING:
            slot.die = None  # a free slot goes back to whichever eligible die rolls next
        return notices

    @property
    def complete(self) -> bool:
        """Every requested die has settled after a roll."""
        return all(s.state is DieState.SETTLED for s in self.slots)

    def pending(self) -> list[str]:
        """What is still missing, for a timeout message."""
        out = []
        for slot in self.slots:
            if slot.state is DieState.SETTLED:
                continue
            who = slot.die.label() if slot.die else f"a d{slot.spec.sides}"
            role = f"{slot.spec.role.value} die " if slot.spec.role else ""
            out.append(f"{role}{who}: {slot.state.value}")
        return out

    def throw(self, source: str, evidence: dict[str, object] | None = None) -> Throw:
        """The completed throw, faces in request order."""
        if not self.complete:
            raise RuntimeError("the throw is not complete")  # a programming error, not a player's
        faces = tuple(Face(s.value, s.sides, s.spec.role, s.die.colour, s.die.die_id)  # type: ignore[union-attr,arg-type]
                      for s in self.slots)
        return Throw(faces, source, evidence or {})


def _step(slot: _Slot, event: DieEvent) -> list[str]:
    """The per-die state machine; returns notices."""
    label = slot.die.label() if slot.die else "die"
    state = slot.state
    if isinstance(event, Rolling):
        slot.state = DieState.ROLLING
        return [f"{label} rolled again: its new face counts"] if state is DieState.SETTLED else []
    if isinstance(event, Crooked):
        if state is DieState.CROOKED:
            return []
        slot.state = DieState.CROOKED
        return [f"{label} is tilted or crooked: roll it again"]
    if isinstance(event, Handled):
        if state is DieState.SETTLED:
            slot.state = DieState.DISTURBED
        elif state is DieState.ROLLING:
            slot.state = DieState.WAITING
            return [f"{label} was caught before it settled: roll it again"]
        return []
    if not isinstance(event, Rest):
        return []
    known = slot.value is not None and state in (DieState.SETTLED, DieState.DISTURBED)
    if event.snapshot:
        counts = state is DieState.ROLLING
    else:
        counts = event.rolled is True or (event.rolled is None and state is DieState.ROLLING)
    if counts:
        slot.state, slot.value, slot.sides = DieState.SETTLED, event.value, event.sides
        return []
    if known:
        if (event.value, event.sides) == (slot.value, slot.sides):
            slot.state = DieState.SETTLED
            return []
        slot.state, slot.value = DieState.WAITING, None
        return [f"{label} was moved to another face after it settled: roll it again"]
    if state is DieState.CROOKED or event.snapshot:
        return []
    slot.state = DieState.WAITING
    return [f"{label} came to rest without a roll (picked up or put down?): roll it"]
