"""Resolve 100k virtual checks per rule system and compare with the d20 package rolling 4d6kh3.

    python bench/rules_bench.py [--checks N] [--seeded]

Each check goes the whole way a command does: the resolver asks for dice, the virtual
source rolls them (cryptographically random unless --seeded), the throw is checked against
the request and the result is built. Parsing the options happens once, outside the timing.
"""

from __future__ import annotations

import argparse
import time

from reader.cli.main import build_parser
from reader.cli.systems import ACTIONS
from reader.sources.virtual import VirtualDice
from rules.protocol import drive

#: One representative command per system (the OpenD6 one explodes and can critically fail).
COMMANDS = {
    "true20": ["check", "true20", "--modifier", "4", "--difficulty", "15"],
    "opend6": ["check", "opend6", "--code", "4D+1", "--difficulty", "15"],
    "osr": ["check", "osr", "--ability", "2", "--difficulty", "normal"],
    "d20": ["check", "d20", "--modifier", "3", "--difficulty", "15"],
    "d6pool": ["check", "d6pool", "--dice", "4", "--difficulty", "3d6"],
}


def checks_per_second(argv: list[str], count: int, seed: int | None) -> float:
    """Time ``count`` resolutions of the check ``argv`` describes."""
    args = build_parser().parse_args(argv)
    action = next(a for a in ACTIONS if (a.name, a.system) == (args.command, args.system))
    params = action.parse(args)
    answer = VirtualDice(seed).throw_now
    resolve = action.resolve
    start = time.perf_counter()
    for _ in range(count):
        drive(resolve(params), answer)
    return count / (time.perf_counter() - start)


def d20_package_rolls_per_second(count: int) -> float | None:
    """The reference: Avrae's d20 package rolling 4d6kh3 (None when it is not installed)."""
    try:
        import d20
    except ImportError:
        return None
    start = time.perf_counter()
    for _ in range(count):
        d20.roll("4d6kh3")
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=100_000)
    parser.add_argument("--seeded", action="store_true", help="use a seeded generator instead of the system one")
    options = parser.parse_args()
    seed = 1 if options.seeded else None
    reference = d20_package_rolls_per_second(options.checks)
    if reference is None:
        print("d20 package not installed: pip install d20 (it is in the test extra)")
    else:
        print(f"{'d20 package 4d6kh3':<22}{reference:>12,.0f} rolls/s  (reference)")
    for system, argv in COMMANDS.items():
        rate = checks_per_second(argv, options.checks, seed)
        ratio = f"  x{rate / reference:.2f} of the reference" if reference else ""
        print(f"{system + ' check':<22}{rate:>12,.0f} checks/s{ratio}   dicetable {' '.join(argv)}")


if __name__ == "__main__":
    main()
