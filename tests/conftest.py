"""Shared test fixtures: every test gets its own dicetable home folder."""

from __future__ import annotations

from pathlib import Path

import pytest

#: The read-only material beside the repository (real photos, seeds); tests using it skip without it.
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(autouse=True)
def dicetable_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point config, calibration and the roll log at a temporary folder."""
    home = tmp_path / "dicetable-home"
    monkeypatch.setenv("DICETABLE_HOME", str(home))
    return home
