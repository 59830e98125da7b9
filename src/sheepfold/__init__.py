"""sheepfold: Dolly Crush and Shave a Sheep, rulebook-exact, for players, designers and AI research.

>>> import sheepfold
>>> game = sheepfold.make("shave-a-sheep", players=2)
>>> state = game.new_initial_state(seed=7)
>>> state.is_chance_node()
True
"""

from sheepfold.core.protocol import CHANCE, TERMINAL, Game, IllegalAction, RulesError, State
from sheepfold.games import GAME_NAMES, make

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "GAME_NAMES",
    "TERMINAL",
    "Game",
    "IllegalAction",
    "RulesError",
    "State",
    "make",
]
