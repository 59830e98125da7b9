"""The bot levels a family may choose, in words: each level's title and how it plays (the
lobby's, server/plain_words.py; a lab card's plot names its bots by them, lab/report.py).
"""

from __future__ import annotations

from sheepfold.core.words import Msg

#: the bot levels a family may choose, in the order they are offered: (title, how it plays).
#: A bot not named here (``best-response``, a test's bot) is for the lab and the API only.
LEVELS: dict[str, tuple[str, str]] = {
    "random": (Msg("Random"), Msg("Picks any allowed move at random: the easiest to beat.")),
    "easy": (
        Msg("Easy"),
        Msg("Mostly plays at random; about one turn in four it takes the best move."),
    ),
    "medium": (
        Msg("Medium"),
        Msg("Always takes the most points it can this turn, never thinking ahead."),
    ),
    "greedy": (
        Msg("Greedy"),
        Msg("Makes the move that looks best right now, never thinking ahead."),
    ),
    "hard": (
        Msg("Hard"),
        Msg("Thinks a move ahead: what it scores now, less what the next player could score back."),
    ),
    "expert": (
        Msg("Expert"),
        Msg(
            "Plays out many possible futures before each turn: the strongest, and a little slower."
        ),
    ),
    "perfect": (
        Msg("Perfect"),
        Msg("Never makes a mistake: every move worked out exactly for these rules."),
    ),
}
#: a level that is another one under a second name, where the game has both (one is offered)
SAME_AS = {"greedy": "medium"}


def level_words(name: str) -> str:
    """A bot by its level's title (``greedy``: "Greedy", a text of the catalog); a bot that is
    no level (``best-response``, a test's bot) by its name."""
    title = LEVELS.get(name.partition(":")[0])
    return title[0] if title is not None else name
