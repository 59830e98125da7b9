"""Gymnasium adapter: one seat of a game, the other seats played by sheepfold bots.

    import gymnasium as gym
    import sheepfold.interop.gymnasium  # registers sheepfold/DollyCrush-v0, ... (every game)

    env = gym.make("sheepfold/ShaveASheep-v0", players=3, opponents="greedy")
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The observation is the position seen from the agent's seat, ``Box(0, 1, (N,), float32)``
(:mod:`sheepfold.interop.encoding`), or with ``observation="grid"`` (games with a board: Dolly
Crush) ``Box(0, 1, (rows, cols, channels), float32)``; the action space is ``Discrete(A)`` over
the game's action ids, masked: :meth:`SheepfoldEnv.action_masks` (the method MaskablePPO looks
for) and ``info["action_mask"]`` (int8) give the legal ones. ``gym.make`` returns the
environment itself, without Gymnasium's order-enforcing and checker wrappers (it enforces the
order itself, and the tests run Gymnasium's full ``check_env``), so ``gym.make(...).action_masks()``
works; under other wrappers (``max_episode_steps``, SB3's Monitor) reach it with
``env.get_wrapper_attr("action_masks")()``, as sb3-contrib does.

``reset`` and every ``step`` return at the agent's next decision: chance is resolved with the
environment's generator (seeded by ``reset(seed=...)``) and the other seats are played by
``opponents``: a bot name (``"random"``, any ``name:options`` that :func:`sheepfold.bots.make_bot`
knows, and bots added with :func:`sheepfold.bots.register_bot`), an observation policy (a
function ``f(obs, mask) -> action`` or a model with SB3's ``predict``, asked with the seat's own
observation: self-play against a frozen model), or a list of those, one per other seat.

The reward (``reward="win"``, the default) is 0 until the end, then the agent's win share (1 sole
winner, 1/k for k tied winners, 0 otherwise). ``reward="points"`` is shaped: after every step also
the change in (the agent's points minus the best other seat's points) divided by
``points_scale`` (default 10), so the episode pays the win share plus the final margin / 10.
Shave a Sheep stops at ``max_turns`` (default 1000): ``truncated=True`` and the game counts as an
n-way tie (1/n).

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

from sheepfold.core.protocol import CHANCE, Game, IllegalAction, SheepfoldError
from sheepfold.core.registry import game_names, game_spec
from sheepfold.interop import _UNSET, build_game
from sheepfold.interop.encoding import observation_image, observer_for, render_text
from sheepfold.interop.policy import WHAT_A_POLICY_IS, BatchFn, batch_policy, is_observation_policy

#: every registered game's environment id, from its spec: ``sheepfold/DollyCrush-v0``
ENV_IDS = {g: game_spec(g).env_id for g in game_names()}
#: the batched simulators of the vector layer, for the games that have one
#: (gymnasium.make_vec(..., vectorization_mode="vector_entry_point"))
_VECTOR_ENTRY = {
    "shave-a-sheep": "sheepfold.vector.gym_shave:make",
    "dolly-crush": "sheepfold.vector.gym_dolly:make",
}
_ILLEGAL = ("lose", "random", "raise")
#: what ``reward=`` takes: the win share at the end, or that plus the shaped points margin
REWARDS = ("win", "points")


class SheepfoldEnv(gymnasium.Env):
    """One seat of a sheepfold game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        game: str | Game = "dolly-crush",
        players: int = 2,
        opponents: Any = "random",
        seat: int | str = 0,
        rules: Mapping[str, Any] | Any = None,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        max_turns: int | None = _UNSET,
        observation: str = "flat",
        reward: str = "win",
        points_scale: float = 10.0,
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
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if not points_scale > 0:
            raise ValueError(f"points_scale must be positive, not {points_scale!r}")
        self.game = build_game(game, players, rules, max_turns, **options)
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        self.opponent_specs = _opponent_specs(opponents, n, self.game)
        self.seat_choice = seat
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.reward_kind = reward
        self.points_scale = float(points_scale)
        self.observer = observer_for(self.game, observation)
        self.encoder = self.observer.base  # the flat layout: text, images, views
        self.num_actions = self.game.info.num_distinct_actions
        self.observation_space = spaces.Box(0.0, 1.0, self.observer.shape, np.float32)
        self.action_space = spaces.Discrete(self.num_actions)
        self.state: Any = None
        self.seat = seat if isinstance(seat, int) else 0
        self.bots: dict[int, Any] = {}
        self._rng = random.Random(0)
        self._over = True
        self._margin = 0.0

    # -- helpers ------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """Legal actions of the agent now (bool; all False once the episode is over)."""
        mask = np.zeros(self.num_actions, bool)
        if self.state is not None and not self._over and self.state.current_player() == self.seat:
            mask[self.state.legal_actions()] = True
        return mask

    def _obs(self, seat: int | None = None) -> np.ndarray:
        return self.observer.encode(self.state, self.seat if seat is None else seat)

    def _points_margin(self) -> float:
        """The agent's points minus the best other seat's (the shaped reward's measure)."""
        scores = self.state.scores()
        others = [x for p, x in enumerate(scores) if p != self.seat]
        return float(scores[self.seat] - max(others))

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
                bot = self.bots[p]
                s.apply(bot.act(s.observe(p)) if hasattr(bot, "act") else self._ask(bot, p))
            else:
                return

    def _ask(self, policy: BatchFn, p: int) -> int:
        """The observation policy's action in seat ``p`` (checked: it must be legal)."""
        mask = np.zeros(self.num_actions, bool)
        mask[self.state.legal_actions()] = True
        a = int(np.asarray(policy(self._obs(p)[None], mask[None])).reshape(-1)[0])
        if not (0 <= a < self.num_actions and mask[a]):
            raise SheepfoldError(
                f"the opponent policy in seat {p} chose action {a}, which is not legal there "
                f"(legal: {np.flatnonzero(mask).tolist()}); mask your policy"
            )
        return a

    def _result(self) -> tuple[float, bool, bool]:
        out = self.state.outcome()
        if out is None:
            return 0.0, False, False
        share = float(out.shares()[self.seat])
        return share, not out.truncated, bool(out.truncated)

    def _shaped(self) -> float:
        """``reward="points"``: the change of the points margin since the last call, scaled."""
        if self.reward_kind != "points":
            return 0.0
        margin = self._points_margin()
        change, self._margin = margin - self._margin, margin
        return change / self.points_scale

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
            if isinstance(spec, str)
            else batch_policy(spec)
            for p, spec in zip(others, self.opponent_specs, strict=False)
        }
        self.state = self.game.new_initial_state(seed=rng.randrange(2**31))
        self._advance()
        self._margin = self._points_margin()  # points the bots made before the agent's turn
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
        reward += self._shaped()
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info(**extra)

    def render(self) -> Any:
        """``"ansi"``: the position as text; ``"human"``: printed; ``"rgb_array"``: the agent's
        observation drawn by :func:`~sheepfold.interop.encoding.observation_image`."""
        if self.render_mode == "rgb_array":
            if self.state is None:
                return None
            return observation_image(self.encoder, self.encoder.encode(self.state, self.seat))
        text = (
            None
            if self.state is None or not self.render_mode
            else self.encoder.text(self.state, self.seat)
        )
        return render_text(self.render_mode, text)

    def close(self) -> None:
        pass


def _opponent_specs(opponents: Any, n: int, game: Game) -> list[Any]:
    """One opponent per other seat: a bot name (checked now, with the bot registry's message on
    an unknown name) or an observation policy; anything else is refused here."""
    if isinstance(opponents, str) or is_observation_policy(opponents):
        specs = [opponents] * (n - 1)
    elif isinstance(opponents, Sequence):
        specs = list(opponents)
    else:
        raise ValueError(f"opponents: {opponents!r} is neither a bot name nor {WHAT_A_POLICY_IS}")
    if len(specs) != n - 1:
        raise ValueError(f"{len(specs)} opponents given for {n - 1} other seat(s)")
    from sheepfold.bots import make_bot

    for i, spec in enumerate(specs):
        if isinstance(spec, str):
            make_bot(spec, game, 0, 0)
        elif not is_observation_policy(spec):
            raise ValueError(
                f"opponents[{i}]: {spec!r} is neither a bot name nor {WHAT_A_POLICY_IS}"
            )
    return specs


class DollyCrushEnv(SheepfoldEnv):
    """Dolly Crush against bots (options: players, opponents, seat, rules, breeds, ...)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("dolly-crush", **kwargs)


class ShaveASheepEnv(SheepfoldEnv):
    """Shave a Sheep against bots (options: players, opponents, seat, rules, variants, max_turns...)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("shave-a-sheep", **kwargs)


def _env_class(game: str) -> str:
    """The name of ``game``'s environment class in this module (``ShaveASheepEnv``), made here
    for a game that has none written out: a :class:`SheepfoldEnv` of that game."""
    name = f"{game_spec(game).camel_name}Env"
    if name not in globals():

        def __init__(self: SheepfoldEnv, **kwargs: Any) -> None:
            SheepfoldEnv.__init__(self, game, **kwargs)

        doc = f"{game_spec(game).title} against bots (options: players, opponents, seat, rules...)."
        globals()[name] = type(name, (SheepfoldEnv,), {"__init__": __init__, "__doc__": doc})
    return name


def register() -> None:
    """Register every game's environment with Gymnasium (done at import)."""
    for game, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            entry_point = f"sheepfold.interop.gymnasium:{_env_class(game)}"
            vector = _VECTOR_ENTRY.get(game)
            gymnasium.register(
                id=env_id,
                entry_point=entry_point,
                vector_entry_point=vector,
                # gym.make returns the environment itself, so gym.make(...).action_masks() works
                # (Gymnasium 1's wrappers no longer forward attributes); it enforces reset-first
                # itself and Gymnasium's full check_env runs in the tests
                order_enforce=False,
                disable_env_checker=True,
            )


register()

__all__ = ["ENV_IDS", "REWARDS", "DollyCrushEnv", "SheepfoldEnv", "ShaveASheepEnv", "register"]
