"""Keeping the registered dice connected through bleak: scan, connect, reconnect with backoff.

One supervisor task scans for the dice that are not connected (a single scanner, because
BlueZ rejects concurrent discovery), then connects them one at a time (BlueZ also
mishandles concurrent connects) using the ``BLEDevice`` the scan returned, as bleak's
troubleshooting guide advises. A die that drops is looked for again at once; repeated
failures back off exponentially. Strangers' dice in range are never connected.

``Backends`` lets tests and demos hand bleak a simulated backend through bleak's public
``backend=`` arguments; by default bleak picks the platform's own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from reader.smartdice.errors import DiceLinkError, scan_failure
from reader.smartdice.registry import RegisteredDie
from reader.smartdice.sightings import identify


class Driver(Protocol):
    """What a link needs from a family driver."""

    gatt_layouts: tuple[tuple[str, str, str], ...]

    def hello(self) -> list[bytes]: ...


@dataclass(frozen=True)
class Backends:
    """bleak backend classes to use; ``None`` means the platform's own."""

    scanner: type | None = None
    client: type | None = None


@dataclass(frozen=True)
class Backoff:
    """Delays between failed attempts: ``first * 2**n``, at most ``cap`` seconds."""

    first: float = 0.5
    cap: float = 8.0
    scan_window: float = 5.0  # how long one scan looks for missing dice
    connect_timeout: float = 10.0

    def delay(self, failures: int) -> float:
        """The pause after ``failures`` failed rounds in a row."""
        return min(self.cap, self.first * 2 ** max(0, failures - 1))


@dataclass
class _Connection:
    client: Any
    write_char: Any


class DiceLinks:
    """Connections to a set of registered dice, kept up until :meth:`close`."""

    def __init__(self, dice: Sequence[RegisteredDie], drivers: dict[str, Driver], *,
                 on_packet: Callable[[RegisteredDie, bytes], None],
                 on_connection: Callable[[RegisteredDie, bool], None],
                 on_failure: Callable[[DiceLinkError], None],
                 backends: Backends = Backends(), backoff: Backoff = Backoff()) -> None:
        self._dice = list(dice)
        self._drivers = drivers
        self._on_packet = on_packet
        self._on_connection = on_connection
        self._on_failure = on_failure
        self._backends = backends
        self._backoff = backoff
        self._connections: dict[str, _Connection] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the supervisor (once)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._supervise())

    def is_connected(self, die: RegisteredDie) -> bool:
        """Whether ``die`` has a live connection."""
        return die.die_id in self._connections

    async def send(self, die: RegisteredDie, data: bytes) -> bool:
        """Write a command to ``die``; False when it is not connected or the write fails."""
        connection = self._connections.get(die.die_id)
        if connection is None:
            return False
        try:
            await connection.client.write_gatt_char(connection.write_char, data, response=True)
        except Exception:  # noqa: BLE001 - any radio failure means "not delivered"
            return False
        return True

    async def close(self) -> None:
        """Stop reconnecting and disconnect every die."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            with contextlib.suppress(Exception):
                await connection.client.disconnect()

    async def _supervise(self) -> None:
        failures = 0
        while True:
            missing = [d for d in self._dice if d.die_id not in self._connections]
            if not missing:
                self._changed.clear()
                await self._changed.wait()
                continue
            try:
                found = await self._scan(missing)
            except Exception as err:  # noqa: BLE001 - no adapter, no BlueZ, no permission...
                self._on_failure(scan_failure(err))
                return
            for die in missing:
                if die.die_id in found:
                    await self._connect(die, found[die.die_id])
            if any(d.die_id not in self._connections for d in self._dice):
                failures += 1
                await asyncio.sleep(self._backoff.delay(failures))
            else:
                failures = 0

    async def _scan(self, missing: list[RegisteredDie]) -> dict[str, Any]:
        from bleak import BleakScanner

        found: dict[str, Any] = {}
        all_found = asyncio.Event()

        def seen(device: Any, adv: Any) -> None:
            sighting = identify(device.address, adv.local_name or device.name, adv.manufacturer_data,
                                adv.service_data, adv.service_uuids, adv.rssi)
            if sighting is None:
                return
            for die in missing:
                if die.family is sighting.family and (
                        (sighting.die_id and die.matches(sighting.die_id)) or die.matches(sighting.address)):
                    found[die.die_id] = device
            if len(found) == len(missing):
                all_found.set()

        scanner = BleakScanner(detection_callback=seen, backend=self._backends.scanner)
        await scanner.start()
        try:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(all_found.wait(), self._backoff.scan_window)
        finally:
            await scanner.stop()
        return found

    async def _connect(self, die: RegisteredDie, device: Any) -> bool:
        from bleak import BleakClient

        driver = self._drivers[die.die_id]
        client = BleakClient(device, disconnected_callback=lambda c: self._dropped(die, c),
                             timeout=self._backoff.connect_timeout, backend=self._backends.client)
        try:
            await client.connect()
            notify_char, write_char = self._characteristics(client, driver)
            await client.start_notify(notify_char, lambda _char, data: self._on_packet(die, bytes(data)))
            self._connections[die.die_id] = _Connection(client, write_char)
            self._on_connection(die, True)
            for command in driver.hello():
                await client.write_gatt_char(write_char, command, response=True)
        except Exception:  # noqa: BLE001 - bleak raises platform-specific errors; we retry all of them
            self._connections.pop(die.die_id, None)
            with contextlib.suppress(Exception):
                await client.disconnect()
            return False
        return True

    @staticmethod
    def _characteristics(client: Any, driver: Driver) -> tuple[Any, Any]:
        # Pass characteristic objects, not UUIDs: legacy Pixels reuse the service UUID for
        # their notify characteristic.
        for service_uuid, notify_uuid, write_uuid in driver.gatt_layouts:
            service = client.services.get_service(service_uuid)
            if service is None:
                continue
            notify_char = service.get_characteristic(notify_uuid)
            write_char = service.get_characteristic(write_uuid)
            if notify_char is not None and write_char is not None:
                return notify_char, write_char
        raise DiceLinkError("the die does not offer the expected GATT service")

    def _dropped(self, die: RegisteredDie, client: Any) -> None:
        connection = self._connections.get(die.die_id)
        if connection is None or connection.client is not client:
            return
        del self._connections[die.die_id]
        self._on_connection(die, False)
        self._changed.set()
