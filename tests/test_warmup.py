"""The bots' compiled code is warmed before the first decision, never charged to one (issue 11):
``sheepfold.bots.warmup``, the expert's first decision in a fresh process, the server's table
(``sheepfold serve`` warms in the background: tests/test_compile_progress.py)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from polling import run_async
from sheepfold.bots import dolly_grid, dolly_mc, make_bot, warmup
from sheepfold.core.play import resolve_chance
from sheepfold.games import make

ONE_SWAP = ["pastore-maremmano", "bobtail"]  # cheap playouts: the budget, not the clock, ends it

# The expert's first decision of a game (seat 0 starts): argv = breeds, then bot specs; prints
# {"ready before": ..., spec: [action, playouts]} as JSON.
FIRST_DECISION = """
import json, sys
from sheepfold.bots import dolly_mc, make_bot
from sheepfold.core.play import resolve_chance
from sheepfold.games import make

game = make("dolly-crush", breeds=sys.argv[1].split(","))
state = game.new_initial_state(seed=3)
resolve_chance(state)
out = {"ready before": dolly_mc.ready()}
for spec in sys.argv[2:]:
    bot = make_bot(spec, game, 0, seed=1)
    out[spec] = [bot.act(state.observe(0)), bot.last_playouts]
print(json.dumps(out))
"""


def first_decision(spec: str, seed: int = 1) -> list[int]:
    """[action, playouts] of the same decision in this process."""
    game = make("dolly-crush", breeds=ONE_SWAP)
    state = game.new_initial_state(seed=3)
    resolve_chance(state)
    assert state.current_player() == 0
    bot = make_bot(spec, game, 0, seed=seed)
    action = bot.act(state.observe(0))
    return [action, bot.last_playouts]  # type: ignore[attr-defined]


def test_warm_up_compiles_the_kernels_the_named_bots_use() -> None:
    searches, playouts = "sheepfold.bots.dolly_grid", "sheepfold.bots.dolly_mc"
    assert warmup.kernels(["expert:time=2"]) == [searches, playouts]
    assert warmup.kernels(["greedy", "easy", "medium", "hard"]) == [searches]
    assert warmup.kernels(["random", "perfect"]) == []
    assert playouts in warmup.kernels()
    calls: list[tuple[int, int, str]] = []
    warmup.warm_up(["expert"], progress=lambda *c: calls.append(c))
    assert dolly_mc._evaluate.signatures  # compiled (or loaded from the cache) in this process
    assert warmup.ready(warmup.kernels(["expert"]))
    assert calls[-1] == (len(calls) - 1, len(calls) - 1, "")  # the end: done == total
    assert {label for _, _, label in calls[:-1]} <= {dolly_grid.LABEL, dolly_mc.LABEL}
    calls.clear()
    warmup.warm_up(["expert"], progress=lambda *c: calls.append(c))
    assert calls == [(0, 0, "")]  # once per process: nothing left to do


@pytest.mark.slow
def test_the_first_expert_decision_of_a_fresh_process_has_its_whole_budget(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "numba"  # empty: the fresh process compiles every kernel it needs
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    run = subprocess.run(
        [sys.executable, "-c", FIRST_DECISION, ",".join(ONE_SWAP), "expert", "expert:time=0"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ready before"] is False
    assert list(cache.rglob("*dolly_mc._evaluate*.nbi")), "the playouts were not compiled"
    # the rulebook's game takes the packed playouts only: the grid ones are not compiled
    assert not list(cache.rglob("*dolly_mc._grid_*.nbi"))
    # no clock: exactly the playouts (and the move) of the same decision in a warm process
    assert out["expert:time=0"] == first_decision("expert:time=0")
    # the default clock (0.8 s) starts after the compilation: thousands of its budget of
    # 30,000 cheap playouts (all of them in about 0.1 s idle; 6,366 once under load 19), not
    # the handful a compilation-eaten clock leaves (4 each): the bound leaves room for load
    action, playouts = out["expert"]
    assert playouts >= 1000, f"the first decision played {playouts} playouts"


def test_the_server_says_a_bot_is_warming_up_and_then_plays_its_whole_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sheepfold.server.storage import Storage
    from sheepfold.server.tables import Settings, TableManager

    warmed: list[bool] = []
    warm = dolly_mc.warm
    monkeypatch.setattr(dolly_mc, "ready", lambda game=None: bool(warmed))  # a fresh process
    monkeypatch.setattr(dolly_mc, "warm", lambda game=None: (warm(game), warmed.append(True)))

    async def run() -> None:
        m = TableManager(Storage(str(tmp_path / "t.db")), Settings(bot_delay=0, allow_seed=True))
        bot_seed = 3 * 31  # the table's seed 3, seat 0 (Table._bot)
        t = m.create(
            {
                "game": "dolly-crush",
                "rules": {},
                "breeds": ONE_SWAP,
                "seats": [
                    {"kind": "bot", "bot": "expert:time=0", "name": "E"},
                    {"kind": "human"},
                ],
                "seed": 3,
            }
        )
        start = t.stored
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 600
        while t.stored == start:  # poll, with a deadline: the expert's first move
            assert loop.time() < deadline, "the expert did not move"
            await asyncio.sleep(0.01)
        texts = [e["text"] for e in t.events]
        assert any("is warming up" in x for x in texts), texts
        assert warmed == [True]
        bot = t.seats[0].bot_obj
        # its whole budget: the same decision as in a warm process (its seed is the table's)
        assert [t.state.history[start][1], bot.last_playouts] == first_decision(
            "expert:time=0", seed=bot_seed
        )
        await m.close()

    run_async(run())


def test_the_expert_warms_only_the_playouts_its_games_rules_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from sheepfold.games.dolly_crush.rules import DollyRules

    rulebook = make("dolly-crush")
    house = make("dolly-crush", rules=DollyRules(diagonals=True))
    assert dolly_mc.paths(rulebook) == ("packed",)
    assert dolly_mc.paths(house) == ("grid",)
    assert dolly_mc.paths() == ("packed", "grid")
    # as in a fresh process: nothing compiled; each path's warm-up noted (the grid searches,
    # the expert's other kernels, taken as ready: the other bots' test)
    monkeypatch.setattr(dolly_grid, "ready", lambda game=None: True)
    compiled: list[str] = []
    for path, entry in (("packed", "_evaluate"), ("grid", "_grid_evaluate")):
        fake = SimpleNamespace(signatures=[])
        monkeypatch.setattr(dolly_mc, entry, fake)
        monkeypatch.setattr(
            dolly_mc,
            f"warm_{path}",
            lambda flock, p=path, f=fake: (compiled.append(p), f.signatures.append(1)),
        )
    assert not warmup.ready(warmup.kernels(["expert"]), rulebook)
    make_bot("expert", rulebook, 0, seed=1).prepare()
    assert compiled == ["packed"]
    assert warmup.ready(warmup.kernels(["expert"]), rulebook)
    assert not warmup.ready(warmup.kernels(["expert"]), house)
    assert warmup.not_ready(["expert"], "dolly-crush") == {}  # the lobby's default rules
    assert warmup.not_ready(["expert"]) == {"expert": dolly_mc.LABEL}  # not every rule set
    make_bot("expert", house, 0, seed=1).prepare()
    assert compiled == ["packed", "grid"]
    # a game whose bots do not use the playouts never asks them
    warmup.warm_up(["expert"], game=make("shave-a-sheep"))
    assert warmup.ready(warmup.kernels(["expert"]), make("shave-a-sheep"))
    assert compiled == ["packed", "grid"]


# after each bot's warm-up for a house-rules game (in turn, in one process: argv), its first
# decision: prints, for each, the compiled functions of the Dolly Crush kernels that gained a
# signature (compiled or loaded) meanwhile
HOUSE_DECISION = """
import json, sys
from numba.core.registry import CPUDispatcher
from sheepfold.bots import dolly_mc, make_bot, warmup
from sheepfold.core.play import resolve_chance
from sheepfold.games import make
from sheepfold.games.dolly_crush.kernel import grid, lines, order, policy, refill, search
from sheepfold.games.dolly_crush.rules import DollyRules

game = make("dolly-crush", rules=DollyRules(diagonals=True))
mods = (dolly_mc, grid, lines, order, policy, refill, search)
found = {f"{m.__name__}.{k}": d for m in mods for k, d in vars(m).items()
         if isinstance(d, CPUDispatcher)}
gained = {}
for name in sys.argv[1:]:
    warmup.warm_up([name], game=game)
    before = {k: len(d.signatures) for k, d in found.items()}
    state = game.new_initial_state(seed=3)
    resolve_chance(state)
    bot = make_bot(name, game, state.current_player(), seed=1)
    bot.act(state.observe(state.current_player()))
    gained[name] = sorted(k for k, d in found.items() if len(d.signatures) > before[k])
print(json.dumps(gained))
"""


def first_decisions_compile(*bots: str) -> dict[str, list[str]]:
    """What each bot's first decision on house rules compiled (or loaded) after its warm-up,
    in a fresh process, the bots in turn."""
    run = subprocess.run(
        [sys.executable, "-c", HOUSE_DECISION, *bots], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow  # a fresh process loads (cold: compiles) the grid playouts
def test_the_expert_warm_up_covers_its_first_decision_on_house_rules() -> None:
    """Nothing the expert's first decision on house rules calls is compiled (or loaded) after
    its warm-up: a compilation there would be unsaid, charged to the decision."""
    assert first_decisions_compile("expert:time=0,iterations=200") == {
        "expert:time=0,iterations=200": []
    }


@pytest.mark.slow  # a fresh process loads (cold: compiles) the grid searches
def test_the_other_bots_warm_ups_cover_their_first_decisions_on_house_rules() -> None:
    """The medium, easy and hard bots search with the grid kernel under house rules: their
    warm-up compiles it (their ``kernels``), so their first decisions compile nothing unsaid.
    In one process, smallest warm-up first (medium's and easy's are hard's), each checked from
    its own warm-up on."""
    bots = ("medium", "easy:greedy=1", "hard:time=0,iterations=8")
    assert first_decisions_compile(*bots) == {b: [] for b in bots}


def test_the_bots_on_plain_rules_need_no_grid_search() -> None:
    """On the rulebook's rules the searches are numpy's: nothing of the grid kernel to warm,
    so the lobby never waits for it."""
    assert dolly_grid.paths(make("dolly-crush")) == ()
    assert dolly_grid.ready(make("dolly-crush"))
    assert "sheepfold.bots.dolly_grid" in warmup.kernels(["medium"])
    assert warmup.not_ready(["medium", "easy", "hard"], "dolly-crush") == {}


def test_a_kernel_module_still_being_imported_is_not_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's warm-up thread imports the playouts while the lobby asks (an event loop):
    a module half imported (no ``ready`` yet) is "not ready", never an error."""
    import importlib.machinery
    from types import ModuleType

    half = ModuleType("sheepfold.bots.dolly_mc")
    half.__spec__ = importlib.machinery.ModuleSpec("sheepfold.bots.dolly_mc", None)
    half.__spec__._initializing = True  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sheepfold.bots.dolly_mc", half)
    assert not warmup.ready(["sheepfold.bots.dolly_mc"], make("dolly-crush"))
    assert warmup.not_ready(["expert"], "dolly-crush") == {"expert": "its compiled code"}
