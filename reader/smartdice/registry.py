"""The player's smart dice: who they are, what they are, and what they stand for.

Stored as JSON in ``calibration.store.config_dir() / "smartdice.json"``. Only registered
dice take part in a check; a stranger's die in range is ignored. A die is designated for
a role either by its registered ``role`` or, as the camera does, by its colour or its name
matching ``--wild``/``--tens``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum
from pathlib import Path

from calibration.store import config_dir, read_json, write_json
from reader.smartdice.errors import RegistryError
from reader.smartdice.godice_faces import SIDES as GODICE_SIDES, Shell
from reader.smartdice.pixels_faces import DICETABLE_SIDES, TYPE_NAMES, PixelsDieType
from rules.dice import Role

REGISTRY_FILE = "smartdice.json"
FORMAT_VERSION = 1


class Family(str, Enum):
    """The smart-dice families dicetable reads."""

    PIXELS = "pixels"
    GODICE = "godice"


#: Die type names each family accepts (``--type``).
PIXELS_TYPES: dict[str, PixelsDieType] = {name: kind for kind, name in TYPE_NAMES.items()}
GODICE_TYPES: dict[str, Shell] = {shell.value: shell for shell in Shell}


@dataclass(frozen=True, slots=True)
class RegisteredDie:
    """One of the player's dice.

    ``die_id`` is the Pixels pixel id (8 hex digits) or the GoDice id from its name;
    ``address`` is the Bluetooth address seen when it was added (optional: dice are also
    recognised by id); ``die_type`` is ``d6``, ``d20``... (the GoDice shell it wears);
    ``role`` designates it (``wild``, ``tens``) whatever colour is asked for.
    """

    die_id: str
    family: Family
    die_type: str
    colour: str | None = None
    name: str | None = None
    role: Role | None = None
    address: str | None = None

    def __post_init__(self) -> None:
        if not self.die_id:
            raise RegistryError("a die needs an id")
        known = PIXELS_TYPES if self.family is Family.PIXELS else GODICE_TYPES
        if self.die_type not in known:
            raise RegistryError(f"a {self.family.value} die cannot be a {self.die_type!r}; use one of: "
                                f"{', '.join(known)}")

    @property
    def sides(self) -> int:
        """Sides of the dicetable die it answers for (a fudge die answers for a d3)."""
        if self.family is Family.PIXELS:
            return DICETABLE_SIDES[PIXELS_TYPES[self.die_type]]
        return GODICE_SIDES[GODICE_TYPES[self.die_type]]

    def label(self) -> str:
        """Short text naming the die for the player: ``red d6 "Lucky" (pixels 06f08a5a)``."""
        words = [w for w in (self.colour, self.die_type) if w]
        named = f' "{self.name}"' if self.name else ""
        return f"{' '.join(words)}{named} ({self.family.value} {self.die_id})"

    def matches(self, key: str) -> bool:
        """True when ``key`` is this die's id, address or name (case ignored)."""
        key = key.strip().lower()
        return key in {v.lower() for v in (self.die_id, self.address, self.name) if v}

    def to_json(self) -> dict[str, object]:
        """The registry file's form."""
        out = asdict(self)
        out["family"] = self.family.value
        out["role"] = self.role.value if self.role else None
        return out

    @classmethod
    def from_json(cls, data: object) -> RegisteredDie:
        """Parse one registry entry; a bad one raises :class:`RegistryError`."""
        if not isinstance(data, dict):
            raise RegistryError("a registry entry must be an object")
        try:
            fields = {k: data.get(k) for k in ("die_id", "family", "die_type", "colour", "name", "role", "address")}
            if not all(isinstance(v, str) or v is None for v in fields.values()):
                raise RegistryError("registry fields must be text")
            fields["family"] = Family(fields["family"])
            fields["role"] = Role(fields["role"]) if fields["role"] else None
            return cls(**fields)  # type: ignore[arg-type]
        except ValueError as err:
            raise RegistryError(f"bad registry entry {data!r}: {err}") from None


class Registry:
    """The registered dice, loaded from and saved to the registry file."""

    def __init__(self, dice: list[RegisteredDie] | None = None, path: Path | None = None) -> None:
        self.dice = list(dice or [])
        self.path = path

    @classmethod
    def load(cls, path: Path | None = None) -> Registry:
        """The saved registry (empty when there is none yet)."""
        path = path or config_dir() / REGISTRY_FILE
        if not path.exists():
            return cls([], path)
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("dice"), list):
            raise RegistryError(f"{path} is not a dice registry")
        return cls([RegisteredDie.from_json(entry) for entry in data["dice"]], path)

    def save(self) -> None:
        """Write the registry atomically."""
        path = self.path or config_dir() / REGISTRY_FILE
        write_json(path, {"version": FORMAT_VERSION, "dice": [d.to_json() for d in self.dice]})

    def find(self, key: str) -> RegisteredDie | None:
        """The die with this id, address or name."""
        return next((d for d in self.dice if d.matches(key)), None)

    def add(self, die: RegisteredDie) -> None:
        """Register a die; an id or a name already in use raises :class:`RegistryError`."""
        for other in self.dice:
            if other.die_id.lower() == die.die_id.lower() and other.family is die.family:
                raise RegistryError(f"{other.label()} is already registered (remove it first)")
            if die.name and other.name and other.name.lower() == die.name.lower():
                raise RegistryError(f"the name {die.name!r} is taken by {other.label()}")
        if die.role is not None:
            # one die per role and family: the die registered last for a role takes it over
            self.dice = [replace(d, role=None) if d.role is die.role and d.family is die.family else d
                         for d in self.dice]
        self.dice.append(die)

    def remove(self, key: str) -> RegisteredDie:
        """Unregister the die with this id, address or name."""
        die = self.find(key)
        if die is None:
            raise RegistryError(f"no registered die is called {key!r}")
        self.dice.remove(die)
        return die

    def of_family(self, family: Family) -> list[RegisteredDie]:
        """The registered dice of one family."""
        return [d for d in self.dice if d.family is family]
