"""What the position needs next without a person: a bot's decision, a bot's roll, the wolf race.

Bots think in a worker thread; their answer is re-checked against the state when it comes
back (the position may have moved on). A broken bot plays a random legal move.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import TYPE_CHECKING, Any

from sheepfold.bots import warmup
from sheepfold.core.protocol import CHANCE, SheepfoldError, State

if TYPE_CHECKING:
    from sheepfold.server.tables import Table


class BotSeats:
    """The bots of one table, its pending rolls and its Howling Wolf race."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.race_key: int | None = None  # the position a wolf race is open for
        self.race_deadline = 0.0
        self.task_key: int | None = None  # the position a bot/roll task was scheduled for
        self.rng = random.Random()

    def schedule(self) -> None:
        """Start what the position needs next: a bot's decision, a bot's roll, the wolf race."""
        t = self.table
        if t.finished() or t.broken:
            return
        p = t.state.current_player()
        if p == CHANCE:
            self._schedule_chance()
            return
        s = t.seats[p]
        if s.kind == "bot" and self.task_key != t.applied:
            self.task_key = t.applied
            t.manager.spawn(self._bot_move(t.applied, p))

    def _schedule_chance(self) -> None:
        from sheepfold.games.shave_a_sheep.game import GRAB, ROLL

        t = self.table
        st = t.state
        key = t.applied
        settings = t.manager.settings
        loop = asyncio.get_event_loop()
        if st.phase == GRAB:  # type: ignore[attr-defined]
            if self.race_key != key:
                self.race_key = key
                self.race_deadline = time.monotonic() + settings.race_timeout
                loop.call_later(settings.race_timeout, self._race_timeout, key)
                for s in t.seats:
                    if s.kind == "bot" and t.game.grab_probs[s.seat] > 0:  # type: ignore[attr-defined]
                        delay = self.rng.uniform(settings.react_min, settings.react_max)
                        loop.call_later(delay, self._bot_grab, key, s.seat)
                t.broadcast()
        elif st.phase == ROLL and t.seats[st.turn].kind == "bot":  # type: ignore[attr-defined]
            if self.task_key != key:
                self.task_key = key
                loop.call_later(settings.bot_delay, self._bot_roll, key)

    def _race_timeout(self, key: int) -> None:
        t = self.table
        if self.race_key == key and t.applied == key:
            trial = t.state.clone()
            seat = trial.sample_chance()  # reaction weights decide (Shave a Sheep ruling 8)
            trial.apply(seat)
            t.log.note(seat, "grabbed the wolf (nobody howled in time)")
            self._safe_accept(trial)

    def _bot_grab(self, key: int, seat: int) -> None:
        t = self.table
        if self.race_key == key and t.applied == key and t.seats[seat].kind == "bot":
            trial = t.state.clone()
            trial.apply(seat)
            t.log.note(seat, "grabbed the wolf first!")
            self._safe_accept(trial)

    def _bot_roll(self, key: int) -> None:
        t = self.table
        if t.applied == key and t.seats[t.state.turn].kind == "bot":  # type: ignore[attr-defined]
            trial = t.state.clone()
            trial.apply(trial.sample_chance())
            self._safe_accept(trial)

    def _bot(self, seat: int) -> Any:
        from sheepfold.bots import make_bot

        t = self.table
        s = t.seats[seat]
        if s.bot_obj is None:
            s.bot_obj = make_bot(
                s.bot or "random", t.game, seat, seed=(t.seed * 31 + seat) & 0x7FFFFFFF
            )
        return s.bot_obj

    async def _bot_move(self, key: int, seat: int) -> None:
        t = self.table
        await asyncio.sleep(t.manager.settings.bot_delay)
        if t.applied != key or t.seats[seat].kind != "bot":
            return
        view = t.state.observe(seat)
        if not warmup.ready(warmup.kernels([t.seats[seat].bot or "random"])):
            # never charged to its move: it compiles first, then thinks for its whole budget
            t.log.note(seat, "is warming up (compiling its playouts): it plays in a moment")
            t.broadcast()
        # made and asked in a worker thread: a strong bot may think (or solve) for a while
        try:
            action = await asyncio.to_thread(lambda: self._bot(seat).act(view))
        except Exception as e:  # a broken bot must not stall the table: it plays a random move
            action = None
            t.log.note(seat, f"(the bot had trouble: {type(e).__name__}; it plays a random move)")
        if t.applied != key or t.seats[seat].kind != "bot":
            return
        trial = t.state.clone()
        if action is None or trial.illegal_reason(action) is not None:
            action = self.rng.choice(trial.legal_actions())
        trial.apply(action)
        self._safe_accept(trial)

    def _safe_accept(self, trial: State) -> None:
        try:
            self.table.accept(trial)
        except SheepfoldError as e:  # retried by the next schedule()
            self.task_key = None
            self.table.log.note(None, f"server trouble: {e}")
