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
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from sheepfold.core.protocol import CHANCE, Game, IllegalAction
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
        self.state: Any = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC interface --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_initial_state(seed=self._rng.randrange(2**31))
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
        if self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.state, seat), "action_mask": mask}

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
        reason = self.state.illegal_reason(a)
        if reason is not None:
            raise IllegalAction(f"{agent}: action {a} is illegal: {reason}")
        self.state.apply_unchecked(a)
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance with the environment's generator; select the next agent or end."""
        s = self.state
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
        text = self.encoder.text(self.state) if self.render_mode else None
        return render_text(self.render_mode, text)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


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


__all__ = ["SheepfoldAECEnv", "dolly_crush_env", "env", "raw_env", "shave_a_sheep_env"]
