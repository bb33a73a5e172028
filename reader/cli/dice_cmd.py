"""``dicetable dice``: find, register, list and remove the player's Bluetooth smart dice.

bleak and the smart-dice package are imported only when a ``dice`` command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json

FAMILIES = ("pixels", "godice")
ROLES = ("wild", "bonus_wild", "tens", "units", "difficulty")


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``dicetable dice scan|add|list|remove``."""
    dice = commands.add_parser("dice", help="find and register Bluetooth smart dice (Pixels, GoDice)",
                               description="Find and register Bluetooth smart dice. Only registered dice "
                                           "are read during a check; other dice in range are ignored.")
    sub = dice.add_subparsers(dest="dice_command", metavar="ACTION", parser_class=type(dice))
    sub.required = True

    scan = sub.add_parser("scan", help="list the smart dice in range, with their battery levels")
    scan.add_argument("--family", choices=FAMILIES, help="only this family")
    scan.add_argument("--seconds", type=float, default=5.0, help="how long to scan (default 5)")
    scan.add_argument("--json", action="store_true", help="print one JSON object")
    scan.add_argument("--sim", action="store_true", help="scan a simulated table (a demo without dice)")
    scan.set_defaults(run=_scan)

    add = sub.add_parser("add", help="register a die (scans for it unless --family and --type are given)")
    add.add_argument("die", metavar="ID", help="the die's id as 'dice scan' shows it (or its address)")
    add.add_argument("--family", choices=FAMILIES, help="pixels or godice")
    add.add_argument("--type", dest="die_type", metavar="TYPE",
                     help="die type: d4 d6 d8 d10 d00 d12 d20 (Pixels also d6pipped, fudge, m20); for a GoDice "
                          "the shell it wears (default d6)")
    add.add_argument("--colour", "--color", dest="colour", help="its colour, as --wild/--tens name it (red...)")
    add.add_argument("--name", help="a name to designate it by (--wild NAME)")
    add.add_argument("--role", choices=ROLES, help="designate it for a role whatever colour is asked for")
    add.add_argument("--seconds", type=float, default=5.0, help="how long to scan for it (default 5)")
    add.add_argument("--sim", action="store_true", help=argparse.SUPPRESS)
    add.set_defaults(run=_add)

    listing = sub.add_parser("list", help="show the registered dice")
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    listing.set_defaults(run=_list)

    remove = sub.add_parser("remove", help="unregister a die (by id, address or name)")
    remove.add_argument("die", metavar="ID")
    remove.set_defaults(run=_remove)


def _scan(args: argparse.Namespace) -> int:
    from reader.smartdice.scan import scan_for_dice

    sightings = asyncio.run(scan_for_dice(args.seconds, sim=args.sim))
    if args.family:
        sightings = [s for s in sightings if s.family.value == args.family]
    from reader.smartdice.registry import Registry

    registry = Registry.load()
    rows = [{"family": s.family.value, "id": s.key, "address": s.address, "name": s.name, "type": s.die_type,
             "colour": s.colour, "battery": s.battery, "charging": s.charging, "rssi": s.rssi,
             "registered": registry.find(s.key) is not None} for s in sightings]
    if args.json:
        print(json.dumps({"dice": rows}))
        return 0
    if not rows:
        print("no smart dice in range (are they awake and not connected to another app?)")
    for row in rows:
        battery = "battery ?" if row["battery"] is None else f"battery {row['battery']}%"
        charging = " (charging)" if row["charging"] else ""
        mark = " [registered]" if row["registered"] else ""
        print(f"{row['family']:6} {row['id']:12} {row['type'] or '?':8} {row['colour'] or '':7} "
              f"{battery}{charging}  {row['name'] or ''}{mark}")
    return 0


def _add(args: argparse.Namespace) -> int:
    from reader.smartdice.errors import RegistryError
    from reader.smartdice.registry import Family, RegisteredDie, Registry
    from rules.dice import Role

    family, die_type, colour, address, die_id = args.family, args.die_type, args.colour, None, args.die
    if family is None or (die_type is None and family == "pixels"):
        from reader.smartdice.scan import scan_for_dice

        sightings = asyncio.run(scan_for_dice(args.seconds, sim=args.sim, wanted=args.die))
        match = next((s for s in sightings if args.die.lower() in {s.key.lower(), s.address.lower()}), None)
        if match is None:
            raise RegistryError(f"no smart die {args.die!r} in range; run 'dicetable dice scan' to see the ids, "
                                "or give --family and --type to register it without scanning")
        family = family or match.family.value
        die_type = die_type or match.die_type
        colour = colour or match.colour
        address, die_id = match.address, match.key
    registry = Registry.load()
    die = RegisteredDie(die_id, Family(family), die_type or "d6", colour, args.name,
                        Role(args.role) if args.role else None, address)
    registry.add(die)
    registry.save()
    print(f"registered {die.label()}" + (f" as the {die.role.value} die" if die.role else ""))
    return 0


def _list(args: argparse.Namespace) -> int:
    from reader.smartdice.registry import Registry

    dice = Registry.load().dice
    if args.json:
        print(json.dumps({"dice": [d.to_json() for d in dice]}))
        return 0
    if not dice:
        print("no smart dice registered; find them with 'dicetable dice scan'")
    for die in dice:
        role = f"  role {die.role.value}" if die.role else ""
        print(f"{die.family.value:6} {die.die_id:12} {die.die_type:8} {die.colour or '':7} {die.name or ''}{role}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    from reader.smartdice.registry import Registry

    registry = Registry.load()
    die = registry.remove(args.die)
    registry.save()
    print(f"removed {die.label()}")
    return 0
