"""Shave a Sheep at a web table (:class:`~sheepfold.core.drivers.TableDriver`): the roller
rolls the die (or the server does: ``auto_roll``), Howling Wolf's race, the log's words."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from typing import Any

from sheepfold.core.drivers import NOW, ChanceStep, GenericTable, Note, player
from sheepfold.core.protocol import CHANCE, Seat, State, View
from sheepfold.core.words import Msg, capitalized
from sheepfold.games.shave_a_sheep import words
from sheepfold.games.shave_a_sheep.game import GRAB, HOWL_TARGET, ROLL, ShaveGame, ShaveState

#: each game's log words, made once (they depend on its program alone; the log says one on
#: every move): a decision by (action, the face of a race's pick or None), a roll by
#: ("rolled", face, roller), a decision told in the log by ("told", decider, action, face)
_SAID: weakref.WeakKeyDictionary[ShaveGame, dict[tuple[Any, ...], str]] = (
    weakref.WeakKeyDictionary()
)


def _said(game: ShaveGame) -> dict[tuple[Any, ...], str]:
    said = _SAID.get(game)
    if said is None:
        said = _SAID[game] = {}
    return said


def decision_words(state: ShaveState, action: int) -> str:
    """A decision for the table's log: the verb and seat, and what it does in the program's
    words (``steal seat 1: take one piece from seat 1's safe pile onto your safe pile``).

    They depend on the game, the action and, in the howl's target phase, the face rolled,
    nothing else of the state: they are kept per game by that key (``_SAID``)."""
    said = _said(state.game)
    key = (action, state.face if state.phase == HOWL_TARGET else None)
    text = said.get(key)
    if text is None:
        text = said[key] = _decision_words(state, action)
    return text


def _decision_words(state: ShaveState, action: int) -> str:
    g = state.game
    verb, k = g.by_id[action]
    said = words.verb_name(verb.name)
    if state.phase == HOWL_TARGET:
        race = g.face_race_verbs[state.face]
        assert race is not None and race.race is not None
        lost = words.amount(race.race.take, comma=False)
        assert k is not None  # the race's pick is another seat
        return Msg("{verb}: {name}'s sheep loses {lost}", verb=said, name=player(k), lost=lost)
    if verb.name in ("pass", "reroll"):
        return Msg("{verb}: {what}", verb=said, what=words.verb(verb))
    who = None if k is None else player(k)
    what = verb.words or words.effects(verb.effects, who, g.program.setup.wolves)
    if verb.words and who is not None:  # the file's own words: whom the verb chose
        return Msg("{verb} {name}: {what}", verb=said, name=who, what=what)
    return Msg("{verb}: {what}", verb=said, what=what)


#: the seat words a decision's words name in the log, each by the player it stands for (the
#: others, which the position decides as the verb plays out, stay in words)
NAMED_SEATS = ("me", "target", "left", "right", "partner")


def named_seats(
    state: ShaveState, me: int, target: int | None, name: Callable[[int], str]
) -> dict[str, str]:
    """The seat words of :data:`NAMED_SEATS` a decision by ``me`` (choosing ``target``) names,
    each as ``name(seat)`` of the seat the engine gives it (``ShaveState._seats``)."""
    seats = {w: state._seats(w, me, target) for w in NAMED_SEATS}
    return {w: name(s[0]) for w, s in seats.items() if len(s) == 1}


def told_words(state: ShaveState, action: int) -> str:
    """A decision for the table's log and replay, for every reader: the player who made it and
    what it did in the program's words, each player by name, never "you"
    (``{player 0} plays wolf: take all the wool from {player 1}'s sheep back to the middle``).
    Kept per game like :func:`decision_words` (the seats are the decider's and the chosen
    player's, nothing else of the state)."""
    me = state.current_player()
    said = _said(state.game)
    key = ("told", me, action, state.face if state.phase == HOWL_TARGET else None)
    text = said.get(key)
    if text is None:
        text = said[key] = _told_words(state, action, me)
    return text


def _told_words(state: ShaveState, action: int, me: int) -> str:
    g = state.game
    verb, k = g.by_id[action]
    name, said = player(me), words.verb_name(verb.name)
    if state.phase == HOWL_TARGET:
        race = g.face_race_verbs[state.face]
        assert race is not None and race.race is not None and k is not None
        return Msg(
            "{name} picks {target}'s sheep: it loses {lost}",
            name=name,
            target=player(k),
            lost=words.amount(race.race.take, comma=False),
        )
    if verb.name == "pass":
        return Msg("{name} passes", name=name)
    if verb.name == "reroll":
        return Msg("{name} rolls the die again", name=name)
    if verb.words:  # the file's own words: whom the verb chose
        if k is None:
            return Msg("{name} plays {verb}: {what}", name=name, verb=said, what=verb.words)
        return Msg(
            "{name} plays {verb} on {target}: {what}",
            name=name,
            verb=said,
            target=player(k),
            what=verb.words,
        )
    what = words.effects(verb.effects, named_seats(state, me, k, player), g.program.setup.wolves)
    return Msg("{name} plays {verb}: {what}", name=name, verb=said, what=what)


def labels(state: ShaveState) -> dict[str, str]:
    """Each legal decision's button: what it does under the rules in play (the log's words,
    :func:`decision_words`), by the decision's name (the view's ``legal_actions``)."""
    names = state.game.names
    return {names[a]: capitalized(decision_words(state, a)) for a in state.legal_actions()}


def end_notes(state: ShaveState) -> list[Note]:
    """The log's words when the game ends: the final shear (or that there is none), and what
    it paid back to the middle."""
    end = state.game.program.end
    if state.truncated:
        return []
    if not end.final_shear:
        return [(None, Msg("the game ends: no final shear, only the safe piles count"))]
    if state.final_paid:
        text = Msg(
            "the game ends: the final shear moves the wool of every sheep onto its safe pile, "
            "paying {n} back to the middle",
            n=words.pieces(state.final_paid),
        )
    else:
        text = Msg(
            "the game ends: the final shear moves the wool of every sheep onto its safe pile"
        )
    return [(None, text)]


class ShaveTable(GenericTable):
    renderer = "shave-a-sheep"
    messages: tuple[str, ...] = ("roll", "grab")  # its chance steps: the server answers them

    def __init__(self, score_label: str = "score") -> None:
        super().__init__(score_label)
        # the spectator's view of the position last viewed (the state, its length, the view):
        # a seat's view is it with the seat's own fields (see ``view``)
        self._last: tuple[ShaveState, int, View] | None = None
        # each seat's roll (``chance``: asked a few times a move; a ChanceStep never changes)
        self._rolls: dict[Seat, ChanceStep] = {}

    def view(self, state: State, seat: Seat | None, show_scores: bool) -> View:
        """``observe(seat)``, built once per position: Shave a Sheep's views differ only in
        ``seat`` and ``legal_actions`` (the seat to move's, every spectator's; [] for the
        others), so a broadcast's views are the spectator's with those two fields set."""
        assert isinstance(state, ShaveState)
        last = self._last
        n = len(state.history)
        if last is None or last[0] is not state or last[1] != n:
            shared = state.observe(None)
            if shared["legal_actions"]:  # each decision's button, in the rules' words
                shared["labels"] = labels(state)
            last = self._last = (state, n, shared)
        view = dict(last[2])
        if seat is not None:
            view["seat"] = seat
            if seat != state.current_player():
                view["legal_actions"] = []
                view.pop("labels", None)
        return view

    def chance(self, state: State, config: Mapping[str, Any]) -> ChanceStep:
        assert isinstance(state, ShaveState)
        if state.phase == GRAB:  # who grabs first (Shave a Sheep ruling 8: else the weights)
            seats = tuple(s for s, w in enumerate(state.game.grab_probs) if w > 0)
            return ChanceStep(
                "race",
                seats,
                won=Msg("grabbed the wolf first!"),
                unclaimed=Msg("grabbed the wolf (nobody howled in time)"),
            )
        if state.phase == ROLL and not config.get("auto_roll", False):
            step = self._rolls.get(state.turn)
            if step is None:
                step = self._rolls[state.turn] = ChanceStep("roll", (state.turn,))
            return step
        return NOW

    def narrate(
        self, probe: State, who: Seat, action: int, show_scores: bool, after: State | None = None
    ) -> list[Note]:
        """A decision by its name; a roll as its face, for the roller (a grab is told by
        whoever accepts it: grabbed first, or picked by the weights)."""
        assert isinstance(probe, ShaveState)
        notes: list[Note] = []
        fired: list[str] = []
        if who != CHANCE:  # a decision's words, kept per game (told_words)
            notes.append((who, told_words(probe, action)))
            # what the rules did after it (the auto-shear, a house rule's trigger): the
            # engine's report, in the rules' words
            seats = [player(k) for k in range(probe.game.num_players)]
            fired = words.told(probe, [action], seats)
        elif probe.phase == ROLL:  # a roll (action_to_string: "roll ..."), not a grab
            said = _said(probe.game)
            key = ("rolled", action, probe.turn)  # the roller named where the face says "you"
            text = said.get(key)
            if text is None:
                face = probe.game.program.faces[action]
                text = said[key] = Msg(
                    "rolled {face}",
                    face=words.face(face, probe.game.program, player(probe.turn)),
                )
            notes.append((probe.turn, text))
        over = probe.is_terminal()
        if after is None:
            probe.apply_unchecked(action)
            after = probe
        assert isinstance(after, ShaveState)
        notes.extend((who, line) for line in fired)
        if not over and after.is_terminal():
            notes.extend(end_notes(after))
        return notes

    def chance_actor(self, state: State, action: int) -> Seat | None:
        """A roll: the roller; a grab (the outcome is the seat): the grabber."""
        assert isinstance(state, ShaveState)
        return state.turn if state.action_to_string(action).startswith("roll") else action

    def shown(self, view: View) -> dict[str, Any]:
        return {"renderer": self.renderer}

    def gathered(self, view: View, seat: Seat) -> str:
        """The wool in ``seat``'s safe pile (and on its sheep, if the game ended without a
        final shear)."""
        pile = Msg("{wool} in the safe pile", wool=words.pieces(view["piles"][seat]))
        left = view["sheep"][seat]
        if not left:
            return pile
        return Msg("{pile}, {wool} left on the sheep", pile=pile, wool=words.pieces(left))
