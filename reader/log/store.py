"""The roll log: every throw from every source, with its evidence, in one SQLite file.

Why SQLite (WAL mode, ``synchronous=FULL``) rather than an append-only file: each throw is
one transaction, and SQLite's write-ahead log makes a transaction all-or-nothing. A
process killed at any instant loses at most the transaction in flight; the next opening
rolls back the unfinished tail and every committed throw stays readable. ``FULL`` fsyncs
the log at every commit, so an acknowledged throw also survives a power cut. It also gives
indexed queries (``--since``, per-die audits) and binary evidence (JPEG crops, raw
smart-dice events, serial frames) as blobs, without a format of our own to get wrong.

A check is written in three steps so that nothing waits for the end: :meth:`RollLog.begin`
records the command and its parameters, :meth:`RollLog.append` each throw the moment it
arrives (with the request it answered), :meth:`RollLog.finish` the outcome.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from calibration.store import data_dir
from rules.dice import DiceRequest, Throw
from rules.errors import DicetableError

#: File name of the log inside ``calibration.store.data_dir()``.
LOG_NAME = "rolls.sqlite3"

#: Sources whose faces no physical die produced.
SCRIPTED = "scripted"
NOT_PHYSICAL = frozenset({"virtual", SCRIPTED})

_SCHEMA = """
CREATE TABLE IF NOT EXISTS checks (
    id INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    command TEXT NOT NULL,
    system TEXT,
    params TEXT,
    secret INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS throws (
    id INTEGER PRIMARY KEY,
    check_id INTEGER REFERENCES checks(id),
    time REAL NOT NULL,
    source TEXT NOT NULL,
    scripted INTEGER NOT NULL,
    request TEXT NOT NULL,
    faces TEXT NOT NULL,
    evidence TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS blobs (
    throw_id INTEGER NOT NULL REFERENCES throws(id),
    n INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (throw_id, n)
);
CREATE TABLE IF NOT EXISTS faces (
    throw_id INTEGER NOT NULL REFERENCES throws(id),
    position INTEGER NOT NULL,
    value INTEGER NOT NULL,
    sides INTEGER NOT NULL,
    role TEXT,
    colour TEXT,
    die_id TEXT,
    PRIMARY KEY (throw_id, position)
);
CREATE INDEX IF NOT EXISTS throws_time ON throws(time);
CREATE INDEX IF NOT EXISTS faces_die ON faces(die_id, colour, sides);
"""


class LogError(DicetableError):
    """The roll log cannot be opened or is not a dicetable log."""


def default_path() -> Path:
    """``rolls.sqlite3`` in the data folder (``DICETABLE_HOME`` in tests)."""
    return data_dir() / LOG_NAME


@dataclass(frozen=True)
class LoggedThrow:
    """One throw as read back from the log."""

    id: int
    check_id: int | None
    time: float
    source: str
    scripted: bool
    request: dict[str, Any]
    faces: list[dict[str, Any]]
    evidence: dict[str, Any]

    def to_json(self) -> dict[str, object]:
        """Evidence blobs are summarised by size; ``dicetable log`` never dumps raw bytes."""
        return {"id": self.id, "time": iso(self.time), "source": self.source, "scripted": self.scripted,
                "request": self.request, "faces": self.faces, "evidence": self.evidence}


@dataclass(frozen=True)
class LoggedCheck:
    """One command's record: its throws and, once resolved, its outcome."""

    id: int
    time: float
    command: str
    system: str | None
    params: dict[str, Any] | None
    secret: bool
    result: dict[str, Any] | None
    throws: tuple[LoggedThrow, ...]

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "time": iso(self.time), "command": self.command, "system": self.system,
                "params": self.params, "secret": self.secret, "result": self.result,
                "throws": [t.to_json() for t in self.throws]}


@dataclass(frozen=True)
class FaceRecord:
    """One face of a physical die, as the audit counts them."""

    die_id: str | None
    colour: str | None
    sides: int
    value: int
    source: str


def iso(stamp: float) -> str:
    """A log time as ISO 8601 UTC with seconds."""
    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds")


class RollLog:
    """An open roll log. Every write is its own committed transaction."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # isolation_level=None: we open and commit each transaction ourselves.
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:
            raise LogError(f"cannot open the roll log {self.path}: {err}") from None

    def close(self) -> None:
        """Close the file (every write is already committed)."""
        self._db.close()

    def __enter__(self) -> RollLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def begin(self, command: str, system: str | None = None, params: dict[str, Any] | None = None,
              secret: bool = False) -> int:
        """Record the start of a check; returns its id for :meth:`append` and :meth:`finish`."""
        with self._transaction():
            cur = self._db.execute("INSERT INTO checks (time, command, system, params, secret) VALUES (?,?,?,?,?)",
                                   (time.time(), command, system, _dumps(params), int(secret)))
        return int(cur.lastrowid)

    def append(self, throw: Throw, request: DiceRequest, check_id: int | None = None) -> int:
        """Record one throw, its faces and evidence; committed (and fsynced) when this returns."""
        blobs: list[bytes] = []
        evidence = _strip_bytes(throw.evidence, blobs)
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO throws (check_id, time, source, scripted, request, faces, evidence) "
                "VALUES (?,?,?,?,?,?,?)",
                (check_id, time.time(), throw.source, int(throw.source == SCRIPTED), _dumps(request_json(request)),
                 _dumps([_face_json(f) for f in throw.faces]), _dumps(evidence)))
            throw_id = int(cur.lastrowid)
            self._db.executemany("INSERT INTO blobs (throw_id, n, data) VALUES (?,?,?)",
                                 [(throw_id, n, data) for n, data in enumerate(blobs)])
            self._db.executemany(
                "INSERT INTO faces (throw_id, position, value, sides, role, colour, die_id) VALUES (?,?,?,?,?,?,?)",
                [(throw_id, i, f.value, f.sides, f.role.value if f.role else None, f.colour, f.die_id)
                 for i, f in enumerate(throw.faces)])
        return throw_id

    def finish(self, check_id: int, result: dict[str, Any], secret: bool = False) -> None:
        """Record a check's outcome (its ``to_json()``); ``secret`` marks rolls kept from players."""
        with self._transaction():
            self._db.execute("UPDATE checks SET result = ?, secret = MAX(secret, ?) WHERE id = ?",
                             (_dumps(result), int(secret), check_id))

    def checks(self, since: float | None = None, secret: bool = False) -> list[LoggedCheck]:
        """Checks (with their throws) started at or after ``since``; secret ones only if asked for.

        Throws logged outside any check (``check_id`` NULL) come back as checks of their own
        with the command ``throw``.
        """
        start = since if since is not None else float("-inf")
        rows = self._db.execute("SELECT id, time, command, system, params, secret, result FROM checks "
                                "WHERE time >= ? AND (secret = 0 OR ?) ORDER BY id", (start, int(secret))).fetchall()
        by_check: dict[int | None, list[LoggedThrow]] = {}
        for t in self._throws("WHERE t.time >= ?", (start,)):
            by_check.setdefault(t.check_id, []).append(t)
        out = [LoggedCheck(r[0], r[1], r[2], r[3], _loads(r[4]), bool(r[5]), _loads(r[6]),
                           tuple(by_check.get(r[0], ()))) for r in rows]
        out += [LoggedCheck(0, t.time, "throw", None, None, False, None, (t,)) for t in by_check.get(None, ())]
        return sorted(out, key=lambda c: c.time)

    def throw(self, throw_id: int) -> LoggedThrow | None:
        """One throw by id."""
        found = list(self._throws("WHERE t.id = ?", (throw_id,)))
        return found[0] if found else None

    def evidence_blob(self, throw_id: int, n: int) -> bytes | None:
        """The ``n``-th evidence blob of a throw (a JPEG crop, raw event bytes...)."""
        row = self._db.execute("SELECT data FROM blobs WHERE throw_id = ? AND n = ?", (throw_id, n)).fetchone()
        return None if row is None else bytes(row[0])

    def physical_faces(self, since: float | None = None, die_id: str | None = None, colour: str | None = None,
                       sides: int | None = None, sources: Sequence[str] | None = None) -> Iterator[FaceRecord]:
        """Faces of physical dice (scripted and virtual left out unless ``sources`` names them)."""
        query = ("SELECT f.die_id, f.colour, f.sides, f.value, t.source FROM faces f JOIN throws t ON t.id = f.throw_id "
                 "WHERE t.time >= ?")
        args: list[Any] = [since if since is not None else float("-inf")]
        for column, value in (("f.die_id", die_id), ("f.colour", colour), ("f.sides", sides)):
            if value is not None:
                query += f" AND {column} = ?"
                args.append(value)
        if sources:
            query += f" AND t.source IN ({','.join('?' * len(sources))})"
            args += list(sources)
        else:
            query += f" AND t.source NOT IN ({','.join('?' * len(NOT_PHYSICAL))})"
            args += sorted(NOT_PHYSICAL)
        for row in self._db.execute(query + " ORDER BY f.throw_id, f.position", args):
            yield FaceRecord(*row)

    def _throws(self, where: str, args: tuple[Any, ...]) -> Iterator[LoggedThrow]:
        query = ("SELECT t.id, t.check_id, t.time, t.source, t.scripted, t.request, t.faces, t.evidence "
                 f"FROM throws t {where} ORDER BY t.id")
        for r in self._db.execute(query, args):
            yield LoggedThrow(r[0], r[1], r[2], r[3], bool(r[4]), _loads(r[5]), _loads(r[6]), _loads(r[7]))

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back if the body raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")


def request_json(request: DiceRequest) -> dict[str, Any]:
    """The request a throw answered, as stored in the log."""
    return {"purpose": request.purpose, "actor": request.actor,
            "dice": [{"sides": s.sides, "role": s.role.value if s.role else None, "colour": s.colour}
                     for s in request.dice]}


def _face_json(face: Any) -> dict[str, Any]:
    out = face.to_json()
    out["confidence"] = face.confidence
    return out


def _strip_bytes(value: Any, blobs: list[bytes]) -> Any:
    """Evidence as JSON, each ``bytes`` value replaced by ``{"blob": n, "bytes": size}``."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        blobs.append(bytes(value))
        return {"blob": len(blobs) - 1, "bytes": len(blobs[-1])}
    if isinstance(value, dict):
        return {str(k): _strip_bytes(v, blobs) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strip_bytes(v, blobs) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, default=str)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)
