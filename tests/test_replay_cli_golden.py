"""Golden records (tests/records/) replayed through ``sheepfold replay FILE --json``; the whole
JSON output is compared with the hand-worked ``NAME.expected.json``.

How the expected results were worked out (letters: b bell, l lamb, y butterfly, f flower,
r ram, and with 8 types c clover, s star, h heart; upper case black):

* dolly-cross: flock ``lfBBy / BbrbB / fyblr``; the Australian Shepherd's four swaps a1-a2,
  a2-a1 (back), b3-b4, a4-b4 make row b ``BbbBB`` crossed by column 3 ``B b b``: 7 cards,
  2+1+1+2+2+2+1 = 11 points (Dolly Crush ruling 5); refill a3, b1..b5, c3 from ``y rlfyb b``
  (Dolly Crush ruling 6); Bobtail swaps c4-c5, nothing taken, dog spent (Dolly Crush ruling 7).
  5 cards left in the deck.
* dolly-graded-deck-out: graded edition, dog 1 = 2 swaps; b3-c3 makes ``rrRrr`` and ``lll``
  (8 cards, 9 points), a1-a2 only moves cards; the refill uses the last 8 cards, the deck is
  empty after the turn: the game ends (Dolly Crush ruling 8), seat 0 wins 9-0.
* Dolly Crush house rules, one record per option (issue 13; rows written ``a/b/c``, every deck
  custom, the deal without lines so no clean-up reshuffles):

  - dolly-size-4x6 (4 x 6): ``blyfrb/lyfrbl/yfrbly/Rrfrbl``; d3-d4 makes ``Rrr`` at d1..d3
    (2+1+1 = 4); refill d1..d3 ``ybl``: row d ``yblfbl``, no line; 2 cards left.
  - dolly-lines-of-2 (2 x 3, min_line 2): ``bly/Lyb``; a1-a2 makes column 1 ``l L`` (3 points);
    refill a1, b1 ``fr``: ``fby/ryb``, no pair; 1 card left.
  - dolly-diagonals: ``blyfr/yBrlf/lfrby``; c3-c4 puts a bell on c3: the diagonal a1 b2 c3
    ``bBb`` (4 points; without diagonals nothing); refill ``ryl``: ``rlyfr/yyrlf/lflry``.
  - dolly-match-colour: ``bbBly/lyfrf/ylrff``: row a ``bbB`` is no line (colours differ); b3-c3
    makes c3..c5 ``fff`` (3 points); refill ``rly``: row c ``ylrly``.
  - dolly-eight-types (8 types): ``cshbl/shcyf/Hchhr`` (c clover, s star, h heart); c1-c2 makes
    c2..c4 ``Hhh`` (4 points); refill ``bly``: row c ``cblyr``.
  - dolly-six-dogs (6 dog cards, the Bobtail's last shows 2): dog 5 swaps a1-a2 and back, the
    Border Collie plays dog 4 (c4-c5): nothing taken, dogs left 0..4 and 0..3, 5.
  - dolly-six-dogs-no-dog-6: then dog 6, which a breed of 6 cards does not have (move 2).
  - dolly-up-to: ``blyfr/ybrlf/Rrfry``; the Australian Shepherd (4 swaps) stops after c3-c4
    (``Rrr``, 4 points), the Bobtail stops before any swap (``"swaps": []``); refill ``lyb``.
  - dolly-cascades: same flock and swap (4 points); refill ``lff`` makes c2..c4 ``fff``, taken
    by seat 0 too (3 more: 7); refill ``byl``: row c ``lbyly``; 1 card left.
  - dolly-end-points (end_points 4): the same 4 points end the game: seat 0 wins 4-0.
  - dolly-rounds (1 dog card each, 2 rounds): four turns of a1-a2 (there and back), the dog
    cards taken back for round 2; the game ends after round 2 at 0-0, both win.

* dolly-illegal-dog: seat 0 plays dog 0 twice (move 2): Dolly Crush ruling 7.
* dolly-illegal-swaps: 2 swaps for a 4-swap card (move 0): Dolly Crush ruling 7.
* dolly-malformed-cell / bad-json / shave-malformed-die / shave-both-wolves: not records.
* shave-rulebook: grow 1 (m29); double 2 (m27); swap: sheep 2|1; wolf on seat 0: 2 back
  (m29); shear of a bare sheep; grow: seat 1 has 2 (m28).
* shave-cutting-costs-end: wool 4: double (2, m2), bare shear, grow (3, m1), double with one
  left (seat 1: 1, m0) ends the game; final shears pay 1 each: piles 2|0, middle 2
  (Shave a Sheep ruling 7).
* shave-howling-wolf (3 seats): double (2); gray/white: seat 2 grabs, seat 0 loses one, the
  roller grows (m28); white/gray: the roller grabs, seat 1 loses one, no grow (m29);
  green/pink: seat 0 shears 1.
* shave-mr-wolf: double (2), grow (1), A to seat 1 (pile 1, wolf at 1), seat 1 swaps sheep
  with seat 0 (the wolf stays at seat 1), B raids 2 (pile 3, wolf home), seat 1 sends the
  wolf to seat 0's bare sheep: wolf at 0.
* shave-truncated: max_turns 2 stops the game: finished, truncated, no winners.
* shave-custom-die: die white, white/x2, pink; wool 6, cap 2: double (2, m4); bare shear;
  seat 0 auto-shorn (pile 2) then grows (1, m3).
* shave-illegal-swap: seat 1 swaps with itself (move 1): Shave a Sheep ruling 4.
* shave-house-auto-shear (auto_shear 2, wool 10): double (2, m8), grow (1, m7); seat 0 shorn at
  2 (pile 2) grows (1, m6); grow (2, m5); grow (2, m4); seat 1 shorn at 2: piles 2|2, sheep 2|0.
* shave-house-wolf-to-roller (half, to the roller): double, double, grow (3, m5); seat 1's wolf
  takes 2 of seat 0's 3 (rounded up) into its own pile: sheep 1|2, piles 0|2, m5.
* shave-house-shear-cost (2, wool 6): double, double (m2), shear of 2 pays 2 (pile 0, m4),
  double (4, m2), double (m0): the final shear pays 2 each: piles 0|2, middle 4.
* shave-house-target (4): double, double, double (4), grow (3), shear: pile 4 ends the game;
  the final shear banks seat 1's 3: 4|3, middle 13.
* shave-house-no-final-shear: double (2), grow (1), shear (pile 2), grow (2, m0): the game ends
  with no final shear: piles 2|0 (a 2-2 tie with it).
* shave-house-full-bonus (2, cap 2, wool 8): double (2, m6), grow (1, m5); seat 0's auto-shear
  of a full sheep banks 2 and the bonus 2 (pile 4, m3); grow (1, m2); double with room for one
  (2, m1); a pink shear of 1 earns no bonus (pile 5); seat 1's auto-shear banks 2 and the bonus's
  last piece (pile 3, m0): the game ends at once, 5|3.
* shave-house-rerolls (2): gray/green and x2 rolled again, grow on white; double; white rolled
  again, shear on white/pink (pile 1): sheep 0|2, piles 1|0, m7.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sheepfold.cli.main import app

RECORDS = Path(__file__).parent / "records"
GOLDEN = sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
RUNNER = CliRunner()


def expected(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def test_the_golden_set_is_complete() -> None:
    names = {p.stem for p in GOLDEN}
    assert len(names) >= 15
    for p in GOLDEN:
        assert p.with_name(p.stem + ".expected.json").exists(), p
    kinds = {n.split("-")[0] for n in names}
    assert kinds == {"dolly", "shave", "bad"}
    assert any("error" in expected(p) for p in GOLDEN) and any(
        "error" not in expected(p) for p in GOLDEN
    )


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_exactly(path: Path) -> None:
    want = expected(path)
    result = RUNNER.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == (2 if "error" in want else 0), result.output
    assert json.loads(result.stdout) == want
    assert result.stdout.count("\n") == 1  # one JSON object, one line


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_for_people(path: Path) -> None:
    want = expected(path)
    result = RUNNER.invoke(app, ["replay", str(path)])
    assert result.exit_code == (2 if "error" in want else 0)
    assert "Traceback" not in result.output
    if "error" in want:
        assert "error" in result.output.lower()
    else:
        assert f"{want['moves_applied']} moves applied" in result.output


def test_replay_reads_standard_input() -> None:
    path = RECORDS / "shave-rulebook.json"
    result = RUNNER.invoke(app, ["replay", "-", "--json"], input=path.read_text())
    assert result.exit_code == 0 and json.loads(result.stdout) == expected(path)


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = RUNNER.invoke(app, ["replay", str(tmp_path / "nope.json"), "--json"])
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert out["move"] is None and "cannot read" in out["error"]
    result = RUNNER.invoke(app, ["replay", str(tmp_path), "--json"])
    assert result.exit_code == 2 and "cannot read" in json.loads(result.stdout)["error"]


def test_the_installed_command_keeps_the_contract() -> None:
    """The real entry point, in a fresh process: stdout JSON and the exit status."""
    exe = Path(sys.executable).with_name("sheepfold")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "sheepfold.cli.main"]
    env = {**os.environ, "COLUMNS": "100"}
    for name, code in (("dolly-cross", 0), ("shave-illegal-swap", 2), ("bad-json", 2)):
        path = RECORDS / f"{name}.json"
        proc = subprocess.run(
            [*cmd, "replay", str(path), "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert proc.returncode == code, proc.stderr
        assert json.loads(proc.stdout) == expected(path)
        assert "Traceback" not in proc.stderr
