"""The wire codec of the board protocol: bytes in, frames out, no I/O.

A frame is ``type (u8) | seq (u8) | length (u8) | payload (length bytes) | crc (u16, big-endian)``,
COBS-encoded so that it contains no zero byte, then terminated by one ``0x00``. The CRC is
CRC-16/IBM-3740 (the CRC catalogue's name for what is often called "CRC-16/CCITT-FALSE":
poly 0x1021, init 0xFFFF, no reflection, no final XOR; check value 0x29B1) computed over
type, seq, length and payload. The length byte is not redundant: with no final XOR the CRC
of a frame followed by its own CRC is zero, so a stray zero byte appended to a frame would
pass the CRC; the length check rejects it. See ``PROTOCOL.md`` beside this file.

:class:`FrameDecoder` turns any byte stream (noise, partial reads, corrupted or truncated
frames) into the good frames it contains: a damaged frame is dropped and counted, and
decoding resumes at the next zero byte.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass, field
from enum import Enum

#: The CRC's name in the CRC catalogue (reveng), its parameters and its check value.
CRC_NAME = "CRC-16/IBM-3740"
CRC_POLY = 0x1021
CRC_INIT = 0xFFFF
CRC_CHECK = 0x29B1  # CRC of b"123456789"

#: Largest payload a frame may carry; the raw frame adds 5 bytes, COBS 1 more, the delimiter 1.
MAX_PAYLOAD = 64
HEADER = 3
MAX_RAW = MAX_PAYLOAD + HEADER + 2
MAX_ENCODED = MAX_RAW + 1 + MAX_RAW // 254
DELIMITER = b"\x00"


def crc16(data: bytes) -> int:
    """CRC-16/IBM-3740 of ``data`` (``crc16(b"123456789") == 0x29B1``)."""
    return binascii.crc_hqx(data, CRC_INIT)


class FrameError(Enum):
    """Why a chunk between two delimiters is not a frame."""

    COBS = "bad COBS encoding"
    SHORT = "shorter than a frame header and CRC"
    LONG = "longer than the largest frame"
    LENGTH = "length byte does not match the frame"
    CRC = "CRC mismatch"


class CodecError(ValueError):
    """A chunk is not a valid frame; ``reason`` says which check failed."""

    def __init__(self, reason: FrameError) -> None:
        super().__init__(reason.value)
        self.reason = reason


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` with every zero byte removed (no delimiter)."""
    out = bytearray()
    for block in data.split(b"\x00"):
        while len(block) >= 254:
            out.append(0xFF)
            out += block[:254]
            block = block[254:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(encoded: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises :class:`CodecError` on an impossible encoding."""
    out = bytearray()
    i, n = 0, len(encoded)
    while i < n:
        code = encoded[i]
        end = i + code
        if code == 0 or end > n:
            raise CodecError(FrameError.COBS)
        out += encoded[i + 1:end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: message type, sequence number and payload."""

    type: int
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not (0 <= self.type <= 0xFF and 0 <= self.seq <= 0xFF):
            raise ValueError(f"type and seq are bytes, got {self.type}, {self.seq}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")

    def raw(self) -> bytes:
        """The frame before COBS: header, payload and CRC."""
        body = bytes((self.type, self.seq, len(self.payload))) + self.payload
        return body + crc16(body).to_bytes(2, "big")


def encode_frame(frame: Frame) -> bytes:
    """The bytes that go on the wire for ``frame``, delimiter included."""
    return cobs_encode(frame.raw()) + DELIMITER


def decode_frame(chunk: bytes) -> Frame:
    """Decode one chunk found between delimiters (without them); raises :class:`CodecError`."""
    if len(chunk) > MAX_ENCODED:
        raise CodecError(FrameError.LONG)
    raw = cobs_decode(chunk)
    if len(raw) < HEADER + 2:
        raise CodecError(FrameError.SHORT)
    if len(raw) > MAX_RAW:
        raise CodecError(FrameError.LONG)
    if raw[2] != len(raw) - HEADER - 2:
        raise CodecError(FrameError.LENGTH)
    if crc16(raw[:-2]) != int.from_bytes(raw[-2:], "big"):
        raise CodecError(FrameError.CRC)
    return Frame(raw[0], raw[1], raw[HEADER:-2])


@dataclass
class DecoderStats:
    """What a :class:`FrameDecoder` has seen: good frames and each kind of rejected chunk."""

    frames: int = 0
    rejected: dict[str, int] = field(default_factory=lambda: {reason.name.lower(): 0 for reason in FrameError})

    @property
    def errors(self) -> int:
        """All rejected chunks together."""
        return sum(self.rejected.values())


class FrameDecoder:
    """Incremental decoder: :meth:`feed` any bytes, get back the complete good frames.

    Empty chunks (consecutive delimiters, used to flush the line) are ignored. A chunk that
    grows past the largest frame without a delimiter is dropped at once and the decoder
    skips to the next delimiter, so garbage never makes it buffer without bound.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipping = False
        self.stats = DecoderStats()

    def reset(self) -> None:
        """Forget a partly received frame (the line was reopened); the statistics stay."""
        self._buffer.clear()
        self._skipping = False

    def feed(self, data: bytes) -> list[Frame]:
        """Consume ``data``; return the frames it completed, in order."""
        frames: list[Frame] = []
        chunks = data.split(DELIMITER)
        for i, piece in enumerate(chunks):
            last = i == len(chunks) - 1
            if self._skipping:
                if last:
                    break
                self._skipping = False
                continue
            self._buffer += piece
            if last:
                if len(self._buffer) > MAX_ENCODED:
                    self._reject(FrameError.LONG)
                    self._buffer.clear()
                    self._skipping = True
                break
            if self._buffer:
                chunk = bytes(self._buffer)
                self._buffer.clear()
                try:
                    frames.append(decode_frame(chunk))
                except CodecError as err:
                    self._reject(err.reason)
        self.stats.frames += len(frames)
        return frames

    def _reject(self, reason: FrameError) -> None:
        self.stats.rejected[reason.name.lower()] += 1
