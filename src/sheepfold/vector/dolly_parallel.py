"""Many Dolly Crush games at once, in PettingZoo's ParallelEnv style: dicts keyed by agent, every
value an array over the games (:class:`~sheepfold.vector.parallel.ShaveParallelBatch`'s API, on
:class:`~sheepfold.vector.dolly.DollyBatch`).

It is *not* a PettingZoo ``ParallelEnv`` (there every value is one game's); for one game behind
the real API, use :func:`sheepfold.interop.pettingzoo.parallel_env`.

    from sheepfold.vector import DollyParallelBatch

    env = DollyParallelBatch(1024, players=3, rules="dolly-graded")
    observations, infos = env.reset(seed=0)
    while True:
        actions = {a: policy(observations[a]) for a in env.agents}   # each (num_envs,) ints
        observations, rewards, terminations, truncations, infos = env.step(actions)

Agents are ``player_0 .. player_{n-1}`` (seat k is ``player_k``). ``observations[agent]`` is
``{"observation": float32 (num_envs, N), "action_mask": int8 (num_envs, A)}``: that seat's view
of every game and its legal actions, all zero in the games where it is not to move. Dolly
Crush is sequential: ``step`` reads ``actions[agent][i]`` only for the agent to move in game
``i``. ``rewards[agent]`` is the seat's win share on the step its game ends; ``terminations``
says which games ended (``truncations`` stays False: the games are never cut). A game that
ended starts its next one in the same step (``infos[agent]["_final"]`` marks those games).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheepfold.vector.dolly import DollyBatch
from sheepfold.vector.parallel import ShaveParallelBatch


class DollyParallelBatch(ShaveParallelBatch):
    """``num_envs`` Dolly Crush games behind a ParallelEnv-style API, not a ParallelEnv
    (module docstring). ``players``, ``rules`` and ``observation`` are :class:`DollyBatch`'s;
    ``record=True`` keeps every game's engine history (:meth:`history`)."""

    metadata: dict[str, Any] = {"name": "sheepfold_dolly_crush_batch_v0", "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Mapping[str, Any] | Any = None,
        seed: int = 0,
        *,
        observation: str = "flat",
        record: bool = False,
    ) -> None:
        self.batch = DollyBatch(  # type: ignore[assignment]
            num_envs, players, rules, seed, observation=observation, autoreset=True, record=record
        )
        self.game = self.batch.game
        self.num_envs = num_envs
        self.possible_agents = [f"player_{i}" for i in range(self.batch.num_players)]
        self.agents = self.possible_agents[:]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._spaces = None

    def state(self) -> Any:
        """Every game's whole position (PettingZoo's global state): its observation from seat
        0 (every seat sees the whole position; the deck's order is never shown)."""
        return self.batch.observe(0)


__all__ = ["DollyParallelBatch"]
