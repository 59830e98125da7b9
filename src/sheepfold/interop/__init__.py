"""Adapters to the standard AI interfaces (optional extra ``sheepfold[rl]``).

- :mod:`sheepfold.interop.openspiel`: ``import sheepfold.interop.openspiel`` registers
  ``python_dolly_crush`` and ``python_shave_a_sheep`` with ``pyspiel``.
- :mod:`sheepfold.interop.pettingzoo`: AEC environments (``dolly_crush_env``, ``shave_a_sheep_env``).
- :mod:`sheepfold.interop.gymnasium`: single-agent environments against our bots
  (``DollyCrushEnv``, ``ShaveASheepEnv``), registered as ``sheepfold/DollyCrush-v0`` and
  ``sheepfold/ShaveASheep-v0``.

This package imports none of the frameworks itself: each submodule imports its own, so the
engine works without them. :mod:`sheepfold.interop.encoding` holds the observation layout the
three share.
"""
