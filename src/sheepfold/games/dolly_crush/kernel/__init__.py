"""Dolly Crush's compiled rules kernel: the one fast copy of the rules, shared by the swap search,
the lab's fast path and the bots' playouts (numba, the ``fast`` extra).

The readable engine (:mod:`sheepfold.games.dolly_crush.game`) is the specification; this kernel
answers the same questions over a packed flock and is checked against the engine position by
position (``tests/test_dolly_kernel.py``). Its public API, by module:

* :mod:`.layout` (no numba): the packed flock (:func:`~.layout.pack`, :func:`~.layout.unpack`:
  nibble ``c`` = ``card + 1``, 0 empty), the swap table (``SWAP_A``/``SWAP_B``: bit offsets of
  each swap of ``cards.SWAPS``), :func:`~.layout.legal_swaps`, and :func:`~.layout.tables`, the
  rule set's line and point tables every kernel takes as ``tabs``;
* :mod:`.lines`: ``points(x, tabs)`` (the combination's points, Dolly Crush ruling 5),
  ``taken(x, tabs)`` (its cells as a 15-bit mask), ``apply_swap(x, i)``, ``is_legal(x, i)``,
  ``remove(x, mask)``;
* :mod:`.search`: ``best_one(x, tabs) -> (points, swap)`` (one swap, ``x`` a plain int: the
  cheap call from Python), ``search_swaps(x, n, seq, tabs)`` (exactly ``n`` swaps, the first
  best sequence) and ``best_swaps(flock, n, points)`` (the drop-in of ``search.best_swaps``);
* :mod:`.refill`: ``refill(x, mask, deck, n, max_rounds, rng, tabs)``, the take and the refill
  with the clean-up of Dolly Crush ruling 6 (``max_rounds``: the rule set's
  ``max_cleanup_rounds``), ``shuffle`` and ``next_random`` (splitmix64);
* :mod:`.policy`: ``greedy_turn(x, hand, seq, tabs)`` (the greedy bot's whole turn) and
  ``deny(x, tabs)``.

* :mod:`.grid`: the same rules on ANY board and under every house rule of ``DollyRules`` (the
  flock as an int8 array, the rule set as :func:`~.layout.geometry`: line windows, colour
  shift, swap table, points): ``mark``/``points``, ``legal``, ``search`` (exact or up-to
  swaps), ``settle`` (Dolly Crush ruling 6's clean-up or cascades), ``greedy_turn``, ``deny``, and
  ``GridFlocks`` (what the lookahead bots need). The packed kernels above stay the rulebook
  geometry's fast path (about 3x faster: ``layout.packable`` says when they apply);
  ``fastsearch.plain_rules`` when a whole game may use them (exact swaps, no cascades, no
  points target, no rounds).

Import the submodules (``from sheepfold.games.dolly_crush.kernel import search``); importing
this package alone does not import numba.
"""
