"""Render the demo clip: an OpenD6 check of 4D+1 whose red wild die explodes.

Run ``python -m reader.camera.demo.make_clip`` to rebuild ``opend6_wild_die.avi`` beside this
file. The table is empty for half a second; four dice tumble in and settle (wild red 6,
white 3, 5, 2); a hand reaches in and takes the red die; the red die is thrown again alone
and settles on 4 while the white dice stay where they lay. Expected: 6 + 4 + 3 + 5 + 2 + 1 = 21.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reader.camera.render import RenderDie, Scene, ThrowPlan, render_clip, write_video

CLIP = Path(__file__).resolve().parent / "opend6_wild_die.avi"
SIZE = (640, 360)
FPS = 15.0
DIE = 44.0

FIRST = (RenderDie(6, "red", (210, 150), DIE, 12), RenderDie(3, "white", (340, 110), DIE, 33),
         RenderDie(5, "white", (440, 230), DIE, 58), RenderDie(2, "white", (270, 265), DIE, 77))
AGAIN = (RenderDie(4, "red", (500, 115), DIE, 24),)


def main(path: Path = CLIP) -> int:
    """Render and write the clip; prints its size."""
    frames, _ = render_clip(Scene(size=SIZE, seed=7), [ThrowPlan(FIRST, roll=0.8, rest=1.0),
                                                       ThrowPlan(AGAIN, roll=0.7, rest=1.0, hand=0.6, remove=(0,))],
                            fps=FPS, lead=0.5)
    write_video(str(path), frames, FPS, quality=75)
    print(f"{path}: {len(frames)} frames, {path.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else CLIP))
