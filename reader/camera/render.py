"""Synthetic table scenes: dice seen by a webcam, for tests, benchmarks and the demo clip.

A :class:`Scene` is seen through a pinhole :class:`Camera` that looks straight down at tilt 0
and obliquely (from the near, bottom edge) at larger tilts. The table, the dice's shadows and
the hand lie in the *table plane* (a top-down canvas seen through the camera's homography);
every d6 is a cube standing on the table, projected face by face, so an oblique camera sees
the top face and the side faces turned towards it, each carrying the pips of a real die
(opposite faces sum to 7, see :func:`d6_faces`) and shaded by the scene's lamp. The light's
white balance, defocus and sensor noise are applied last.

Each die is a :class:`RenderDie`: where it lies, its value, its look (body and ink colour) and
two drawing hooks, ``outline`` (a face's shape, in unit coordinates) and ``face`` (a
:data:`FaceDrawer` that paints a value on a square face texture). A d6 uses a rounded square
and pips; dice with another number of sides (numbered dice plug in another outline and a
drawer that prints the number) are drawn flat: their top face in the table plane over a
darker copy standing for their sides. The ground truth (:class:`DieTruth`) is always the top
face: its outline's box and its centre in the image.

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


#: A d6's pip radius, in face sides, unless its look says otherwise.
PIP_RADIUS = 0.085
#: Corner pips' centres lie this far from the face's middle (half face sides) for pips of
#: ``PIP_RADIUS``; other pips keep the gap between their rims and the face's edge, so dice
#: with small pips have them further out, as real ones do...
_PIP_OFFSET = 0.52
#: ... but a 6's pips, one offset apart in a column, stay at least this many radii apart
#: (centre to centre): big pips sit close to each other, never touching.
_MIN_PIP_PITCH = 2.3


@dataclass(frozen=True)
class DieLook:
    """How a die looks: the colour of its body and of its pips or numbers, and the size of
    its pips (radius in face sides)."""

    body: BGR
    ink: BGR
    pip_radius: float = PIP_RADIUS


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

#: A grainy surface's knots and specks per megapixel (``numeral-tower``'s phone photos of a
#: tray on a wooden table, 1.3 megapixels, showed 1300-1900 blobs each to the pip search).
KNOTS_PER_MEGAPIXEL = 1000
#: A fine grain's streaks run this many pixels along (a Gaussian's sigma) and a pixel across.
STREAK_LENGTH = 4.0
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

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _pip_offset(radius: float) -> float:
    """How far a corner pip's centre lies from the face's middle, in half face sides."""
    return max(_PIP_OFFSET + 2 * (PIP_RADIUS - radius), 2 * _MIN_PIP_PITCH * radius)


def draw_pips(texture: np.ndarray, value: int, look: DieLook) -> None:
    """The d6 face drawer: the standard pip layout of ``value`` (1-6), pips of ``look``'s size."""
    size = texture.shape[0]
    half = size / 2
    radius = int(round(size * look.pip_radius))
    offset = _pip_offset(look.pip_radius)
    for px, py in _PIPS[value]:
        centre = (int(round(half + px * offset * half)), int(round(half + py * offset * half)))
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
    ``turn`` (0-3) chooses which of a d6's four quarter turns about the vertical it lies in,
    i.e. which values its side faces show (None: derived from ``value`` and ``angle``).
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
    turn: int | None = None

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


#: Where the lamp is, as a direction from the table towards it (x right, y towards the camera's
#: side of the table, z up): above the table, a little to the left and behind the dice.
OVERHEAD: tuple[float, float, float] = (-0.35, -0.2, 1.0)

#: The camera's distance from the table's middle, in image widths (or heights, if longer).
DISTANCE = 2.5


@dataclass(frozen=True)
class Scene:
    """Everything that makes one frame.

    ``tilt`` (degrees) pitches the camera from straight down towards the near (bottom) edge of
    the table: the far edge shrinks and each d6 shows the side faces that look towards the
    camera. ``distance`` is the camera's distance from the table's middle in units of the
    image's longer side (a narrow webcam view; nearer means stronger perspective). ``light``
    holds the white balance gains (see :data:`WARM`, :data:`COLD`), ``lamp`` the direction of
    the light that shades the dice's faces and casts their shadows (see :data:`OVERHEAD`),
    ``glare`` the strength of specular highlights on the dice, ``defocus`` a Gaussian blur
    sigma, ``noise`` the sensor noise sigma (grey levels), ``grain`` the table texture's
    amplitude (blotches several pixels across) and ``fine_grain`` that of a grainy surface's
    fine texture, wood or cork: streaks a pixel across, and knots 1 to 3 pixels in radius
    (see :func:`_fine_grain`; 0: none).
    ``seed`` fixes the table's texture, ``frame`` the sensor noise (frames of one
    clip share the seed).
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
    fine_grain: float = 0.0
    hand: Hand | None = None
    seed: int = 0
    frame: int = 0
    lamp: tuple[float, float, float] = OVERHEAD
    distance: float = DISTANCE


@dataclass(frozen=True)
class DieTruth:
    """Where a rendered die's top face appears in the output image.

    ``box`` (x0, y0, x1, y1) encloses the top face's outline, ``centre`` is the top face's
    centre (for a d6 drawn as a cube both lie on the top face, one die side above the table;
    side faces are never part of the truth). ``pips`` encloses the top face's pips grown by
    one pip radius, when the face is drawn with :func:`draw_pips` (None otherwise).
    """

    value: int
    sides: int
    colour: str
    centre: tuple[float, float]
    box: tuple[int, int, int, int]
    pips: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the table: ``matrix`` (3x4) projects table points (x, y, height).

    Table x and y are the scene's table-plane pixels (y grows towards the camera's side),
    the height is in the same pixels. ``position`` is the camera's centre in those coordinates.
    """

    matrix: np.ndarray
    position: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (n, 2) of table points (n, 3)."""
        pts = np.asarray(points, np.float64)
        h = pts @ self.matrix[:, :3].T + self.matrix[:, 3]
        return h[:, :2] / h[:, 2:3]

    @property
    def table_homography(self) -> np.ndarray:
        """Table plane (height 0) -> image."""
        return self.matrix[:, [0, 1, 3]] / self.matrix[2, 3]


def scene_camera(size: tuple[int, int], tilt: float, distance: float = DISTANCE) -> Camera:
    """The camera of a scene: straight down at tilt 0 (the table plane maps to itself), else
    pitched by ``tilt`` degrees towards the near edge and zoomed so that the near edge of the
    table spans the image's bottom edge."""
    w, h = size
    theta = math.radians(tilt)
    reach = distance * max(w, h)
    target = np.array([w / 2, h / 2, 0.0])
    position = target + reach * np.array([0.0, math.sin(theta), math.cos(theta)])
    forward = (target - position) / reach
    right = np.array([1.0, 0.0, 0.0])
    rotation = np.stack([right, np.cross(right, forward), forward])
    intrinsics = np.array([[reach, 0, w / 2], [0, reach, h / 2], [0, 0, 1]])
    matrix = intrinsics @ np.hstack([rotation, -(rotation @ position)[:, None]])
    near = Camera(matrix, position).project(np.array([[0.0, h, 0.0], [w, h, 0.0]]))
    k = w / (near[1, 0] - near[0, 0])
    zoom = np.array([[k, 0, w / 2 - k * w / 2], [0, k, h - k * near[0, 1]], [0, 0, 1]])
    return Camera(zoom @ matrix, position)


def camera_homography(size: tuple[int, int], tilt: float, distance: float = DISTANCE) -> np.ndarray:
    """Table plane -> image for a camera pitched by ``tilt`` (see :func:`scene_camera`)."""
    return scene_camera(size, tilt, distance).table_homography


# A real d6 at rest with no turn: 1 up, 2 to the right (+x), 3 to the far side (-y). Opposite
# faces sum to 7 and 1-2-3 run counter-clockwise round their corner, as on Western dice.
_NORMALS: dict[int, tuple[int, int, int]] = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0),
                                             3: (0, -1, 0), 4: (0, 1, 0)}
# The direction of each face's texture x axis (its y axis is normal x this, never mirrored).
_TEXTURE_X: dict[int, tuple[int, int, int]] = {1: (1, 0, 0), 6: (1, 0, 0), 2: (0, 1, 0), 5: (0, 1, 0),
                                               3: (1, 0, 0), 4: (1, 0, 0)}
_UP = np.array([0.0, 0.0, 1.0])
_SIDES = {"top": (0, 0, 1), "bottom": (0, 0, -1), "east": (1, 0, 0), "west": (-1, 0, 0),
          "north": (0, -1, 0), "south": (0, 1, 0)}


def _rotations() -> list[np.ndarray]:
    """The 24 turns of a cube (signed permutation matrices of determinant 1)."""
    out = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for signs in np.ndindex(2, 2, 2):
            m = np.zeros((3, 3))
            for row, col in enumerate(perm):
                m[row, col] = 1 - 2 * signs[row]
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


_TURNS: dict[int, list[np.ndarray]] = {
    value: [r for r in _rotations() if tuple(r @ _NORMALS[value]) == (0, 0, 1)] for value in _NORMALS}


def d6_orientation(top: int, turn: int) -> np.ndarray:
    """The rotation that puts face ``top`` up, one of its 4 quarter turns chosen by ``turn``."""
    return _TURNS[top][turn % 4]


def d6_faces(top: int, turn: int) -> dict[str, int]:
    """The value on each side of a real d6 lying with ``top`` up (before its ``angle``):
    keys ``top``, ``bottom``, ``east`` (+x), ``west``, ``north`` (far side), ``south``."""
    rotation = d6_orientation(top, turn)
    placed = {tuple(int(v) for v in rotation @ n): value for value, n in _NORMALS.items()}
    return {side: placed[direction] for side, direction in _SIDES.items()}


@dataclass(frozen=True)
class _Face:
    """One face of a cube die in table coordinates: its value, centre, outward normal and
    texture axes (unit vectors)."""

    value: int
    centre: np.ndarray
    normal: np.ndarray
    across: np.ndarray
    down: np.ndarray


def _turn(die: RenderDie) -> int:
    return die.turn if die.turn is not None else (die.value * 3 + int(abs(die.angle) // 7)) % 4


def _yaw(angle: float) -> np.ndarray:
    """Turn about the vertical by ``angle`` degrees, counter-clockwise as seen in the image (y down)."""
    a = math.radians(angle)
    return np.array([[math.cos(a), math.sin(a), 0], [-math.sin(a), math.cos(a), 0], [0, 0, 1]])


def _cube_faces(die: RenderDie) -> list[_Face]:
    """The six faces of ``die`` drawn as a cube resting on the table, top face first."""
    yaw = _yaw(die.angle) @ d6_orientation(die.value, _turn(die))
    middle = np.array([die.centre[0], die.centre[1], die.size / 2])
    faces = []
    for value, normal in sorted(_NORMALS.items(), key=lambda item: item[0] != die.value):
        n = yaw @ np.array(normal, float)
        across = yaw @ np.array(_TEXTURE_X[value], float)
        faces.append(_Face(value, middle + n * die.size / 2, n, across, np.cross(n, across)))
    return faces


def _face_points(die: RenderDie, face: _Face, unit: np.ndarray) -> np.ndarray:
    """Table points (n, 3) of face coordinates ``unit`` (n, 2) in [-1, 1]^2."""
    half = die.size / 2
    return face.centre + half * (unit[:, :1] * face.across + unit[:, 1:] * face.down)


def _shade(normal: np.ndarray, lamp: tuple[float, float, float]) -> float:
    """How bright a face with ``normal`` is: room light plus a wrapped Lambert term, so the
    faces turned away from the lamp still differ a little."""
    direction = np.array(lamp, float) / np.linalg.norm(lamp)
    return 0.45 + 0.55 * (0.5 + 0.5 * float(normal @ direction)) ** 2


def _table(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    w, h = scene.size
    grain = cv2.resize(rng.normal(0, scene.grain, (h // 8 + 1, w // 8 + 1)).astype(np.float32), (w, h))
    xx = ((np.arange(w, dtype=np.float32) - w * 0.45) / w) ** 2
    yy = ((np.arange(h, dtype=np.float32) - h * 0.4) / h) ** 2
    falloff = 1.0 - 0.12 * (xx[None, :] + yy[:, None])
    if scene.fine_grain > 0:
        grain += _fine_grain(scene.fine_grain, (w, h), rng)
    return cv2.merge([(grain + np.float32(c)) * falloff for c in scene.table])


def _fine_grain(amplitude: float, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A grainy surface's fine texture (grey levels to add): streaks a pixel or two across and
    several along, the way the scene's wood runs, varying by half ``amplitude`` (standard
    deviation), and knots (see :data:`KNOTS_PER_MEGAPIXEL`) as dark or light as 0.8 to 1.5
    times ``amplitude``."""
    w, h = size
    # (blurring spreads the noise: drawn three times as strong, the streaks keep half of it)
    streaks = cv2.GaussianBlur(rng.normal(0, 3 * amplitude, (h, w)).astype(np.float32), (0, 0),
                               sigmaX=STREAK_LENGTH, sigmaY=0.7)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(0, 180)), 1.0)
    out = cv2.warpAffine(streaks, turn, (w, h), borderMode=cv2.BORDER_REFLECT)
    for _ in range(round(KNOTS_PER_MEGAPIXEL * w * h / 1e6)):
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        level = float(rng.choice([-1.0, 1.0]) * rng.uniform(0.8, 1.5) * amplitude)
        cv2.circle(out, centre, int(rng.integers(1, 4)), level, -1)
    return out


def _texture(die: RenderDie, value: int, scale: float, shade: float) -> np.ndarray:
    """A face of ``die`` showing ``value``, ``scale`` texture pixels per die pixel (float BGR),
    darkened by ``shade`` and by a soft gradient across it (the light falls from one side)."""
    look = die.appearance
    size = max(16, int(die.size * scale))
    texture = np.empty((size, size, 3), np.uint8)
    texture[:] = look.body
    die.face(texture, value, look)
    return texture * (np.linspace(1.06, 0.92, size, dtype=np.float32)[None, :, None] * shade)


def _glare(die: RenderDie, size: int, strength: float, across: np.ndarray) -> np.ndarray:
    """A broad soft highlight on a glossy top face, as alpha over its ``size`` square texture
    whose x axis points along ``across`` on the table. Where a highlight falls depends on the
    lamp and the camera, not on how the die is turned: the spot is placed in table axes and
    turned into the texture's; a die's glare stays put while it rests."""
    spot = np.zeros((size, size), np.float32)
    rng = np.random.default_rng([die.value, int(die.angle * 10) % 3600])
    offset = (rng.uniform(0.3, 0.7, 2) - 0.5) * size
    heading = math.radians(float(rng.uniform(0, 180)))
    axes = np.array([[across[0], across[1]], [-across[1], across[0]]])  # table -> texture axes
    gx, gy = axes @ offset + size / 2
    tx, ty = axes @ (math.cos(heading), math.sin(heading))
    cv2.ellipse(spot, (int(gx), int(gy)), (max(1, int(size * 0.3)), max(1, int(size * 0.16))),
                math.degrees(math.atan2(ty, tx)), 0, 360, 1.0, -1)
    return cv2.GaussianBlur(spot, (0, 0), size * 0.1) * strength


def _motion_blur(colour: np.ndarray, alpha: np.ndarray, die: RenderDie) -> tuple[np.ndarray, np.ndarray]:
    """``colour`` and ``alpha`` smeared along the die's path (a tumbling die)."""
    length = int(die.blur) | 1
    kernel = np.zeros((length, length), np.float32)
    c = length // 2
    dx, dy = math.cos(math.radians(die.blur_angle)) * c, math.sin(math.radians(die.blur_angle)) * c
    cv2.line(kernel, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 1)
    kernel /= kernel.sum()
    colour = cv2.filter2D(colour * alpha[..., None], -1, kernel)
    alpha = cv2.filter2D(alpha, -1, kernel)
    return colour / np.maximum(alpha, 1e-3)[..., None], alpha


def _flat_layers(die: RenderDie, scene: Scene, scale: int = 3) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """A flat die's top face drawn into a small table-plane patch: (colour, alpha, top-left corner)."""
    texture = _texture(die, die.value, scale, _shade(_UP, scene.lamp))
    tex_size = texture.shape[0]
    if scene.glare > 0 and die.blur < 1:
        spot = _glare(die, tex_size, scene.glare, _top_face(die).across)[..., None]
        texture = texture * (1 - spot) + 255 * spot
    half = tex_size / 2
    poly = (die.outline * half + half).astype(np.int32)
    mask = np.zeros((tex_size, tex_size), np.uint8)
    cv2.fillPoly(mask, [poly], 255, cv2.LINE_AA)
    pad = int(die.size * 0.9 + die.blur) + 2
    x0, y0 = int(die.centre[0]) - pad, int(die.centre[1]) - pad
    rot = cv2.getRotationMatrix2D((half, half), die.angle, die.size / tex_size)
    rot[:, 2] += (die.centre[0] - x0 - half, die.centre[1] - y0 - half)
    patch = (2 * pad, 2 * pad)
    colour = cv2.warpAffine(texture, rot, patch, flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(mask, rot, patch, flags=cv2.INTER_AREA).astype(np.float32) / 255
    if die.blur >= 1:
        colour, alpha = _motion_blur(colour, alpha, die)
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


def _blend_on_table(canvas: np.ndarray, colour: np.ndarray, alpha: np.ndarray, corner: tuple[int, int],
                    homography: np.ndarray | None) -> None:
    """Blend a table-plane patch (top-left at ``corner``) into the image seen through ``homography``."""
    if homography is None:
        _blend(canvas, colour, alpha, corner)
        return
    ph, pw = alpha.shape
    x0, y0 = corner
    quad = cv2.perspectiveTransform(np.float32([[[x0, y0], [x0 + pw, y0], [x0 + pw, y0 + ph], [x0, y0 + ph]]]),
                                    homography)[0]
    bx0, by0 = np.floor(quad.min(0)).astype(int)
    bx1, by1 = np.ceil(quad.max(0)).astype(int)
    local = np.array([[1, 0, -bx0], [0, 1, -by0], [0, 0, 1]]) @ homography @ np.array(
        [[1, 0, x0], [0, 1, y0], [0, 0, 1]])
    size = (int(bx1 - bx0), int(by1 - by0))
    alpha = cv2.warpPerspective(alpha, local, size, flags=cv2.INTER_LINEAR)
    if colour.ndim == 3:
        colour = cv2.warpPerspective(colour, local, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    _blend(canvas, colour, alpha, (int(bx0), int(by0)))


def _draw_shadow(canvas: np.ndarray, die: RenderDie, scene: Scene, homography: np.ndarray | None) -> None:
    """The die's soft shadow on the table plane, cast away from the lamp (longer when it is low)."""
    s = die.size
    lamp = np.array(scene.lamp, float)
    reach = -lamp[:2] / max(lamp[2], 1e-3) * s * 0.5
    length = float(np.hypot(*reach))
    if length > 1.5 * s:
        reach *= 1.5 * s / length
        length = 1.5 * s
    span = int(s * 1.5 + length)
    shadow = np.zeros((2 * span, 2 * span), np.float32)
    heading = math.degrees(math.atan2(reach[1], reach[0]))
    cv2.ellipse(shadow, (span, span), (int(s * 0.62 + length / 2), int(s * 0.6)), heading, 0, 360, 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), s * 0.14) * scene.shadow
    _blend_on_table(canvas, np.zeros(3, np.float32), shadow, (int(die.centre[0] + reach[0] - span),
                                                              int(die.centre[1] + reach[1] - span)), homography)


def _draw_flat(canvas: np.ndarray, die: RenderDie, scene: Scene, homography: np.ndarray | None) -> None:
    """A die whose outline is not a square: its top face in the table plane over a darker
    copy shifted down (the sides a tilted camera would see)."""
    side_shift = die.size * (0.08 + 0.01 * scene.tilt)
    body = np.array(die.appearance.body, np.float32) * 0.62
    dark = tuple(int(v) for v in body)
    side = replace(die, centre=(die.centre[0], die.centre[1] + side_shift), face=_blank,
                   look=DieLook(dark, dark))  # type: ignore[arg-type]
    for layer in (side, die):
        colour, alpha, corner = _flat_layers(layer, replace(scene, glare=0) if layer is side else scene)
        _blend_on_table(canvas, colour, alpha, corner, homography)


def _is_cube(die: RenderDie) -> bool:
    """A d6 is drawn as a cube (with its own ``outline`` and ``face`` on every face); dice with
    another number of sides cannot be and are drawn flat."""
    return die.sides == 6


def _draw_cube(canvas: np.ndarray, die: RenderDie, scene: Scene, camera: Camera, scale: float = 2.0) -> None:
    """A d6 as a cube seen by ``camera``: every face that looks towards the camera, each with
    its own pips and shade, composited in a patch around the die and blended into ``canvas``."""
    faces, outlines = [], []
    for face in _cube_faces(die):
        if face.normal @ (camera.position - face.centre) > 0:
            outline = camera.project(_face_points(die, face, die.outline))
            # a face seen edge-on covers no pixel (and its texture mapping is singular)
            if cv2.contourArea(outline.astype(np.float32)) >= 1.0:
                faces.append(face)
                outlines.append(outline)
    everything = np.vstack(outlines)
    pad = int(die.blur) + 3
    x0, y0 = np.floor(everything.min(0)).astype(int) - pad
    x1, y1 = np.ceil(everything.max(0)).astype(int) + pad
    size = (int(x1 - x0), int(y1 - y0))
    colour = np.zeros((size[1], size[0], 3), np.float32)
    alpha = np.zeros((size[1], size[0]), np.float32)
    shift = np.array([x0, y0], float)

    def fill(poly: np.ndarray) -> np.ndarray:
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillPoly(mask, [np.round((poly - shift) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        return mask.astype(np.float32) / 255

    # the rounded edges between the faces: the die's body in the shade of its darkest visible face
    shades = [_shade(f.normal, scene.lamp) for f in faces]
    core = fill(cv2.convexHull(everything.astype(np.float32))[:, 0])
    colour[:] = np.array(die.appearance.body, np.float32) * min(shades) * 0.9
    alpha[:] = core
    for face, outline, shade in zip(faces, outlines, shades):
        texture = _texture(die, face.value, scale, shade)
        n = texture.shape[0]
        if face.normal[2] > 0.5 and scene.glare > 0 and die.blur < 1:
            spot = _glare(die, n, scene.glare, face.across)[..., None]
            texture = texture * (1 - spot) + 255 * shade * spot
        # texture pixel (u, v) -> face coordinates (2u/n - 1, 2v/n - 1) -> table -> image patch
        to_face = np.array([[2 / n, 0, -1], [0, 2 / n, -1], [0, 0, 1]])
        half = die.size / 2
        to_table = np.vstack([np.column_stack([half * face.across, half * face.down, face.centre]), [0, 0, 1]])
        homography = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ camera.matrix @ to_table @ to_face
        drawn = cv2.warpPerspective(texture, homography, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        # beyond an oblique face's vanishing line the mapping is undefined (and masked away)
        np.nan_to_num(drawn, copy=False, nan=0.0, posinf=0.0, neginf=0.0)
        mask = fill(outline)[..., None]
        colour[:] = colour * (1 - mask) + drawn * mask
    if die.blur >= 1:
        colour, alpha = _motion_blur(colour, alpha, die)
    _blend(canvas, colour, alpha, (int(x0), int(y0)))


def _hand_layer(size: tuple[int, int], hand: Hand) -> tuple[np.ndarray, np.ndarray]:
    """The hand in the table plane: (colour, alpha) over the whole frame."""
    w, h = size
    mask = np.zeros((h, w), np.float32)
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
    return np.broadcast_to(colour, (h, w, 3)).copy(), mask


def render(scene: Scene) -> tuple[np.ndarray, list[DieTruth]]:
    """Draw ``scene``: the BGR image and the ground truth of every die in image coordinates.

    The table, the shadows and any flat (non-d6) die are drawn in the table plane and seen
    through the camera's table homography (the table's texture is mirrored beyond its far
    edge); d6 cubes are then projected into the image, far ones first, and the hand (held
    just above the table) over everything.
    """
    camera = scene_camera(scene.size, scene.tilt, scene.distance)
    homography = camera.table_homography
    oblique = not np.allclose(homography, np.eye(3), atol=1e-9)
    on_table = homography if oblique else None
    canvas = _table(scene, np.random.default_rng(scene.seed))
    if oblique:
        canvas = cv2.warpPerspective(canvas, homography, scene.size, flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REFLECT101)
    for die in scene.dice:
        if scene.shadow > 0:
            _draw_shadow(canvas, die, scene, on_table)
        if not _is_cube(die):
            _draw_flat(canvas, die, scene, on_table)
    cubes = [d for d in scene.dice if _is_cube(d)]
    for die in sorted(cubes, key=lambda d: -math.dist((*d.centre, d.size / 2), camera.position)):
        _draw_cube(canvas, die, scene, camera)
    if scene.hand is not None:
        colour, alpha = _hand_layer(scene.size, scene.hand)
        if oblique:
            colour = cv2.warpPerspective(colour, homography, scene.size, flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REFLECT101)
            alpha = cv2.warpPerspective(alpha, homography, scene.size, flags=cv2.INTER_LINEAR)
        _blend(canvas, colour, alpha, (0, 0))
    if scene.defocus > 0:
        canvas = cv2.GaussianBlur(canvas, (0, 0), scene.defocus)
    canvas = cv2.multiply(canvas, (*(g * scene.brightness for g in scene.light), 0.0))
    if scene.noise > 0:
        # OpenCV's generator is several times faster than numpy's; seeded per frame, as a sensor
        noise = np.empty(canvas.shape, np.float32)
        cv2.setRNGSeed((scene.seed * 1_000_003 + scene.frame) & 0x7FFFFFFF)
        cv2.randn(noise.reshape(noise.shape[0], -1), 0.0, scene.noise)
        canvas += noise
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    return image, [_truth(die, camera) for die in scene.dice]


def _box(points: np.ndarray) -> tuple[int, int, int, int]:
    x0, y0 = np.floor(points.min(0)).astype(int)
    x1, y1 = np.ceil(points.max(0)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _top_face(die: RenderDie) -> _Face:
    """The face the truth describes: a cube's top face, or a flat die's face on the table."""
    if _is_cube(die):
        return _cube_faces(die)[0]
    yaw = _yaw(die.angle)
    return _Face(die.value, np.array([*die.centre, 0.0]), _UP, yaw[:, 0], yaw[:, 1])


def _truth(die: RenderDie, camera: Camera) -> DieTruth:
    face = _top_face(die)
    outline = camera.project(_face_points(die, face, die.outline))
    centre = camera.project(face.centre[None])[0]
    pips = None
    if die.face is draw_pips and die.value in _PIPS:
        pip_radius = die.appearance.pip_radius
        spots = np.array(_PIPS[die.value], float) * _pip_offset(pip_radius)
        grow = 2 * (2 * pip_radius)  # a pip's radius in face coordinates, twice
        corners = np.vstack([spots + d for d in ((-grow, -grow), (grow, -grow), (grow, grow), (-grow, grow))])
        pips = _box(camera.project(_face_points(die, face, corners)))
    return DieTruth(die.value, die.sides, die.name, (float(centre[0]), float(centre[1])), _box(outline), pips)


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
