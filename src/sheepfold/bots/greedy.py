"""Greedy bots (filled in by the bots layer)."""
