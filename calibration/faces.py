"""Face models of numbered dice (d4 to d20, d00): what each taught dice set's faces look like.

One model per die kind and colour, kept in ``<config>/faces/<name>.json`` (what it is: kind,
colour, size, which faces, how it was taught) beside ``<name>.npz`` (the taught views' ink
patches, a float32 matrix, and the number each row shows), loaded with ``allow_pickle=False``.
The patches are made by ``reader.camera.numbered.topface``; their length is recorded so that
a model taught by a reader with another patch size is refused instead of misread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration.store import CalibrationError, config_dir, read_json, write_json

FORMAT = 1

#: Die kind -> the numbers printed on its faces. ``d00`` is the percentile tens die (00..90).
SHOWN: dict[str, tuple[int, ...]] = {
    "d4": (1, 2, 3, 4),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(10)),
    "d00": tuple(range(0, 100, 10)),
    "d12": tuple(range(1, 13)),
    "d20": tuple(range(1, 21)),
}


@dataclass
class FaceModel:
    """The taught views of one dice set."""

    kind: str
    colour: str | None
    shown: np.ndarray  # (N,) int: the number each view shows
    inks: np.ndarray  # (N, D) float32: one flattened ink patch per view (see topface)
    radius: float = 0.0  # median die radius (pixels) in the taught views
    body_lab: tuple[float, float, float] = (0.0, 0.0, 0.0)
    convention: str | None = None  # d4 only: "vertex" or "edge" (where its number is read)
    elongation: float = 0.0  # median long/short side of the outline's bounding rectangle (0: unknown)

    @property
    def name(self) -> str:
        """``d20`` or ``d20-red``: the key the model is stored under."""
        return f"{self.kind}-{self.colour}" if self.colour else self.kind

    def missing(self) -> list[int]:
        """Faces with no taught view yet."""
        have = {int(s) for s in self.shown}
        return [s for s in SHOWN[self.kind] if s not in have]


def faces_dir() -> Path:
    """Where face models live."""
    return config_dir() / "faces"


def save_face_model(model: FaceModel, folder: Path | None = None) -> Path:
    """Store ``model`` (arrays first, then the JSON that points at them); returns the JSON path."""
    folder = folder or faces_dir()
    folder.mkdir(parents=True, exist_ok=True)
    arrays = folder / f"{model.name}.npz"
    tmp = folder / f".{model.name}.tmp.npz"
    np.savez_compressed(tmp, shown=np.asarray(model.shown, np.int16),
                        inks=np.asarray(model.inks, np.float32))
    tmp.replace(arrays)
    path = folder / f"{model.name}.json"
    write_json(path, {"format": FORMAT, "kind": model.kind, "colour": model.colour,
                      "radius": round(float(model.radius), 2),
                      "body_lab": [round(float(v), 2) for v in model.body_lab],
                      "convention": model.convention, "elongation": round(float(model.elongation), 3),
                      "views": int(len(model.shown)),
                      "length": int(model.inks.shape[1]), "arrays": arrays.name,
                      "missing": model.missing()})
    return path


def load_face_model(path: Path, length: int | None = None) -> FaceModel:
    """The model stored at ``path`` (its JSON); ``length`` is the descriptor length the reader uses."""
    meta = read_json(path)
    try:
        if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta["kind"] not in SHOWN:
            raise KeyError("format")
        with np.load(path.parent / str(meta["arrays"]), allow_pickle=False) as arrays:
            shown = np.asarray(arrays["shown"], np.int64)
            inks = np.asarray(arrays["inks"], np.float32)
        body = tuple(float(v) for v in meta["body_lab"])
        model = FaceModel(str(meta["kind"]), meta["colour"], shown, inks, float(meta["radius"]),
                          (body[0], body[1], body[2]), meta.get("convention"), float(meta.get("elongation", 0.0)))
    except (KeyError, TypeError, ValueError, IndexError, OSError) as err:
        raise CalibrationError(f"face model {path} is damaged ({err}); teach it again with "
                               "'dicetable calibrate faces'") from None
    if inks.ndim != 2 or len(shown) != len(inks) or (length is not None and inks.shape[1] != length):
        raise CalibrationError(f"face model {path} was taught by another reader version; teach it again "
                               "with 'dicetable calibrate faces'")
    if any(int(s) not in SHOWN[model.kind] for s in shown):
        raise CalibrationError(f"face model {path} holds a face a {model.kind} does not have")
    return model


def load_face_models(kinds: set[str] | None = None, length: int | None = None,
                     folder: Path | None = None) -> list[FaceModel]:
    """Every stored model (of ``kinds`` when given), sorted by name."""
    folder = folder or faces_dir()
    if not folder.is_dir():
        return []
    models = [load_face_model(p, length) for p in sorted(folder.glob("*.json"))]
    return [m for m in models if kinds is None or m.kind in kinds]
