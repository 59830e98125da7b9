"""What the position needs next without a person: a bot's decision, a bot's roll, the wolf race.

Bots think in the server's bounded worker pool (:mod:`sheepfold.server.bot_pool`), one
decision per table at a time, each with a deadline that stops it; their answer is re-checked against the state when it comes back (the
position may have moved on). A bot that fails, or misses its deadline, plays its fallback move
(a random legal move), and the table's log and the server's log say so.

A seat's decisions are a bot's when the seat is a bot's, or while a bot stands in for its
absent person (``Seat.bot_spec``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from typing import TYPE_CHECKING, Any

from sheepfold.bots import warmup
from sheepfold.core.drivers import ChanceStep
from sheepfold.core.protocol import CHANCE, Action, SheepfoldError, State, View, seeded_random
from sheepfold.core.words import Msg, chained
from sheepfold.server.bot_pool import TooSlow

if TYPE_CHECKING:
    from sheepfold.server.tables import Table

log = logging.getLogger("sheepfold.server")

#: the stream of the table's seed a race's draw takes its number from (plus the position), far
#: from the game's own streams (one per chance event, 1,000,000 up: Dolly Crush's shuffles)
RACE_DRAWS = 1 << 38


class BotSeats:
    """The bots of one table, its pending rolls and its Howling Wolf race."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.race_key: int | None = None  # the position a wolf race is open for
        self.race_deadline = 0.0  # when nobody grabbed in time (the manager's clock)
        # the open race's grabs: seat -> when it arrived, and who sent it (Intents.sender; None:
        # a bot's): the winner's is the move's sender, as if it had won alone
        self.grabs: dict[int, tuple[float, Any]] = {}
        self.task_key: int | None = None  # the position a bot/roll task was scheduled for
        self.rng = random.Random()

    def schedule(self) -> None:
        """Start what the position needs next: a bot's decision, a bot's roll, the wolf race."""
        t = self.table
        if t.finished():
            return
        p = t.state.current_player()
        if p == CHANCE:
            self._schedule_chance()
            return
        s = t.seats[p]
        if s.bot_spec is not None and self.task_key != t.applied:
            self.task_key = t.applied
            t.manager.spawn(self._bot_move(t.applied, p))

    def _schedule_chance(self) -> None:
        """A chance step that waits for seats (the game's driver says): a race they grab in
        (bots react after a moment; after its time the chance weights decide), or a roll (a
        bot's after its delay)."""
        t = self.table
        key = t.applied
        settings = t.manager.settings
        loop = asyncio.get_event_loop()
        step = t.driver.chance(t.state, t.config)
        if step.kind == "race":
            if self.race_key != key:
                self.race_key, self.grabs = key, {}
                self.race_deadline = t.manager.clock() + settings.race_timeout
                loop.call_later(settings.race_timeout, self._race_timeout, key, step)
                for s in t.seats:
                    if s.bot_spec is not None and s.seat in step.seats:
                        delay = self.rng.uniform(settings.react_min, settings.react_max)
                        loop.call_later(delay, self._bot_grab, key, s.seat, step)
                t.broadcast()
        elif step.kind == "roll" and self._roller_is_a_bot(step):
            if self.task_key != key:
                self.task_key = key
                loop.call_later(settings.bot_delay, self._bot_roll, key)

    def _roller_is_a_bot(self, step: ChanceStep) -> bool:
        return step.kind == "roll" and all(
            self.table.seats[s].bot_spec is not None for s in step.seats
        )

    def _race_timeout(self, key: int, step: ChanceStep) -> None:
        t = self.table
        if self.race_key == key and t.applied == key and not self.grabs:
            trial = t.state.clone()
            seat = trial.sample_chance()  # the chance weights decide (Shave a Sheep ruling 8)
            trial.apply(seat)
            t.log.note(seat, step.unclaimed)
            self._safe_accept(trial)

    def _bot_grab(self, key: int, seat: int, step: ChanceStep) -> None:
        t = self.table
        self.settle_due()
        if self.race_key == key and t.applied == key and t.seats[seat].bot_spec is not None:
            self.grab(seat, step)

    # -- the race: grabs within a reaction time of the first are a draw -----------------------
    # (Shave a Sheep ruling 8's note)
    def grab(self, seat: int, step: ChanceStep) -> None:
        """``seat`` grabs in the open race ``step``: the race is decided once every racing seat
        grabbed, or ``Settings.race_window`` after the first grab (at once without a window),
        between the grabs that arrived by then (:meth:`settle`)."""
        t = self.table
        key, window = t.applied, t.manager.settings.race_window
        if self.race_key != key or seat in self.grabs:
            return
        self.grabs[seat] = (t.manager.clock(), t.intents.sender)
        if window <= 0 or set(step.seats) <= set(self.grabs):
            self.settle(key)
        elif len(self.grabs) == 1:
            asyncio.get_event_loop().call_later(window, self.settle, key)

    def settle_due(self) -> None:
        """Decide the open race now if its window has closed (before its timer came)."""
        if self.race_key is not None and self.window_over():
            self.settle(self.race_key)

    def window_over(self) -> bool:
        """Whether the open race's window has closed (the first grab is a reaction time old)."""
        t = self.table
        return bool(self.grabs) and t.manager.clock() >= self._window_end()

    def _window_end(self) -> float:
        first = min(when for when, _ in self.grabs.values())
        return first + self.table.manager.settings.race_window

    def settle(self, key: int) -> None:
        """Decide the race open at ``key`` between its grabs: one grab wins; grabs that came
        within a reaction time of each other are a draw, drawn between by the chance weights
        of their seats from the table's seeded stream (not the clock, not the arrival order).
        The winner is the chance outcome the record keeps, so a replay follows it."""
        t = self.table
        if self.race_key != key or t.applied != key or not self.grabs:
            return
        step = t.driver.chance(t.state, t.config)
        if not self.window_over() and not set(step.seats) <= set(self.grabs):
            # called early (a timer of a race opened before at this position): wait the rest
            asyncio.get_event_loop().call_later(
                self._window_end() - t.manager.clock(), self.settle, key
            )
            return
        tied = sorted(self.grabs)
        weights = dict(t.state.chance_outcomes())
        seat = seeded_random(t.seed, RACE_DRAWS + key).choices(tied, [weights[s] for s in tied])[0]
        trial = t.state.clone()
        trial.apply(seat)
        if len(tied) == 1:
            t.log.note(seat, step.won)
        else:
            others = [t.seating.who(s) for s in tied if s != seat]
            t.log.note(
                seat,
                Msg(
                    "grabbed it at the same moment as {others} and won the draw",
                    others=chained(others, lambda a, b: Msg("{a} and {b}", a=a, b=b)),
                ),
            )
        sender, t.intents.sender = t.intents.sender, self.grabs[seat][1]
        try:
            self._safe_accept(trial)
        finally:
            t.intents.sender = sender

    def _bot_roll(self, key: int) -> None:
        t = self.table
        if t.applied == key and self._roller_is_a_bot(t.driver.chance(t.state, t.config)):
            trial = t.state.clone()
            trial.apply(trial.sample_chance())
            self._safe_accept(trial)

    def _bot(self, seat: int) -> Any:
        from sheepfold.bots import make_bot
        from sheepfold.bots.perfect import PerfectShave

        t = self.table
        s = t.seats[seat]
        if s.bot_obj is None:
            spec = s.bot_spec or "random"
            # its own random bits: nothing a bot's play shows says anything about the table's seed
            s.bot_obj = make_bot(spec, t.game, seat, seed=secrets.randbits(31))
            if isinstance(s.bot_obj, PerfectShave):
                s.bot_obj.solve = False  # the server's background job solves (solutions.py)
        return s.bot_obj

    def _still(self, key: int, seat: int, bot: Any = None) -> bool:
        """The position is still ``key`` and the seat's decisions are still this bot's."""
        s = self.table.seats[seat]
        return self.table.applied == key and s.bot_spec is not None and s.bot_obj is bot

    async def _bot_move(self, key: int, seat: int) -> None:
        t = self.table
        await asyncio.sleep(t.manager.settings.bot_delay)
        if not self._still(key, seat, t.seats[seat].bot_obj):
            return
        spec = t.seats[seat].bot_spec or "random"
        waits = warmup.not_ready([spec], t.game)
        if waits:
            # never charged to its move: it compiles first (no deadline), then thinks
            what = next(iter(waits.values()))
            t.log.note(
                seat, Msg("is warming up (compiling {what}): it plays in a moment", what=what)
            )
            t.broadcast()
            await asyncio.to_thread(warmup.warm_up, [spec], game=t.game)
            if not self._still(key, seat, t.seats[seat].bot_obj):
                return
        action, bot = None, None
        try:
            bot = self._bot(seat)
        except Exception as e:
            self._fallback(seat, spec, f"could not be made: {e}")
        if bot is not None:
            action = await self._decide(seat, bot, t.state.observe(seat))
        if not self._still(key, seat, bot):
            return
        trial = t.state.clone()
        if action is None or trial.illegal_reason(action) is not None:
            action = self.rng.choice(trial.legal_actions())
        trial.apply(action)
        self._safe_accept(trial)

    async def _decide(self, seat: int, bot: Any, view: View) -> Action | None:
        """The bot's decision from the pool, or None: it plays its fallback move (it failed,
        or missed its deadline), said in the table's log and the server's."""
        try:
            # one decision of this table in the pool at a time: a late one keeps its seats on
            # fallback moves until it has stopped (the pool's fair share between tables)
            return await self.table.manager.bot_pool.decide(self.table.id, lambda: bot.act(view))
        except TooSlow as e:
            self._fallback(seat, bot, f"was too slow ({e})", "took too long")
        except Exception as e:  # a broken bot must not stall the table
            self._fallback(seat, bot, f"failed: {e!r}", f"had trouble: {type(e).__name__}")
        return None

    def _fallback(self, seat: int, bot: Any, why: str, said: str | None = None) -> None:
        """Log why the bot of ``seat`` plays its fallback move (a random legal move)."""
        t = self.table
        log.warning("table %s seat %d: the bot %s %s: it plays a random move", t.id, seat, bot, why)
        t.log.note(seat, f"(the bot {said or 'had trouble'}; it plays a random move)")

    def _safe_accept(self, trial: State) -> None:
        try:
            self.table.accept(trial)
        except SheepfoldError as e:  # retried by the next schedule()
            self.task_key = None
            self.table.log.note(None, f"server trouble: {e}")
