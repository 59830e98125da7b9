"""Gymnasium adapter: one seat of a game, the other seats played by sheepfold bots.

    import gymnasium as gym
    import sheepfold.interop.gymnasium  # registers sheepfold/DollyCrush-v0, sheepfold/ShaveASheep-v0

    env = gym.make("sheepfold/ShaveASheep-v0", players=3, opponents="greedy")
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The observation is the position seen from the agent's seat, ``Box(0, 1, (N,), float32)``
(:mod:`sheepfold.interop.encoding`); the action space is ``Discrete(A)`` over the game's action
ids, masked: :meth:`SheepfoldEnv.action_masks` (the method MaskablePPO looks for) and
``info["action_mask"]`` (int8) give the legal ones. ``reset`` and every ``step`` return at the
agent's next decision: chance is resolved with the environment's generator (seeded by
``reset(seed=...)``) and the other seats are bots chosen by name (``opponents="random"``, a
name per opponent seat, or any ``name:options`` that :func:`sheepfold.bots.make_bot` knows).
The reward is 0 until the end, then the agent's win share (1 sole winner, 1/k for k tied winners,
0 otherwise). Shave a Sheep stops at ``max_turns`` (default 1000): ``truncated=True`` and the game
counts as an n-way tie (1/n).

An illegal action (possible when a learner ignores the mask, and done on purpose by Gymnasium's
``check_env``) is handled by ``illegal_action``: ``"lose"`` (default) ends the episode as a loss
(``terminated=True``, reward 0, ``info["illegal_action"]`` says why), ``"random"`` plays a random
legal action instead (``info["illegal_action"]`` set), ``"raise"`` raises
:class:`~sheepfold.core.protocol.IllegalAction`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from sheepfold.core.protocol import CHANCE, Game, IllegalAction
from sheepfold.interop import _UNSET, build_game
from sheepfold.interop.encoding import encoder_for, render_text

ENV_IDS = {"dolly-crush": "sheepfold/DollyCrush-v0", "shave-a-sheep": "sheepfold/ShaveASheep-v0"}
_ENV_CLASSES = {"dolly-crush": "DollyCrushEnv", "shave-a-sheep": "ShaveASheepEnv"}
#: batched versions (gymnasium.make_vec(..., vectorization_mode="vector_entry_point"))
_VECTOR_ENTRY = {"shave-a-sheep": "sheepfold.vector.gym_shave:make"}
_ILLEGAL = ("lose", "random", "raise")


class SheepfoldEnv(gymnasium.Env):
    """One seat of a sheepfold game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        game: str | Game = "dolly-crush",
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        seat: int | str = 0,
        rules: Mapping[str, Any] | Any = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        max_turns: int | None = _UNSET,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}"
            )
        if illegal_action not in _ILLEGAL:
            raise ValueError(
                f"illegal_action must be one of {', '.join(_ILLEGAL)}, not {illegal_action!r}"
            )
        self.game = build_game(game, players, rules, max_turns, **options)
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{len(specs)} opponents given for {n - 1} other seat(s)")
        from sheepfold.bots import make_bot

        for spec in specs:  # fail now, with the bot registry's message, on an unknown name
            make_bot(spec, self.game, 0, 0)
        self.opponent_specs = specs
        self.seat_choice = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.encoder = encoder_for(self.game)
        self.num_actions = self.game.info.num_distinct_actions
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.num_actions)
        self.state: Any = None
        self.seat = seat if isinstance(seat, int) else 0
        self.bots: dict[int, Any] = {}
        self._rng = random.Random(0)
        self._over = True

    # -- helpers ------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """Legal actions of the agent now (bool; all False once the episode is over)."""
        mask = np.zeros(self.num_actions, bool)
        if self.state is not None and not self._over and self.state.current_player() == self.seat:
            mask[self.state.legal_actions()] = True
        return mask

    def _obs(self) -> np.ndarray:
        return self.encoder.encode(self.state, self.seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self.action_masks().astype(np.int8),
            "seat": self.seat,
        }
        out = self.state.outcome()
        if out is not None:
            info.update(scores=list(out.scores), winners=list(out.winners), truncated=out.truncated)
        info.update(extra)
        return info

    def _advance(self) -> None:
        """Chance and the bots play until the agent must decide or the game is over."""
        s = self.state
        rng = self._rng
        while True:
            p = s.current_player()
            if p == CHANCE:
                s.apply_unchecked(s.sample_chance(rng))
            elif p >= 0 and p != self.seat:
                s.apply(self.bots[p].act(s.observe(p)))
            else:
                return

    def _result(self) -> tuple[float, bool, bool]:
        out = self.state.outcome()
        if out is None:
            return 0.0, False, False
        share = float(out.shares()[self.seat])
        return share, not out.truncated, bool(out.truncated)

    # -- the Env interface ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        rng = self._rng
        n = self.game.num_players
        self.seat = rng.randrange(n) if self.seat_choice == "random" else int(self.seat_choice)
        from sheepfold.bots import make_bot

        others = [p for p in range(n) if p != self.seat]
        self.bots = {
            p: make_bot(spec, self.game, p, rng.randrange(2**31))
            for p, spec in zip(others, self.opponent_specs, strict=False)
        }
        self.state = self.game.new_initial_state(seed=rng.randrange(2**31))
        self._advance()
        self._over = self.state.current_player() != self.seat
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        a = int(action)
        reason = self.state.illegal_reason(a)
        extra: dict[str, Any] = {}
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {a} is illegal: {reason}")
            extra["illegal_action"] = f"action {a}: {reason}"
            if self.illegal_action == "lose":
                self._over = True
                return self._obs(), 0.0, True, False, self._info(**extra)
            a = self._rng.choice(self.state.legal_actions())
        self.state.apply_unchecked(a)
        self._advance()
        reward, terminated, truncated = self._result()
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info(**extra)

    def render(self) -> str | None:
        text = (
            None
            if self.state is None or not self.render_mode
            else self.encoder.text(self.state, self.seat)
        )
        return render_text(self.render_mode, text)

    def close(self) -> None:
        pass


class DollyCrushEnv(SheepfoldEnv):
    """Dolly Crush against bots (options: players, opponents, seat, rules, breeds, ...)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("dolly-crush", **kwargs)


class ShaveASheepEnv(SheepfoldEnv):
    """Shave a Sheep against bots (options: players, opponents, seat, rules, variants, max_turns...)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("shave-a-sheep", **kwargs)


def register() -> None:
    """Register both environments with Gymnasium (done at import)."""
    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            entry_point = f"sheepfold.interop.gymnasium:{_ENV_CLASSES[game]}"
            vector = _VECTOR_ENTRY.get(game)
            gymnasium.register(id=env_id, entry_point=entry_point, vector_entry_point=vector)


register()

__all__ = ["ENV_IDS", "DollyCrushEnv", "SheepfoldEnv", "ShaveASheepEnv", "register"]
