"""A finished game's replay: the public view after every decision (never the record itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sheepfold.core.protocol import CHANCE

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


def replay_frames(table: Table) -> list[dict[str, Any]]:
    """The public view after every decision, from the start."""
    probe = table.manager.new_state(table.game, table.seed)
    hist = list(table.state.history)
    who_of = table.seating.who
    i = 0

    def eat_chance() -> None:  # Dolly Crush's draws are not frames of their own
        nonlocal i
        while table.dolly and i < len(hist) and hist[i][0] == CHANCE:
            probe.apply_unchecked(hist[i][1])
            i += 1

    eat_chance()
    frames = [{"event": "start", "view": probe.observe(None)}]
    while i < len(hist):
        who, a = hist[i]
        text = probe.action_to_string(a)
        if who == CHANCE:  # a roll (the roller) or a grab (the grabber)
            who = probe.turn if text.startswith("roll") else a  # type: ignore[attr-defined]
        probe.apply_unchecked(a)
        i += 1
        eat_chance()
        frames.append(
            {
                "event": f"{who_of(who)}: {text}",
                "who": who_of(who),
                "text": text,
                "view": probe.observe(None),
            }
        )
    return frames
