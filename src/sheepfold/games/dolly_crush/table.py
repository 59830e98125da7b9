"""Dolly Crush at a web table (:class:`~sheepfold.core.drivers.TableDriver`): a whole turn (a
dog card and its swaps) in one message, its preview, the log's words and the hidden piles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sheepfold.core.drivers import NOW, ChanceStep, GenericTable, Note
from sheepfold.core.protocol import CHANCE, IllegalAction, Seat, State, View
from sheepfold.core.words import Msg
from sheepfold.games.dolly_crush import words
from sheepfold.games.dolly_crush.game import DOG, SWAP, DollyState


class DollyTable(GenericTable):
    renderer = "dolly-crush"
    messages: tuple[str, ...] = ("turn", "preview")

    def chance(self, state: State, config: Mapping[str, Any]) -> ChanceStep:
        return NOW  # the deck's top card: the server draws it at once

    def message(self, state: State, seat: Seat, msg: dict[str, Any]) -> State | dict[str, Any]:
        assert isinstance(state, DollyState)
        if msg["type"] == "turn":
            return self.trial(state, seat, msg, whole=True)
        return self.preview(state, seat, msg)

    def trial(self, state: DollyState, seat: Seat, msg: dict[str, Any], whole: bool) -> DollyState:
        """Dog card + swaps played on a clone, each checked by the engine.

        ``whole``: a turn, exactly the dog card's swaps (under "up-to" swaps: at most that many,
        then the turn stops). Otherwise a preview: at most that many, and while a turn started
        decision by decision is in play, the swaps still left. Cells are the game's own (any
        flock size); the work is bounded by the dog card's swap count (at most 20).
        """
        trial = state.clone()
        dog, swaps = msg.get("dog"), msg.get("swaps")
        live = not whole and trial.phase == SWAP and dog in (None, trial.dog)
        if live:
            dog = trial.dog
        elif trial.phase != DOG:
            raise IllegalAction(
                Msg("a dog card is already in play: send its swaps one by one with 'act'")
            )
        game = state.game
        dogs = game.num_dogs
        if not isinstance(dog, int) or isinstance(dog, bool):
            raise IllegalAction(f"'dog' must be the index of one of your dog cards (0..{dogs - 1})")
        if not isinstance(swaps, list) or len(swaps) > 40:
            raise IllegalAction('\'swaps\' must be a list of cell pairs like ["a1", "a2"]')
        if not live and not 0 <= dog < dogs:
            raise IllegalAction(
                Msg(
                    "there is no dog card {dog}: your dog cards are 0..{last}",
                    dog=dog,
                    last=dogs - 1,
                )
            )
        up_to = game.stop is not None
        if live:
            need = trial.swaps_left
        else:
            need = game.dog_swaps[seat][dog]
            trial.apply(dog)
        if len(swaps) > need or (whole and not up_to and len(swaps) != need):
            if up_to:
                raise IllegalAction(
                    Msg(
                        "dog card {dog} makes at most {need} swap(s), not {n}",
                        dog=dog + 1,
                        need=need,
                        n=len(swaps),
                    )
                )
            raise IllegalAction(
                Msg(
                    "dog card {dog} makes exactly {need} swap(s), not {n}",
                    dog=dog + 1,
                    need=need,
                    n=len(swaps),
                )
            )
        for pair in swaps:
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(x, str) and len(x) <= 8 for x in pair)
            ):
                raise IllegalAction(Msg('a swap is a pair of cell names like ["b2", "b3"]'))
            try:
                action = game.swap_action(pair[0], pair[1])
            except ValueError as e:
                raise IllegalAction(str(e)) from None
            trial.apply(action)
        if whole and up_to and trial.phase == SWAP and trial.turn == seat:
            assert game.stop is not None
            trial.apply(game.stop)  # fewer swaps than the card shows: the turn stops here
        return trial

    def preview(self, state: DollyState, seat: Seat, msg: dict[str, Any]) -> dict[str, Any]:
        """The cards (cells) and points planned swaps would take, as the engine finds them.

        Played on a clone like a turn (the same checks and errors); nothing is stored or sent
        to anyone else. Before the last swap: the lines the flock shows now; after it: what
        the engine took when the turn ended.
        """
        trial = self.trial(state, seat, msg, whole=False)  # the table's state is untouched
        board = trial.game.board
        points_of = trial.game.points
        if trial.phase == SWAP:
            cells = board.find_lines(trial.flock)
            points = board.score(trial.flock, points_of)
            left = trial.swaps_left
        else:
            cells = list(trial.last_taken)
            points = int(trial.scores()[seat] - state.scores()[seat])
            left = 0
        return {"cells": [board.cell_name(c) for c in cells], "points": points, "swaps_left": left}

    def narrate(
        self, probe: State, who: Seat, action: int, show_scores: bool, after: State | None = None
    ) -> list[Note]:
        """A decision in words (the dog card as the page numbers it, from 1, with its swaps;
        the two cells swapped), then the sheep it took: which ones and the points they scored
        (bonuses included) when scores show; never a card drawn from the deck."""
        assert isinstance(probe, DollyState)
        if who == CHANCE:
            if after is None:
                probe.apply_unchecked(action)
                after = probe
            assert isinstance(after, DollyState)
            if after.aborted:  # the refill's clean-up ended the game (Dolly Crush ruling 6)
                return [(None, words.RAN_OUT)]
            return []
        notes: list[Note] = [(who, decision_words(probe, action))]
        before, points = len(probe.collected[who]), probe.scores()[who]
        if after is None:
            probe.apply_unchecked(action)
            after = probe
        assert isinstance(after, DollyState)
        took = after.collected[who][before:]
        if took:
            if show_scores:
                board = probe.game.board
                notes.append(
                    (
                        who,
                        Msg(
                            "took {n} sheep ({points}): {cards}",
                            n=len(took),
                            points=words.points_words(int(after.scores()[who] - points)),
                            cards=words.cards_words([board.card_code(c) for c in took]),
                        ),
                    )
                )
            else:
                notes.append((who, Msg("took {n} sheep", n=len(took))))
        return notes

    def chance_actor(self, state: State, action: int) -> Seat | None:
        return None  # the draws are not frames of their own

    def view(self, state: State, seat: Seat | None, show_scores: bool) -> View:
        """``observe(seat)``; while the table hides the scores, every number of another seat's
        score hidden (None): its score, its pile's cards (their number shows: the sheep it
        took were on the flock for all to see), the points its bonuses by length added."""
        view = state.observe(seat)
        if not show_scores and not view["finished"]:
            # Collected piles are face down (Dolly Crush ruling 9): the table chose to hide them.
            for key in ("scores", "bonus_points"):
                if key in view:
                    view[key] = [v if s == seat else None for s, v in enumerate(view[key])]
            view["collected"] = [
                pile if s == seat else [None] * len(pile)
                for s, pile in enumerate(view["collected"])
            ]
            # The cards nobody has seen, subtracted from the deck's make-up with the flock and
            # one's own pile, would give the others' piles card for card: not sent either.
            view["unseen"] = None
        return view

    def shown(self, view: View) -> dict[str, Any]:
        return {"renderer": self.renderer}

    def gathered(self, view: View, seat: Seat) -> str:
        """The cards ``seat`` took, alike ones together, by type as the game lists them, white
        first ("3 white bell cards, a black lamb")."""
        types = view["types"]

        def order(code: str) -> tuple[int, bool]:
            kind, _, colour = code.rpartition("-")
            return (types.index(kind) if kind in types else len(types), colour != "white")

        return words.cards_words(sorted(view["collected"][seat], key=order))


def decision_words(state: DollyState, action: int) -> str:
    """A decision at ``state`` in words: ``played dog card 2 (3 swaps)`` (the dog cards
    numbered from 1, as the table shows them), ``swapped b2 and b3``, ``stopped swapping``."""
    game = state.game
    if state.phase == DOG:
        k = game.dog_swaps[state.turn][action]
        swaps = Msg("1 swap") if k == 1 else Msg("{k} swaps", k=k)
        return Msg("played dog card {n} ({swaps})", n=action + 1, swaps=swaps)
    if action == game.stop:
        return Msg("stopped swapping")
    a, b = game.board.swaps[action - game.swap0]
    return Msg("swapped {a} and {b}", a=game.board.cell_name(a), b=game.board.cell_name(b))
