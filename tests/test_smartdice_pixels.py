"""Pixels decoders: messages, advertisements, roll-state meanings and face tables."""

from __future__ import annotations

import struct

import pytest

from reader.smartdice import pixels_messages as msg
from reader.smartdice.errors import PixelsPacketError
from reader.smartdice.gatt_ids import PIXELS_SERVICE_DATA_UUID
from reader.smartdice.pixels_advert import decode_advert
from reader.smartdice.pixels_faces import (FACE_COUNT, PixelsDieType, estimate_die_type, face_value,
                                           shown_face)
from reader.smartdice.sim.pixels import CURRENT_FIRMWARE, SimPixel
from rules.dice import Face

# Real bytes from a die "Francis" on June 2023 firmware (NAT20's test suite).
NAT20_I_AM_A_DIE = bytes.fromhex("02140b0012a6beb35a8af006301e1787886401054f00")
NAT20_MANUFACTURER = {0xFFFF: bytes.fromhex("140b010a48")}
NAT20_SERVICE = {PIXELS_SERVICE_DATA_UUID: bytes.fromhex("5a8af00617878864")}


def test_legacy_i_am_a_die_real_capture() -> None:
    info = msg.decode_message(NAT20_I_AM_A_DIE)
    assert isinstance(info, msg.IAmADie)
    assert not info.chunked
    assert (info.led_count, info.colorway, info.legacy_design) == (20, 11, True)
    assert info.die_type is PixelsDieType.UNKNOWN  # a padding byte before 2023-09
    assert info.data_hash == 0xB3BEA612
    assert info.pixel_id == 0x06F08A5A
    assert info.available_flash == 7728
    assert info.firmware_time == 0x64888717  # 2023-06-13 15:11:19 UTC
    assert (info.roll_state, info.face_index, info.battery_percent) == (1, 5, 79)
    assert info.battery_state is msg.BatteryState.OK


def test_advert_real_capture_legacy_company() -> None:
    advert = decode_advert(NAT20_MANUFACTURER, NAT20_SERVICE)
    assert advert.company_id == 0xFFFF
    assert (advert.led_count, advert.colorway, advert.legacy_design) == (20, 11, True)
    assert (advert.roll_state, advert.face_index) == (1, 10)
    assert (advert.battery_percent, advert.charging) == (72, False)
    assert advert.die_id == "06f08a5a"
    assert advert.firmware_time == 0x64888717
    assert estimate_die_type(advert.led_count) is PixelsDieType.D20
    assert face_value(PixelsDieType.D20, advert.face_index, advert.firmware_time) == (11, 20)


def test_advert_current_form_nibbles_and_charging_bit() -> None:
    service = {PIXELS_SERVICE_DATA_UUID: struct.pack("<II", 0xDEADBEEF, CURRENT_FIRMWARE)}
    advert = decode_advert({0x0D39: bytes([20, 0x73, 3, 19, 0x80 | 55])}, service)
    assert advert.die_type is PixelsDieType.D20 and advert.colorway == 3 and not advert.legacy_design
    assert (advert.roll_state, advert.face_index, advert.battery_percent, advert.charging) == (3, 19, 55, True)
    assert advert.company_id == 0x0D39 and advert.die_id == "deadbeef"


def test_advert_without_scan_response_has_no_id() -> None:
    advert = decode_advert({0x0D39: bytes([6, 0x21, 1, 2, 40])}, {})
    assert advert.pixel_id is None and advert.firmware_time is None
    assert advert.die_type is PixelsDieType.D6 and advert.colorway == 1


def test_advert_oldest_form_with_id_in_manufacturer_data() -> None:
    # before 2022-06: company id = ledCount << 8 | design; data = pixelId, state, face, battery 0-255
    advert = decode_advert({0x140B: struct.pack("<IBBB", 0x01020304, 3, 7, 255)}, {})
    assert (advert.pixel_id, advert.led_count, advert.colorway, advert.legacy_design) == (0x01020304, 20, 11, True)
    assert (advert.roll_state, advert.face_index, advert.battery_percent) == (3, 7, 100)


@pytest.mark.parametrize("manufacturer, service", [
    ({}, {}),
    ({0x0D39: b"\x06\x21\x01"}, {}),
    ({0x0D39: bytes([6, 0x21, 1, 2, 101])}, {}),  # 101 %
    ({0x0D39: bytes([6, 0xF1, 1, 2, 50])}, {}),  # die type 15 does not exist
    ({0x0D39: bytes([6, 0x21, 1, 2, 50])}, {PIXELS_SERVICE_DATA_UUID: b"\x01\x02"}),
])
def test_corrupt_adverts_raise_packet_error(manufacturer: dict, service: dict) -> None:
    with pytest.raises(PixelsPacketError):
        decode_advert(manufacturer, service)


def chunked(*chunks: bytes) -> bytes:
    return b"\x02" + b"".join(bytes([len(c) + 1]) + c for c in chunks)


VERSION = struct.pack("<HIHHHH", 0x100, CURRENT_FIRMWARE, 0x100, 0x100, 0x100, 0x100)
DIE_INFO = struct.pack("<IBBBBB", 0x06F08A5A, 1, PixelsDieType.D20, 20, 3, 0)
NAME = b"Francis".ljust(31, b"\0")
SETTINGS = struct.pack("<III", 0xCAFE, 1000, 2000)
STATUS = bytes([64, 2, 1, 19])


def test_chunked_i_am_a_die_full() -> None:
    data = chunked(VERSION, DIE_INFO, b"Custom".ljust(31, b"\0"), NAME, SETTINGS, STATUS)
    assert len(data) == 108  # the size the firmware sends
    info = msg.decode_message(data)
    assert isinstance(info, msg.IAmADie) and info.chunked
    assert (info.pixel_id, info.die_type, info.led_count, info.colorway) == (0x06F08A5A, PixelsDieType.D20, 20, 3)
    assert (info.firmware_version, info.firmware_time) == (0x100, CURRENT_FIRMWARE)
    assert (info.name, info.colorway_name) == ("Francis", "Custom")
    assert (info.data_hash, info.available_flash) == (0xCAFE, 1000)
    assert (info.battery_percent, info.battery_state, info.roll_state, info.face_index) == (
        64, msg.BatteryState.CHARGING, 1, 19)
    assert info.battery_state.charging


def test_chunked_i_am_a_die_forward_compatible() -> None:
    # newer firmware may lengthen a chunk or drop trailing ones: step by the size byte
    longer_info = DIE_INFO + b"\x99\x98"
    info = msg.decode_message(chunked(VERSION, longer_info, b"\0" * 31, NAME))
    assert info.pixel_id == 0x06F08A5A and info.name == "Francis"
    assert info.roll_state is None and info.battery_percent is None


@pytest.mark.parametrize("data", [
    chunked(VERSION),  # no die info
    chunked(VERSION[:5], DIE_INFO),  # version chunk too short
    b"\x02\x00" + VERSION,  # chunk size 0 would never advance
    b"\x02\x40" + VERSION,  # chunk runs past the end
    chunked(VERSION, DIE_INFO, b"", b"", SETTINGS, bytes([64, 9, 1, 1])),  # battery state 9
    NAT20_I_AM_A_DIE[:-1] + b"\x07",  # legacy form, battery state 7
])
def test_corrupt_i_am_a_die_raises_packet_error(data: bytes) -> None:
    with pytest.raises(PixelsPacketError):
        msg.decode_message(data)


def test_small_messages() -> None:
    assert msg.decode_message(b"\x03\x03\x07") == msg.RollState(3, 7)
    assert msg.decode_message(b"\x22\x4f\x03") == msg.BatteryLevel(79, msg.BatteryState.DONE)
    assert msg.decode_message(b"\x24\xc4") == msg.Rssi(-60)
    assert msg.decode_message(b"\x3d" + struct.pack("<hh", 2512, -150)) == msg.Temperature(25.12, -1.5)
    assert msg.decode_message(b"\x1e") == msg.Ack(msg.MessageType.BLINK_ACK)
    assert msg.decode_message(b"\x42") == msg.Ack(msg.MessageType.BLINK_ID_ACK)
    assert msg.decode_message(b"\x16\x34\x12") == msg.RemoteAction(0x1234)
    assert msg.decode_message(b"\x12hello\0junk") == msg.DebugLog("hello")
    assert msg.decode_message(b"\x04" + bytes(32)) == msg.Unhandled(4, bytes(32))


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x03\x01", b"\x22\x65\x00", b"\x22\x10\x06", b"\x24",
                                  b"\x3d\x01\x02\x03", b"\x16\x01"])
def test_short_or_impossible_messages_raise(data: bytes) -> None:
    with pytest.raises(PixelsPacketError):
        msg.decode_message(data)


def test_roll_state_meanings_across_firmware() -> None:
    new, old = CURRENT_FIRMWARE, 1_700_000_000
    assert msg.motion_of(1, new) is msg.Motion.ROLLED
    assert msg.motion_of(5, new) is msg.Motion.ON_FACE
    assert msg.motion_of(1, old) is msg.Motion.AT_REST  # OnFace: any rest
    assert msg.motion_of(1, None) is msg.Motion.AT_REST  # unknown firmware: the claim true for both
    assert msg.motion_of(3, old) is msg.Motion.ROLLING and msg.motion_of(2, new) is msg.Motion.HANDLING
    assert msg.motion_of(4, new, led_count=20) is msg.Motion.CROOKED
    assert msg.motion_of(0, new) is msg.Motion.UNKNOWN
    # firmware before 2024-05-22 called a flat 6-LED die crooked when slightly tilted
    assert msg.motion_of(4, old, led_count=6) is msg.Motion.AT_REST
    assert msg.motion_of(4, old, led_count=20) is msg.Motion.CROOKED
    with pytest.raises(PixelsPacketError):
        msg.motion_of(5, old)  # value 5 did not exist before the re-ordering
    with pytest.raises(PixelsPacketError):
        msg.motion_of(6, new)


def test_encoders() -> None:
    assert msg.who_are_you() == b"\x01"
    assert msg.request_roll_state() == b"\x17"
    assert msg.request_battery_level() == b"\x21"
    assert msg.stop_all_animations() == b"\x3b"
    assert msg.request_rssi(2, 500) == b"\x23\x02\xf4\x01"
    assert msg.blink_id(0x40, 2) == b"\x41\x40\x02"
    blink = msg.blink(0x00FF00, count=3, duration_ms=1500, fade=128)
    assert len(blink) == 14
    assert struct.unpack("<BBHIIBB", blink) == (29, 3, 1500, 0x00FF00, 0xFFFFFFFF, 128, 1)


FACE_TABLES = {
    PixelsDieType.D4: [1, 2, 3, 4],
    PixelsDieType.D6: [1, 2, 3, 4, 5, 6],
    PixelsDieType.D8: list(range(1, 9)),
    PixelsDieType.D10: [10, 1, 2, 3, 4, 5, 6, 7, 8, 9],  # index 0 is the face "0", which reads 10
    PixelsDieType.D00: [10, 1, 2, 3, 4, 5, 6, 7, 8, 9],  # "00" reads 10, "10" reads 1... as tens digits
    PixelsDieType.D12: list(range(1, 13)),
    PixelsDieType.D20: list(range(1, 21)),
    PixelsDieType.D6_PIPPED: [1, 2, 3, 4, 5, 6],
    PixelsDieType.D6_FUDGE: [3, 1, 2, 2, 1, 3],  # as a d3: 1 "-", 2 blank, 3 "+"
    PixelsDieType.M20: list(range(1, 21)),
}


@pytest.mark.parametrize("die_type", list(FACE_TABLES))
def test_face_table_of_every_die_type(die_type: PixelsDieType) -> None:
    values = [face_value(die_type, i, CURRENT_FIRMWARE) for i in range(FACE_COUNT[die_type])]
    assert [v for v, _ in values] == FACE_TABLES[die_type]
    for value, sides in values:
        Face(value, sides)  # within 1..sides, as dicetable requires
    with pytest.raises(PixelsPacketError):
        face_value(die_type, FACE_COUNT[die_type], CURRENT_FIRMWARE)


def test_shown_faces_follow_the_printed_numbers() -> None:
    assert [shown_face(PixelsDieType.D10, i) for i in (0, 9)] == [0, 9]
    assert [shown_face(PixelsDieType.D00, i) for i in (0, 1, 9)] == [0, 10, 90]
    assert [shown_face(PixelsDieType.D6_FUDGE, i) for i in range(6)] == [1, -1, 0, 0, -1, 1]
    with pytest.raises(PixelsPacketError):
        shown_face(PixelsDieType.UNKNOWN, 0)


def test_old_firmware_bad_normals_remap() -> None:
    old = 1_700_000_000
    assert [shown_face(PixelsDieType.D6, i, old) for i in range(6)] == [1, 5, 4, 3, 2, 6]
    assert [shown_face(PixelsDieType.D4, i, old) for i in range(6)] == [1, 1, 3, 2, 1, 4]
    assert [shown_face(PixelsDieType.D20, i, old) for i in (0, 19)] == [1, 20]  # other dice unaffected


def test_simulated_die_speaks_both_i_am_a_die_forms() -> None:
    for legacy in (False, True):
        die = SimPixel(0x01020304, PixelsDieType.D12, legacy=legacy)
        info = msg.decode_message(die.i_am_a_die())
        assert info.chunked is not legacy and info.pixel_id == 0x01020304
        assert info.die_type is PixelsDieType.D12
