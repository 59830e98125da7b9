"""Dolly Crush bots as difficulty levels: ``easy``, ``medium``, ``hard``, ``expert``.

Every level sees only ``observe(seat)``. A turn is several decisions (``dog D`` then exactly as
many swaps as the dog card shows); a level plans the whole turn when it chooses its dog card and
then plays the planned swaps one by one. If the position is not the one it planned for (a bot
created mid-turn, an undo in a front end), it plans again from what the view shows.

* ``easy``: a random dog card and random swaps, except that on a turn in four
  (``easy:greedy=0.25``) it plays like ``medium``.
* ``medium`` (also named ``greedy``: one bot, two names): greedy. The exhaustive swap search (:data:`search.best_swaps`) for every swap count
  it holds; the most points now; ties: fewer swaps, then the first dog card and the
  lexicographically first swap sequence.
* ``hard``: lookahead, counting cards. Every distinct flock it can leave is valued as points now
  minus the next player's best reply: exact when it takes nothing (the flock passes unchanged),
  else averaged over refills drawn from the cards it has not seen (``view["unseen"]``: the deck's
  composition is known, its order is not), with the clean-up of Dolly Crush ruling 6; the
  difference becomes a chance of winning from the scores and the turns left. The best are valued
  again over two turns (the next player's greedy reply, then its own best), and its 4 best
  whole-turn plans (two by that value, two by points now) are played out to the end of the game
  on 12 shared sampled decks (``game.determinize(view, seed)``), every player then greedy: the
  best average win share is played.
* ``expert``: Monte Carlo search over every distinct end of its turn (every one-swap flock;
  hard's best plans for a card of more swaps), each played out to the end of the game many times
  with compiled playouts (:mod:`sheepfold.bots.dolly_mc`: refills drawn from the unseen cards,
  then every player takes the most points, or, unable to take anything with one swap, leaves the
  next player the least); the same random numbers for every candidate, the weaker half dropped
  after each round (successive halving); 30,000 playouts or 0.8 s, whichever ends first
  (``expert:time=0``: the 30,000 playouts alone).

Bot options go after a colon: ``expert:iterations=2000,time=0.5``, ``hard:iterations=0``.
``time=0`` means no clock: the search stops on its playout budget alone, so the same seed gives
the same decision however loaded the machine is (what tests and reproducible experiments use).

Compilation is never charged to a decision: a level's clock starts only once its compiled code
and its tables are ready. Front ends warm them before the first game
(:mod:`sheepfold.bots.warmup`); if they are not ready when the expert must decide (a library
caller), it warms them first, then thinks for its whole budget (``last_playouts``: the playouts
of its last decision).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sheepfold.bots import Bot, bot_kwargs, dolly_grid, register_bot
from sheepfold.bots.warmup import warm_modules
from sheepfold.core.deadline import check
from sheepfold.core.protocol import TERMINAL, Action, Game, Seat, SheepfoldError, View
from sheepfold.games.dolly_crush import search
from sheepfold.games.dolly_crush.cards import EMPTY, RULEBOOK_BOARD, Board
from sheepfold.games.dolly_crush.fastsearch import PackedFlocks, flock_ops, plain_rules
from sheepfold.games.dolly_crush.game import DRAW, OVER, SWAP, DollyGame, DollyState
from sheepfold.games.dolly_crush.kernel.layout import point_tables, tables
from sheepfold.games.dolly_crush.search import apply_swaps

Plan = tuple[int, tuple[int, ...]]  # (dog card, swap indexes)


def time_limit(seconds: Any) -> float:
    """The ``time`` option of a searching level: seconds per decision, at most; ``0`` is no
    clock (``math.inf``: the playout budget alone ends the search)."""
    limit = float(seconds)
    if not limit >= 0:  # negative or NaN
        raise SheepfoldError(f"time must be 0 (no clock) or a number of seconds, not {seconds}")
    return limit if limit > 0 else math.inf


def view_flock(view: View, board: Board = RULEBOOK_BOARD) -> list[int]:
    cells = board.from_rows(view["flock"])
    return [EMPTY if c is None else board.parse_card(c) for c in cells]


def pick_dog(dogs: Sequence[tuple[int, int]], value: Any) -> tuple[int, int]:
    """The (dog, swaps) of ``dogs`` whose swap count has the best ``value(swaps)`` (called once
    per distinct count); ties: fewer swaps, then the lower dog card."""
    values: dict[int, float] = {}
    best: tuple[float, int, int] | None = None
    for dog, n in dogs:
        if n not in values:
            values[n] = value(n)
        key = (-values[n], n, dog)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[2], best[1]


def choose_dog(
    flock: list[int],
    dogs_left: list[int],
    swaps_of: Sequence[int],
    points: Sequence[int],
    board: Board = RULEBOOK_BOARD,
    up_to: bool = False,
) -> int:
    """The dog card greedy (``medium``) plays: most points; ties: fewest swaps, lowest index."""
    dogs = [(d, swaps_of[d]) for d in dogs_left]
    return pick_dog(dogs, lambda n: search.best_swaps(flock, n, points, board, up_to)[0])[0]


class DollyBot(Bot):
    """Plans a whole turn at the dog decision, then plays its swaps one by one."""

    name = "dolly"
    #: under house rules their searches are the grid kernel's (plain rules: numpy's)
    kernels: tuple[str, ...] = (dolly_grid.__name__,)

    def __init__(self, game: Game, seat: Seat, seed: int | None = None) -> None:
        if not isinstance(game, DollyGame):
            raise SheepfoldError(f"the {self.name} bot plays Dolly Crush, not {game.name}")
        super().__init__(game, seat, seed)
        self.points: tuple[int, ...] = tuple(game.points)
        self.max_cleanup_rounds: int = game.rules.max_cleanup_rounds
        self.board: Board = game.board
        self.swap0 = game.swap0
        self.stop = game.stop  # up-to swaps: a plan may stop early (house rule)
        self.up_to = game.stop is not None
        self._expect: tuple[tuple[int, ...], int] | None = None  # (flock, swaps_left) planned
        self._rest: list[int] = []

    # -- the turn machinery ---------------------------------------------------------------
    def act(self, view: View) -> Action:
        self.prepare()
        phase = view["phase"]
        flock = view_flock(view, self.board)
        if phase == "dog":
            dog, seq = self.plan_turn(view, flock)
            self._rest = list(seq)
            self._expect = (tuple(flock), view["dog_swaps"][self.seat][dog])
            return dog
        if phase != "swap":
            raise SheepfoldError(f"it is not a decision of this bot (phase {phase})")
        left = view["swaps_left"]
        planned = len(self._rest) <= left if self.up_to else len(self._rest) == left
        if self._expect != (tuple(flock), left) or not planned:
            self._rest = list(self.plan_swaps(view, flock, left))
        if not self._rest:  # up-to swaps: the plan stops here
            assert self.stop is not None
            self._expect = None
            return self.stop
        s = self._rest.pop(0)
        self._expect = (tuple(apply_swaps(flock, (s,), self.board)), left - 1)
        return self.swap0 + s

    def prepare(self) -> None:
        """Build what its decisions need before any clock starts (compiled code, tables)."""
        warm_modules(self.kernels, game=self.game)

    def my_dogs(self, view: View) -> list[tuple[int, int]]:
        """(dog, swaps) for each dog card left to this seat."""
        counts = view["dog_swaps"][self.seat]
        return [(d, counts[d]) for d in view["dogs_left"][self.seat]]

    def plan_turn(self, view: View, flock: list[int]) -> Plan:
        """Choose the dog card and the whole swap sequence (default: value of plan_swaps)."""
        plans: dict[int, tuple[float, tuple[int, ...]]] = {}

        def value(n: int) -> float:
            plans[n] = self.best_plan(view, flock, n)
            return plans[n][0]

        dog, n = pick_dog(self.my_dogs(view), value)
        return dog, plans[n][1]

    def plan_swaps(self, view: View, flock: list[int], n: int) -> tuple[int, ...]:
        return self.best_plan(view, flock, n)[1]

    def best_plan(self, view: View, flock: list[int], n: int) -> tuple[float, tuple[int, ...]]:
        raise NotImplementedError


# -- medium (greedy) ------------------------------------------------------------------------
class GreedyDollyBot(DollyBot):
    """``medium``, also registered as ``greedy`` (one bot, two names): the most points this
    turn."""

    name = "medium"

    def best_plan(self, view: View, flock: list[int], n: int) -> tuple[float, tuple[int, ...]]:
        if n == 0:
            return float(search.combination_points(flock, self.points, self.board)), ()
        pts, seq = search.best_swaps(flock, n, self.points, self.board, self.up_to)
        return float(pts), seq


# -- easy -----------------------------------------------------------------------------------
class EasyDollyBot(GreedyDollyBot):
    name = "easy"

    def __init__(
        self, game: Game, seat: Seat, seed: int | None = None, greedy: float = 0.25
    ) -> None:
        super().__init__(game, seat, seed)
        self.greedy = float(greedy)

    def plan_turn(self, view: View, flock: list[int]) -> Plan:
        if self.rng.random() < self.greedy:
            return super().plan_turn(view, flock)
        dog, n = self.rng.choice(self.my_dogs(view))
        return dog, self._random_swaps(flock, n)

    def plan_swaps(self, view: View, flock: list[int], n: int) -> tuple[int, ...]:
        return self._random_swaps(flock, n)

    def _random_swaps(self, flock: list[int], n: int) -> tuple[int, ...]:
        legal = [i for i, (a, b) in enumerate(self.board.swaps) if flock[a] >= 0 and flock[b] >= 0]
        return tuple(self.rng.choice(legal) for _ in range(n))


# -- hard -----------------------------------------------------------------------------------
class _Pool:
    """The unseen cards, drawn at random (the deck's composition is known, its order is not)."""

    def __init__(self, game: DollyGame, unseen: dict[str, int]) -> None:
        self.game = game
        card = game.board.parse_card
        self.cards = [card(code) for code, k in sorted(unseen.items()) for _ in range(k)]

    def deck(self, rng: Any) -> list[int]:
        """The unseen cards in a random order (top card last, as ``DollyState.deck``)."""
        deck = self.cards[:]
        rng.shuffle(deck)
        return deck

    def refill(
        self, flock: list[int], taken: Sequence[int], rng: Any, deck: list[int] | None = None
    ) -> tuple[list[int], bool]:
        """The flock after taking the combination ``taken`` and refilling it with the engine's own
        clean-up (Dolly Crush ruling 6, the rule set's ``max_cleanup_rounds``), drawing from the
        top of ``deck`` (consumed; a fresh random order if None); and whether the game then ends
        (the deck is empty, or the clean-up gave up)."""
        if deck is None:
            deck = self.deck(rng)
        f = flock[:]
        for c in taken:
            f[c] = EMPTY
        self.game.board.fall(f)  # the engine's refill part (gravity: the cards above fall)
        if EMPTY not in f or not deck:
            return f, not deck
        s = DollyState(self.game, rng.randrange(2**31), [])  # the seed of its reshuffles
        s.flock, s.deck, s.setup, s.phase = f, deck, False, DRAW
        while s.phase == DRAW:
            check()  # a long clean-up (max_cleanup_rounds) stops at a server's deadline
            s.apply_unchecked(s.deck[-1])
        return s.flock, s.phase == OVER


def _turns_after(view: View, seat: int, max_turns: int | None = None) -> list[int]:
    """The seats to play after this turn, in order, until this seat plays again (itself last
    if it has a turn left)."""
    n = view["players"]
    left = [len(d) for d in view["dogs_left"]]
    if view["phase"] == "dog":
        left[seat] -= 1
    if max_turns is not None:  # in rounds, the dog cards come back: who has turns left
        turns = max_turns - view["turns"] - 1
        return [(seat + k) % n for k in range(1, min(n, turns) + 1)]
    out = []
    s = seat
    for _ in range(n):
        s = (s + 1) % n
        if left[s] > 0:
            out.append(s)
    return out


@dataclass(frozen=True)
class _Outlook:
    """What the lookahead knows before valuing end flocks: this seat's lead, the turns left, the
    next player's most swaps, refills sampled per flock and flocks valued (fewer of both against
    a many-swap reply), the unseen cards."""

    lead: int
    turns: int
    opp_n: int
    samples: int
    n_cands: int
    pool: _Pool


def _picked(value: np.ndarray, pts: np.ndarray, top: int) -> np.ndarray:
    """The indexes of the ``top`` end flocks kept: half by lookahead ``value``, half by points
    now ``pts`` (the lookahead is biased), without unvalued ones; one: the best value."""
    order = np.lexsort((np.arange(value.size), -value))
    if top <= 1:
        return order[:top]
    by_pts = np.lexsort((np.arange(pts.size), -pts))
    half = (top + 1) // 2
    picked = list(order[:half])
    for k in list(by_pts) + list(order[half:]):
        if len(picked) >= top:
            break
        if k not in picked and np.isfinite(value[k]):
            picked.append(k)
    return np.array(picked, dtype=np.intp)


class LookaheadDollyBot(DollyBot):
    name = "hard"

    def __init__(
        self,
        game: Game,
        seat: Seat,
        seed: int | None = None,
        samples: int = 12,
        candidates: int = 10,
        weight: float = 1.0,
        replies: int = 8,
        refine: int = 12,
        sigma: float = 2.5,
        plans: int = 4,
        iterations: int = 48,
        time: float = 0.9,
    ) -> None:
        super().__init__(game, seat, seed)
        self.plans = int(plans)  # whole-turn plans played out to the end of the game
        self.iterations = int(iterations)  # playouts in all (shared sampled decks)
        self.time_limit = time_limit(time)  # seconds per decision (inf: no clock)
        self.samples = int(samples)  # refills sampled per candidate (one turn of lookahead)
        self.candidates = int(candidates)  # scoring candidates looked ahead from
        self.weight = float(weight)  # weight of the next player's points
        self.replies = int(replies)  # samples per candidate of the two-turn refinement
        self.refine = int(refine)  # candidates refined with two turns of lookahead
        self.sigma = float(sigma)  # spread of one turn's points (0: value points, not wins)
        assert isinstance(game, DollyGame)
        self.max_turns = game.max_turns
        self.ops = flock_ops(game)  # packed flocks on plain rules, the grid kernel else

    def prepare(self) -> None:
        super().prepare()
        if isinstance(self.ops, PackedFlocks):
            point_tables(self.points)  # the line tables of its points (built once)

    def best_plan(self, view: View, flock: list[int], n: int) -> tuple[float, tuple[int, ...]]:
        values, r, idx = self.evaluate(view, flock, n, top=1)
        k = int(idx[0])
        return float(values[0]), r.sequence(k)

    def _max_swaps(self, view: View, seat: int) -> int:
        counts = view["dog_swaps"][seat]
        left = view["dogs_left"][seat] or range(len(counts))  # rounds: a spent hand comes back
        return max(counts[d] for d in left)

    def _utility(self, diff: np.ndarray, turns_left: int) -> np.ndarray:
        """What a lead of ``diff`` points is worth with ``turns_left`` turns still to play: the
        probability of winning (ties half) if each turn's points spread by ``sigma``; the lead
        itself when ``sigma`` is 0. A small share of the lead breaks ties between certainties."""
        diff = np.asarray(diff, dtype=np.float64)
        if self.sigma <= 0:
            return diff
        if turns_left <= 0:
            win = (diff > 0) + 0.5 * (diff == 0)
        else:
            z = diff / (self.sigma * math.sqrt(2.0 * turns_left))
            win = 0.5 * (1.0 + np.array([math.erf(v) for v in z.ravel()]).reshape(z.shape))
        return win + 1e-3 * diff

    def evaluate(
        self, view: View, flock: list[int], n: int, top: int
    ) -> tuple[np.ndarray, Any, np.ndarray]:
        """The ``top`` best end flocks for ``n`` swaps: (values, Reachable, their indexes).

        One turn of lookahead over every end flock: my points now minus the next player's best
        reply (exact when the flock passes unchanged, else averaged over refills drawn from the
        unseen cards), turned into a chance of winning from the current scores and the turns
        left. Then, in a two-player game where this seat plays again, the ``refine`` best are
        valued over two turns: points, the next player's greedy reply, my best after it (refills
        sampled at each step)."""
        flocks, pts, r = self.ops.after(flock, n)
        pts = pts.astype(np.float64)
        after = _turns_after(view, self.seat, self.max_turns)
        if not after:  # nobody plays after this turn: the most points is the best chance
            order = np.lexsort((np.arange(pts.size), -pts))[:top]
            return pts[order], r, order
        scores = view["scores"]
        lead = scores[self.seat] - max(v for i, v in enumerate(scores) if i != self.seat)
        turns = sum(len(d) for d in view["dogs_left"]) - (1 if view["phase"] == "dog" else 0)
        if self.max_turns is not None:
            turns = self.max_turns - view["turns"] - 1
        opp_n = self._max_swaps(view, after[0])
        samples, n_cands = self.samples, self.candidates
        if opp_n > 1:  # a many-swap reply costs a search of its own per sample: fewer samples
            samples, n_cands = max(2, samples // 3), max(3, n_cands // 2)
        assert isinstance(self.game, DollyGame)
        o = _Outlook(lead, turns, opp_n, samples, n_cands, _Pool(self.game, view["unseen"]))
        value = np.full(pts.size, -np.inf)
        self._value_unchanged(value, flocks, np.flatnonzero(pts == 0), o)
        self._value_refilled(value, flocks, pts, np.flatnonzero(pts > 0), o)
        if (
            view["players"] == 2
            and after[-1] == self.seat
            and opp_n == 1
            and self.refine > 1
            and self.replies > 0
        ):
            value = self._refined(view, n, value, flocks, pts, o)
        order = _picked(value, pts, top)
        return value[order], r, order

    def _value_unchanged(
        self, value: np.ndarray, flocks: np.ndarray, zero: np.ndarray, o: _Outlook
    ) -> None:
        """``value`` of the end flocks ``zero`` that take nothing: they pass unchanged, so the
        next player's best reply is exact (a many-swap reply: only the first few are valued)."""
        if not zero.size:
            return
        w = self.weight
        if o.opp_n == 1:
            best = self._best_one_swap(flocks[zero])
            value[zero] = self._utility(o.lead - w * best, o.turns - 1)
        else:
            few = zero[: max(2, o.n_cands // 2)]
            for k in few:
                check()
                o1 = self._best_n(flocks[k], o.opp_n)
                value[k] = float(self._utility(np.array([o.lead - w * o1]), o.turns - 1)[0])

    def _value_refilled(
        self, value: np.ndarray, flocks: np.ndarray, pts: np.ndarray, pos: np.ndarray, o: _Outlook
    ) -> None:
        """``value`` of the best-scoring end flocks among ``pos`` (those that take points): the
        next player's best reply averaged over refills drawn from the unseen cards."""
        if not pos.size:
            return
        w = self.weight
        order = pos[np.lexsort((pos, -pts[pos]))][: o.n_cands]
        for k in order:
            check()
            f = self.ops.unpack(flocks[k])
            taken = self.board.find_lines(f)
            refilled = []
            ended = 0
            for _ in range(o.samples):
                g, over = o.pool.refill(f, taken, self.rng)
                if over or EMPTY in g:
                    ended += 1
                else:
                    refilled.append(self.ops.pack(g))
            total = 0.0
            if refilled:
                if o.opp_n == 1:
                    best = self._best_one_swap(self.ops.stack(refilled))
                else:
                    best = np.array([self._best_n(x, o.opp_n) for x in refilled])
                total += float(self._utility(o.lead + pts[k] - w * best, o.turns - 1).sum())
            if ended:
                total += ended * float(self._utility(np.array([o.lead + pts[k]]), 0)[0])
            value[k] = total / (len(refilled) + ended)

    def _refined(
        self,
        view: View,
        n: int,
        value: np.ndarray,
        flocks: np.ndarray,
        pts: np.ndarray,
        o: _Outlook,
    ) -> np.ndarray:
        """Two players, this seat plays again: the ``refine`` best valued over two turns (the
        others out, at -inf: their values are on another scale); ``value`` as it is when this
        seat has no card left after this one or fewer than two candidates are finite."""
        counts = view["dog_swaps"][self.seat]
        rest = [counts[d] for d in view["dogs_left"][self.seat]]
        if view["phase"] == "dog" and n in rest:  # the card about to be played
            rest.remove(n)
        if not rest and self.max_turns is not None:  # rounds: the spent hand comes back
            rest = list(counts)
        my_n = max(rest) if rest else 0
        if my_n < 1:
            return value
        cand = np.lexsort((np.arange(value.size), -value))[: self.refine]
        cand = cand[np.isfinite(value[cand])]
        if cand.size <= 1:
            return value
        two = self._two_turns(flocks, pts, cand, o.pool, my_n, o.lead, o.turns)
        value = np.full(pts.size, -np.inf)
        value[cand] = two
        return value

    def _two_turns(
        self,
        flocks: np.ndarray,
        pts: np.ndarray,
        cand: np.ndarray,
        pool: _Pool,
        my_n: int,
        lead: float,
        turns: int,
    ) -> np.ndarray:
        """The value of each candidate over two more turns: the next player's greedy reply (one
        swap), then my best; refills sampled from the unseen cards at each step."""
        rng = self.rng
        starts: list[int] = []  # flock the opponent faces, per sample
        pools: list[list[int]] = []
        owner: list[int] = []
        total = np.zeros(cand.size)
        count = np.zeros(cand.size)
        for j, k in enumerate(cand):
            check()
            f = self.ops.unpack(flocks[k])
            taken = self.board.find_lines(f) if pts[k] > 0 else []
            reps = self.replies if taken else 1
            for _ in range(reps):
                p = pool.deck(rng)
                g, over = pool.refill(f, taken, rng, p) if taken else (f, False)
                if over or EMPTY in g:
                    total[j] += float(self._utility(np.array([lead + pts[k]]), 0)[0])
                    count[j] += 1
                    continue
                starts.append(self.ops.pack(g))
                pools.append(p)
                owner.append(j)
        if starts:
            reply_pts, replied = self.ops.reply(self.ops.stack(starts))
            reply_pts = reply_pts.astype(np.float64)
            nxt: list[int] = []
            nxt_diff: list[float] = []
            nxt_owner: list[int] = []
            for i in range(len(starts)):
                check()
                x = replied[i]
                j = owner[i]
                d = lead + pts[cand[j]] - self.weight * reply_pts[i]
                if reply_pts[i] > 0:
                    g = self.ops.unpack(x)
                    g, over = pool.refill(g, self.board.find_lines(g), rng, pools[i])
                    if over or EMPTY in g:
                        total[j] += float(self._utility(np.array([d]), 0)[0])
                        count[j] += 1
                        continue
                    x = self.ops.pack(g)
                nxt.append(x)
                nxt_diff.append(d)
                nxt_owner.append(j)
            if nxt:
                arr = self.ops.stack(nxt)
                if my_n == 1:
                    mine = self._best_one_swap(arr)
                else:
                    mine = np.array([self._best_n(x, my_n) for x in arr])
                u = self._utility(np.array(nxt_diff) + mine, turns - 2)
                own = np.array(nxt_owner, dtype=np.intp)
                np.add.at(total, own, u)
                np.add.at(count, own, 1)
        return total / np.maximum(count, 1)

    def plan_turn(self, view: View, flock: list[int]) -> Plan:
        start = time.perf_counter()
        cands: list[tuple[float, int, int, tuple[int, ...]]] = []  # (hard value, n, dog, seq)
        by_n: dict[int, int] = {}
        for dog, n in self.my_dogs(view):
            if n in by_n:
                continue
            by_n[n] = dog
            values, r, idx = self.evaluate(view, flock, n, top=self.plans)
            for v, k in zip(values, idx, strict=False):
                cands.append((float(v), n, dog, r.sequence(int(k))))
        if self.iterations <= 0:
            cands.sort(key=lambda c: (-c[0], c[1], c[2], c[3]))
        if len(cands) == 1 or self.iterations <= 0:
            return cands[0][2], cands[0][3]
        return self._search(view, [(c[2], c[3]) for c in cands], start)

    def plan_swaps(self, view: View, flock: list[int], n: int) -> tuple[int, ...]:
        start = time.perf_counter()
        values, r, idx = self.evaluate(view, flock, n, top=max(1, self.plans))
        cands = [(-1, r.sequence(int(k))) for k in idx]
        if len(cands) == 1 or self.iterations <= 0:
            return cands[0][1]
        return self._search(view, cands, start)[1]

    def _search(self, view: View, plans: list[Plan], start: float) -> Plan:
        seat = self.seat
        alive = list(range(len(plans)))
        total = np.zeros(len(plans))
        count = np.zeros(len(plans))
        budget = self.iterations
        used = 0
        rounds = max(1, int(np.ceil(np.log2(len(plans)))))
        while used < budget and len(alive) > 1:
            # determinizations for this round, shared by every plan still alive
            per = max(1, (budget // rounds) // len(alive))
            for _ in range(per):
                if used >= budget or time.perf_counter() - start > self.time_limit:
                    break
                base = self.game.determinize(view, seed=self.rng.randrange(2**31))
                for i in alive:
                    check()
                    s = base.clone()
                    dog, seq = plans[i]
                    if dog >= 0:
                        s.apply_unchecked(dog)
                    _play_swaps(s, seq)
                    _playout(s, self.points)
                    sc = s.scores()
                    share = s.returns()[seat]
                    best_other = max(v for j, v in enumerate(sc) if j != seat)
                    total[i] += share + 0.002 * (sc[seat] - best_other)
                    count[i] += 1
                    used += 1
            if time.perf_counter() - start > self.time_limit:
                break
            mean = total[alive] / np.maximum(count[alive], 1)
            keep = max(1, len(alive) // 2)
            order = sorted(range(len(alive)), key=lambda j: (-mean[j], alive[j]))[:keep]
            alive = sorted(alive[j] for j in order)
        if len(alive) > 1:
            mean = total[alive] / np.maximum(count[alive], 1)
            alive = [alive[int(np.argmax(mean))]]
        return plans[alive[0]]

    def _best_one_swap(self, flocks: np.ndarray) -> np.ndarray:
        """The most points one swap takes, for each full flock (packed or rows)."""
        return self.ops.reply(flocks)[0].astype(np.float64)  # type: ignore[no-any-return]

    def _best_n(self, x: Any, n: int) -> float:
        check()
        return float(self.ops.best_n(x, n))


def _greedy_turn(state: Any, points: tuple[int, ...]) -> None:
    """Play one whole turn greedily on a full state (hard's playout policy: ``medium``'s turn; a
    settled flock holds no line, so a card of no swaps takes nothing)."""
    seat = state.turn
    counts = state.game.dog_swaps[seat]
    plans: dict[int, tuple[int, tuple[int, ...]]] = {}

    game = state.game
    up_to = game.stop is not None

    def value(n: int) -> float:
        plans[n] = search.best_swaps(state.flock, n, points, game.board, up_to) if n else (0, ())
        return plans[n][0]

    dog, n = pick_dog([(d, counts[d]) for d in state.dogs_left(seat)], value)
    state.apply_unchecked(dog)
    _play_swaps(state, plans[n][1])


def _play_swaps(state: Any, seq: Sequence[int]) -> None:
    """Make the swaps ``seq`` (indexes into the board's swaps) of the dog card in play; under
    up-to swaps, stop after them if the card allows more."""
    game = state.game
    for s in seq:
        state.apply_unchecked(game.swap0 + s)
    if game.stop is not None and state.phase == SWAP:  # the card allows more: stop here
        state.apply_unchecked(game.stop)


def _playout(state: Any, points: tuple[int, ...]) -> None:
    """Play to the end, every player greedy."""
    while True:
        check()
        p = state.current_player()
        if p == TERMINAL:
            return
        if p < 0:
            state.apply_unchecked(state.sample_chance())
        else:
            _greedy_turn(state, points)


def _hands(cards: list[list[int]], counts: Sequence[Sequence[int]]) -> np.ndarray:
    """hands[seat, n]: how many cards of ``n`` swaps each seat holds."""
    hands = np.zeros((len(cards), max(2, max(max(c) for c in counts) + 1)), dtype=np.int64)
    for s, held in enumerate(cards):
        for c in held:
            hands[s, c] += 1
    return hands


# -- expert ---------------------------------------------------------------------------------
#: the most ends of a one-swap turn the expert plays out (the rulebook's flock has at most 22;
#: on larger boards hard's lookahead keeps the best this many)
MAX_CANDIDATES = 32


class ExpertDollyBot(LookaheadDollyBot):
    """Monte Carlo search over every distinct end of the turn, with compiled playouts
    (:mod:`sheepfold.bots.dolly_mc`) and successive halving."""

    name = "expert"
    kernels = (dolly_grid.__name__, "sheepfold.bots.dolly_mc")

    def __init__(
        self,
        game: Game,
        seat: Seat,
        seed: int | None = None,
        iterations: int = 30000,
        time: float = 0.8,
        plans: int = 8,
    ) -> None:
        # hard's lookahead proposes the candidates of a card of many swaps
        super().__init__(game, seat, seed, plans=plans, iterations=0)
        self.budget = int(iterations)  # playouts in all
        self.time_limit = time_limit(time)  # seconds per decision (inf: no clock)
        try:
            from sheepfold.bots import dolly_mc
        except ImportError as e:  # numba is the ``fast`` extra
            raise SheepfoldError(
                f"the expert bot needs numba ({e}): pip install 'sheepfold[fast]'"
            ) from None
        self._mc = dolly_mc
        self.last_playouts = 0  # the playouts of its last decision
        assert isinstance(game, DollyGame)
        self.packed = plain_rules(game)  # the packed playouts; the grid playouts else
        self.full_hand = [list(s) for s in game.dog_swaps]

    def prepare(self) -> None:
        super().prepare()  # the compiled playouts: warmed here if no front end did
        if self.packed:
            tables(self.points)  # the compiled kernel's tables (built once)

    def _candidates(
        self, view: View, flock: list[int], n: int
    ) -> tuple[list[tuple[int, ...]], np.ndarray]:
        """(swap sequences, packed end flocks): every distinct end of one swap (or none); hard's
        best plans for more swaps."""
        if n <= 1:
            flocks, _, r = self.ops.after(flock, n)
            if len(flocks) <= MAX_CANDIDATES:
                return [r.sequence(k) for k in range(len(flocks))], flocks
            # a large board: hard's lookahead keeps the most promising ends
            _, r, idx = self.evaluate(view, flock, n, top=MAX_CANDIDATES)
            return [r.sequence(int(k)) for k in idx], r.flocks[idx]
        _, r, idx = self.evaluate(view, flock, n, top=self.plans)
        return [r.sequence(int(k)) for k in idx], r.flocks[idx]

    def _table(self, view: View, n: int) -> tuple[np.ndarray, np.ndarray]:
        """(who plays each turn from this one to the end, hands[seat, swaps] after this turn)
        when this turn plays a card of ``n`` swaps. In rounds (house rule), every seat in turn
        until the last round."""
        players = view["players"]
        counts = view["dog_swaps"]
        left = [[counts[s][d] for d in view["dogs_left"][s]] for s in range(players)]
        if view["phase"] == "dog":
            left[self.seat].remove(n)
        hands = _hands(left, counts)
        if self.max_turns is not None:
            turns = self.max_turns - view["turns"]
            seats = [(self.seat + k) % players for k in range(turns)]
            return np.array(seats, dtype=np.int64), hands
        seat, s = [self.seat], self.seat
        while any(left):
            s = (s + 1) % players
            if left[s]:
                seat.append(s)
                left[s].pop()
        return np.array(seat, dtype=np.int64), hands

    def plan_turn(self, view: View, flock: list[int]) -> Plan:
        groups: list[tuple[int, int]] = []  # (dog, swaps), fewer swaps first
        for dog, n in sorted(self.my_dogs(view), key=lambda d: (d[1], d[0])):
            if all(n != m for _, m in groups):
                groups.append((dog, n))
        return self._search_turn(view, flock, groups)

    def plan_swaps(self, view: View, flock: list[int], n: int) -> tuple[int, ...]:
        return self._search_turn(view, flock, [(-1, n)])[1]

    def _playouts(
        self,
        ys: np.ndarray,
        pool: np.ndarray,
        scores: np.ndarray,
        table: tuple[np.ndarray, np.ndarray],
        seeds: np.ndarray,
    ) -> np.ndarray:
        """The summed values of the candidates ``ys``: the packed playouts on plain rules, the
        grid playouts (any board, every house rule) else."""
        if self.packed:
            return self._mc.playouts(  # type: ignore[no-any-return]
                ys.astype(np.uint64),
                pool,
                scores,
                table,
                self.seat,
                seeds,
                self.points,
                self.max_cleanup_rounds,
            )
        assert isinstance(self.game, DollyGame)
        full = _hands(self.full_hand, self.full_hand)
        seat, hands = table
        return self._mc.grid_playouts(  # type: ignore[no-any-return]
            ys, pool, scores, (seat, hands, full), self.seat, seeds, self.game
        )

    def _search_turn(self, view: View, flock: list[int], groups: list[tuple[int, int]]) -> Plan:
        start = time.perf_counter()
        plans: list[Plan] = []
        group: list[int] = []
        ends: list[np.ndarray] = []
        for g, (dog, n) in enumerate(groups):
            seqs, flocks = self._candidates(view, flock, n)
            plans += [(dog, seq) for seq in seqs]
            group += [g] * len(seqs)
            ends.append(flocks)
        self.last_playouts = 0
        if len(plans) == 1:
            return plans[0]
        ys = np.concatenate(ends)
        tables = [self._table(view, n) for _, n in groups]
        pool = np.zeros(len(self.points), dtype=np.int64)
        for code, k in view["unseen"].items():
            pool[self.board.parse_card(code)] += k
        scores = np.array(view["scores"], dtype=np.int64)
        total = np.zeros(len(plans))
        count = np.zeros(len(plans))
        alive = np.arange(len(plans))
        member = np.array(group)
        left = self.budget
        per = max(1, min(4, left // len(plans)))  # a first, small round measures the cost
        measuring = True
        while len(alive) > 1 and per >= 1:
            began = time.perf_counter()
            seeds = np.array([self.rng.randrange(2**31) for _ in range(per)], dtype=np.int64)
            for g, table in enumerate(tables):
                check()
                idx = alive[member[alive] == g]
                if idx.size:
                    total[idx] += self._playouts(ys[idx], pool, scores, table, seeds)
                    count[idx] += per
            now = time.perf_counter()
            cost = max(now - began, 1e-6) / (per * len(alive))  # seconds per playout
            left -= per * len(alive)
            if self.time_limit < math.inf:
                left = min(left, int((self.time_limit - (now - start)) / cost))
            if not measuring:  # successive halving: the better half goes on
                mean = total[alive] / count[alive]
                alive = np.sort(alive[np.lexsort((alive, -mean))[: max(1, len(alive) // 2)]])
            measuring = False
            rounds = max(1, math.ceil(math.log2(len(alive))))
            per = left // rounds // len(alive)
        self.last_playouts = int(count.sum())
        mean = total[alive] / np.maximum(count[alive], 1)
        return plans[int(alive[int(np.argmax(mean))])]


# -- registry -------------------------------------------------------------------------------
#: the options a server accepts per level (time: 0 would mean no clock, so it is bounded too)
_SEARCH_LIMITS: dict[str, tuple[float, float]] = {"time": (0.05, 2.0), "plans": (1, 8)}
_LIMITS: dict[str, dict[str, tuple[float, float]]] = {
    "easy": {"greedy": (0.0, 1.0)},
    "hard": {
        **_SEARCH_LIMITS,
        "iterations": (0, 200),
        "samples": (1, 48),
        "candidates": (1, 30),
        "replies": (1, 32),
        "refine": (0, 30),
        "weight": (0.0, 4.0),
        "sigma": (0.0, 10.0),
    },
    "expert": {**_SEARCH_LIMITS, "iterations": (0, 100_000)},
}

_LEVELS: dict[str, tuple[type[DollyBot], str]] = {
    "greedy": (GreedyDollyBot, "most points this turn: every sequence of its swaps (= medium)"),
    "easy": (EasyDollyBot, "mostly random swaps; one turn in four greedy (easy:greedy=0.25)"),
    "medium": (GreedyDollyBot, "greedy: the most points this turn (exhaustive swap search)"),
    "hard": (
        LookaheadDollyBot,
        "lookahead counting cards: points now minus the next player's reply (refills drawn "
        "from the unseen cards), its best plans played out to the end",
    ),
    "expert": (
        ExpertDollyBot,
        "Monte Carlo search: every end of its turn played out to the end of the game "
        "(expert:iterations=30000,time=0.8; time=0: no clock)",
    ),
}


def _register(level: str, cls: type[DollyBot], desc: str) -> None:
    @register_bot("dolly-crush", level, desc, cls.kernels, _LIMITS.get(level))
    def _make(game: Game, seat: Seat, seed: int | None, arg: str) -> Bot:
        try:
            return cls(game, seat, seed, **bot_kwargs(arg))  # type: ignore[arg-type]
        except (TypeError, ValueError) as e:
            raise SheepfoldError(f"bad options for the {level} bot ({arg!r}): {e}") from None


for _level, (_cls, _desc) in _LEVELS.items():
    _register(_level, _cls, _desc)
