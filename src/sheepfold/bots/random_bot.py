"""The random bot: a uniformly random legal action. Both games."""

from __future__ import annotations

from sheepfold.bots import Bot, register_bot
from sheepfold.core.protocol import Action, Game, Seat, View
from sheepfold.core.registry import game_names


class RandomBot(Bot):
    name = "random"

    def act(self, view: View) -> Action:
        state = self.game.determinize(view, seed=self.rng.randrange(2**31))
        return self.rng.choice(state.legal_actions())


for _game in game_names():

    @register_bot(_game, "random", "plays a uniformly random legal move")
    def _make(game: Game, seat: Seat, seed: int | None, arg: str) -> RandomBot:
        return RandomBot(game, seat, seed)
