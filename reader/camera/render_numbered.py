"""Synthetic top-down pictures of numbered dice (d4 to d20, d00) for tests and benches.

Each die is drawn large on its own canvas - outline polygon, facet edges, the top face's
number in the middle and smaller numbers on the side faces - then turned, shrunk and blended
onto a plain table with some light falloff and noise. Fonts are OpenCV's Hershey fonts at
several stroke weights; 6 and 9 carry an underline or a dot, as real dice do. A d4 is drawn
in either convention: the number at the top vertex (three times round the apex) or at the
base edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.faces import SHOWN
from reader.camera.numbered.kinds import label

#: Outline corners of each kind seen from above (unit circle), and the top face's corners.
_OUTLINE: dict[str, tuple[int, float, float]] = {  # corners, x stretch, turn (degrees)
    "d4": (3, 1.0, -90.0), "d8": (6, 1.0, 90.0), "d10": (6, 1.25, 0.0), "d00": (6, 1.25, 0.0),
    "d12": (10, 1.0, 0.0), "d20": (6, 1.0, 0.0),
}
_TOP: dict[str, int] = {"d4": 3, "d8": 3, "d10": 4, "d00": 4, "d12": 5, "d20": 3}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX)
CANVAS = 240  # drawing size of one die before it is shrunk onto the table


@dataclass(frozen=True)
class NumberedLook:
    """How one dice set looks: body and ink colours, font and stroke weight, 6/9 mark, d4 convention."""

    body_bgr: tuple[int, int, int] = (40, 40, 190)
    ink_bgr: tuple[int, int, int] = (235, 235, 235)
    font: int = cv2.FONT_HERSHEY_SIMPLEX
    weight: int = 3
    mark: str = "underline"  # or "dot"
    d4_convention: str = "vertex"  # or "edge"


@dataclass(frozen=True)
class PlacedDie:
    """A die on the table: kind, number shown, look, centre (pixels), turn (degrees), width (pixels)."""

    kind: str
    shown: int
    look: NumberedLook
    x: float
    y: float
    angle: float = 0.0
    width: float = 90.0


def _polygon(corners: int, stretch: float, turn: float, radius: float) -> np.ndarray:
    t = np.deg2rad(turn + np.arange(corners) * 360.0 / corners)
    c = CANVAS / 2
    return np.stack([c + radius * stretch * np.cos(t), c + radius * np.sin(t)], axis=1)


def _text(canvas: np.ndarray, text: str, centre: tuple[float, float], height: float, angle: float,
          look: NumberedLook, marked: bool) -> None:
    """Draw ``text`` centred at ``centre``, ``height`` pixels tall, turned by ``angle`` degrees."""
    scale = height / 22.0
    weight = max(1, round(look.weight * scale / 1.4))
    (w, h), _ = cv2.getTextSize(text, look.font, scale, weight)
    layer = np.zeros((int(h * 2.4) + 8, int(w * 1.6) + 8), np.uint8)
    org = ((layer.shape[1] - w) // 2, (layer.shape[0] + h) // 2)
    cv2.putText(layer, text, org, look.font, scale, 255, weight, cv2.LINE_AA)
    if marked and look.mark == "underline":
        y = org[1] + max(3, h // 5)
        cv2.line(layer, (org[0], y), (org[0] + w, y), 255, weight, cv2.LINE_AA)
    elif marked:
        cv2.circle(layer, (org[0] + w + max(3, weight * 2), org[1]), max(2, weight), 255, -1, cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((layer.shape[1] / 2, layer.shape[0] / 2), angle, 1.0)
    m[:, 2] += (centre[0] - layer.shape[1] / 2, centre[1] - layer.shape[0] / 2)
    mask = cv2.warpAffine(layer, m, (CANVAS, CANVAS)).astype(np.float32)[..., None] / 255.0
    canvas[:] = canvas * (1 - mask) + np.array(look.ink_bgr, np.float32) * mask


def _side_numbers(kind: str, shown: int) -> list[int]:
    """The numbers on the side faces next to ``shown`` (a fixed, face-specific pattern)."""
    faces = SHOWN[kind]
    i = faces.index(shown)
    return [faces[(i * 7 + k * 5 + 3) % len(faces)] for k in range(_OUTLINE[kind][0])]


def draw_die(kind: str, shown: int, look: NumberedLook) -> tuple[np.ndarray, np.ndarray]:
    """One die, upright, on a ``CANVAS`` square: (BGR float32 image, alpha 0..1)."""
    corners, stretch, turn = _OUTLINE[kind]
    radius = CANVAS * 0.40 / stretch
    outline = _polygon(corners, stretch, turn, radius)
    alpha = np.zeros((CANVAS, CANVAS), np.uint8)
    cv2.fillPoly(alpha, [np.round(outline * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    body = np.array(look.body_bgr, np.float32)
    image = np.empty((CANVAS, CANVAS, 3), np.float32)
    image[:] = body
    top = _polygon(_TOP[kind], 1.0 if kind != "d10" and kind != "d00" else 1.2, -90.0, radius * 0.55)
    # facets: the side faces a little darker than the top face, with soft edges as on moulded dice
    shade = np.zeros((CANVAS, CANVAS), np.uint8)
    cv2.fillPoly(shade, [np.round(top).astype(np.int32)], 255, cv2.LINE_AA)
    shade = cv2.GaussianBlur(shade, (0, 0), 3)
    image *= (0.88 + 0.12 * shade.astype(np.float32) / 255.0)[..., None]
    c = CANVAS / 2
    text = label(kind, shown)
    marked = kind != "d00" and shown in (6, 9)
    if kind == "d4":
        for k in range(3):
            a = -90.0 + 120.0 * k
            far = 0.3 if look.d4_convention == "vertex" else 0.62
            pos = (c + radius * far * np.cos(np.deg2rad(a)), c + radius * far * np.sin(np.deg2rad(a)))
            _text(image, text, pos, radius * 0.32, -a - 90.0, look, False)
    else:
        _text(image, text, (c, c), radius * (0.5 if kind in ("d20", "d12") else 0.6), 0.0, look, marked)
        for k, number in enumerate(_side_numbers(kind, shown)[:corners]):
            a = turn + (k + 0.5) * 360.0 / corners
            pos = (c + radius * 0.78 * stretch * np.cos(np.deg2rad(a)), c + radius * 0.78 * np.sin(np.deg2rad(a)))
            _text(image, label(kind, number), pos, radius * 0.26, -a - 90.0, look, False)
    return image, alpha.astype(np.float32) / 255.0


def _place(frame: np.ndarray, die: PlacedDie) -> None:
    """Blend one die (and its soft shadow) into ``frame`` around its centre."""
    image, alpha = draw_die(die.kind, die.shown, die.look)
    h, w = frame.shape[:2]
    half = int(die.width) + 16
    x0, y0 = max(0, int(die.x) - half), max(0, int(die.y) - half)
    x1, y1 = min(w, int(die.x) + half), min(h, int(die.y) + half)
    if x1 <= x0 or y1 <= y0:
        return
    k = die.width / (CANVAS * 0.8)
    m = cv2.getRotationMatrix2D((CANVAS / 2, CANVAS / 2), die.angle, k)
    m[:, 2] += (die.x - x0 - CANVAS / 2, die.y - y0 - CANVAS / 2)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(image, m, size, flags=cv2.INTER_AREA)
    a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_AREA)[..., None]
    # a soft shadow on the table, down-right of the die
    shadow = cv2.GaussianBlur(cv2.warpAffine(alpha, m + np.array([[0, 0, 4], [0, 0, 5]]), size), (0, 0), 4)
    roi = frame[y0:y1, x0:x1]
    roi *= 1 - 0.35 * shadow[..., None]
    roi[:] = roi * (1 - a) + warped * a


def render_table(dice: list[PlacedDie], size: tuple[int, int] = (1280, 720),
                 table_bgr: tuple[int, int, int] = (60, 90, 40), light: float = 1.0, seed: int = 0) -> np.ndarray:
    """A top-down frame of ``dice`` on a plain table (``size`` is width, height)."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.empty((h, w, 3), np.float32)
    frame[:] = table_bgr
    for die in dice:
        _place(frame, die)
    yy, xx = np.mgrid[0:h, 0:w]
    falloff = 1.0 - 0.25 * (((xx - w * rng.uniform(0.3, 0.7)) / w) ** 2 + ((yy - h * rng.uniform(0.3, 0.7)) / h) ** 2)
    frame = frame * (light * falloff)[..., None] + rng.normal(0, 3.0, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)
