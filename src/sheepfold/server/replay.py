"""A finished game's replay: the public view after every decision (never the record itself),
and what each decision did in the words of the rules in play: the table log's own words (the
driver's ``narrate``), never the engine's names of the moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sheepfold.core.deadline import check
from sheepfold.core.drivers import player
from sheepfold.core.protocol import CHANCE
from sheepfold.core.words import Msg

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


def replay_frames(table: Table) -> list[dict[str, Any]]:
    """The public view after every decision, from the start. A chance outcome is a frame of
    its own when the game's driver names a seat that made it (a roll, a grab); else (a draw)
    it shows in the frame before it.

    Each frame after the first is a seat's (``seat``, ``who``: its player) and says what
    happened (``said``: the log's lines for it, in the rules' words; a seat's player marked
    ``{player K}``, as in the log). The game is over, every pile face up: the lines say the
    points taken whatever the table hid while it was played."""
    driver = table.driver
    probe = table.manager.new_state(table.game, table.seed)
    who_of = table.seating.who

    def shown(frame: dict[str, Any]) -> dict[str, Any]:
        view = probe.observe(None)
        return {**frame, "view": view, "shown": driver.shown(view)}

    frames: list[dict[str, Any]] = []
    frame: dict[str, Any] = {"event": "start", "said": []}
    for who, a in table.state.history:
        check()  # rebuilt in a worker (Table.replay_frames_async): stopped at its deadline
        actor = who if who != CHANCE else driver.chance_actor(probe, a)
        race = actor is not None and who == CHANCE
        race = race and driver.chance(probe, table.config).kind == "race"
        if actor is not None:  # a frame of its own
            frames.append(shown(frame))
            frame = {"event": "move", "seat": actor, "who": who_of(actor), "said": []}
        said = [text for _, text in driver.narrate(probe, who, a, True)]
        if race and not said and actor is not None:  # a race's winner: the log says it (grabbed
            # first, or nobody in time), which is not kept
            said = [Msg("{name} grabbed the wolf", name=player(actor))]  # as the log
        frame["said"].extend(said)
    frames.append(shown(frame))
    return frames
