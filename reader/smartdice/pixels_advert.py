"""Pixels advertisements: what a die tells without a connection.

Three historical forms are decoded:

* current (2022-06 on): manufacturer data ``ledCount, designAndColor, rollState, faceIndex,
  battery`` under company id 0x0D39 (0xFFFF before 2024-09-30), and service data under the
  Device Information UUID with ``pixelId u32, firmware build time u32``. ``designAndColor`` is
  ``dieType << 4 | colorway`` from 2023-09-22 on, the old DesignAndColor enum before (told
  apart by the firmware date when the service data is there, otherwise by a zero die-type
  nibble); bit 7 of the battery byte is the charging flag (absent, and so 0, before 2022-12);
* oldest (before 2022-06): no service data, the 16-bit "company id" holds
  ``ledCount << 8 | designAndColor`` and the 7 data bytes are ``pixelId u32, rollState,
  faceIndex, battery`` (battery 0-255 scaled).

The pixel id and firmware date come from the scan response, so they are ``None`` when only
the advertising packet was seen (passive scanning).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass

from reader.smartdice.errors import PixelsPacketError
from reader.smartdice.gatt_ids import PIXELS_COMPANY_ID, PIXELS_LEGACY_COMPANY_ID, PIXELS_SERVICE_DATA_UUID
from reader.smartdice.pixels_faces import PixelsDieType, die_type_of
from reader.smartdice.pixels_messages import NIBBLE_DESIGN_SINCE, battery_percent as _percent


@dataclass(frozen=True, slots=True)
class PixelsAdvert:
    """A decoded Pixels advertisement."""

    pixel_id: int | None
    die_type: PixelsDieType
    led_count: int
    colorway: int
    legacy_design: bool  # ``colorway`` is the old DesignAndColor enum
    roll_state: int
    face_index: int
    battery_percent: int
    charging: bool
    firmware_time: int | None
    company_id: int

    @property
    def die_id(self) -> str | None:
        """The registry id: the pixel id as 8 lowercase hex digits (as in the default name)."""
        return None if self.pixel_id is None else pixel_id_text(self.pixel_id)


def pixel_id_text(pixel_id: int) -> str:
    """``0x06F08A5A`` -> ``"06f08a5a"``."""
    return f"{pixel_id:08x}"


def _service_data(service_data: Mapping[str, bytes]) -> tuple[int, int] | None:
    raw = service_data.get(PIXELS_SERVICE_DATA_UUID)
    if raw is None:
        return None
    if len(raw) < 8:
        raise PixelsPacketError(f"Pixels service data is {len(raw)} bytes, needs 8")
    return struct.unpack_from("<II", raw)


def _design(byte: int, firmware_time: int | None) -> tuple[PixelsDieType, int, bool]:
    old = byte >> 4 == 0 if firmware_time is None else firmware_time < NIBBLE_DESIGN_SINCE
    if old:
        return PixelsDieType.UNKNOWN, byte, True
    return die_type_of(byte >> 4), byte & 0x0F, False


def decode_advert(manufacturer_data: Mapping[int, bytes], service_data: Mapping[str, bytes]) -> PixelsAdvert:
    """Decode the Pixels part of one advertisement (bleak's ``AdvertisementData`` fields)."""
    ids = _service_data(service_data)
    for company in (PIXELS_COMPANY_ID, PIXELS_LEGACY_COMPANY_ID):
        raw = manufacturer_data.get(company)
        if raw is not None:
            if len(raw) < 5:
                raise PixelsPacketError(f"Pixels manufacturer data is {len(raw)} bytes, needs 5")
            pixel_id, built = ids if ids else (None, None)
            die_type, colorway, legacy = _design(raw[1], built)
            return PixelsAdvert(pixel_id, die_type, raw[0], colorway, legacy, raw[2], raw[3],
                                _percent(raw[4] & 0x7F), bool(raw[4] & 0x80), built, company)
    for company, raw in manufacturer_data.items():
        if len(raw) == 7 and ids is None:  # the oldest form: the "company id" is ledCount, design
            pixel_id, state, face, battery = struct.unpack("<IBBB", raw)
            return PixelsAdvert(pixel_id, PixelsDieType.UNKNOWN, company >> 8, company & 0xFF, True, state, face,
                                round(battery * 100 / 255), False, None, company)
    raise PixelsPacketError("no Pixels manufacturer data in the advertisement")
