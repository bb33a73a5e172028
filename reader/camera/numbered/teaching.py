"""Teaching a dice set: turn labelled views into a :class:`~calibration.faces.FaceModel`.

Views come from a folder of photos (one sub-folder per face value, ``DIR/17/*.jpg``, or a
``labels.csv`` with ``file,shown`` columns) or from the live camera, where
:class:`TeachingSession` recognises each new view against what it has learnt so far, asks the
player to confirm the faces it is unsure about and keeps track of the faces still missing.
A die whose outline is clearly one the kind never shows (a d12's decagon offered as a d20)
is refused: the reader would refuse every later view of it too.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from calibration.faces import SHOWN, FaceModel
from reader.camera.numbered import topface
from reader.camera.numbered.finder import DieBlob, find_dice
from reader.camera.numbered.kinds import check_kind, label
from reader.camera.numbered.model import MIN_FACES_FOR_COMMON, match
from reader.camera.numbered.shape import ShapeVerdict, classify
from rules.errors import DicetableError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
#: Views kept per face in a live session (more only slow reading down).
VIEWS_PER_FACE = 3
#: A live view is filed without asking only when it matches a taught face this well: while
#: few faces are known, a new face can still clear the reader's own lower bar.
SURE_SCORE = 0.8


class TeachingError(DicetableError):
    """The photos or views given for teaching cannot make a face model."""


@dataclass(frozen=True)
class View:
    """One die seen in one image: its descriptor inputs."""

    ink: np.ndarray
    radius: float
    body_lab: tuple[float, float, float]
    elongation: float
    outline: ShapeVerdict | None = None


def wrong_outline(kind: str, view: View) -> str | None:
    """Why ``view`` cannot be a ``kind`` die when its outline is clearly another kind's, else ``None``."""
    if view.outline is None or not view.outline.rules_out(kind):
        return None
    return f"its outline looks like {view.outline.describe()}, which a {kind} never shows"


def view_of(image_bgr: np.ndarray, blob: DieBlob) -> View:
    """The teaching view of the die ``blob`` in ``image_bgr``."""
    mask = np.zeros(image_bgr.shape[:2], np.uint8)
    cv2.drawContours(mask, [blob.contour], -1, 255, thickness=-1)
    x, y, w, h = cv2.boundingRect(blob.contour)
    lab = cv2.cvtColor(image_bgr[y:y + h, x:x + w], cv2.COLOR_BGR2LAB)
    body = np.median(lab[mask[y:y + h, x:x + w] > 0], axis=0)
    return View(topface.ink_patch(image_bgr, blob), blob.radius, (float(body[0]), float(body[1]), float(body[2])),
                blob.elongation, classify(blob.contour, blob.elongation))


def single_die(image_bgr: np.ndarray, name: str) -> DieBlob:
    """The one die a teaching photo must show."""
    blobs = find_dice(image_bgr)
    if len(blobs) != 1:
        raise TeachingError(f"{name}: a teaching photo must show exactly one die on the play area, "
                            f"found {len(blobs)}")
    return blobs[0]


def build_model(kind: str, colour: str | None, labelled: list[tuple[int, View]],
                convention: str | None = None) -> FaceModel:
    """A model from ``(shown, view)`` pairs."""
    kind = check_kind(kind)
    if not labelled:
        raise TeachingError(f"no views to teach a {kind} from")
    bad = sorted({s for s, _ in labelled if s not in SHOWN[kind]})
    if bad:
        raise TeachingError(f"a {kind} has no face {', '.join(map(str, bad))}")
    shown = np.array([s for s, _ in labelled], np.int64)
    inks = np.stack([v.ink.ravel() for _, v in labelled]).astype(np.float32)
    body = np.median(np.array([v.body_lab for _, v in labelled]), axis=0)
    radius = float(np.median([v.radius for _, v in labelled]))
    elongation = float(np.median([v.elongation for _, v in labelled]))
    return FaceModel(kind, colour, shown, inks, radius, (float(body[0]), float(body[1]), float(body[2])),
                     convention, elongation)


def labelled_photos(folder: Path, kind: str) -> list[tuple[Path, int]]:
    """``(photo, shown)`` pairs from ``folder``: its ``labels.csv`` or its per-face sub-folders.

    In ``labels.csv`` the ``shown`` column is the printed number (``0``..``9`` on a d10,
    ``0``/``00``..``90`` on a d00); an optional ``die`` column keeps only rows of ``kind``.
    """
    kind = check_kind(kind)
    if not folder.is_dir():
        raise TeachingError(f"{folder} is not a folder")
    table = folder / "labels.csv"
    pairs: list[tuple[Path, int]] = []
    if table.is_file():
        with table.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        if not rows or not {"file", "shown"} <= set(rows[0]):
            raise TeachingError(f"{table} needs 'file' and 'shown' columns")
        for row in rows:
            if row.get("die") and row["die"].strip().lower().replace("d100", "d00") != kind:
                continue
            pairs.append((folder / row["file"], _shown(row["shown"], table)))
    else:
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            shown = _shown(sub.name, sub)
            pairs += [(p, shown) for p in sorted(sub.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES]
    if not pairs:
        raise TeachingError(f"{folder} holds no labelled {kind} photos (sub-folders named by face, "
                            "or a labels.csv with file,shown columns)")
    return pairs


def _shown(text: str, where: Path) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise TeachingError(f"{where}: {text!r} is not a face number") from None


def teach_from_photos(pairs: list[tuple[Path, int]], kind: str, colour: str | None = None,
                      convention: str | None = None) -> FaceModel:
    """A model taught from labelled photos, each showing one die."""
    kind = check_kind(kind)
    labelled = []
    for path, shown in pairs:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise TeachingError(f"cannot read the image {path}")
        view = view_of(image, single_die(image, str(path)))
        wrong = wrong_outline(kind, view)
        if wrong:
            raise TeachingError(f"{path}: {wrong}; is it the right die?")
        labelled.append((shown, view))
    return build_model(kind, colour, labelled, convention)


@dataclass
class Step:
    """What a live teaching session says after one settled view."""

    message: str
    needs_answer: bool = False  # the player must say which face this is
    guess: int | None = None


@dataclass
class TeachingSession:
    """Live teaching: feed settled views, answer questions, stop when no face is missing.

    A view the session recognises clearly (against the views taught so far) is stored under
    that face; a view it is unsure about is held until the player names the face with
    :meth:`answer`. The first view of every face, and every view until three faces are
    known, is named by the player.
    """

    kind: str
    colour: str | None = None
    convention: str | None = None
    views: list[tuple[int, View]] = field(default_factory=list)
    pending: View | None = None

    def model(self) -> FaceModel:
        """The model taught so far."""
        return build_model(self.kind, self.colour, self.views, self.convention)

    def missing(self) -> list[int]:
        """Faces with no view yet."""
        have = {s for s, _ in self.views}
        return [s for s in SHOWN[self.kind] if s not in have]

    def offer(self, image_bgr: np.ndarray) -> Step:
        """Look at one settled frame that should show the die being taught."""
        blobs = find_dice(image_bgr)
        if len(blobs) != 1:
            return Step(f"show exactly one {self.kind} on the table (see {len(blobs)} dice)")
        view = view_of(image_bgr, blobs[0])
        wrong = wrong_outline(self.kind, view)
        if wrong:
            return Step(f"not learnt: {wrong}; show the {self.kind} being taught")
        # Until a few faces are known, their shared facets make any new face look familiar:
        # every view is asked about.
        known = self.model() if len(set(s for s, _ in self.views)) >= MIN_FACES_FOR_COMMON else None
        verdict = match(view.ink, [known]) if known is not None else None
        if verdict is not None and verdict.shown is not None and verdict.score >= SURE_SCORE:
            self._add(verdict.shown, view)
            return Step(f"saw {label(self.kind, verdict.shown)} - {self._progress()}")
        self.pending = view
        guess = verdict.best[1] if verdict is not None and verdict.best else None
        looks = f"it looks like {label(self.kind, guess)}; " if guess is not None else ""
        return Step(f"which face is up? ({looks}type the number{self._hint()})", needs_answer=True, guess=guess)

    def answer(self, shown: int) -> Step:
        """The player names the face of the view held by :meth:`offer`."""
        if self.pending is None:
            return Step("nothing to confirm")
        if shown not in SHOWN[self.kind]:
            return Step(f"a {self.kind} has no face {shown}; which face is up?", needs_answer=True)
        self._add(shown, self.pending)
        self.pending = None
        return Step(f"learnt {label(self.kind, shown)} - {self._progress()}")

    def _add(self, shown: int, view: View) -> None:
        """Keep ``view``, dropping the face's oldest view beyond :data:`VIEWS_PER_FACE`."""
        same = [i for i, (s, _) in enumerate(self.views) if s == shown]
        if len(same) >= VIEWS_PER_FACE:
            self.views.pop(same[0])
        self.views.append((shown, view))

    def _progress(self) -> str:
        missing = self.missing()
        if not missing:
            return "every face taught"
        return f"{len(missing)} missing: {', '.join(label(self.kind, s) for s in missing)}"

    def _hint(self) -> str:
        return f"; still missing {', '.join(label(self.kind, s) for s in self.missing())}" if self.views else ""

