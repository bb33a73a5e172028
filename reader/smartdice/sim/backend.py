"""Simulated bleak backends: a scanner and a client that talk to simulated peripherals.

Implements what bleak's ``BaseBleakScanner`` (``start``, ``stop``) and ``BaseBleakClient``
(``connect``, ``disconnect``, ``pair``, ``unpair``, ``is_connected``, ``mtu_size``,
``read_gatt_char``, ``read_gatt_descriptor``, ``write_gatt_char``, ``write_gatt_descriptor``,
``start_notify``, ``stop_notify``) require. Advertisements are sent from a background task,
never inside ``start()``: bleak registers its own callbacks only after ``start()`` returns.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bleak.backends.characteristic import BleakGATTCharacteristic
from bleak.backends.client import BaseBleakClient, NotifyCallback
from bleak.backends.device import BLEDevice
from bleak.backends.scanner import AdvertisementData, BaseBleakScanner
from bleak.backends.service import BleakGATTService, BleakGATTServiceCollection
from bleak.exc import BleakError

from reader.smartdice.link import Backends
from reader.smartdice.sim.peripheral import SimPeripheral


class SimWorld:
    """The radio neighbourhood: peripherals in range, shared by the scanners and clients it makes."""

    def __init__(self, advert_interval: float = 0.01) -> None:
        self.peripherals: dict[str, SimPeripheral] = {}
        self.advert_interval = advert_interval
        self.scans = 0
        self.connects = 0

    def add(self, peripheral: SimPeripheral) -> SimPeripheral:
        """Put a peripheral in range."""
        self.peripherals[peripheral.address] = peripheral
        return peripheral

    def backends(self) -> Backends:
        """bleak backend classes bound to this world."""
        return Backends(scanner=type("SimScanner", (SimScanner,), {"world": self}),
                        client=type("SimClient", (SimClient,), {"world": self}))


class SimScanner(BaseBleakScanner):
    """Scanner backend: reports every advertising peripheral of its world, repeatedly."""

    world: SimWorld

    def __init__(self, detection_callback: Any, service_uuids: Any, scanning_mode: str = "active",
                 **kwargs: Any) -> None:
        super().__init__(detection_callback, service_uuids)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.seen_devices = {}
        self.world.scans += 1
        self._task = asyncio.get_running_loop().create_task(self._advertise())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _advertise(self) -> None:
        while True:
            await asyncio.sleep(self.world.advert_interval)
            for peripheral in list(self.world.peripherals.values()):
                if not peripheral.advertising:
                    continue
                adv = AdvertisementData(
                    local_name=peripheral.name, manufacturer_data=peripheral.manufacturer_data(),
                    service_data=peripheral.service_data(), service_uuids=peripheral.service_uuids(),
                    tx_power=None, rssi=peripheral.rssi, platform_data=())
                if not self.is_allowed_uuid(adv.service_uuids):
                    continue
                device = self.create_or_update_device(peripheral.address, peripheral.address, peripheral.name,
                                                      peripheral, adv)
                self.call_detection_callbacks(device, adv)


class SimClient(BaseBleakClient):
    """Client backend: connects to a peripheral of its world and relays GATT traffic."""

    world: SimWorld

    def __init__(self, address_or_ble_device: BLEDevice | str, **kwargs: Any) -> None:
        super().__init__(address_or_ble_device, disconnected_callback=kwargs.pop("disconnected_callback", None),
                         timeout=kwargs.pop("timeout", 10.0))
        self._peripheral: SimPeripheral | None = None
        self._callbacks: dict[int, NotifyCallback] = {}

    @property
    def name(self) -> str:
        return self._peripheral.name if self._peripheral else self.address

    @property
    def mtu_size(self) -> int:
        return 128  # what Pixels firmware allows; GoDice packets fit the default 23 anyway

    @property
    def is_connected(self) -> bool:
        return self._peripheral is not None

    async def connect(self, pair: bool = False, **kwargs: Any) -> None:
        peripheral = self.world.peripherals.get(self.address)
        await asyncio.sleep(0)
        if peripheral is None or not peripheral.advertising:
            raise BleakError(f"Device with address {self.address} was not found.")
        self.world.connects += 1
        services = BleakGATTServiceCollection()
        handle = 1
        for service_uuid, characteristics in peripheral.gatt():
            service = BleakGATTService(None, handle, service_uuid)
            services.add_service(service)
            handle += 1
            for char_uuid, properties in characteristics:
                services.add_characteristic(BleakGATTCharacteristic(
                    None, handle, char_uuid, list(properties), lambda: 125, service))
                handle += 2
        self.services = services
        self._peripheral = peripheral
        peripheral.attach(self)

    async def disconnect(self) -> None:
        if self._peripheral is not None:
            self._peripheral.detach(self)
        self._peripheral = None
        self._callbacks.clear()

    def dropped(self) -> None:
        """Called by the peripheral when the link drops on its side (out of range, power)."""
        self._peripheral = None
        self._callbacks.clear()
        if self._disconnected_callback is not None:
            asyncio.get_running_loop().call_soon(self._disconnected_callback)

    def deliver(self, char_uuid: str, data: bytes) -> None:
        """A notification from the peripheral."""
        assert self.services is not None
        for handle, callback in list(self._callbacks.items()):
            if self.services.get_characteristic(handle).uuid == char_uuid:
                callback(bytearray(data))

    async def pair(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def unpair(self) -> None:
        return None

    async def read_gatt_char(self, characteristic: BleakGATTCharacteristic, **kwargs: Any) -> bytearray:
        raise BleakError("simulated dice have no readable characteristics")

    async def read_gatt_descriptor(self, descriptor: Any, **kwargs: Any) -> bytearray:
        raise BleakError("simulated dice have no descriptors")

    async def write_gatt_char(self, characteristic: BleakGATTCharacteristic, data: Any, response: bool) -> None:
        if self._peripheral is None:
            raise BleakError("Not connected")
        self._peripheral.received(characteristic.uuid, bytes(data))

    async def write_gatt_descriptor(self, descriptor: Any, data: Any) -> None:
        raise BleakError("simulated dice have no descriptors")

    async def start_notify(self, characteristic: BleakGATTCharacteristic, callback: NotifyCallback,
                           **kwargs: Any) -> None:
        if "notify" not in characteristic.properties:
            raise BleakError(f"{characteristic.uuid} does not notify")
        self._callbacks[characteristic.handle] = callback

    async def stop_notify(self, characteristic: BleakGATTCharacteristic) -> None:
        self._callbacks.pop(characteristic.handle, None)
