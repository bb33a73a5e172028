"""One scan for smart dice in range (``dicetable dice scan`` and ``dice add``)."""

from __future__ import annotations

import asyncio

from reader.smartdice.errors import scan_failure
from reader.smartdice.link import Backends
from reader.smartdice.sightings import Sighting, identify


async def scan_for_dice(seconds: float, *, backends: Backends | None = None, sim: bool = False,
                        wanted: str | None = None) -> list[Sighting]:
    """Every smart die advertising within ``seconds`` (stop early once ``wanted`` is seen).

    ``sim`` scans the demo table of :mod:`reader.smartdice.sim.demo` instead of the radio.
    """
    from bleak import BleakScanner

    if sim:
        from reader.smartdice.sim.demo import demo_world

        backends = demo_world().backends()
    backends = backends or Backends()
    seen: dict[str, Sighting] = {}
    found = asyncio.Event()

    def detected(device, adv) -> None:  # type: ignore[no-untyped-def]
        sighting = identify(device.address, adv.local_name or device.name, adv.manufacturer_data,
                            adv.service_data, adv.service_uuids, adv.rssi)
        if sighting is not None:
            seen[sighting.address] = sighting
            if wanted and wanted.lower() in {sighting.key.lower(), sighting.address.lower()}:
                found.set()

    try:
        async with BleakScanner(detection_callback=detected, backend=backends.scanner):
            try:
                await asyncio.wait_for(found.wait(), seconds)
            except asyncio.TimeoutError:
                pass
    except Exception as err:  # noqa: BLE001 - no adapter, no BlueZ, no permission...
        raise scan_failure(err) from None
    return sorted(seen.values(), key=lambda s: (s.family.value, s.key))
