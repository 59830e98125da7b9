"""Client messages: parsed, checked and turned into engine actions on a clone of the state.

Errors go to the sending client only and change nothing. An intent the engine accepts in
full is handed to ``Table.accept`` (which commits it before anyone is told).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import CHANCE, IllegalAction, SheepfoldError, State
from sheepfold.server.broadcast import Conn

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

MAX_MESSAGE = 16_384  # bytes of one client message
SEATED = ("turn", "preview", "act", "roll", "grab", "leave")  # messages that need a seat


def parse(conn: Conn, text: str) -> dict[str, Any] | None:
    """A client message as a dict with a string 'type', or None (the client got an error)."""
    if len(text) > MAX_MESSAGE:
        conn.error(f"message too large ({len(text)} bytes; at most {MAX_MESSAGE})")
        return None
    try:
        msg = json.loads(text)
    except ValueError:
        conn.error("not JSON: a message is a JSON object with a 'type'")
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.error("a message is a JSON object with a 'type'")
        return None
    return msg


class Intents:
    """What the clients of one table ask for."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sender: tuple[Conn, Any] | None = None  # who sent the intent being handled

    def handle(self, conn: Conn, text: str) -> None:
        """One message from a client. Errors go to that client only; nothing changes."""
        msg = parse(conn, text)
        if msg is None:
            return
        t = self.table
        kind = msg["type"]
        ref = msg.get("ref") if isinstance(msg.get("ref"), (int, str)) else None
        self.sender = (conn, ref)
        try:
            if kind == "hello":
                t.seating.hello(conn, msg.get("token"))
            elif kind == "ping":
                conn.push(json.dumps({"type": "pong", "ref": ref}))
            elif kind == "state":
                t.send_state(conn)
            elif kind in SEATED:
                self._seated(conn, kind, msg, ref)
            else:
                raise IllegalAction(f"unknown message type {kind!r}")
        except SheepfoldError as e:
            conn.error(str(e), ref=ref)
        finally:
            self.sender = None

    def _seated(self, conn: Conn, kind: str, msg: dict[str, Any], ref: Any) -> None:
        t = self.table
        seat = conn.seat
        if seat is None:
            raise IllegalAction("you are watching: take a seat to play")
        if "token" in msg and t.seat_of_token(msg["token"]) != seat:
            raise IllegalAction("this token does not hold your seat")
        if kind == "leave":
            t.seating.leave(seat)
        elif kind == "turn":
            t.accept(self.dolly_trial(seat, msg, whole=True))
        elif kind == "preview":
            conn.push(json.dumps({"type": "preview", "ref": ref, **self.preview(seat, msg)}))
        elif kind == "act":
            self.act(seat, msg)
        elif kind == "roll":
            self.roll(seat)
        else:
            self.grab(seat)

    def check_turn(self, seat: int) -> None:
        t = self.table
        if t.finished():
            raise IllegalAction("the game is over")
        p = t.state.current_player()
        if p != seat:
            who = "the dice" if p == CHANCE else t.seating.who(p)
            raise IllegalAction(f"it is not your turn (waiting for {who})")

    # -- Dolly Crush: a whole turn, or its preview ------------------------------------------
    def dolly_trial(self, seat: int, msg: dict[str, Any], whole: bool) -> State:
        """Dog card + swaps played on a clone, each checked by the engine.

        ``whole``: a turn, exactly the dog card's swaps (under "up-to" swaps: at most that many,
        then the turn stops). Otherwise a preview: at most that many, and while a turn started
        decision by decision is in play, the swaps still left. Cells are the game's own (any
        flock size); the work is bounded by the dog card's swap count (at most 20).
        """
        from sheepfold.games.dolly_crush.game import DOG, SWAP

        t = self.table
        if not t.dolly:
            raise IllegalAction(f"'{msg['type']}' is a Dolly Crush message; send 'act' or 'roll'")
        self.check_turn(seat)
        trial: Any = t.state.clone()
        dog, swaps = msg.get("dog"), msg.get("swaps")
        live = not whole and trial.phase == SWAP and dog in (None, trial.dog)
        if live:
            dog = trial.dog
        elif trial.phase != DOG:
            raise IllegalAction(
                "a dog card is already in play: send its swaps one by one with 'act'"
            )
        game: Any = t.game
        dogs = game.num_dogs
        if not isinstance(dog, int) or isinstance(dog, bool):
            raise IllegalAction(f"'dog' must be the index of one of your dog cards (0..{dogs - 1})")
        if not isinstance(swaps, list) or len(swaps) > 40:
            raise IllegalAction('\'swaps\' must be a list of cell pairs like ["a1", "a2"]')
        if not live and not 0 <= dog < dogs:
            raise IllegalAction(f"there is no dog card {dog}: your dog cards are 0..{dogs - 1}")
        up_to = game.stop is not None
        if live:
            need = trial.swaps_left
        else:
            need = game.dog_swaps[seat][dog]
            trial.apply(dog)
        if len(swaps) > need or (whole and not up_to and len(swaps) != need):
            if up_to:
                raise IllegalAction(
                    f"dog card {dog} makes at most {need} swap(s), not {len(swaps)} (up-to swaps)"
                )
            raise IllegalAction(
                f"dog card {dog} makes exactly {need} swap(s), not {len(swaps)} (ruling 7)"
            )
        self._swaps(trial, swaps)
        if whole and up_to and trial.phase == SWAP and trial.turn == seat:
            trial.apply(game.stop)  # fewer swaps than the card shows: the turn stops here
        return trial  # type: ignore[no-any-return]

    @staticmethod
    def _swaps(trial: Any, swaps: list[Any]) -> None:
        game = trial.game
        for pair in swaps:
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(x, str) and len(x) <= 8 for x in pair)
            ):
                raise IllegalAction('a swap is a pair of cell names like ["b2", "b3"]')
            try:
                action = game.swap_action(pair[0], pair[1])
            except ValueError as e:
                raise IllegalAction(str(e)) from None
            trial.apply(action)

    def preview(self, seat: int, msg: dict[str, Any]) -> dict[str, Any]:
        """The cards (cells) and points planned swaps would take, as the engine finds them.

        Played on a clone like a turn (the same checks and errors); nothing is stored or sent
        to anyone else. Before the last swap: the lines the flock shows now; after it: what
        the engine took when the turn ended.
        """
        from sheepfold.games.dolly_crush.game import SWAP

        trial: Any = self.dolly_trial(seat, msg, whole=False)  # the table's state is untouched
        board = trial.game.board
        points_of = trial.game.points
        before = len(self.table.state.collected[seat])  # type: ignore[attr-defined]
        if trial.phase == SWAP:
            cells = board.find_lines(trial.flock)
            points = sum(points_of[trial.flock[c]] for c in cells)
            left = trial.swaps_left
        else:
            cells = list(trial.last_taken)
            points = sum(points_of[k] for k in trial.collected[seat][before:])
            left = 0
        return {"cells": [board.cell_name(c) for c in cells], "points": points, "swaps_left": left}

    # -- one decision, the die, the wolf ----------------------------------------------------
    def act(self, seat: int, msg: dict[str, Any]) -> None:
        """One named decision (``grow``, ``wolf seat 1``, ``dog 2``, ``swap b2-b3``...)."""
        self.check_turn(seat)
        action = msg.get("action")
        trial = self.table.state.clone()
        if isinstance(action, str) and len(action) <= 40:
            a = trial.string_to_action(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            a = action
        else:
            raise IllegalAction("'action' must be an action name like 'grow' or 'swap b2-b3'")
        trial.apply(a)
        self.table.accept(trial)

    def roll(self, seat: int) -> None:
        from sheepfold.games.shave_a_sheep.game import ROLL

        t = self.table
        st: Any = t.state
        if t.dolly:
            raise IllegalAction("there is no die in Dolly Crush")
        if t.finished():
            raise IllegalAction("the game is over")
        if st.phase != ROLL:
            raise IllegalAction("the die has been rolled already")
        if st.turn != seat:
            raise IllegalAction(f"it is {t.seating.who(st.turn)}'s turn to roll")
        trial = st.clone()
        trial.apply(trial.sample_chance())  # the state's own seeded die
        t.accept(trial)

    def grab(self, seat: int) -> None:
        from sheepfold.games.shave_a_sheep.game import GRAB

        t = self.table
        st: Any = t.state
        if t.dolly or st.phase != GRAB or t.bots.race_key is None:
            raise IllegalAction(
                "too late: the wolf has been grabbed already"
                if not t.dolly
                else "there is no wolf in Dolly Crush"
            )
        trial = st.clone()
        trial.apply(seat)  # the chance outcome "seat grabs": the first grab that arrives
        t.log.note(seat, "grabbed the wolf first!")
        t.accept(trial)
