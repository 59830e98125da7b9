"""A published rule set's lab card: the rule set against its base on common random numbers.

The server's gallery (``server/gallery_lab.py``) runs this module in a process of its own,
``python -m sheepfold.lab.card``, one card at a time: the simulation never runs on the server's
event loop, and the server (which may not import the lab: see tests/test_layering.py) only
reads what it prints. The job comes as one JSON object on standard input::

    {"game": ..., "rules": {...options...}, "games": 2000, "seconds": 120,
     "seed": 0, "exact_limit": 200000, "base": {...options...}, "base_words": {"msg": "the graded edition"},
     "catalogs": {"it": {...msgid: text...}}}

``players`` (a count or a list of counts) may name the player counts to play; without it the
card plays 2 and 4 players when the rule set seats both, else every count it seats
(:func:`player_counts`). ``base`` is the rule set the card measures the rules against, the one they were made from (the
gallery's :func:`~sheepfold.server.gallery.base_of`; absent: the rulebook), and ``base_words``
what the card calls it (the verdict, the plot, the card's ``base``), as
:func:`~sheepfold.core.words.to_data` stores words (plain text is read too). ``catalogs``: the
server's languages other than English, each with its translations, to draw the plot in.

and the card goes out as JSON lines on standard output: ``{"progress": 0.4, "games": 800}``
after every chunk (the first two, before any game, with a ``message``: the simulator is
starting; the second also says ``"warmed": true``: one game of the base compiled it),
then ``{"card": {...}, "plot": "<svg ...>", "plots": {"it": "<svg ...>"}}``, or
``{"refused": ...}`` when the lab cannot play these rules (its own message: words as data when
they are a Msg), or ``{"error": ...}``.

Both sides are played by greedy bots on the same seeds (``lab compare``'s pairing), at each
player count, in chunks, until ``games`` games a side or the count's share of ``seconds`` has
passed (the card then says it was capped). The
card holds the lab's comparison of a few metrics (95% intervals, paired bootstrap), the verdict
of :func:`sheepfold.lab.compare.verdict` (and the ``base``: words stored as data, ``to_data``,
that the gallery translates for its reader), the game-length plot of ``lab compare --plots`` as
SVG and, when the game has an exact solver and the rules are small enough (``exact_limit``
positions), the exact first-player advantage and the perfect bot's edge over greedy.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import sys
import time
from dataclasses import dataclass, replace
from typing import Any

from sheepfold.core.words import (
    ENGLISH,
    Msg,
    Number,
    capitalized,
    chained,
    from_data,
    semicolon,
    text_of,
    to_data,
    translated,
)

#: the metrics a card shows (the lab's keys), in this order
CARD_METRICS = ("length_mean", "balance", "tie_rate", "lead_changes", "decisiveness")
BOTS = ("greedy",)
#: the most characters of a refusal's or a failure's words the card sends
MAX_WHY = 500
#: a language's translations (msgid -> its text), as the server's catalogs have them
Catalog = dict[str, str]
#: the two sides' display names (never the publisher's text: the plot and verdict embed them)
RULEBOOK, HOUSE = Msg("the rulebook"), Msg("this rule set")


def base_words(spec: dict[str, Any]) -> str:
    """What the card calls the rule set it measures against (never an id): the spec's
    ``base_words``, words stored with :func:`~sheepfold.core.words.to_data` (a Msg again) or
    plain text."""
    words = from_data(spec.get("base_words"))
    return words if isinstance(words, str) and words else RULEBOOK


#: said until the first games are played (the first card after an update compiles the simulator)
WARMING = Msg("starting the simulator (after an update of the server it compiles first: minutes)")


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, allow_nan=False) + "\n")
    sys.stdout.flush()


#: the player counts a card plays when the rule set seats them all (else every count it seats)
CARD_PLAYERS = (2, 4)


def player_counts(spec: dict[str, Any]) -> list[int]:
    """The player counts a card plays: the spec's ``players`` (a count or a list), else 2 and 4
    when the rule set and its base seat both, else every count the rule set seats (a Shave a
    Sheep file's teams, first seat, reaction weights or starting sheep decide it). A rule set
    that seats none of them: the smallest count, whose refusal then says why."""
    given = spec.get("players")
    if given:
        return [int(given)] if isinstance(given, int) else sorted({int(n) for n in given})
    from sheepfold.core.protocol import SheepfoldError
    from sheepfold.core.registry import game_spec

    info = game_spec(spec["game"]).game_class.info
    counts = range(info.min_players, info.max_players + 1)
    seated = []
    for n in counts:
        try:
            _jobs(spec, n)
        except SheepfoldError:
            continue
        seated.append(n)
    if set(CARD_PLAYERS) <= set(seated):
        return list(CARD_PLAYERS)
    return seated or [info.min_players]


def _jobs(spec: dict[str, Any], players: int) -> tuple[Any, Any]:
    """The base's and the rule set's jobs at ``players``, on the same seeds and engine."""
    from sheepfold.lab.runner import make_job

    def job(rules: Any, name: str, engine: str) -> Any:
        return make_job(
            spec["game"],
            rules,
            ruleset=name,
            players=players,
            bots=BOTS,
            games=int(spec["games"]),
            seed=int(spec.get("seed", 0)),
            engine=engine,
        )

    base = spec.get("base") or None
    a, b = job(base, "base", "auto"), job(spec["rules"], "house", "auto")
    if a.engine != b.engine:  # a pair is played by one engine, or it is no pair
        a, b = job(base, "base", "engine"), job(spec["rules"], "house", "engine")
    return a, b


@dataclass
class Side:
    """One player count of a card: both sides' jobs and games, and why they were capped."""

    players: int
    job_a: Any
    table_a: Any
    job_b: Any
    table_b: Any
    capped: str | None


def play(spec: dict[str, Any], progress: Any = _emit) -> list[Side]:
    """Both sides' games at each player count of the card (:func:`player_counts`), chunk by
    chunk, within the budget: ``seconds`` for the whole card, each count's share after the
    ones before it (what one leaves goes to the next); at least one chunk a count."""
    import pyarrow as pa

    from sheepfold.lab.runner import CHUNK_SIZES, chunk_to_table, run_chunk

    counts = player_counts(spec)
    total, seconds = int(spec["games"]), float(spec.get("seconds", 120))
    progress({"progress": 0.0, "games": 0, "message": to_data(WARMING)})
    # one game of the base compiles the simulator (minutes, cold): the server's deadline for
    # the card's games starts when it says so
    run_chunk(_jobs(spec, counts[0])[0], [0])
    progress({"progress": 0.0, "games": 0, "message": to_data(WARMING), "warmed": True})
    start: float | None = None  # the clock starts after the first chunk (compiling is free)
    sides = []
    for k, players in enumerate(counts):
        job_a, job_b = _jobs(spec, players)
        fast, engine = CHUNK_SIZES.get(job_a.game, (100, 10))
        size = max(2, min(fast if job_a.engine == "fast" else engine, -(-total // 10)))
        share = seconds * (k + 1) / len(counts)  # spent by the end of this count, at most
        parts_a, parts_b, done, capped = [], [], 0, None
        while done < total:
            idx = list(range(done, min(total, done + size)))
            parts_a.append(chunk_to_table(job_a, run_chunk(job_a, idx)))
            parts_b.append(chunk_to_table(job_b, run_chunk(job_b, idx)))
            done += len(idx)
            if start is None:  # the first chunk spends nothing of the budget, whatever the clock
                start, spent = time.monotonic(), 0.0
            else:
                spent = time.monotonic() - start
            ahead = (k + done / total) / len(counts)
            progress({"progress": round(min(0.99, max(ahead, spent / seconds)), 3), "games": done})
            if done < total and spent >= share:
                capped = Msg(
                    "capped at {done} games a side (of {total}): the time budget of {seconds} s "
                    "was spent",
                    done=Number(done, grouped=True),
                    total=Number(total, grouped=True),
                    seconds=Number(seconds, None),
                )
                break
        ta, tb = pa.concat_tables(parts_a), pa.concat_tables(parts_b)
        sides.append(
            Side(players, replace(job_a, games=done), ta, replace(job_b, games=done), tb, capped)
        )
    return sides


def _num(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 6)


def metrics(diffs: list[Any]) -> list[dict[str, Any]]:
    """The card's metrics: the base's value (under the key ``rulebook``, as the pages read it),
    the rule set's, the change with its paired 95% interval and p-value (``kind``: pct, pp or
    num, as the lab formats them)."""
    by = {d.key: d for d in diffs}
    return [
        {
            "key": k,
            "label": by[k].label,
            "rulebook": _num(by[k].a),
            "house": _num(by[k].b),
            "diff": _num(by[k].diff),
            "lo": _num(by[k].lo),
            "hi": _num(by[k].hi),
            "p": _num(by[k].p),
            "rel": _num(by[k].rel),
            "kind": by[k].kind,
            "significant": bool(by[k].significant),
        }
        for k in CARD_METRICS
        if k in by
    ]


def exact(game: Any, limit: int) -> tuple[dict[str, float] | None, str | None]:
    """Shave a Sheep's exact figures of these rules, or None and why not (no solver, too big)."""
    from sheepfold.core.registry import game_spec

    if not game_spec(game.name).has_exact_solver:
        return None, None
    from sheepfold.lab.perfect import exact_skill_gap, exact_start_shares, unsupported

    why = unsupported(game)
    if why is None:
        from sheepfold.games.shave_a_sheep import solver

        size = solver.count_positions(game.rules, game.num_players)
        if size > limit:
            why = Msg(
                "{size} positions: more than this server solves for a card ({limit})",
                size=Number(size, grouped=True),
                limit=Number(limit, grouped=True),
            )
    if why is not None:
        return None, Msg("no exact figures: {why}", why=why)
    n = game.num_players
    first = exact_start_shares(game, ["perfect"] * n)[game.first_seat]
    gap = exact_skill_gap(game)["gap"]
    return {
        "first_player_advantage": round(first - 1 / n, 6),
        "perfect_edge_over_greedy": round(float(gap), 6),
    }, None


def plot_svg(
    ta: Any, tb: Any, base: str = RULEBOOK, lang: str = ENGLISH, catalog: Catalog | None = None
) -> str:
    """The game lengths of both sides (``lab compare --plots``'s histogram), as small SVG, its
    words in ``lang`` (``catalog``: the language's translations, as the server has them) and
    its axes' numbers with the language's decimal sign."""
    from sheepfold.lab.metrics import game_arrays
    from sheepfold.lab.report import _plt, length_hist_figure

    def say(words: str) -> str:
        return str(translated(words, lang, catalog or {}))

    fig = length_hist_figure([(base, game_arrays(ta)), (HOUSE, game_arrays(tb))], say)
    _local_numbers(fig, lang)
    fig.set_size_inches(6.0, 3.4)
    plt = _plt()
    plt.rcParams["svg.fonttype"] = "none"  # text as text: a few KB, not glyph outlines
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return buf.getvalue()


def local_tick(text: str, lang: str) -> str:
    """A tick number as matplotlib wrote it ("2.5", "12000", "−500"), in ``lang``'s way:
    its decimal sign, and the thousands of a whole number grouped ("12,000"; "12.000")."""
    from babel.numbers import format_decimal, get_decimal_symbol

    plain = text.replace("\u2212", "-")  # matplotlib's minus sign
    if re.fullmatch(r"-?\d{4,}", plain):
        return format_decimal(int(plain), locale=lang).replace("-", "\u2212")
    return text.replace(".", get_decimal_symbol(lang))


def _local_numbers(fig: Any, lang: str) -> None:
    """The axes' tick numbers written in ``lang``'s way (:func:`local_tick`): matplotlib still
    chooses the ticks and their digits (its own formatter, only its writing changed)."""
    from matplotlib.ticker import ScalarFormatter

    class Local(ScalarFormatter):  # type: ignore[misc]
        def __call__(self, x: float, pos: int | None = None) -> str:
            return local_tick(str(super().__call__(x, pos)), lang)

    for ax in fig.axes:
        ax.xaxis.set_major_formatter(Local())
        ax.yaxis.set_major_formatter(Local())


def plots(ta: Any, tb: Any, base: str, catalogs: Any) -> dict[str, str]:
    """The plot in every language of ``catalogs`` (the spec's: language -> its translations),
    drawn now, once: the gallery serves each reader the one of their language."""
    if not isinstance(catalogs, dict):
        return {}
    return {
        str(lang): plot_svg(ta, tb, base, str(lang), catalog)
        for lang, catalog in catalogs.items()
        if isinstance(catalog, dict) and lang != ENGLISH
    }


def _side_card(side: Side, spec: dict[str, Any], against: str) -> dict[str, Any]:
    """One player count's part of the card: its games, figures, verdict and notes."""
    from sheepfold.lab.compare import compare_tables, verdict

    ta, tb = side.table_a, side.table_b
    diffs = compare_tables(ta, tb)
    limit = side.job_b.rules.get("max_turns")
    same = limit if limit == side.job_a.rules.get("max_turns") else None
    text = verdict(diffs, against, HOUSE, same)
    figures, skipped = exact(side.job_b.make_game(0), int(spec.get("exact_limit", 200_000)))
    notes = [m for m in (side.capped, skipped) if m]
    return {
        "players": side.players,
        "games": ta.num_rows,
        "metrics": metrics(diffs),
        "verdict": to_data(capitalized(text)),  # translated where it is served
        "exact": figures,
        "message": to_data(chained(notes, semicolon)) if notes else None,
        "notes": notes,
    }


def card(spec: dict[str, Any], progress: Any = _emit) -> dict[str, Any]:
    """The whole card: ``{"card": {...}, "plot": svg, "plots": {lang: svg}}`` (the English
    plot, and the plot in each other language of the spec's ``catalogs``).

    The card holds every player count it played (``players``; ``by_players``: each count's
    games, figures, verdict and notes); its own ``games``, ``metrics``, ``verdict`` and
    ``exact`` are the first count's (the listing's figures), its plot the first count's game
    lengths, and its ``message`` the notes of every count (each named by its count when there
    are several)."""
    sides = play(spec, progress)
    against = base_words(spec)
    parts = [_side_card(side, spec, against) for side in sides]
    notes = [
        m if len(parts) == 1 else Msg("{n} players: {what}", n=part["players"], what=m)
        for part in parts
        for m in part.pop("notes")
    ]
    first = parts[0]
    out = {
        "players": [part["players"] for part in parts],
        "games": first["games"],
        "engine": sides[0].job_a.engine,
        "base": to_data(against),
        "bots": list(BOTS),
        "metrics": first["metrics"],
        "verdict": first["verdict"],
        "exact": first["exact"],
        "message": to_data(chained(notes, semicolon)) if notes else None,
        "by_players": parts,
    }
    ta, tb = sides[0].table_a, sides[0].table_b
    return {
        "card": out,
        "plot": plot_svg(ta, tb, against),
        "plots": plots(ta, tb, against, spec.get("catalogs")),
    }


def main() -> int:
    try:
        os.nice(10)  # behind the server's tables and bots for the CPU
    except OSError:
        pass
    from sheepfold.core.protocol import SheepfoldError

    try:
        spec = json.loads(sys.stdin.read())
        _emit(card(spec))
    except Exception as e:  # one line the server stores as the card's message
        # the rules themselves stop the lab (its own words): refused; anything else: failed
        _emit({"refused" if isinstance(e, SheepfoldError) else "error": _why(e)})
        return 1
    return 0


def _why(e: Exception) -> Any:
    """What stopped a card, in one line: words kept as data (``to_data``: the gallery
    translates them) when the error was raised with a Msg (the rules' validation problems:
    core/errors.py), else its first line of text as it is (the rule file's own words)."""
    words = text_of(e)
    if isinstance(words, Msg) and "\n" not in words and len(words) <= MAX_WHY:
        return to_data(words)
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return first[:MAX_WHY]


if __name__ == "__main__":
    sys.exit(main())
