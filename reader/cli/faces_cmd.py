"""``dicetable calibrate faces``: teach the camera a set of numbered dice (d4 to d20, d00).

``--from DIR`` teaches from photos (one sub-folder per face, ``DIR/17/*.jpg``, or a
``labels.csv`` with ``file,shown``); otherwise the live camera (or ``--source`` video) is
watched: the player rolls or turns the die, each settled view is recognised against what was
learnt so far, unsure views are asked about, and the missing faces are listed until none is
left (or the player types ``done``). The model is stored in the calibration folder.

``camera_cmds`` registers :func:`register_faces` under ``calibrate``; the camera source's
``FRAME_READERS`` send numbered dice to :mod:`reader.camera.numbered.frame`.
OpenCV is imported only when a command runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

def register_faces(subs: argparse._SubParsersAction) -> None:
    """Add ``calibrate faces`` to the ``calibrate`` sub-parsers."""
    faces = subs.add_parser("faces", help="teach the camera a set of numbered dice (d4-d20, d00)",
                            description="Show the camera every face of one die (roll it or turn it by hand); "
                                        "confirm the faces it asks about. Or teach from labelled photos "
                                        "with --from.")
    faces.add_argument("--die", required=True, metavar="KIND",
                       help="d4, d8, d10, d00 (percentile tens die), d12 or d20")
    faces.add_argument("--colour", "--color", metavar="COLOUR",
                       help="the set's colour, to keep several sets of one kind apart")
    faces.add_argument("--from", dest="photos", type=Path, metavar="DIR",
                       help="teach from photos: DIR/<face>/*.jpg or DIR/labels.csv (file,shown)")
    faces.add_argument("--source", default="camera:0", metavar="SOURCE",
                       help="the live camera (default camera:0) or a video of the die being shown")
    faces.add_argument("--d4-reads", choices=["vertex", "edge"],
                       help="d4 only: the number that counts is at the top vertex or at the base edge")
    faces.set_defaults(run=run_calibrate_faces)


def run_calibrate_faces(args: argparse.Namespace, ask: Callable[[str], str] = input) -> int:
    """Teach and store one face model; print what was learnt and what is still missing."""
    from calibration.faces import save_face_model
    from reader.camera.numbered.kinds import check_kind, label
    from reader.camera.numbered.teaching import labelled_photos, teach_from_photos

    kind = check_kind(args.die)
    colour = args.colour.lower() if args.colour else None
    if args.photos is not None:
        model = teach_from_photos(labelled_photos(args.photos, kind), kind, colour, args.d4_reads)
    else:
        model = _teach_live(kind, colour, args.d4_reads, args.source, ask)
    path = save_face_model(model)
    missing = model.missing()
    sys.stdout.write(f"taught {model.name}: {len(model.shown)} views of {len(set(model.shown.tolist()))} faces; "
                     f"saved to {path}\n")
    if missing:
        sys.stdout.write(f"still missing: {', '.join(label(kind, s) for s in missing)} "
                         "(those faces will read as unreadable until taught)\n")
    return 0


def _teach_live(kind: str, colour: str | None, convention: str | None, source: str, ask: Callable[[str], str]):
    """The guided pass: every settled view is recognised or asked about, until no face is missing."""
    from reader.camera.numbered.teaching import TeachingError, TeachingSession
    from reader.camera.source import settled_scenes
    from reader.camera.video import open_input

    session = TeachingSession(kind, colour, convention)
    frames = open_input(source.split(":", 1)[1] if source.startswith("camera:") else source)
    sys.stdout.write(f"teaching a {kind}: roll it (or turn it by hand) in front of the camera, one face up at a "
                     "time; type 'done' to stop early\n")
    try:
        for scene in settled_scenes(frames, lambda image, namer: [], None, armed=True):
            if scene is None:
                continue
            step = session.offer(scene.frame.image)
            while step.needs_answer:
                reply = ask(f"{step.message}: ").strip().lower()
                if reply == "done":
                    break
                if reply.isdigit():
                    step = session.answer(int(reply))
                else:
                    step.message = "type the number on the top face, or 'done'"
            sys.stdout.write(step.message + "\n")
            if not session.missing() or (step.needs_answer and reply == "done"):
                break
    finally:
        frames.close()
    if not session.views:
        raise TeachingError(f"no view of the {kind} was taught")
    return session.model()
