"""Recording a check as it is resolved: the glue between the command line and :class:`RollLog`."""

from __future__ import annotations

import argparse
import dataclasses
from enum import Enum
from pathlib import Path
from typing import Any

from reader.log.store import RollLog
from rules.dice import DiceRequest, Throw, check_throw
from rules.errors import ThrowMismatch


def plain(value: Any) -> Any:
    """Parameters as JSON values: dataclasses as dicts, enums as their values, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def log_path(args: argparse.Namespace) -> Path | None:
    """``--log PATH`` if given (else the default log in the data folder)."""
    path = getattr(args, "log", None)
    return Path(path) if path else None


class Recorder:
    """Logs every throw of one check the moment it is read, then the check's outcome."""

    def __init__(self, args: argparse.Namespace, params: Any = None) -> None:
        self._log = RollLog(log_path(args))
        self._check = self._log.begin(getattr(args, "command", None) or "throw", getattr(args, "system", None),
                                      plain(params) if params is not None else None,
                                      secret=bool(getattr(params, "secret", False)))

    def record(self, request: DiceRequest, throw: Throw) -> Throw:
        """Log ``throw`` (with its evidence) and return it checked against ``request``.

        A throw that does not answer its request is logged as it came, then refused.
        """
        try:
            checked = check_throw(request, throw)
        except ThrowMismatch:
            self._log.append(throw, request, self._check)
            raise
        self._log.append(checked, request, self._check)
        return checked

    def finish(self, result: Any) -> None:
        """Log the outcome; a secret roll's notice is logged with the result it hides."""
        hidden = getattr(result, "result", None)
        shown = hidden if hidden is not None and hasattr(hidden, "to_json") else result
        self._log.finish(self._check, shown.to_json(), secret=bool(getattr(result, "secret", False)))

    def close(self) -> None:
        """Close the log file (every write is already committed)."""
        self._log.close()
