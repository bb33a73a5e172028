"""``dicetable board``: the dice-table board on the serial link (status, ports, emulator)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``board status``, ``board ports`` and ``board emulate``."""
    board = commands.add_parser("board", help="the dice-table board on USB serial: status, ports, emulator",
                                description="The dice-table microcontroller board (see firmware_bridge/PROTOCOL.md).")
    sub = board.add_subparsers(dest="board_command", metavar="BOARD_COMMAND", parser_class=type(board))
    sub.required = True

    status = sub.add_parser("status", help="handshake, capabilities, battery and counters of a board",
                            description="Say HELLO to a board and print what it reports.")
    status.add_argument("--port", required=True, metavar="PORT",
                        help="device path, pyserial URL, usb:VID:PID[:SERIAL] or 'emulator'")
    status.add_argument("--timeout", type=float, default=6.0, metavar="SECONDS",
                        help="how long to wait for the handshake (default 6: an Uno reboots when opened)")
    status.add_argument("--json", action="store_true", help="print one JSON object")
    status.set_defaults(run=_status)

    ports = sub.add_parser("ports", help="list serial ports with their USB identity",
                           description="List serial ports; use usb:VID:PID with --port/--source to follow a board.")
    ports.add_argument("--json", action="store_true", help="print one JSON object")
    ports.set_defaults(run=_ports)

    emulate = sub.add_parser("emulate", help="serve an emulated board on a pseudo-terminal until interrupted",
                             description="Print the pty path of an emulated board, e.g. for "
                                         "'--source serial:/dev/pts/7' in another terminal.")
    emulate.add_argument("--link", type=Path, metavar="PATH", help="also make this symlink point at the pty")
    emulate.add_argument("--seed", type=int, metavar="N", help="repeatable dice")
    emulate.set_defaults(run=_emulate)


def _status(args: argparse.Namespace) -> int:
    from firmware_bridge.link import SerialLink

    board = None
    where = args.port
    if where == "emulator":
        from firmware_bridge.emulator import BoardEmulator, PtyBoard
        board = PtyBoard(BoardEmulator())
        where = board.path
    try:
        with SerialLink(where) as link:
            info = link.open(args.timeout)
            status = link.status()
            rtt = link.ping()
            report = {
                "port": link.device, "board_id": info.board_id, "protocol": f"{info.major}.{info.minor}",
                "firmware": info.firmware_version, "boot_id": info.boot_id,
                "capabilities": info.capabilities.names(), "ping_ms": round(rtt * 1000, 2),
                "board": status.to_json(), "host": link.stats.to_json(link.decoder_errors)}
    finally:
        if board is not None:
            board.close()
    if args.json:
        print(json.dumps(report))
    else:
        print(_describe(report))
    return 0


def _describe(report: dict) -> str:
    board = report["board"]
    pct = f" ({board['battery_pct']}%)" if board["battery_pct"] is not None else ""
    power = ", external power" if board["external_power"] else ""
    power += ", charging" if board["charging"] else ""
    power += ", BATTERY LOW" if board["low"] else ""
    counters = " ".join(f"{k}={v}" for k, v in board["counters"].items())
    host = report["host"]
    rejected = " ".join(f"{k}={v}" for k, v in host["rejected"].items())
    host_counters = " ".join(f"{k}={v}" for k, v in host.items() if k != "rejected")
    return "\n".join([
        f"board {report['board_id']!r} on {report['port']}",
        f"  protocol {report['protocol']}, firmware {report['firmware']}, boot id {report['boot_id']:#06x}",
        f"  capabilities: {', '.join(report['capabilities']) or 'none'}",
        f"  battery: {board['battery_mv']} mV{pct}{power}; up {board['uptime_s']} s",
        f"  ping: {report['ping_ms']} ms",
        f"  board counters: {counters}",
        f"  host counters: {host_counters}",
        f"  host rejected frames: {rejected}",
    ])


def _ports(args: argparse.Namespace) -> int:
    from serial.tools.list_ports import comports

    found = [{"device": p.device, "usb": f"usb:{p.vid:04x}:{p.pid:04x}" + (f":{p.serial_number}" if p.serial_number
                                                                              else "") if p.vid is not None else None,
              "description": p.description} for p in comports()]
    if args.json:
        print(json.dumps({"ports": found}))
    else:
        for port in found:
            print(f"{port['device']}\t{port['usb'] or '-'}\t{port['description']}")
    return 0


def _emulate(args: argparse.Namespace) -> int:
    from firmware_bridge.emulator import BoardEmulator, serve

    serve(BoardEmulator(seed=args.seed), args.link)
    return 0
