"""The pure wire codec: CRC, COBS, frames, and a decoder that survives any corruption."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.codec import (CRC_CHECK, CRC_NAME, MAX_ENCODED, MAX_PAYLOAD, CodecError, Frame, FrameDecoder,
                                   FrameError, cobs_decode, cobs_encode, crc16, decode_frame, encode_frame)
from firmware_bridge.messages import (Capability, DieFace, DieHint, Health, Hello, HelloReply, PayloadError, Status,
                                      pack_hint, unpack_hint)

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 255), st.binary(max_size=MAX_PAYLOAD))


def test_crc_is_the_catalogue_crc16_ibm_3740():
    assert CRC_NAME == "CRC-16/IBM-3740"
    assert crc16(b"123456789") == CRC_CHECK == 0x29B1
    assert crc16(b"") == 0xFFFF  # init 0xFFFF, no final XOR


def test_cobs_known_vectors():
    assert cobs_encode(b"\x01\x00\x02\x00\x00\x03") == bytes.fromhex("02010202010203")
    assert cobs_encode(b"") == b"\x01"
    assert cobs_encode(b"\x00") == b"\x01\x01"
    long = bytes(range(1, 255))  # 254 non-zero bytes: a full block
    assert cobs_encode(long)[0] == 0xFF and cobs_decode(cobs_encode(long)) == long
    assert cobs_decode(bytes.fromhex("02010202010203")) == b"\x01\x00\x02\x00\x00\x03"


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data):
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + 1 + len(data) // 254
    assert cobs_decode(encoded) == data


@given(frames)
def test_frame_round_trip(frame):
    wire = encode_frame(frame)
    assert wire.endswith(b"\x00") and 0 not in wire[:-1]
    assert len(wire) <= MAX_ENCODED + 1
    assert decode_frame(wire[:-1]) == frame
    assert FrameDecoder().feed(wire) == [frame]


def test_a_die_face_is_thirteen_bytes_on_the_wire():
    wire = encode_frame(Frame(0x94, 7, DieFace(1, 0, 1, 1, 6, 4).pack()))
    assert len(wire) == 13


def test_a_stray_zero_after_a_frame_is_caught_by_the_length_byte():
    # with no final XOR, CRC(frame + its CRC) == 0, so the CRC alone accepts a frame grown by a zero byte
    frame = Frame(0x95, 2, Health(4000).pack())
    raw = frame.raw() + b"\x00"
    assert crc16(raw[:-2]) == int.from_bytes(raw[-2:], "big")
    with pytest.raises(CodecError) as err:
        decode_frame(cobs_encode(raw))
    assert err.value.reason is FrameError.LENGTH


def test_each_kind_of_bad_chunk_is_named():
    good = encode_frame(Frame(0x90, 1, b"\x05"))[:-1]
    flipped = bytes([good[0], good[1] ^ 0x10, *good[2:]])
    cases = {FrameError.CRC: flipped, FrameError.SHORT: cobs_encode(b"\x90\x01\x00\x00"),
             FrameError.LENGTH: cobs_encode(b"\x90\x01\x02\x00\x00\x00"),
             FrameError.COBS: bytes([9, 1, 2]), FrameError.LONG: bytes([1]) * (MAX_ENCODED + 1)}
    for reason, chunk in cases.items():
        with pytest.raises(CodecError) as err:
            decode_frame(chunk)
        assert err.value.reason is reason


def test_decoder_resynchronises_after_garbage_and_counts_it():
    a, b = Frame(0x90, 1, b"\x00"), Frame(0x94, 2, b"\x01\x02\x03")
    decoder = FrameDecoder()
    stream = b"\x17\x42noise\x00" + encode_frame(a) + b"\xff" * 500 + b"\x00" + encode_frame(b)
    assert decoder.feed(stream) == [a, b]
    assert decoder.stats.frames == 2
    assert decoder.stats.rejected["long"] == 1 and decoder.stats.errors == 2


def test_decoder_accepts_any_split_of_the_stream():
    sent = [Frame(0x90 + i % 7, i, bytes([i] * (i % 9))) for i in range(40)]
    stream = b"".join(map(encode_frame, sent))
    rng = random.Random(5)
    decoder, got, i = FrameDecoder(), [], 0
    while i < len(stream):
        n = rng.randint(1, 17)
        got += decoder.feed(stream[i:i + n])
        i += n
    assert got == sent


def test_truncated_frame_is_dropped_and_the_next_one_read():
    a, b = Frame(0x91, 3, b"\x00\x00\x01\x02"), Frame(0x92, 4, b"\x00\x00\x01\x09")
    wire = encode_frame(a)
    for cut in range(1, len(wire) - 1):
        decoder = FrameDecoder()
        assert decoder.feed(wire[:cut] + b"\x00" + encode_frame(b)) == [b]
        assert decoder.stats.errors == 1


def test_dropped_bytes_are_detected():
    frame = Frame(0x94, 9, DieFace(3, 1, 2, 5, 20, 17, "red").pack())
    wire = encode_frame(frame)[:-1]
    for i in range(len(wire)):
        decoder = FrameDecoder()
        assert decoder.feed(wire[:i] + wire[i + 1:] + b"\x00") == []
        assert decoder.stats.errors == 1


def _corrupted_stream_keeps_the_rest(sent: list[Frame], corrupt) -> tuple[list[Frame], set[int]]:
    """Encode ``sent``, let ``corrupt`` damage the bytes; return what decodes and which frames were touched."""
    spans, stream = [], bytearray()
    for frame in sent:
        wire = encode_frame(frame)
        spans.append((len(stream), len(stream) + len(wire)))
        stream += wire
    touched_bytes = corrupt(stream)
    touched = {k for k, (lo, hi) in enumerate(spans) if any(lo <= i < hi for i in touched_bytes)}
    # damage to a delimiter merges a frame with the next one
    touched |= {k + 1 for k in set(touched) if spans[k][1] - 1 in touched_bytes and k + 1 < len(sent)}
    return FrameDecoder().feed(bytes(stream)), touched


@settings(max_examples=150, deadline=None)
@given(st.lists(frames, min_size=1, max_size=12), st.data())
def test_bit_flips_never_yield_a_wrong_frame_and_spare_the_others(sent, data):
    def flip(stream: bytearray) -> set[int]:
        i = data.draw(st.integers(0, len(stream) - 1))
        bits = data.draw(st.integers(1, 255))  # 1..8 flipped bits in one byte: a burst CRC-16 always catches
        stream[i] ^= bits
        return {i}

    got, touched = _corrupted_stream_keeps_the_rest(sent, flip)
    assert touched
    assert all(f in sent for f in got)  # the damaged frame is rejected, never delivered altered
    assert all(f in got for k, f in enumerate(sent) if k not in touched)
    assert len(got) == len(sent) - len(touched)


@settings(max_examples=100, deadline=None)
@given(st.lists(frames, min_size=2, max_size=10), st.data())
def test_truncation_dropping_and_garbage_lose_only_the_damaged_frames(sent, data):
    def damage(stream: bytearray) -> set[int]:
        lo = data.draw(st.integers(0, len(stream) - 1))
        kind = data.draw(st.sampled_from(["drop", "noise_inside", "noise_between", "truncate"]))
        if kind == "drop":
            n = data.draw(st.integers(1, 8))
            del stream[lo:lo + n]
            return set(range(lo, lo + n + 1))
        noise = data.draw(st.binary(min_size=1, max_size=40).filter(lambda b: 0 not in b))
        if kind == "noise_inside":  # it joins the frame that holds byte lo
            stream[lo:lo] = noise
            return {lo}
        if kind == "noise_between":  # line noise ended by a zero, between two frames: harms none
            at = stream.index(0, lo) + 1
            stream[at:at] = noise + b"\x00"
            return set()
        end = stream.index(0, lo)
        del stream[lo:end]  # the frame's tail is lost, its delimiter arrives
        return set(range(lo, end + 1))

    got, touched = _corrupted_stream_keeps_the_rest(sent, damage)
    spared = [f for k, f in enumerate(sent) if k not in touched]
    assert all(f in sent for f in got)
    assert all(f in got for f in spared)


def test_message_payloads_round_trip():
    reply = HelloReply(1, 0, (1, 2, 3), Capability.FACES | Capability.POPPER, 0xBEEF, 17, "uno-ref")
    assert HelloReply.unpack(reply.pack()) == reply
    assert Hello.unpack(Hello(0xABCD, 1, 0, "host").pack()) == Hello(0xABCD, 1, 0, "host")
    face = DieFace(4, 1, 3, 9, 10, 10, "black")
    assert DieFace.unpack(face.pack()) == face
    status = Status(Health(3900, 66, 1), 120, 5, 1, 2, 3, 4)
    assert Status.unpack(status.pack()) == status
    hint = (DieHint(6, "red"), DieHint(6), DieHint(20, "blue"))
    assert unpack_hint(pack_hint(hint)) == hint
    with pytest.raises(PayloadError):
        DieFace.unpack(b"\x01\x02")
    with pytest.raises(PayloadError):
        unpack_hint(b"\x06\x05re")
    with pytest.raises(PayloadError):
        pack_hint((DieHint(6, "white"),) * 20)
