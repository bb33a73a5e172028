"""Die colour profiles learned on the user's table, stored as JSON in the config folder.

A profile records how one named die colour looked under the light of the calibration, as a
CIELAB colour and its HSV saturation, together with the table's colour at that moment. The
camera reader later compares each die relative to the table, so a change of the camera's
white balance (which shifts the table and the dice alike) does not change a die's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from calibration.store import CalibrationError, config_dir, read_json, write_json

SCHEMA = 1
FILE_NAME = "colours.json"


@dataclass(frozen=True)
class ColourProfile:
    """One die colour as calibrated: CIELAB (L 0-100, a, b) and HSV saturation (0-1)."""

    name: str
    lab: tuple[float, float, float]
    saturation: float
    samples: int = 1


@dataclass(frozen=True)
class ColourCalibration:
    """The table's colour (BGR, 0-255) under the calibration light and the profiles learned then."""

    table_bgr: tuple[float, float, float]
    profiles: tuple[ColourProfile, ...]
    created: str = ""

    def to_json(self) -> dict[str, object]:
        """The stored JSON form."""
        return {"schema": SCHEMA, "created": self.created, "table_bgr": [round(v, 2) for v in self.table_bgr],
                "profiles": {p.name: {"lab": [round(v, 3) for v in p.lab], "saturation": round(p.saturation, 4),
                                      "samples": p.samples} for p in self.profiles}}

    @classmethod
    def from_json(cls, data: object, where: str = "colour calibration") -> ColourCalibration:
        """Parse the stored form; anything malformed is a :class:`CalibrationError`."""
        try:
            if not isinstance(data, dict) or data.get("schema") != SCHEMA:
                raise ValueError(f"expected schema {SCHEMA}")
            table = tuple(float(v) for v in data["table_bgr"])
            profiles = tuple(
                ColourProfile(str(name), tuple(float(v) for v in entry["lab"]),  # type: ignore[arg-type]
                              float(entry["saturation"]), int(entry.get("samples", 1)))
                for name, entry in data["profiles"].items())
            if len(table) != 3 or any(len(p.lab) != 3 for p in profiles):
                raise ValueError("colours need 3 components")
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise CalibrationError(f"{where} is malformed ({err}); run 'dicetable calibrate colours' again") from None
        return cls(table, profiles, str(data.get("created", "")))  # type: ignore[arg-type]


def colours_path() -> Path:
    """Where the colour calibration lives."""
    return config_dir() / FILE_NAME


def load_colours(path: Path | None = None) -> ColourCalibration | None:
    """The stored colour calibration, or ``None`` when the user has not calibrated."""
    path = path or colours_path()
    if not path.exists():
        return None
    return ColourCalibration.from_json(read_json(path), str(path))


def save_colours(table_bgr: tuple[float, float, float], profiles: tuple[ColourProfile, ...],
                 path: Path | None = None) -> Path:
    """Store a new calibration, replacing the old one (profiles are only comparable through the
    table colour measured with them, so a calibration is always taken all at once)."""
    path = path or colours_path()
    created = datetime.now(timezone.utc).isoformat(timespec="seconds")
    write_json(path, ColourCalibration(table_bgr, profiles, created).to_json())
    return path
