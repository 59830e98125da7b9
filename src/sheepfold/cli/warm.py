"""``sheepfold warm``: compile every kernel into numba's cache now (:mod:`sheepfold.warm`)."""

from __future__ import annotations

import typer

from sheepfold.cli.common import err_console


def warm_command(
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print nothing but errors"),
    jobs: int = typer.Option(
        1, "--jobs", "-j", min=1, help="compile this many parts at once, a process each (cores)"
    ),
) -> None:
    """Compile every compiled kernel (the batched simulator, the lab's fast games, the bots'
    playouts, the exact solver) into numba's cache folder, so that no later run waits for it.
    Cold, this takes a few minutes; warm, a few seconds (the kernels are only loaded). Useful
    once after installing, or when building a container image."""
    from sheepfold.warm import warm_all

    with err_console.status("compiling") as status:

        def progress(done: int, total: int, label: str) -> None:
            if done < total:
                status.update(f"compiling ({done}/{total} done): {label}")

        done = warm_all(None if quiet else progress, jobs)
    if not quiet:
        for label, seconds in done:
            took = "skipped: its extra is not installed" if seconds is None else f"{seconds:.1f} s"
            err_console.print(f"{label}: {took}", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("warm")(warm_command)
