"""Each front end's limits on what a game costs (:data:`LIMITS`: a web table, a gallery card,
the command line) and the one check against them (:func:`cost_problems`), in words: which cost
of a rule set (:class:`~sheepfold.games.costs.RuleCost`, from the rules alone) is over which
limit ("a deal or a turn could take up to 640,064 chance steps; a web table allows 40,000"),
and for the bots that would play, whether each one's search per decision is. The check of
``sheepfold rules check``, of the web's rules check and a new table (server/rules_api.py), and
of a gallery card's rules. The numbers were measured on the 2-core machine the tests run on
(the comment of :data:`LIMITS`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sheepfold.bots.levels import SAME_AS, level_words
from sheepfold.core.words import Msg, Number, chained, semicolon
from sheepfold.games.costs import RuleCost, rule_cost


@dataclass(frozen=True)
class Limits:
    """What one front end runs: the chance steps of a deal or of a turn, a bot decision's
    search (combination checks), the perfect bot's positions, and the bots it always plays
    (a gallery card's)."""

    #: who the limit is for, in words ("a web table")
    who: str
    chance_steps: int
    search: int
    positions: int
    bots: tuple[str, ...] = ()


#: each front end's limits, measured on the 2-core test machine while other tests ran:
#:
#: - chance steps: the Dolly Crush engine draws 31,000 to 46,000 a second (a deal that cleans
#:   up for 565,134 steps took 12.3 s, one of 56,428 steps 1.8 s), so a web table's 40,000 are
#:   about a second at worst; the plus-shaped flock of ``docs/rulesets`` (33 cells x 1,001
#:   clean-up rounds: 33,033) fits, an 8 x 8 flock needs at most 623 clean-up rounds;
#: - a bot's search: the expert's first round of playouts (no clock stops it) took 2.2 s on
#:   the graded edition with 4 players (bound: 787,729,888 checks), 6.9 s on graded-cascades
#:   (986,556,032), 6.5 s on the plus-shaped flock with 4 players (4,486,610,752), 17 s with
#:   diagonal swaps (1,838,051,488) and 56 s on 20-swap cards, an 8 x 8 flock and diagonal
#:   swaps (7,208,732,160): 1.5 to 9 ns a check. A web table's 1,500,000,000 keep every level
#:   for the graded edition and the rulebook with any seats; beyond it, the expert's decision
#:   could take ten seconds and more: the table is refused, and says so (an easier bot plays
#:   it). The greedy bot of a gallery card searches at most 50,000,000 a decision (the
#:   plus-shaped flock: 17,001,504, 0.16 s), a card playing hundreds of games;
#: - positions: the perfect bot plays a solution from the server's cache or its one background
#:   job (the server's ``solve_limit`` decides what it solves itself): a web table may ask for
#:   a 4-player rulebook game (52,966,116), the command line for what the solver takes
#:   (``solver.MAX_STATES``).
#:
#: The command line runs on one's own machine: bounded only by what the rules allow at all.
LIMITS: dict[str, Limits] = {
    "web": Limits(Msg("a web table"), 40_000, 1_500_000_000, 60_000_000),
    "gallery": Limits(Msg("a gallery card"), 40_000, 50_000_000, 0, bots=("greedy",)),
    "cli": Limits(Msg("the command line"), 1_000_000, 10**15, 400_000_000),
}


def cost_problems(
    game: str,
    rules: Any,
    front: str,
    bots: Iterable[str] = (),
    players: int | None = None,
    cost: RuleCost | None = None,
) -> list[tuple[str, str]]:
    """Each cost of ``rules`` over ``front``'s limits (:data:`LIMITS`), as (where, words): the
    option it comes from where one does (the cost's ``steps_option``, else ""), and what is
    over what. ``bots``: the bots that will play (names, options after a colon), each checked for
    its search, with the bots ``front`` always plays; the perfect bot for the positions.
    Empty: every cost is within the limits."""
    limits = LIMITS[front]
    cost = cost if cost is not None else rule_cost(game, rules, players)
    out: list[tuple[str, str]] = []
    where = cost.steps_option
    steps_over = [
        (steps, what)
        for steps, what in ((cost.deal_steps, Msg("a deal")), (cost.turn_steps, Msg("a turn")))
        if steps > limits.chance_steps
    ]
    if len(steps_over) == 2 and cost.deal_steps == cost.turn_steps:  # said once
        steps_over = [(cost.deal_steps, Msg("a deal or a turn"))]
    out += [
        (
            where,
            Msg(
                "{what} could take up to {steps} chance steps; {who} allows {limit}",
                what=what,
                steps=_n(steps),
                who=limits.who,
                limit=_n(limits.chance_steps),
            ),
        )
        for steps, what in steps_over
    ]
    for bot in dict.fromkeys([*limits.bots, *bots]):
        name = bot.partition(":")[0]
        if name == "perfect":
            if cost.positions is not None and cost.positions > limits.positions:
                out.append(("", _too_many_positions(cost, cost.positions, limits)))
            continue
        search = search_of(cost, bot)
        if search > limits.search:
            over = Msg(
                "the {bot} bot could test up to {search} combinations for one decision under "
                "these rules with {n} players; {who} allows {limit}",
                bot=_level(name),
                search=_n(search),
                n=cost.players,
                who=limits.who,
                limit=_n(limits.search),
            )
            if bot not in limits.bots:  # a seat's bot: another one may play
                over = Msg("{over}: choose an easier bot", over=over)
            out.append(("", over))
    return out


def _too_many_positions(cost: RuleCost, positions: int, limits: Limits) -> str:
    if not limits.positions:
        return Msg("{who} has no perfect bot", who=limits.who)
    return Msg(
        "the perfect bot would solve {positions} positions of the {n}-player game first; "
        "{who} allows {limit}: choose another bot",
        positions=_n(positions),
        n=cost.players,
        who=limits.who,
        limit=_n(limits.positions),
    )


def _level(name: str) -> str:
    """A bot by its level's title in words ("Expert")."""
    return level_words(name)


def search_of(cost: RuleCost, bot: str) -> int:
    """The search of one decision of ``bot`` under ``cost`` (options after a colon left out; a
    level under its second name: ``greedy`` is ``medium`` where the game has both)."""
    name = bot.partition(":")[0]
    own = dict(cost.search)
    return own.get(name, own.get(SAME_AS.get(name, name), 0))


def _n(value: int) -> str:
    """A count for people: its digits grouped (1,000,000; 1.000.000 in Italian)."""
    return Number(value, grouped=True)


def cost_refusal(
    game: str, rules: Any, front: str, bots: Iterable[str] = (), players: int | None = None
) -> str | None:
    """:func:`cost_problems` as one text, its problems joined by "; " (each kept translatable;
    None: within ``front``'s limits)."""
    problems = cost_problems(game, rules, front, bots, players)
    return chained([words for _, words in problems], semicolon) or None


def cost_lines(cost: RuleCost) -> list[str]:
    """A rule set's cost in words, a line each (``sheepfold rules check``)."""
    steps = f"a turn: at most {cost.turn_steps:,} chance step{'s' * (cost.turn_steps != 1)}"
    if cost.deal_steps:
        steps = f"a deal: at most {cost.deal_steps:,} chance steps; a turn: at most " + (
            f"{cost.turn_steps:,}"
        )
    if cost.cleanup_rounds:
        steps += f" (a clean-up: at most {cost.cleanup_rounds:,} rounds)"
    lines = [steps]
    if cost.positions is not None:
        lines.append(
            f"the perfect bot: {cost.positions:,} positions to solve with {cost.players} players"
        )
    if cost.search:
        each = ", ".join(f"{_level(b)} {n:,}" for b, n in cost.search)
        lines.append(f"a bot's search, combinations a decision with {cost.players} players: {each}")
    return lines
