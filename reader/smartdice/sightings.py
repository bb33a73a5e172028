"""Recognising smart dice in advertisements (for scanning and for ``dicetable dice scan``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reader.smartdice import godice_messages, pixels_advert
from reader.smartdice.errors import PacketError
from reader.smartdice.gatt_ids import (GODICE_NAME_PREFIX, PIXELS_COMPANY_ID, PIXELS_NAME_PREFIX,
                                       PIXELS_SERVICE)
from reader.smartdice.pixels_faces import TYPE_NAMES, PixelsDieType, estimate_die_type
from reader.smartdice.registry import Family

_PIXEL_NAME_ID = re.compile(r"Pixel([0-9a-fA-F]{8})")


@dataclass(frozen=True, slots=True)
class Sighting:
    """A smart die seen advertising. Fields it did not advertise are ``None``."""

    family: Family
    address: str
    name: str | None
    die_id: str | None
    die_type: str | None = None
    colour: str | None = None
    battery: int | None = None
    charging: bool | None = None
    rssi: int | None = None

    @property
    def key(self) -> str:
        """The id to register the die under (its address when it advertises no id)."""
        return self.die_id or self.address


def _pixels(address: str, name: str | None, manufacturer_data: Mapping[int, bytes],
            service_data: Mapping[str, bytes], rssi: int | None) -> Sighting:
    named = _PIXEL_NAME_ID.fullmatch(name or "")
    die_id = named.group(1).lower() if named else None
    try:
        advert = pixels_advert.decode_advert(manufacturer_data, service_data)
    except PacketError:
        return Sighting(Family.PIXELS, address, name, die_id, rssi=rssi)
    kind = advert.die_type if advert.die_type is not PixelsDieType.UNKNOWN else estimate_die_type(advert.led_count)
    return Sighting(Family.PIXELS, address, name, advert.die_id or die_id, TYPE_NAMES.get(kind), None,
                    advert.battery_percent, advert.charging, rssi)


def identify(address: str, name: str | None, manufacturer_data: Mapping[int, bytes],
             service_data: Mapping[str, bytes], service_uuids: Sequence[str],
             rssi: int | None = None) -> Sighting | None:
    """The smart die an advertisement comes from, or ``None`` for any other device.

    Pixels are recognised by their service UUID, their company id or a ``Pixel`` name
    (the legacy Pixels service UUID is the Nordic UART one GoDice also uses, so it alone
    proves nothing); GoDice by their ``GoDice`` name.
    """
    uuids = {u.lower() for u in service_uuids}
    if name and name.startswith(GODICE_NAME_PREFIX):
        parsed = godice_messages.parse_name(name)
        if parsed is not None:
            return Sighting(Family.GODICE, address, name, parsed.die_id,
                            colour=parsed.colour.word if parsed.colour is not None else None, rssi=rssi)
    if PIXELS_SERVICE in uuids or PIXELS_COMPANY_ID in manufacturer_data or (
            name and name.startswith(PIXELS_NAME_PREFIX)):
        return _pixels(address, name, manufacturer_data, service_data, rssi)
    return None
