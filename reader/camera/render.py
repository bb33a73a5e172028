"""Synthetic table scenes: dice seen by a webcam, for tests, benchmarks and the demo clip.

A :class:`Scene` is drawn in the *table plane* (a top-down canvas), then seen through an
optionally oblique camera (a homography), with the light's white balance, defocus and sensor
noise applied last. Each die is a :class:`RenderDie`: where it lies, its value, its look
(body and ink colour) and two drawing hooks, ``outline`` (the top face's shape, in unit
coordinates) and ``face`` (a :data:`FaceDrawer` that paints the value on a square face
texture). A d6 uses a rounded square and pips; numbered dice plug in another outline and a
drawer that prints the number, and nothing else here changes.

:func:`render_clip` turns a list of :class:`ThrowPlan` (dice tumbling in, coming to rest,
staying still, a hand reaching in) into timestamped frames with the ground truth of each
throw, so settle detection and the whole camera path can be tested without a camera.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DieLook:
    """How a die looks: the colour of its body and of its pips or numbers."""

    body: BGR
    ink: BGR


#: Die looks by the colour name a reader should give them (the body colour names the die).
LOOKS: dict[str, DieLook] = {
    "red": DieLook((38, 36, 192), (242, 242, 242)),
    "white": DieLook((232, 232, 228), (28, 28, 28)),
    "black": DieLook((34, 34, 36), (238, 238, 238)),
    "blue": DieLook((172, 86, 24), (240, 240, 240)),
    "green": DieLook((64, 152, 40), (240, 240, 240)),
    "yellow": DieLook((40, 208, 232), (30, 30, 30)),
    "orange": DieLook((24, 118, 236), (240, 240, 240)),
    "purple": DieLook((128, 40, 112), (240, 240, 240)),
    "grey": DieLook((140, 140, 138), (24, 24, 24)),
}

#: Dark dice with coloured pips: the body still names the die ("black").
DARK_LOOKS: dict[str, DieLook] = {
    "black/red": DieLook((32, 32, 34), (40, 40, 210)),
    "black/gold": DieLook((32, 32, 34), (60, 190, 225)),
}

#: Table colours (BGR) a scene can use.
TABLES: dict[str, BGR] = {
    "felt": (58, 104, 42),   # green felt dice tray
    "wood": (92, 142, 188),  # light wooden table
    "grey": (118, 116, 112),  # grey mat
    "dark": (44, 40, 38),    # black neoprene mat
}

#: White balance of the light, as (blue, green, red) channel gains.
NEUTRAL: tuple[float, float, float] = (1.0, 1.0, 1.0)
WARM: tuple[float, float, float] = (0.8, 1.0, 1.15)
COLD: tuple[float, float, float] = (1.18, 1.0, 0.84)

#: Paints ``value`` onto a square BGR face texture (already filled with the body colour)
#: using ``look.ink``; the texture spans the unit square [-1, 1]^2 of the outline.
FaceDrawer = Callable[[np.ndarray, int, DieLook], None]

_PIP_OFFSET = 0.52
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def draw_pips(texture: np.ndarray, value: int, look: DieLook) -> None:
    """The d6 face drawer: the standard pip layout of ``value`` (1-6)."""
    size = texture.shape[0]
    half = size / 2
    radius = int(round(size * 0.085))
    for px, py in _PIPS[value]:
        centre = (int(round(half + px * _PIP_OFFSET * half)), int(round(half + py * _PIP_OFFSET * half)))
        cv2.circle(texture, centre, radius, look.ink, -1, cv2.LINE_AA)


def _blank(texture: np.ndarray, value: int, look: DieLook) -> None:
    """Draws nothing: the sides of a die below its top face."""


def rounded_square(corner: float = 0.22, steps: int = 5) -> np.ndarray:
    """Outline of a d6 top face: a square with rounded corners in unit coordinates."""
    points = []
    for cx, cy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for k in range(steps + 1):
            a = math.radians(start + 90 * k / steps)
            points.append((cx * (1 - corner) + corner * math.cos(a), cy * (1 - corner) + corner * math.sin(a)))
    return np.array(points, dtype=np.float32)


D6_OUTLINE = rounded_square()


@dataclass(frozen=True)
class RenderDie:
    """One die on the table.

    ``centre`` and ``size`` (the top face's side) are in table-plane pixels; ``angle`` in
    degrees. ``blur`` is a motion-blur length in pixels along ``blur_angle`` (a tumbling die).
    ``colour`` names the look in :data:`LOOKS` / :data:`DARK_LOOKS` unless ``look`` is given.
    """

    value: int
    colour: str
    centre: tuple[float, float]
    size: float = 56.0
    angle: float = 0.0
    sides: int = 6
    look: DieLook | None = None
    blur: float = 0.0
    blur_angle: float = 0.0
    outline: np.ndarray = field(default_factory=lambda: D6_OUTLINE, compare=False, repr=False)
    face: FaceDrawer = field(default=draw_pips, compare=False, repr=False)

    @property
    def appearance(self) -> DieLook:
        """The die's look: ``look`` if given, otherwise the named one."""
        return self.look or LOOKS.get(self.colour) or DARK_LOOKS[self.colour]

    @property
    def name(self) -> str:
        """The colour name a reader should report (the body colour)."""
        return self.colour.split("/")[0]


@dataclass(frozen=True)
class Hand:
    """A player's hand reaching in from the bottom edge of the table to ``tip``."""

    tip: tuple[float, float]
    width: float = 150.0
    skin: BGR = (120, 160, 214)


@dataclass(frozen=True)
class Scene:
    """Everything that makes one frame.

    ``tilt`` (degrees) makes the camera oblique: the far edge of the table shrinks. ``light``
    holds the white balance gains (see :data:`WARM`, :data:`COLD`), ``glare`` the strength of
    specular highlights on the dice, ``defocus`` a Gaussian blur sigma, ``noise`` the sensor
    noise sigma (grey levels), ``grain`` the table texture's amplitude. ``seed`` fixes the
    table's texture, ``frame`` the sensor noise (frames of one clip share the seed).
    """

    dice: tuple[RenderDie, ...] = ()
    size: tuple[int, int] = (1280, 720)
    table: BGR = TABLES["felt"]
    light: tuple[float, float, float] = NEUTRAL
    brightness: float = 1.0
    tilt: float = 0.0
    shadow: float = 0.45
    glare: float = 0.35
    defocus: float = 0.0
    noise: float = 2.5
    grain: float = 6.0
    hand: Hand | None = None
    seed: int = 0
    frame: int = 0


@dataclass(frozen=True)
class DieTruth:
    """Where a rendered die's top face appears in the output image (``box`` = x0, y0, x1, y1)."""

    value: int
    sides: int
    colour: str
    centre: tuple[float, float]
    box: tuple[int, int, int, int]


def camera_homography(size: tuple[int, int], tilt: float) -> np.ndarray:
    """Table plane -> image: an oblique camera sees the far (top) edge narrower."""
    w, h = size
    squeeze = w * 0.5 * math.sin(math.radians(tilt)) * 0.6
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[squeeze, h * 0.02 * tilt / 10], [w - squeeze, h * 0.02 * tilt / 10], [w, h], [0, h]])
    return cv2.getPerspectiveTransform(src, dst)


def _table(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    w, h = scene.size
    grain = cv2.resize(rng.normal(0, scene.grain, (h // 8 + 1, w // 8 + 1)).astype(np.float32), (w, h))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    falloff = 1.0 - 0.12 * (((xx - w * 0.45) / w) ** 2 + ((yy - h * 0.4) / h) ** 2)
    canvas = np.empty((h, w, 3), np.float32)
    for c in range(3):
        canvas[..., c] = (scene.table[c] + grain) * falloff
    return canvas


def _die_layers(die: RenderDie, scale: int = 3) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The die's top face drawn into a small patch: (colour, alpha, top-left corner)."""
    look = die.appearance
    tex_size = max(16, int(die.size * scale))
    texture = np.empty((tex_size, tex_size, 3), np.uint8)
    texture[:] = look.body
    # a soft gradient across the face: the light falls on it from one side
    ramp = np.linspace(1.06, 0.92, tex_size, dtype=np.float32)[None, :, None]
    texture = np.clip(texture * ramp, 0, 255).astype(np.uint8)
    die.face(texture, die.value, look)
    half = tex_size / 2
    poly = (die.outline * half + half).astype(np.int32)
    mask = np.zeros((tex_size, tex_size), np.uint8)
    cv2.fillPoly(mask, [poly], 255, cv2.LINE_AA)
    pad = int(die.size * 0.9 + die.blur) + 2
    x0, y0 = int(die.centre[0]) - pad, int(die.centre[1]) - pad
    k = die.size / tex_size
    rot = cv2.getRotationMatrix2D((half, half), die.angle, k)
    rot[:, 2] += (die.centre[0] - x0 - half, die.centre[1] - y0 - half)
    patch = (2 * pad, 2 * pad)
    colour = cv2.warpAffine(texture, rot, patch, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpAffine(mask, rot, patch, flags=cv2.INTER_AREA).astype(np.float32) / 255
    if die.blur >= 1:
        length = int(die.blur) | 1
        kernel = np.zeros((length, length), np.float32)
        c = length // 2
        dx, dy = math.cos(math.radians(die.blur_angle)) * c, math.sin(math.radians(die.blur_angle)) * c
        cv2.line(kernel, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 1)
        kernel /= kernel.sum()
        colour = cv2.filter2D(colour * alpha[..., None], -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
        colour = colour / np.maximum(alpha, 1e-3)[..., None]
    return colour, alpha, (x0, y0)


def _blend(canvas: np.ndarray, colour: np.ndarray, alpha: np.ndarray, corner: tuple[int, int]) -> None:
    h, w = canvas.shape[:2]
    x0, y0 = corner
    ph, pw = alpha.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + pw, w), min(y0 + ph, h)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    a = alpha[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    c = colour[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] if colour.ndim == 3 else colour
    region = canvas[cy0:cy1, cx0:cx1]
    region[:] = region * (1 - a) + c * a


def _draw_die(canvas: np.ndarray, die: RenderDie, scene: Scene) -> None:
    s = die.size
    if scene.shadow > 0:
        shadow = np.zeros((int(s * 3), int(s * 3)), np.float32)
        cv2.ellipse(shadow, (int(s * 1.5), int(s * 1.5)), (int(s * 0.62), int(s * 0.6)), die.angle, 0, 360, 1.0, -1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), s * 0.14) * scene.shadow
        _blend(canvas, np.zeros(3, np.float32), shadow, (int(die.centre[0] + s * 0.1 - s * 1.5),
                                                         int(die.centre[1] + s * 0.16 - s * 1.5)))
    # the die's sides: a darker copy of the body just below the top face (seen when tilted)
    side_shift = s * (0.08 + 0.01 * scene.tilt)
    body = np.array(die.appearance.body, np.float32) * 0.62
    side = replace(die, centre=(die.centre[0], die.centre[1] + side_shift), face=_blank, look=DieLook(
        tuple(int(v) for v in body), tuple(int(v) for v in body)))  # type: ignore[arg-type]
    colour, alpha, corner = _die_layers(side)
    _blend(canvas, colour, alpha, corner)
    colour, alpha, corner = _die_layers(die)
    _blend(canvas, colour, alpha, corner)
    if scene.glare > 0 and die.blur < 1:
        # a broad soft highlight where the light reflects off the glossy top face
        spot = np.zeros((int(s), int(s)), np.float32)
        rng = np.random.default_rng([die.value, int(die.angle * 10) % 3600])  # a die's glare stays put
        gx, gy = rng.uniform(0.3, 0.7, 2) * s
        cv2.ellipse(spot, (int(gx), int(gy)), (max(1, int(s * 0.3)), max(1, int(s * 0.16))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), s * 0.1) * scene.glare
        _blend(canvas, np.full(3, 255, np.float32), spot, (int(die.centre[0] - s / 2), int(die.centre[1] - s / 2)))


def _draw_hand(canvas: np.ndarray, hand: Hand) -> None:
    h = canvas.shape[0]
    mask = np.zeros(canvas.shape[:2], np.float32)
    tx, ty = hand.tip
    wd = hand.width
    palm = (int(tx), int(ty + wd * 0.9))
    cv2.rectangle(mask, (int(tx - wd * 0.38), palm[1]), (int(tx + wd * 0.38), h + 10), 1.0, -1)  # the arm
    cv2.ellipse(mask, palm, (int(wd * 0.5), int(wd * 0.6)), 0, 0, 360, 1.0, -1)
    for i, dx in enumerate((-0.33, -0.11, 0.11, 0.33)):
        top = ty + (0.15 if i in (0, 3) else 0.0) * wd
        cv2.line(mask, (int(tx + dx * wd), int(top)), (int(tx + dx * wd * 1.1), palm[1]), 1.0, int(wd * 0.17))
    mask = cv2.GaussianBlur(mask, (0, 0), 2.0)
    shade = np.clip(1.0 - (np.mgrid[0:h, 0:1][0].astype(np.float32) - ty) / (3 * wd), 0.75, 1.0)
    colour = np.array(hand.skin, np.float32)[None, None, :] * shade[..., None]
    canvas[:] = canvas * (1 - mask[..., None]) + colour * mask[..., None]


def render(scene: Scene) -> tuple[np.ndarray, list[DieTruth]]:
    """Draw ``scene``: the BGR image and the ground truth of every die in image coordinates."""
    canvas = _table(scene, np.random.default_rng(scene.seed))
    for die in scene.dice:
        _draw_die(canvas, die, scene)
    if scene.hand is not None:
        _draw_hand(canvas, scene.hand)
    homography = camera_homography(scene.size, scene.tilt) if scene.tilt else None
    if homography is not None:
        canvas = cv2.warpPerspective(canvas, homography, scene.size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REFLECT101)
    if scene.defocus > 0:
        canvas = cv2.GaussianBlur(canvas, (0, 0), scene.defocus)
    gains = np.array(scene.light, np.float32) * scene.brightness
    canvas *= gains
    if scene.noise > 0:
        sensor = np.random.default_rng((scene.seed, scene.frame))
        canvas += sensor.normal(0, scene.noise, canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    return image, [_truth(die, homography) for die in scene.dice]


def _truth(die: RenderDie, homography: np.ndarray | None) -> DieTruth:
    c, s = math.cos(math.radians(-die.angle)), math.sin(math.radians(-die.angle))
    pts = die.outline * (die.size / 2)
    pts = np.stack([pts[:, 0] * c - pts[:, 1] * s + die.centre[0], pts[:, 0] * s + pts[:, 1] * c + die.centre[1]], 1)
    pts = np.vstack([pts, [die.centre]]).astype(np.float32)
    if homography is not None:
        pts = cv2.perspectiveTransform(pts[None], homography)[0]
    x0, y0 = np.floor(pts[:-1].min(0)).astype(int)
    x1, y1 = np.ceil(pts[:-1].max(0)).astype(int)
    return DieTruth(die.value, die.sides, die.name, (float(pts[-1][0]), float(pts[-1][1])),
                    (int(x0), int(y0), int(x1), int(y1)))


def scatter(count: int, size: tuple[int, int] = (1280, 720), die_size: float = 56.0, seed: int = 0,
            colours: Sequence[str] = ("white",), margin: float = 1.6) -> tuple[RenderDie, ...]:
    """``count`` dice at random non-overlapping places (colours cycled from ``colours``)."""
    rng = np.random.default_rng(seed)
    w, h = size
    placed: list[RenderDie] = []
    border = die_size * 1.3
    while len(placed) < count:
        x, y = rng.uniform(border, w - border), rng.uniform(border, h - border * 1.2)
        if all(math.dist((x, y), d.centre) > die_size * margin for d in placed):
            placed.append(RenderDie(int(rng.integers(1, 7)), colours[len(placed) % len(colours)], (x, y),
                                    die_size, float(rng.uniform(0, 90))))
    return tuple(placed)


@dataclass(frozen=True)
class ThrowPlan:
    """One throw in a clip: ``dice`` tumble in for ``roll`` seconds and then rest ``rest`` seconds.

    ``hand`` seconds before the throw, a hand reaches in and stays still over the table
    (picking dice up); dice listed in ``remove`` (by index into the dice already on the
    table) leave with the hand, the others stay where they lie.
    """

    dice: tuple[RenderDie, ...]
    roll: float = 0.7
    rest: float = 1.0
    hand: float = 0.0
    remove: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ClipFrame:
    """A timestamped frame of a rendered clip."""

    time: float
    image: np.ndarray


@dataclass(frozen=True)
class ClipThrow:
    """Ground truth of one throw in a clip: when its dice came to rest and what is on the table."""

    rest_time: float
    new: tuple[DieTruth, ...]
    on_table: tuple[DieTruth, ...]


def _tumbling(die: RenderDie, progress: float, rng: np.random.Generator, entry: tuple[float, float],
              step: float) -> RenderDie:
    """``die`` on its way from ``entry`` to where it rests; progress 0..1 (1 = at rest)."""
    ease = 1 - (1 - progress) ** 1.6
    x = entry[0] + (die.centre[0] - entry[0]) * ease
    y = entry[1] + (die.centre[1] - entry[1]) * ease
    speed = math.dist(entry, die.centre) * 1.6 * (1 - progress) ** 0.6 * step
    heading = math.degrees(math.atan2(die.centre[1] - entry[1], die.centre[0] - entry[0]))
    return replace(die, centre=(x, y), value=int(rng.integers(1, 7)), angle=die.angle + 400 * (1 - ease),
                   blur=min(speed, die.size * 0.8), blur_angle=heading)


def render_clip(base: Scene, throws: Sequence[ThrowPlan], fps: float = 30.0, lead: float = 0.4,
                ) -> tuple[list[ClipFrame], list[ClipThrow]]:
    """Frames of a table where ``throws`` happen one after another, and their ground truth.

    The clip starts with ``lead`` seconds of the empty (or ``base.dice``) table. Each frame's
    noise differs (seeded by the frame number), as a real sensor's does.
    """
    rng = np.random.default_rng(base.seed)
    frames: list[ClipFrame] = []
    truths: list[ClipThrow] = []
    on_table: list[RenderDie] = list(base.dice)
    step = 1.0 / fps
    w, h = base.size

    def emit(dice: Sequence[RenderDie], hand: Hand | None = None) -> None:
        index = len(frames)
        image, _ = render(replace(base, dice=tuple(dice), hand=hand, frame=index))
        frames.append(ClipFrame(index * step, image))

    for _ in range(round(lead * fps)):
        emit(on_table)
    for plan in throws:
        if plan.hand > 0:
            tip = (w * 0.5, h * 0.45)
            for _ in range(round(plan.hand * fps)):
                emit(on_table, Hand(tip))
            if plan.remove is not None:
                on_table = [d for i, d in enumerate(on_table) if i not in plan.remove]
        entries = [(float(rng.uniform(-0.1, 0.3) * w), float(rng.uniform(0.1, 0.9) * h)) for _ in plan.dice]
        rolling = round(plan.roll * fps)
        for i in range(rolling):
            progress = i / rolling
            emit([*on_table, *(_tumbling(d, progress, rng, e, step) for d, e in zip(plan.dice, entries))])
        rest_time = len(frames) * step
        on_table = [*on_table, *plan.dice]
        for _ in range(round(plan.rest * fps)):
            emit(on_table)
        _, truth = render(replace(base, dice=tuple(on_table)))
        truths.append(ClipThrow(rest_time, tuple(truth[-len(plan.dice):]), tuple(truth)))
    return frames, truths


def write_video(path: str, frames: Sequence[ClipFrame], fps: float = 30.0, quality: int = 80) -> None:
    """Write ``frames`` as an MJPG ``.avi`` (what webcams deliver and OpenCV reads everywhere)."""
    h, w = frames[0].image.shape[:2]
    writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    if not writer.isOpened():
        raise OSError(f"cannot write video {path}")
    writer.set(cv2.VIDEOWRITER_PROP_QUALITY, quality)
    try:
        for frame in frames:
            writer.write(frame.image)
    finally:
        writer.release()
