"""The ``--source`` option: which dice answer the resolver's requests.

``virtual`` (default), scripted ``--faces``, ``camera:INDEX`` or a video/image path,
``pixels``, ``godice`` and ``serial:PORT``. Hardware sources are imported only when asked
for, so the virtual path never pays for OpenCV, bleak or pyserial at start-up.
"""

from __future__ import annotations

import argparse
import importlib
from dataclasses import replace

from reader.sources.base import DiceSource
from reader.sources.scripted import ScriptedDice, parse_faces
from reader.sources.virtual import VirtualDice
from rules.dice import DiceRequest, Role
from rules.errors import DicetableError

#: scheme -> (module, factory). A factory takes (the text after "scheme:", parsed options).
HARDWARE_SOURCES: dict[str, tuple[str, str]] = {
    "camera": ("reader.camera.source", "open_camera_source"),
    "pixels": ("reader.smartdice.source", "open_smartdice_source"),
    "godice": ("reader.smartdice.source", "open_smartdice_source"),
    "serial": ("firmware_bridge.source", "open_serial_source"),
}


class SourceError(DicetableError):
    """The ``--source`` option names no known source."""


def add_source_options(parser: argparse.ArgumentParser) -> None:
    """Options every resolving command shares."""
    group = parser.add_argument_group("dice source and output")
    group.add_argument("--source", default="virtual", metavar="SOURCE",
                       help="where the dice come from: virtual (default), camera:0 (webcam index) or "
                            "camera:PATH (video, image or folder), pixels, godice, serial:/dev/ttyACM0")
    group.add_argument("--faces", metavar="F,F,...",
                       help="scripted faces instead of a source, consumed in the order the check asks "
                            "for dice, designated dice (wild, tens) first within each throw; a d10 "
                            "face is the digit it shows (0 reads 10)")
    group.add_argument("--seed", type=int, metavar="N",
                       help="repeatable virtual dice (default: cryptographically random)")
    group.add_argument("--wild", metavar="COLOUR",
                       help="colour of the wild die on the table (camera, smart dice); default red")
    group.add_argument("--tens", metavar="COLOUR",
                       help="colour of the percentile tens die on the table (camera, smart dice)")
    group.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                       help="how long a hardware source waits for a throw (default 120)")
    group.add_argument("--board", metavar="PORT",
                       help="with a camera source: the dice-table board (serial port, usb:VID:PID or a "
                            "pyserial URL) whose tray motion sensor gates reading - no frame is read "
                            "while the board feels the dice move")
    group.add_argument("--led", action="store_true",
                       help="show the outcome on the dice or the board where they have LEDs")
    group.add_argument("--json", action="store_true", help="print one JSON object")
    group.add_argument("--no-odds", action="store_true",
                       help="do not show the exact odds before the throw (nor add them to --json)")
    group.add_argument("--log", metavar="PATH",
                       help="roll log to append every throw to (default: rolls.sqlite3 in the data folder)")


def open_source(args: argparse.Namespace) -> DiceSource:
    """The source the options name; a scripted ``--faces`` list wins over ``--source``."""
    if args.faces is not None:
        return ScriptedDice(parse_faces(args.faces))
    spec: str = args.source
    if spec == "virtual":
        return VirtualDice(args.seed)
    scheme, _, rest = spec.partition(":")
    if scheme not in HARDWARE_SOURCES:
        known = ", ".join(["virtual", *HARDWARE_SOURCES])
        raise SourceError(f"unknown source {spec!r}; use one of: {known}")
    module, factory = HARDWARE_SOURCES[scheme]
    return getattr(importlib.import_module(module), factory)(scheme, rest, args)


def designate(request: DiceRequest, args: argparse.Namespace) -> DiceRequest:
    """Give designated dice the colours named on the command line.

    On the table (camera, smart dice, board) the wild die is red unless told otherwise;
    virtual and scripted dice have no colour unless one is named.
    """
    on_table = getattr(args, "faces", None) is None and getattr(args, "source", "virtual") != "virtual"
    colours = {Role.WILD: args.wild or ("red" if on_table else None), Role.TENS: args.tens}
    if not any(spec.role in colours and spec.colour is None and colours[spec.role] for spec in request.dice):
        return request
    dice = tuple(replace(spec, colour=colours[spec.role]) if spec.role in colours and spec.colour is None else spec
                 for spec in request.dice)
    return replace(request, dice=dice)
