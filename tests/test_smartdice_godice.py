"""GoDice decoders: events, names, commands and the face of every shell."""

from __future__ import annotations

import pytest

from reader.smartdice import godice_messages as msg
from reader.smartdice.errors import GoDicePacketError
from reader.smartdice.godice_faces import (D6_VECTORS, D20_VECTORS, D24_VECTORS, SIDES, Shell, face_value,
                                           nearest_key, printed_faces, reference_vector, shown_face)
from rules.dice import Face


def test_every_event_form() -> None:
    assert msg.decode_event(b"R") == msg.RollStart()
    assert msg.decode_event(b"S\x00\x00\xc0") == msg.Stable(msg.StableKind.STABLE, (0, 0, -64))
    assert msg.decode_event(b"TS\x28\x28\x00") == msg.Stable(msg.StableKind.TILT, (40, 40, 0))
    assert msg.decode_event(b"FS\xc0\x00\x00") == msg.Stable(msg.StableKind.FAKE, (-64, 0, 0))
    assert msg.decode_event(b"MS\x00\x40\x00") == msg.Stable(msg.StableKind.MOVE, (0, 64, 0))
    assert msg.decode_event(b"Bat\x4d") == msg.Battery(77)
    assert msg.decode_event(b"Col\x05") == msg.Colour(msg.GoDiceColour.ORANGE)
    assert msg.decode_event(b"Char\x01") == msg.Charging(True)
    assert msg.decode_event(b"Char\x00") == msg.Charging(False)  # the real reply to 0x19 users saw
    assert msg.decode_event(b"Tap") == msg.Tap(double=False)
    assert msg.decode_event(b"DTap") == msg.Tap(double=True)


def test_colour_ids() -> None:
    words = [msg.decode_event(b"Col" + bytes([i])).colour.word for i in range(6)]
    assert words == ["black", "red", "green", "blue", "yellow", "orange"]


@pytest.mark.parametrize("data", [b"", b"S\x00\x00", b"TS\x00\x00", b"Bat", b"Bat\x65", b"Col\x06", b"Col",
                                  b"Char", b"Char\x02", b"X12", b"\xff"])
def test_corrupt_events_raise_packet_error(data: bytes) -> None:
    with pytest.raises(GoDicePacketError):
        msg.decode_event(data)


def test_names() -> None:
    assert msg.parse_name("GoDice_8A8272_K_v04") == msg.GoDiceName("8A8272", msg.GoDiceColour.BLACK, "v04")
    assert msg.parse_name("GoDice_B0940_K_v03").die_id == "B0940"
    assert msg.parse_name("GoDice_8a8272_R") == msg.GoDiceName("8A8272", msg.GoDiceColour.RED, None)
    assert msg.parse_name("GoDice") == msg.GoDiceName(None, None, None)  # older firmware omits parts
    assert msg.parse_name("Pixel06f08a5a") is None


def test_commands() -> None:
    assert msg.request_battery() == b"\x03"
    assert msg.request_colour() == b"\x17"
    assert msg.set_sensitivity() == b"\x06\x1e"
    assert msg.set_leds((255, 0, 0), (0, 0, 255)) == bytes([0x08, 255, 0, 0, 0, 0, 255])
    assert msg.set_leds() == bytes([0x08, 0, 0, 0, 0, 0, 0])
    assert msg.blink_leds((0, 255, 0), count=3, on_10ms=40, off_10ms=30) == bytes([0x10, 3, 40, 30, 0, 255, 0, 1, 0])
    assert msg.leds_off() == b"\x14"
    init = msg.initialise(30, msg.blink_leds((255, 0, 0)))
    assert init == bytes([0x19, 30, 1, 50, 50, 255, 0, 0, 1, 0]) and len(init) == 10
    assert msg.enable_taps(True, False) == (b"\x31\x01", b"\x32\x00")
    assert msg.detection_settings() == bytes([0x65, 4, 2, 1, 10, 54, 20, 50, 30])
    with pytest.raises(GoDicePacketError):
        msg.set_leds((256, 0, 0))


# Real vectors (ParticulaCode/GoDiceJavaScriptAPI#15): a D4 shell, the face the user saw on top.
ISSUE_15 = [((61, 1, 22), 12, 1), ((-19, -58, -22), 6, 4), ((-21, -1, 59), 10, 3), ((21, -58, -19), 1, 3)]


@pytest.mark.parametrize("xyz, key, seen", ISSUE_15)
def test_real_d4_vectors(xyz: tuple[int, int, int], key: int, seen: int) -> None:
    assert nearest_key(D24_VECTORS, xyz) == key
    assert shown_face(Shell.D4, xyz) == seen


def test_official_c_test_vector() -> None:
    assert shown_face(Shell.D6, (0, 0, -64)) == 5


def test_d20_key_2_has_z_40() -> None:
    assert D20_VECTORS[1] == (42, -42, 40)


def test_ties_go_to_the_first_key() -> None:
    # (0, 0, 0) is equally far from every D6 vector: key 1 wins, as in every official SDK
    assert nearest_key(D6_VECTORS, (0, 0, 0)) == 1


EXPECTED_FACES = {
    Shell.D6: list(range(1, 7)), Shell.D20: list(range(1, 21)), Shell.D10: list(range(10)),
    Shell.D10X: list(range(0, 100, 10)), Shell.D4: [1, 2, 3, 4], Shell.D8: list(range(1, 9)),
    Shell.D12: list(range(1, 13)),
}
TRANSFORMS = {
    Shell.D10: [8, 2, 6, 1, 4, 3, 9, 0, 7, 5, 5, 7, 0, 9, 3, 4, 1, 6, 2, 8],
    Shell.D4: [3, 1, 4, 1, 4, 4, 1, 4, 2, 3, 1, 1, 1, 4, 2, 3, 3, 2, 2, 2, 4, 1, 3, 2],
    Shell.D8: [3, 3, 6, 1, 2, 8, 1, 1, 4, 7, 5, 5, 4, 4, 2, 5, 7, 7, 8, 2, 8, 3, 6, 6],
    Shell.D12: [*range(1, 13), *range(1, 13)],
}


@pytest.mark.parametrize("shell", list(Shell))
def test_every_shell_face_table(shell: Shell) -> None:
    assert list(printed_faces(shell)) == EXPECTED_FACES[shell]
    table = {Shell.D6: D6_VECTORS, Shell.D20: D20_VECTORS, Shell.D10: D20_VECTORS,
             Shell.D10X: D20_VECTORS}.get(shell, D24_VECTORS)
    for key, vector in enumerate(table, start=1):
        shown = shown_face(shell, vector)
        if shell in TRANSFORMS:
            assert shown == TRANSFORMS[shell][key - 1]
        elif shell is Shell.D10X:
            assert shown == 10 * TRANSFORMS[Shell.D10][key - 1]
        else:
            assert shown == key
        value, sides = face_value(shell, vector)
        assert sides == SIDES[shell]
        Face(value, sides)  # 1..sides
    for shown in printed_faces(shell):
        assert shown_face(shell, reference_vector(shell, shown)) == shown


def test_normalised_values_of_ten_sided_shells() -> None:
    zero = reference_vector(Shell.D10, 0)
    assert face_value(Shell.D10, zero) == (10, 10)
    assert face_value(Shell.D10X, reference_vector(Shell.D10X, 0)) == (10, 10)  # "00" reads 10
    assert face_value(Shell.D10X, reference_vector(Shell.D10X, 70)) == (7, 10)


def test_noisy_vectors_still_read_the_nearest_face() -> None:
    for shown in range(1, 21):
        x, y, z = reference_vector(Shell.D20, shown)
        assert shown_face(Shell.D20, (x + 3, y - 2, z + 1)) == shown
