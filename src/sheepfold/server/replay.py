"""A finished game's replay: the public view after every decision (never the record itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import CHANCE

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


def replay_frames(table: Table) -> list[dict[str, Any]]:
    """The public view after every decision, from the start. A chance outcome is a frame of
    its own when the game's driver names a seat that made it (a roll, a grab); else (a draw)
    it shows in the frame before it."""
    driver = table.driver
    probe = table.manager.new_state(table.game, table.seed)
    who_of = table.seating.who

    def shown(frame: dict[str, Any]) -> dict[str, Any]:
        view = probe.observe(None)
        return {**frame, "view": view, "shown": driver.shown(view)}

    frames: list[dict[str, Any]] = []
    frame: dict[str, Any] = {"event": "start"}
    for who, a in table.state.history:
        if who == CHANCE:
            actor = driver.chance_actor(probe, a)
            if actor is None:
                probe.apply_unchecked(a)
                continue
            who = actor
        frames.append(shown(frame))
        text = probe.action_to_string(a)
        probe.apply_unchecked(a)
        frame = {"event": f"{who_of(who)}: {text}", "who": who_of(who), "text": text}
    frames.append(shown(frame))
    return frames
