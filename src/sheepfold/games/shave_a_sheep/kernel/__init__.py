"""Shave a Sheep's compiled rules kernel: the one fast copy of the rules, shared by the solver,
the lab's fast simulator and the benchmark (numba, the ``fast`` extra).

The readable engine (:mod:`sheepfold.games.shave_a_sheep.game`) is the specification; this kernel
answers the same questions over a state vector and is checked against the engine at every
reachable position of small rule sets (``tests/test_shave_kernel.py``). Its public API, by module:

* :mod:`.layout` (no numba): the state vector's slots, the engine's action ids, the face bits,
  the wolf code, :func:`~.layout.rules_record` (the rules every kernel takes), :func:`~.layout.from_state`
  and :func:`~.layout.position_index` (the solver's numbering of turn starts);
* :mod:`.step`: ``roll``, ``grab``, ``choices``, ``howl_targets``, ``howl_take``, ``race_take``,
  ``howl_choices``, ``act``, ``end_turn`` (with the turn limit), ``finish``, ``share``;
* :mod:`.index`: ``encode``, ``decode``, ``layer_of``, ``turn_round``;
* :mod:`.policy`: ``value`` and ``greedy`` (the greedy heuristic of
  :mod:`sheepfold.games.shave_a_sheep.policy`);
* :mod:`.play`: ``turn`` and ``play`` (whole turns and games by per-seat policies, with
  counter-based random numbers).

Import the submodules; importing this package alone does not import numba.
"""
