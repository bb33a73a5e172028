"""Where dicetable keeps what it learns and records: the user's config and data folders.

``DICETABLE_HOME`` overrides both (tests point it at a temporary folder); otherwise the XDG
base directories are used (``~/.config/dicetable``, ``~/.local/share/dicetable``).
JSON is written atomically (temporary file, fsync, rename) so a crash never leaves a
half-written calibration behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from rules.errors import DicetableError


class CalibrationError(DicetableError):
    """A stored calibration or registry file is missing fields or is not valid JSON."""


def _base(env: str, default: str) -> Path:
    home = os.environ.get("DICETABLE_HOME")
    if home:
        return Path(home)
    return Path(os.environ.get(env) or Path.home() / default) / "dicetable"


def config_dir() -> Path:
    """Folder for calibrations and the dice registry (created on first use)."""
    path = _base("XDG_CONFIG_HOME", ".config")
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """Folder for the roll log and its evidence (created on first use)."""
    path = _base("XDG_DATA_HOME", ".local/share")
    path.mkdir(parents=True, exist_ok=True)
    return path


def read_json(path: Path) -> object:
    """Parse a JSON file, turning a corrupt one into a :class:`CalibrationError`."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CalibrationError(f"cannot read {path}: {err}") from None


def write_json(path: Path, data: object) -> None:
    """Write ``data`` as JSON atomically: readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
