"""Many Shave a Sheep games at once, in PettingZoo's ParallelEnv style: dicts keyed by agent,
every value an array over the games.

It is *not* a PettingZoo ``ParallelEnv`` (``pettingzoo.test.parallel_api_test`` refuses it:
there every value is one game's, and the agents leave as their game ends). For one game behind
the real API, use :func:`sheepfold.interop.pettingzoo.parallel_env` (it passes
``parallel_api_test``, every game).

    from sheepfold.vector import ShaveParallelBatch

    env = ShaveParallelBatch(1024, players=3, rules="howling-wolf")
    observations, infos = env.reset(seed=0)
    while True:
        actions = {a: policy(observations[a]) for a in env.agents}   # each (num_envs,) ints
        observations, rewards, terminations, truncations, infos = env.step(actions)

Agents are ``player_0 .. player_{n-1}`` (seat k is ``player_k``), as in the AEC environment
(:mod:`sheepfold.interop.pettingzoo`). ``observations[agent]`` is
``{"observation": float32 (num_envs, N), "action_mask": int8 (num_envs, A)}``: that seat's view
of every game (:mod:`sheepfold.interop.encoding`) and its legal actions, all zero in the games
where it is not to move. Shave a Sheep is sequential: in each game one agent decides, so
``step`` reads ``actions[agent][i]`` only for the agent to move in game ``i`` (the others'
entries are ignored; -1 is a fine filler); an agent that must move in some game and is left
out of ``actions`` is an error naming the games. ``rewards[agent]`` (float32 ``(num_envs,)``)
is the seat's win share on the step its game ends, else 0; ``terminations`` and
``truncations`` (bool ``(num_envs,)``) say which games ended that step (truncated: cut at
``max_turns``, every seat 1/n). A game that ended starts its next one in the same step
(``infos[agent]["_final"]`` marks those games), so the arrays keep their shape and every
agent stays in ``agents``.

It runs on :class:`~sheepfold.vector.shave.ShaveBatch` (the compiled kernel; chance drawn
from counter-based random numbers: game ``i``'s games after ``reset(seed=s)`` are the same
whatever the other games do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sheepfold.interop import _UNSET
from sheepfold.vector.shave import ShaveBatch


class ShaveParallelBatch:
    """``num_envs`` Shave a Sheep games behind a ParallelEnv-style API, not a ParallelEnv
    (module docstring).

    ``players``, ``rules`` and ``max_turns`` are :class:`ShaveBatch`'s (and the Gymnasium
    and PettingZoo environments'); ``record=True`` keeps every game's engine history
    (:meth:`history`)."""

    metadata: dict[str, Any] = {"name": "sheepfold_shave_a_sheep_batch_v0", "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        players: int = 2,
        rules: Mapping[str, Any] | Any = None,
        seed: int = 0,
        *,
        max_turns: int | None = _UNSET,
        record: bool = False,
    ) -> None:
        self.batch = ShaveBatch(
            num_envs, players, rules, seed, max_turns=max_turns, autoreset=True, record=record
        )
        self.game = self.batch.game
        self.num_envs = num_envs
        self.possible_agents = [f"player_{i}" for i in range(self.batch.num_players)]
        self.agents = self.possible_agents[:]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._spaces: tuple[dict[str, Any], dict[str, Any]] | None = None

    # -- spaces (Gymnasium's, of one game; the arrays stack num_envs of them) ------------------
    def observation_space(self, agent: str) -> Any:
        return self._gym_spaces()[0][agent]

    def action_space(self, agent: str) -> Any:
        return self._gym_spaces()[1][agent]

    def _gym_spaces(self) -> tuple[dict[str, Any], dict[str, Any]]:
        if self._spaces is None:
            from gymnasium import spaces

            from sheepfold.vector.gym_batch import single_spaces

            b = self.batch
            observation, act = single_spaces(b)
            obs = spaces.Dict(
                {
                    "observation": observation,
                    "action_mask": spaces.Box(0, 1, (b.num_actions,), np.int8),
                }
            )
            self._spaces = (
                dict.fromkeys(self.possible_agents, obs),
                dict.fromkeys(self.possible_agents, act),
            )
        return self._spaces

    # -- the ParallelEnv interface -------------------------------------------------------------
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """A new game in every env (``seed``: restart the game counters from it)."""
        self.batch.reset(seed=seed)
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, np.ndarray],
        dict[str, np.ndarray],
        dict[str, np.ndarray],
        dict[str, dict[str, Any]],
    ]:
        """Each game plays the action its agent to move gives (module docstring)."""
        unknown = set(actions) - set(self.possible_agents)
        if unknown:
            raise ValueError(
                f"unknown agent(s) {', '.join(sorted(unknown))} (agents: "
                f"{', '.join(self.possible_agents)})"
            )
        movers = self.batch.current_player()
        acts = np.zeros(self.num_envs, np.int64)
        for agent, seat in self.agent_name_mapping.items():
            games = movers == seat
            if not games.any():
                continue
            if agent not in actions:
                where = np.flatnonzero(games)[:10].tolist()
                raise ValueError(f"{agent} is to move in games {where}... but gave no actions")
            a = np.asarray(actions[agent])
            if a.shape != (self.num_envs,):
                raise ValueError(
                    f"{agent}'s actions: one per game, shape ({self.num_envs},), not {a.shape}"
                )
            acts[games] = a[games]
        _, rew, term, trunc, info = self.batch.step(acts)
        rewards = {a: rew[:, s].copy() for a, s in self.agent_name_mapping.items()}
        infos = {a: {"_final": info["_final"].copy()} for a in self.agents}
        terminations = {a: term.copy() for a in self.agents}
        truncations = {a: trunc.copy() for a in self.agents}
        return self._observations(), rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        mask = self.batch.legal_mask()
        movers = self.batch.current_player()
        out = {}
        for agent, seat in self.agent_name_mapping.items():
            mine = (mask & (movers == seat)[:, None]).astype(np.int8)
            out[agent] = {"observation": self.batch.observe(seat), "action_mask": mine}
        return out

    def history(self, env: int) -> list[int]:
        """Game ``env``'s engine actions so far (``record=True``; :meth:`ShaveBatch.history`)."""
        return self.batch.history(env)

    def render(self) -> None:
        return None

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """The kernel's state vectors, ``(num_envs, STATE_LEN)``: the whole position of each
        game (PettingZoo's global state)."""
        return self.batch.states


__all__ = ["ShaveParallelBatch"]
