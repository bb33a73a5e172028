"""Camera commands: ``dicetable read``, ``dicetable demo`` and ``dicetable calibrate ...``.

``calibrate`` takes sub-commands. Each is added by a *registrar* in :data:`CALIBRATE_COMMANDS`:
a function that receives the ``calibrate`` sub-parsers and registers one sub-command with
``set_defaults(run=...)``: ``colours`` here, ``faces`` from :mod:`reader.cli.faces_cmd`. Another
module adds its own with :func:`add_calibrate_command` before the parser is built (at import
time of a module ``reader/cli/systems.py`` imports, or by one line here). OpenCV is imported
only inside the functions that run a command.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reader.cli import faces_cmd

Registrar = Callable[[argparse._SubParsersAction], None]

#: Registrars of ``dicetable calibrate`` sub-commands (``colours`` is the camera's own).
CALIBRATE_COMMANDS: list[Registrar] = []

DEMO_DIR = Path(__file__).resolve().parents[1] / "camera" / "demo"
DEMO_CLIP = DEMO_DIR / "opend6_wild_die.avi"


def add_calibrate_command(registrar: Registrar) -> None:
    """Add a ``dicetable calibrate`` sub-command (see the module doc)."""
    if registrar not in CALIBRATE_COMMANDS:
        CALIBRATE_COMMANDS.append(registrar)


def _input_spec(text: str) -> str:
    """``camera:0``, ``camera:PATH`` or a bare path/index: what :func:`open_input` takes."""
    return text.split(":", 1)[1] if text.startswith("camera:") else text


@dataclass(frozen=True)
class Expectation:
    """What ``read --expect`` says is on the table: ``count`` dice (if given) of ``sides`` sides."""

    sides: int
    count: int | None = None


def _expectation(text: str) -> Expectation:
    """An argparse type for ``--expect``: ``d20`` or ``2d10`` (a count is checked against what is seen)."""
    count, _, sides = text.lower().partition("d")
    if not sides.isdigit() or (count and not count.isdigit()):
        raise argparse.ArgumentTypeError(f"expected a die such as d6 or 2d10, not {text!r}")
    return Expectation(int(sides), int(count) if count else None)


def register(commands: argparse._SubParsersAction) -> None:
    """Register ``read``, ``demo`` and ``calibrate``."""
    read = commands.add_parser("read", help="read the dice in images, videos or a camera and print them",
                               description="Read every die in each image (or each settled throw of a "
                                           "video or camera) and print one line per image.")
    read.add_argument("inputs", nargs="+", metavar="INPUT",
                      help="an image, a folder of images, a video file, or a camera index (camera:0)")
    read.add_argument("--expect", type=_expectation, default=Expectation(6), metavar="DICE",
                      help="the dice on the table: d20, or 2d10 to also check their number (default d6)")
    read.add_argument("--annotate", type=Path, metavar="DIR",
                      help="also write each image with boxes, values and colours drawn into DIR")
    read.add_argument("--json", action="store_true",
                      help='one JSON object per line: {"image": ..., "dice": [...]} (pixel coordinates)')
    read.set_defaults(run=run_read)

    demo = commands.add_parser("demo", help="see the camera path work on a recorded clip (no camera needed)",
                               description="Play a short recorded table through the whole camera path: "
                                           "settle detection, reading, and an OpenD6 check whose red wild "
                                           "die explodes.")
    demo.add_argument("--clip", type=Path, default=DEMO_CLIP, metavar="VIDEO", help="another clip to play")
    demo.set_defaults(run=run_demo)

    calibrate = commands.add_parser("calibrate", help="teach dicetable your camera, light and dice",
                                    description="Calibrate the camera reader for your table and light.")
    subs = calibrate.add_subparsers(dest="what", metavar="WHAT", parser_class=type(calibrate))
    subs.required = True
    for registrar in CALIBRATE_COMMANDS:
        registrar(subs)


def register_colours(subs: argparse._SubParsersAction) -> None:
    """``dicetable calibrate colours red white ...``."""
    colours = subs.add_parser("colours", aliases=["colors"], help="learn your dice's colours under your light",
                              description="Put one die of each colour on the table in a row, left to right "
                                          "in the order you name them, and run this. The colours are stored "
                                          "in your config folder and used for designated dice (--wild red).")
    colours.add_argument("names", nargs="+", metavar="COLOUR",
                         help="the dice's colours, left to right (e.g. red white black)")
    colours.add_argument("--source", default="camera:0", metavar="SOURCE",
                         help="camera:0 (default), or an image or video of the dice")
    colours.set_defaults(run=run_calibrate_colours)


add_calibrate_command(register_colours)
add_calibrate_command(faces_cmd.register_faces)


def run_read(args: argparse.Namespace) -> int:
    """Print (and optionally draw) the dice of every image or settled throw."""
    from reader.camera.colour import ColourNames
    from reader.camera.source import frame_reader, settled_scenes
    from reader.camera.video import open_input

    namer = ColourNames.load()
    for spec in args.inputs:
        frames = open_input(_input_spec(spec))
        read = frame_reader(args.expect.sides)  # one reader per input: its frames share a camera
        try:
            previous: list[tuple[object, ...]] | None = None
            for scene in settled_scenes(frames, read, namer, armed=True):  # a camera: the table as it is, too
                if scene is None:
                    continue
                key = [(r.value, r.colour, round(r.center[0] / 8), round(r.center[1] / 8)) for r in scene.readings]
                if frames.continuous and (not key or key == previous):
                    continue  # an empty table, or the same dice again after a hand passed: no new throw
                previous = key
                _print_scene(frames, scene, args)
        finally:
            frames.close()
    return 0


def _print_scene(frames, scene, args: argparse.Namespace) -> None:
    from reader.camera.source import describe_readings

    frame = scene.frame
    record: dict[str, object] = {"image": frames.name if frames.continuous else frame.label}
    if frames.continuous:
        record |= {"frame": frame.index, "time": round(frame.time, 3)}
    record["dice"] = [r.to_json() for r in scene.readings]
    expected = args.expect.count
    if expected is not None and expected != len(scene.readings):
        record["problem"] = f"expected {expected} dice, found {len(scene.readings)}"
        sys.stderr.write(f"dicetable: {frame.label}: {record['problem']}\n")
    if args.annotate is not None:
        record["annotated"] = str(_annotate(frame, scene.readings, args.annotate, frames.continuous))
    if args.json:
        print(json.dumps(record))
    else:
        print(f"{frame.label}: {describe_readings(scene.readings)}")


def _annotate(frame, readings, folder: Path, continuous: bool) -> Path:
    import cv2

    from reader.camera.reading import ReadStatus

    image = frame.image.copy()
    for r in readings:
        x0, y0, x1, y1 = r.box
        ok = r.status is ReadStatus.OK
        colour = (40, 200, 40) if ok else (40, 40, 230)
        cv2.rectangle(image, (x0, y0), (x1, y1), colour, 2)
        text = f"{r.value} {r.colour}" if ok else f"? {r.colour}: {r.reason}"
        cv2.putText(image, text, (x0, max(12, y0 - 5)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(image, text, (x0, max(12, y0 - 5)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    folder.mkdir(parents=True, exist_ok=True)
    stem = Path(frame.label.split("@")[0]).stem
    out = folder / (f"{stem}_{frame.index:05d}.png" if continuous else f"{stem}.png")
    if not cv2.imwrite(str(out), image):
        from reader.camera.video import InputError
        raise InputError(f"cannot write {out}")
    return out


def run_demo(args: argparse.Namespace) -> int:
    """Run the recorded clip through settle detection, reading and an OpenD6 check."""
    import asyncio

    from reader.camera.colour import ColourNames
    from reader.camera.source import CameraSource
    from reader.camera.video import open_input
    from reader.cli.main import build_parser
    from reader.cli.sources import designate
    from rules.opend6 import OpenD6Check, resolve_check
    from rules.protocol import drive_async

    check = build_parser().parse_args(["check", "opend6", "--code", "4D+1", "--difficulty", "15",
                                       "--source", f"camera:{args.clip}", "--wild", "red"])
    frames = open_input(str(args.clip))
    say = print
    say(f"dicetable demo: the clip {args.clip.name} stands in for a webcam over the table.")
    say("The check: OpenD6, skill 4D+1 against difficulty 15; the red die is the wild die "
        "(a 6 on it explodes: it is thrown again and added).")
    say("Frames are read only once the dice have settled; motion and hands are skipped.\n")
    source = CameraSource(frames, ColourNames.load(), notify=lambda text: say(f"  dicetable: {text}"), trace=say)

    async def play():
        try:
            return await drive_async(resolve_check(OpenD6Check(check.code, check.difficulty)),
                                     lambda request: source.throw(designate(request, check)))
        finally:
            await source.close()

    result = asyncio.run(play())
    say("\nResult: " + result.summary())
    for note in result.notes:
        say(f"  {note}")
    say("\nWith your own webcam: dicetable check opend6 --code 4D+1 --difficulty 15 --source camera:0 --wild red")
    return 0


def run_calibrate_colours(args: argparse.Namespace) -> int:
    """Learn the colours of the dice on the table, left to right, and store them."""
    from calibration.colour import save_colours
    from reader.camera.colour import learn_profiles
    from reader.camera.frame_reader import read_frame
    from reader.camera.source import settled_scenes
    from reader.camera.video import InputError, open_input

    frames = open_input(_input_spec(args.source))
    try:  # the table as it is now: no throw to wait for
        scenes = settled_scenes(frames, lambda image, namer: [], None, armed=True)
        scene = next((s for s in scenes if s is not None), None)
    finally:
        frames.close()
    if scene is None:
        raise InputError(f"{args.source}: no still view of the table to calibrate from")
    image = scene.frame.image
    candidates = []

    def collect(image_bgr, candidate, table_bgr):  # the reader hands every die it finds to the namer
        candidates.append(candidate)
        return "unknown", 0.0

    read_frame(image, collect)
    candidates.sort(key=lambda c: c.center[0])
    if len(candidates) != len(args.names):
        raise InputError(f"calibrate colours: named {len(args.names)} dice ({' '.join(args.names)}) but see "
                         f"{len(candidates)} on the table; put exactly one die per name in a row, left to right")
    table, profiles = learn_profiles(image, candidates, [name.lower() for name in args.names])
    path = save_colours(table, profiles)
    for profile in profiles:
        L, a, b = profile.lab
        sys.stdout.write(f"{profile.name}: Lab {L:.0f} {a:+.0f} {b:+.0f}, saturation {profile.saturation:.2f}\n")
    sys.stdout.write(f"saved {len(profiles)} colours to {path}\n")
    return 0
