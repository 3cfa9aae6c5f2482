import sys

from benchaudit.command import main

if __name__ == "__main__":  # pragma: no cover - exercised through subprocess tests
    # ``python -m benchaudit`` is the whole program, and may end the process when the
    # command is done; run by another program's code (runpy.run_module), it returns to it.
    main(whole_process=sys.modules["__main__"].__dict__ is globals())
