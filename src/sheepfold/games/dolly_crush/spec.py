"""Dolly Crush, registered (:mod:`sheepfold.core.registry`): what the layers above ``games``
need to know about it."""

from __future__ import annotations

import random
from typing import Any

from sheepfold.core.drivers import TerminalDriver
from sheepfold.core.protocol import Game, State
from sheepfold.core.registry import GameSpec, register_game
from sheepfold.games.costs import RuleCost
from sheepfold.games.dolly_crush.cards import BREED_TITLES, BREEDS, EMPTY
from sheepfold.games.dolly_crush.game import DOG, DollyGame, DollyState, action_name
from sheepfold.games.dolly_crush.record import DollyCodec
from sheepfold.games.dolly_crush.rules import DollyRules
from sheepfold.games.dolly_crush.table import DollyTable


def invariants(state: State) -> list[tuple[str, str]]:
    """Conservation of the cards, no line when a turn starts, scores = the cards' points (on the
    rule set's own board: its cells, card kinds and lines)."""
    assert isinstance(state, DollyState)
    board = state.game.board
    kinds = board.kinds
    bad: list[tuple[str, str]] = []
    if state.initial_deck and state.total_cards() != len(state.initial_deck):
        bad.append(
            (
                "conservation",
                f"flock + deck + waiting + collected = {state.total_cards()}, "
                f"the deck has {len(state.initial_deck)} cards",
            )
        )
    if state.initial_deck:

        def counts(cards: Any) -> list[int]:
            out = [0] * kinds
            for c in cards:
                out[c] += 1
            return out

        now = counts(
            [c for c in state.flock if c != EMPTY]
            + state.deck
            + state.returning
            + [c for p in state.collected for c in p]
        )
        if now != counts(state.initial_deck):
            bad.append(("conservation", f"card kinds changed: {now} vs the deck's"))
    if len(state.flock) != board.cells or any(not (EMPTY <= c < kinds) for c in state.flock):
        bad.append(("conservation", f"a cell holds no card id: {state.flock}"))
    if state.phase == DOG:
        lines = board.find_lines(state.flock)
        if lines:
            bad.append(("no-line", f"a turn starts with a line in the flock at cells {lines}"))
        if EMPTY in state.flock:
            bad.append(("no-line", "a turn starts with an empty cell in the flock (ruling 8)"))
    recount = [
        float(sum(state.game.points[c] for c in p) + extra)
        for p, extra in zip(state.collected, state.bonus, strict=True)
    ]
    if state.scores() != recount:
        bad.append(("scores", f"scores {state.scores()} but the cards count {recount}"))
    return bad


def hidden_variant(state: State, rng: random.Random) -> State:
    """The same position with another deck order and seed (what no seat may see)."""
    other = state.clone()
    assert isinstance(other, DollyState)
    rng.shuffle(other.deck)
    other.seed = rng.randrange(2**31)
    other.initial_deck = tuple(rng.sample(other.initial_deck, len(other.initial_deck)))
    return other


#: a deck shorter than this is not looked for in views: a few cards of a small deck (two types,
#: say) can match a row of the flock or a pile by chance; the hidden-variant check still applies
MIN_ORDER = 6


def deck_orders(state: State) -> list[list[str]]:
    """The deck's order (and reversed), as a leak in a view would show it."""
    assert isinstance(state, DollyState)
    deck = [state.game.board.card_code(c) for c in state.deck]
    return [deck, deck[::-1]] if len(set(deck)) > 1 and len(deck) >= MIN_ORDER else []


def move_boundary(state: State) -> bool:
    """A turn starts (a dog card is due) or the game is over."""
    assert isinstance(state, DollyState)
    return state.is_terminal() or state.phase == DOG


def encoder(game: Game) -> Any:
    from sheepfold.games.dolly_crush.observation import DollyEncoder

    return DollyEncoder(game)


def max_chance_outcomes(game: Game) -> int:
    """A draw is one of the board's card kinds (the deck's, after ``types``)."""
    assert isinstance(game, DollyGame)
    return game.board.kinds


def _turns(game: DollyGame) -> int:
    """The most turns: the rounds' (house rule ``rounds``), else one per dog card (a turn
    spends one; Dolly Crush ruling 8 ends the game when all are spent)."""
    return game.max_turns if game.max_turns is not None else game.num_players * game.num_dogs


def max_decisions(game: Game) -> int:
    """Each turn: the dog card, then its swaps. Under up-to swaps a "stop" ends the turn in
    place of the swaps not made (j < k swaps, then stop), so a card showing k swaps takes at
    most 1 + k decisions either way (a 0-swap card ends the turn at once). Without rounds every
    seat plays each of its cards once; in rounds, every turn may play the biggest card."""
    assert isinstance(game, DollyGame)
    if game.max_turns is not None:
        return game.max_turns * (1 + max(max(s) for s in game.dog_swaps))
    return sum(len(s) + sum(s) for s in game.dog_swaps)


def max_chance_nodes(game: Game) -> int:
    """Every chance event draws a card from the deck into the flock. The deck only grows back
    by the cards Dolly Crush ruling 6's clean-up takes out and shuffles in again: at most a
    flock of cards per clean-up round, at most ``max_cleanup_rounds`` rounds each time the
    flock is settled: after the deal, and after every turn unless cascades (house rule)
    take the refill's lines instead (then only the deal is cleaned up). So the draws are at
    most the deck plus those returns."""
    assert isinstance(game, DollyGame)
    settles = 1 if game.rules.cascades else 1 + _turns(game)
    returned = settles * game.rules.max_cleanup_rounds * game.board.cells
    return game.rules.deck_size() + returned


#: the bots' search shapes (bots/dolly.py, with their default options: tests/test_rule_costs.py
#: checks they agree; their search per decision, in :func:`cost`): ``hard`` values every end
#: of its turn, then ``HARD_REPLIES`` (candidates x samples: 10 x 12) sampled replies, then
#: plays out its plans one playout at a time (its clock is read between two); the
#: ``expert``'s first round, which no clock stops, plays ``EXPERT_FIRST`` playouts of each
#: candidate: every end of a one-swap card (at most ``EXPERT_ENDS``) and ``EXPERT_PLANS``
#: plans of each larger card
HARD_REPLIES = 10 * 12
EXPERT_FIRST = 4
EXPERT_ENDS = 32
EXPERT_PLANS = 8


def cost(rules: DollyRules, players: int) -> RuleCost:
    """What a game costs (:class:`~sheepfold.games.costs.RuleCost`), bounds from the rules:

    - a deal draws the flock, then each of at most ``max_cleanup_rounds`` clean-up rounds takes
      out at most the whole flock and draws it again (Dolly Crush ruling 6); a turn's refill
      likewise, unless cascades give its lines to the player: then it draws at most the deck;
    - a bot's search: a turn's swap search looks at, for each swap k of a card of n swaps, at
      most ``min(S ** (k - 1), cap)`` flocks (the distinct flocks of the level before: S, the
      board's swaps; the compiled search of any board keeps ``cap`` of them, the packed search
      of the rulebook's flock all) times S children, each tested on the board's W combination
      windows (a packed child is scored whole: one check); a greedy turn searches each distinct card of its hand. A decision of ``medium``
      (and ``easy``, ``greedy``) is one greedy turn; of ``hard``, its replies and one playout
      to the end of the game (a turn each); of ``expert``, its first round of playouts."""
    from sheepfold.games.dolly_crush.kernel import grid
    from sheepfold.games.dolly_crush.kernel.layout import packable, windows

    board = rules.board()
    cells, rounds = board.cells, rules.max_cleanup_rounds
    deal = cells * (1 + rounds)
    turn = rules.deck_size() if rules.cascades else deal
    swaps, wins = len(board.swaps), len(windows(board)[0])
    # the packed searches (the rulebook's flock) keep every flock of a level: the greedy
    # turn's with exactly the card's swaps, the lookahead's and the playouts' on plain rules
    exact = packable(board) and rules.swaps == "exact"
    plain = exact and not rules.cascades and rules.end_points is None and rules.rounds is None
    turns = players * (rules.rounds if rules.rounds is not None else rules.dogs_per_player)
    hands = [sorted(set(counts)) for counts in rules.dog_swaps.values()]

    def search(n: int, work: int, packed: bool) -> int:
        if packed:  # a packed child is scored whole, a few table lookups: one check
            return sum(min(swaps ** (k - 1), board.kinds**cells) * swaps for k in range(1, n + 1))
        kept = max(grid.MIN_CAP, work // (swaps * wins))
        return sum(min(swaps ** (k - 1), kept) * swaps * wins for k in range(1, n + 1))

    def greedy(work: int, packed: bool) -> int:  # each distinct card of the costliest hand
        return max(sum(search(n, work, packed) for n in hand) for hand in hands)

    ends = max(
        (min(swaps, EXPERT_ENDS) if hand[0] <= 1 else 0)
        + EXPERT_PLANS * sum(1 for n in hand if n > 1)
        for hand in hands
    )
    medium = greedy(grid.SEARCH_WORK, exact)
    lookahead = greedy(grid.LOOKAHEAD_WORK, plain)
    return RuleCost(
        players,
        deal_steps=deal,
        turn_steps=turn,
        cleanup_rounds=rounds,
        steps_option="max_cleanup_rounds",
        search=(
            ("easy", medium),
            ("medium", medium),  # (also named greedy)
            ("hard", HARD_REPLIES * lookahead + turns * medium),
            ("expert", HARD_REPLIES * lookahead + EXPERT_FIRST * ends * turns * lookahead),
        ),
    )


#: the rule set every front end plays when none is asked for: the graded edition, every breed's
#: four dog cards showing 1, 2, 3 and 4 swaps (the engine's own default stays the printed one)
FAIR_RULESET = "dolly-graded"


def unequal_seats(game: Game) -> str | None:
    """The warning when the seats' dog cards differ (the printed edition: the Australian
    Shepherd's cards show 4 swaps, the other breeds' 1), or None when they are equal."""
    assert isinstance(game, DollyGame)
    if len(set(game.dog_swaps)) == 1:
        return None
    seats = "; ".join(
        f"seat {i} {BREED_TITLES[b]}: {'/'.join(str(k) for k in c)} swaps"
        for i, (b, c) in enumerate(zip(game.breeds, game.dog_swaps, strict=True))
    )
    return (
        f"Unequal dog cards decide the game ({seats}): the printed edition gives the "
        "Australian Shepherd 4 swaps a card against 1, and in bot tests the seat holding it "
        f"won every one of 200 games. The rule set {FAIR_RULESET} gives every seat the same "
        "cards."
    )


def terminal(game: Game) -> TerminalDriver:
    """The terminal's driver (:mod:`sheepfold.games.dolly_crush.terminal`; it imports rich)."""
    from sheepfold.games.dolly_crush.terminal import DollyTerminal

    return DollyTerminal(game)


#: each rules option's category, for the gallery's filters (an option not named: "other")
CATEGORIES = {
    "rows": "area",
    "cols": "area",
    "min_line": "lines",
    "diagonals": "lines",
    "match_colour": "lines",
    "cascades": "lines",
    "types": "deck",
    "white_per_type": "deck",
    "black_per_type": "deck",
    "white_points": "scoring",
    "black_points": "scoring",
    "dogs_per_player": "dogs",
    "dog_swaps": "dogs",
    "swaps": "dogs",
    "end_points": "end",
    "rounds": "end",
    # the rule language's parts (docs/spec/rule-language.md)
    "shape": "area",
    "adjacent": "dogs",
    "combinations": "lines",
    "refill": "lines",
    "points": "scoring",
    "bonuses": "scoring",
}


def differences(a: DollyRules, b: DollyRules) -> list[str]:
    """What changes from rules ``a`` to ``b``, part by part, in the rules' words (the gallery's
    lines): "the flock: ... (instead of: ...)"."""
    from sheepfold.core.words import Msg
    from sheepfold.games.dolly_crush import words

    return [
        Msg("{now} (instead of: {was})", now=now, was=was)
        for was, now in words.differences(b, a).values()
    ]


def score_bound(state: State) -> list[float] | None:
    """The most points each seat may still hold: its points plus what the cards still in play
    could bring it (every card in the flock, the deck and those waiting to be shuffled back, at
    its points times the largest bonus by length); without cascades at most a flock's worth of
    cards a turn, over the turns the seat has left. Points only grow unless a card has negative
    points: then None."""
    assert isinstance(state, DollyState)
    game = state.game
    pts = game.points
    if min(pts) < 0:
        return None
    times = max([1, *(b.times for b in game.board.bonuses)])
    cards = [c for c in (*state.flock, *state.deck, *state.returning) if c >= 0]
    worth = sorted((pts[c] * times for c in cards), reverse=True)
    total = float(sum(worth))
    best = []
    for seat, score in enumerate(state.scores()):
        gain = total
        if not game.rules.cascades:
            per_turn = float(sum(worth[: game.board.cells]))
            gain = min(gain, per_turn * _turns_left(state, seat))
        best.append(score + gain)
    return best


def _turns_left(state: DollyState, seat: int) -> int:
    """The turns ``seat`` may still play, the one in progress included: its unspent dog cards
    (the game ends when every dog card is spent), or its turns of the rounds left."""
    g = state.game
    if g.max_turns is None:
        spent = state.dogs_played[seat]
        return sum(1 for d in range(g.num_dogs) if not spent >> d & 1)
    n = g.num_players
    return sum(1 for t in range(state.turns, g.max_turns) if t % n == seat)


SPEC = register_game(
    GameSpec(
        name="dolly-crush",
        title="Dolly Crush",
        game_class=DollyGame,
        rules_class=DollyRules,
        record=DollyCodec(),
        move_boundary=move_boundary,
        invariants=invariants,
        hidden_variant=hidden_variant,
        deck_orders=deck_orders,
        action_name=action_name,
        encoder=encoder,
        max_chance_outcomes=max_chance_outcomes,
        max_decisions=max_decisions,
        max_chance_nodes=max_chance_nodes,
        make_options=("breeds",),
        default_ruleset=FAIR_RULESET,
        unequal_seats=unequal_seats,
        breeds={b: BREED_TITLES[b] for b in BREEDS},
        hidden_scores=True,
        table=DollyTable(),
        differences=differences,
        categories=CATEGORIES,
        score_label="points",
        terminal=terminal,
        score_bound=score_bound,
        cost=cost,
    )
)
