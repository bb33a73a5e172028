"""The ``--since`` option of ``dicetable log`` and ``dicetable audit``."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone

from rules.errors import DicetableError

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


class SinceError(DicetableError):
    """A ``--since`` value is neither a duration nor a date."""


def parse_since(text: str, now: float | None = None) -> float:
    """A Unix time from ``30m``, ``2h``, ``7d``, ``1w`` (ago) or an ISO date/time (local if no zone)."""
    now = time.time() if now is None else now
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*", text)
    if match:
        return now - float(match[1]) * _UNITS[match[2]]
    try:
        stamp = datetime.fromisoformat(text.strip())
    except ValueError:
        raise SinceError(f"--since takes a duration such as 2h or 7d, or a date such as 2026-11-21 "
                         f"or 2026-11-21T18:00, not {text!r}") from None
    if stamp.tzinfo is None:
        stamp = stamp.astimezone()
    return stamp.astimezone(timezone.utc).timestamp()
