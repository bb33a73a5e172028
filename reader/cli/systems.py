"""The command tree's contents: each rule system's actions and the extra commands."""

from __future__ import annotations

from reader.cli import (audit_cmd, board_cmd, camera_cmds, d6pool, d20, dice_cmd, log_cmd, odds_cmd, opend6, osr,
                        roll_cmd, true20)

ACTIONS = [*true20.ACTIONS, *opend6.ACTIONS, *osr.ACTIONS, *d20.ACTIONS, *d6pool.ACTIONS]

#: Each registers its sub-command(s) on the top-level sub-parsers and sets ``run``.
EXTRA_COMMANDS = [roll_cmd.register, camera_cmds.register, dice_cmd.register, board_cmd.register,
                  odds_cmd.register, log_cmd.register, audit_cmd.register]
