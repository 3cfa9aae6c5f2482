"""The ``benchaudit`` console script (and ``python -m benchaudit``).

The command line of :mod:`benchaudit.cli`, started with the module cache of
:mod:`benchaudit.code_cache` in place before anything else is imported, the compiled-regex cache of
:mod:`benchaudit.regex_cache` in place before anything compiles a pattern, so the
patterns of click, the Markdown parser and the claim reader all come from it, and the
compiled record-class methods of :mod:`benchaudit.method_cache` before any class is made.
A plain ``check`` line is run by :mod:`benchaudit.fastpath` without importing click.

Once the command has finished (its report written, its exit status known) the process
ends without tearing the interpreter down (see :func:`end_process`).
"""

from __future__ import annotations

import sys

#: The collector's first-generation threshold for the command (Python's default is 700).
START_THRESHOLD = 50_000


def main(whole_process: bool = True) -> None:
    """Run the command line; ``whole_process=False`` when other code of this process
    runs after it (the command then returns or raises ``SystemExit`` as usual)."""
    import gc

    # The start-up allocates tens of thousands of objects that live as long as the process
    # (modules, classes, functions, patterns), and the collector's default (a pass every 700
    # allocations) walks them again and again: about a twentieth of a model-card check.
    # Passes every 50,000 still reclaim every cycle; fewer of them go over what lives on
    # (a card check: 2% fewer instructions than at 10,000, the same as no collector at all;
    # the garbage a young generation can hold is a few megabytes at most).
    threshold, *older = gc.get_threshold()
    gc.set_threshold(max(threshold, START_THRESHOLD), *older)
    from benchaudit import code_cache

    code_cache.install()  # first: every module imported after it is served from it
    from benchaudit import method_cache, regex_cache

    regex_cache.install()
    method_cache.install()
    from benchaudit import fastpath

    try:
        if fastpath.run(sys.argv[1:]):
            return  # pragma: no cover - the check exits
        from benchaudit.cli import main as command

        command()
    except SystemExit as done:
        if whole_process:
            end_process(done.code)
        raise


def end_process(code: object) -> None:
    """End the process with exit status ``code`` the way Python's own exit would, less
    the teardown: returns (to let the ordinary exit run) whenever that is not certain.

    Tearing down an interpreter that has imported three hundred modules (every module's
    namespace cleared, every object freed one by one, collections run) costs about a
    tenth of a model-card check and leaves nothing behind that the run needs. What the
    exit does that matters is done here, in Python's order: the ``atexit`` functions
    (the caches' saves, temporary folders removed, other libraries' own), and stdout and
    stderr flushed. A status Python would print (a message), another thread still
    running, ``python -i``, a stream that cannot be flushed: the ordinary exit.
    """
    import os

    if code is None:
        status = 0
    elif isinstance(code, int) and 0 <= code <= 255:
        status = int(code)
    else:
        return  # a message for stderr, or a status the ordinary exit truncates its way
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return  # the ordinary exit waits for them
    import atexit

    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if sys.flags.inspect or run_exit_functions is None:
        return
    if not _flushed():
        return
    run_exit_functions()  # once: the ordinary exit would find none left to run
    if not _flushed():
        return
    os._exit(status)


def _flushed() -> bool:
    """stdout and stderr flushed; False if either cannot be (a closed stream, a broken
    pipe), which the ordinary exit reports its own way."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - the ordinary exit says what went wrong
            return False
    return True
