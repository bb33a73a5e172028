"""A simulated BLE peripheral: advertises while unconnected, accepts one connection, notifies."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reader.smartdice.sim.backend import SimClient

#: GATT layout: (service uuid, ((characteristic uuid, properties), ...)), ...
Gatt = tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...]


class SimPeripheral:
    """Base of the simulated dice. Subclasses give the advertisement, GATT layout and replies."""

    def __init__(self, address: str, name: str, rssi: int = -60) -> None:
        self.address = address
        self.name = name
        self.rssi = rssi
        self.in_range = True
        self.client: SimClient | None = None
        self.connected = asyncio.Event()
        self.notify_uuid = ""
        self.sent: list[bytes] = []  # every notification, for tests
        self.written: list[bytes] = []  # every command received

    @property
    def advertising(self) -> bool:
        """Dice accept one connection and stop advertising while connected."""
        return self.in_range and self.client is None

    def manufacturer_data(self) -> dict[int, bytes]:
        return {}

    def service_data(self) -> dict[str, bytes]:
        return {}

    def service_uuids(self) -> list[str]:
        return []

    def gatt(self) -> Gatt:
        return ()

    def on_write(self, char_uuid: str, data: bytes) -> None:
        """Answer a command (subclasses)."""

    def attach(self, client: SimClient) -> None:
        self.client = client
        self.connected.set()

    def detach(self, client: SimClient) -> None:
        if self.client is client:
            self.client = None
            self.connected.clear()

    def received(self, char_uuid: str, data: bytes) -> None:
        self.written.append(data)
        self.on_write(char_uuid, data)

    def notify(self, data: bytes) -> None:
        """Send a notification if a host is connected (otherwise it is lost, as on the air)."""
        if self.client is not None:
            self.sent.append(data)
            self.client.deliver(self.notify_uuid, data)

    def drop_link(self) -> None:
        """The link drops on the die's side (out of range for a moment, interference)."""
        client, self.client = self.client, None
        self.connected.clear()
        if client is not None:
            client.dropped()

    async def wait_connected(self, timeout: float = 5.0) -> None:
        """Wait until a host has connected."""
        await asyncio.wait_for(self.connected.wait(), timeout)
