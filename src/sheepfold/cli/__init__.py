"""The ``sheepfold`` command (typer): play, replay, rules, and the commands of later layers."""
