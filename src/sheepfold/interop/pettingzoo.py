"""PettingZoo adapter: one AEC environment per game.

    from sheepfold.interop.pettingzoo import dolly_crush_env

    env = dolly_crush_env(players=3, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0 .. player_{n-1}`` (seat k is ``player_k``). An observation is
``{"observation": Box(0, 1, (N,), float32), "action_mask": Box(0, 1, (A,), int8)}``: the position
seen from that seat (:mod:`sheepfold.interop.encoding`) and the legal decisions (all zero for
a seat that is not to move). Chance (card draws, die rolls, who grabs the Howling Wolf) is
resolved inside the environment with its own generator, seeded by ``reset(seed=...)``: the same
seed and the same actions give the same game. Rewards come once, at the end: each seat's win
share (1 to a sole winner, 1/k to each of k tied winners, 0 to the others). Shave a Sheep stops at
``max_turns`` (default 1000; ``None`` for no limit): every agent is then *truncated* and the game
counts as an n-way tie (1/n each). An illegal action raises
:class:`~sheepfold.core.protocol.IllegalAction` (wrap the raw environment in PettingZoo's
``TerminateIllegalWrapper`` for the penalty convention instead).

``env.state()`` is PettingZoo's global state (in ``env.state_space``): every seat's observation,
concatenated in seat order; the engine state itself is ``env.unwrapped.game_state``.
:func:`parallel_env` gives one game behind PettingZoo's ParallelEnv API instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from sheepfold.core.protocol import CHANCE, Game, IllegalAction, SheepfoldError
from sheepfold.interop import _UNSET, build_game
from sheepfold.interop.encoding import encoder_for, render_text


class SheepfoldAECEnv(AECEnv):
    """A sheepfold game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "sheepfold_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | Game = "dolly-crush",
        players: int = 2,
        rules: Mapping[str, Any] | Any = None,
        render_mode: str | None = None,
        max_turns: int | None = _UNSET,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        self.game = build_game(game, players, rules, max_turns, **options)
        self.metadata = {
            **self.metadata,
            "name": f"sheepfold_{self.game.name.replace('-', '_')}_v0",
        }
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        n = self.game.num_players
        self.num_actions = self.game.info.num_distinct_actions
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng = random.Random()
        #: the global state (:meth:`state`): every seat's observation, in seat order
        self.state_space = spaces.Box(0.0, 1.0, (n * self.encoder.size,), np.float32)
        #: the engine state of the game being played (None before :meth:`reset`)
        self.game_state: Any = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC interface --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state(seed=self._rng.randrange(2**31))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._advance()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        mask = np.zeros(self.num_actions, np.int8)
        if self.game_state.current_player() == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.game_state, seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The global state (PettingZoo's ``state()``, in :attr:`state_space`): every seat's
        observation of the position, concatenated in seat order (float32 ``(n * N,)``). Like the
        observations it holds no hidden information (no deck order, no seeds)."""
        if self.game_state is None:
            raise SheepfoldError("the environment has no state yet: call reset() first")
        seats = range(self.game.num_players)
        return np.concatenate([self.encoder.encode(self.game_state, s) for s in seats])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to move: give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        a = int(action)
        reason = self.game_state.illegal_reason(a)
        if reason is not None:
            raise IllegalAction(f"{agent}: action {a} is illegal: {reason}")
        self.game_state.apply_unchecked(a)
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance with the environment's generator; select the next agent or end."""
        s = self.game_state
        rng = self._rng
        while s.current_player() == CHANCE:
            s.apply_unchecked(s.sample_chance(rng))
        p = s.current_player()
        if p >= 0:
            self.agent_selection = self.possible_agents[p]
            return
        out = s.outcome()
        shares = out.shares()
        for a in self.agents:
            self.rewards[a] = float(shares[self.agent_name_mapping[a]])
            self.infos[a] = {
                "scores": list(out.scores),
                "winners": list(out.winners),
                "truncated": out.truncated,
            }
            if out.truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True

    def render(self) -> str | None:
        text = self.encoder.text(self.game_state) if self.render_mode else None
        return render_text(self.render_mode, text)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


class SheepfoldParallelEnv(ParallelEnv):
    """One game behind PettingZoo's ParallelEnv API (it passes ``parallel_api_test``).

    The games are turn-based: every step, only the agent to move acts (its observation's
    ``action_mask`` is the only one that is not all zero); ``step`` reads ``actions[agent]`` for
    that agent and ignores the others' entries. Leaving out the agent to move raises
    ``ValueError``. Everything else (agents, spaces, chance, rewards, ``state()``, the end and
    its ``infos``) is the AEC environment's (:class:`SheepfoldAECEnv`, built from the same
    arguments; ``aec`` is that environment, ``aec.game_state`` the engine state). When the game
    ends every agent is terminated (or truncated) and ``agents`` empties."""

    def __init__(self, game: str | Game = "dolly-crush", **kwargs: Any) -> None:
        self.aec = SheepfoldAECEnv(game, **kwargs)
        self.game = self.aec.game
        self.metadata = {**self.aec.metadata, "is_parallelizable": True}
        self.render_mode = self.aec.render_mode
        self.possible_agents = self.aec.possible_agents
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.state_space = self.aec.state_space

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        if not self.agents:
            raise IllegalAction("the game is over: call reset() for a new one")
        mover = self.aec.agent_selection
        if mover not in actions:
            raise ValueError(f"{mover} is to move but gave no action")
        self.aec.step(actions[mover])
        aec = self.aec
        obs = self._observations()
        rewards = {a: aec.rewards[a] for a in self.agents}
        terms = {a: aec.terminations[a] for a in self.agents}
        truncs = {a: aec.truncations[a] for a in self.agents}
        infos = {a: dict(aec.infos[a]) for a in self.agents}
        if aec.game_state.is_terminal():
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(game: str | Game = "dolly-crush", **kwargs: Any) -> SheepfoldParallelEnv:
    """One game as a PettingZoo ParallelEnv (:class:`SheepfoldParallelEnv`)."""
    return SheepfoldParallelEnv(game, **kwargs)


def raw_env(game: str | Game = "dolly-crush", **kwargs: Any) -> SheepfoldAECEnv:
    return SheepfoldAECEnv(game, **kwargs)


def env(game: str | Game = "dolly-crush", **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks (bounds, call order)."""
    e: AECEnv = SheepfoldAECEnv(game, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def dolly_crush_env(**kwargs: Any) -> AECEnv:
    """Dolly Crush (options: players, rules, breeds, render_mode, rule keywords...)."""
    return env("dolly-crush", **kwargs)


def shave_a_sheep_env(**kwargs: Any) -> AECEnv:
    """Shave a Sheep (options: players, rules, variants, max_turns, render_mode...)."""
    return env("shave-a-sheep", **kwargs)


__all__ = [
    "SheepfoldAECEnv",
    "SheepfoldParallelEnv",
    "dolly_crush_env",
    "env",
    "parallel_env",
    "raw_env",
    "shave_a_sheep_env",
]
