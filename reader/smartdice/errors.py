"""Typed errors of the smart-dice source."""

from __future__ import annotations

from rules.errors import DicetableError


class SmartDiceError(DicetableError):
    """Base of every smart-dice error a player can meet."""


class PacketError(SmartDiceError):
    """A packet or advertisement is corrupt or too short: decoders raise only this family."""


class PixelsPacketError(PacketError):
    """A Pixels message or advertisement could not be decoded."""


class GoDicePacketError(PacketError):
    """A GoDice event could not be decoded."""


class RegistryError(SmartDiceError):
    """The dice registry is asked for something it cannot do (unknown die, duplicate, bad field)."""


class DiceLinkError(SmartDiceError):
    """No Bluetooth adapter, or the registered dice cannot be reached."""


class ThrowTimeout(SmartDiceError):
    """The dice asked for did not all come to rest after a roll within ``--timeout``."""


def scan_failure(err: Exception) -> DiceLinkError:
    """The error shown when bleak cannot scan at all (no adapter, no BlueZ, no permission)."""
    return DiceLinkError(f"cannot scan for Bluetooth dice ({type(err).__name__}: {err}); is there a Bluetooth "
                         "adapter, is bluetoothd running and may this user use it? (see the README's Linux notes)")
