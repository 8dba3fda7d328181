"""Learning environments over the games: PettingZoo AEC environments for every game that
offers an array encoding (``cottage_garden_v0``, ``kitchen_garden_v0``), a Gymnasium
environment for the solo game, and a bot that lets a policy over those arrays play in
runs and tournaments (``cgsim.env.bot``). Needs the ``env`` extra (PettingZoo, Gymnasium).

Importing this package registers the solo game with Gymnasium as ``SOLO_ID``.
"""

from __future__ import annotations

import gymnasium

SOLO_ID = "cgsim/CottageGardenSolo-v0"
"""``gymnasium.make(SOLO_ID)``: Cottage Garden's solo game (``cottage_garden_v0.solo_env``)."""

if SOLO_ID not in gymnasium.registry:
    gymnasium.register(id=SOLO_ID, entry_point="cgsim.env.cottage_garden_v0:solo_env")
