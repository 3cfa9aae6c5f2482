"""File-system boundaries: which files a run opens, and how much of them it reads.

The inputs of a CI run come from a pull request, so a run stays inside the
tree it was given: a directory walk or a glob does not follow a link out of
its root, visits every real file once (links inside the tree are found at
their real place, so ``a -> .`` is no loop), and opens only regular files: a
FIFO would block the open forever and a device (``/dev/zero``) never ends.
What a walk leaves out, and folders it cannot read, are said in a note.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from benchaudit.errors import InputError

_SPECIAL = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def special_kind(mode: int) -> str | None:
    """What a non-regular, non-directory file is ("a FIFO ..."), or None."""
    for test, words in _SPECIAL:
        if test(mode):
            return words
    return None


def os_error(display: str, exc: OSError) -> InputError:
    """The one-line error for an OSError met opening or reading an input."""
    if isinstance(exc, FileNotFoundError):
        return InputError(display, "no such file")
    if isinstance(exc, IsADirectoryError):
        return InputError(display, "is a directory")
    if isinstance(exc, PermissionError):
        return InputError(display, "permission denied")
    return InputError(display, f"cannot read: {exc.strerror or exc}")


def require_regular(path: str | os.PathLike[str], display: str) -> os.stat_result:
    """Stat ``path`` and refuse anything but a regular file, before it is opened."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise os_error(display, exc) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(display, "is a directory")
    kind = special_kind(st.st_mode)
    if kind is not None:
        raise InputError(display, f"is {kind}, not a regular file; not read")
    return st


def read_capped(path: str | os.PathLike[str], display: str, limit: int, what: str) -> bytes:
    """The bytes of a small regular file, refusing one larger than ``limit``."""
    require_regular(path, display)
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise os_error(display, exc) from None
    if len(data) > limit:
        raise InputError(display, f"{what} is larger than {limit // 1024:,} KB; not read")
    return data


def inside(path: str, root: str) -> bool:
    """Whether real path ``path`` lies in real folder ``root``."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether ``a`` and ``b`` name one existing file (through links too)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def escapes(path: str | os.PathLike[str], root: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``path`` names a file in ``root`` (default: cwd) that is really outside it.

    A path that lies outside ``root`` as written was chosen as such and does not
    escape; one written inside it that resolves outside goes through a link.
    """
    top = os.path.abspath(root or os.getcwd())
    p = os.path.abspath(path)
    if not inside(p, top):
        return False
    return not inside(os.path.realpath(p), os.path.realpath(top))


def walk(
    root: str | os.PathLike[str],
    notes: list[str] | None = None,
    max_depth: int | None = None,
    wanted: Callable[[Path], bool] | None = None,
) -> Iterator[Path]:
    """Regular files under ``root``, sorted, hidden entries skipped, never leaving it.

    Links are not followed: inside the tree their target is walked at its real
    place (so ``a -> .`` is no loop and no file is read twice), outside it is
    not read at all. FIFOs, sockets and devices are skipped. Each of these,
    and every folder that cannot be read, adds a line to ``notes`` (files only
    when ``wanted`` says the walk was looking for them). ``max_depth`` stops
    the walk that many folders down.
    """
    say = notes.append if notes is not None else (lambda _msg: None)
    top = os.path.realpath(root)
    seen: set[tuple[int, int]] = set()

    def unreadable(exc: OSError) -> None:
        name = Path(exc.filename).as_posix() if exc.filename else str(root)
        say(f"skipped folder {name}: cannot read it ({exc.strerror or exc})")

    for folder, dirs, files in os.walk(root, onerror=unreadable):
        base = Path(folder)
        if max_depth is not None and len(base.relative_to(root).parts) >= max_depth:
            dirs[:] = []
        kept = []
        for d in sorted(dirs):
            if d.startswith("."):
                continue
            if os.path.islink(base / d):
                say(f"skipped linked folder {_link(base / d, top)}")
                continue
            kept.append(d)
        dirs[:] = kept
        for name in sorted(files):
            if name.startswith("."):
                continue
            f = base / name
            if wanted is not None and not wanted(f):
                continue
            if os.path.islink(f):
                say(f"skipped {_link(f, top)}")
                continue
            try:
                st = os.stat(f)
            except OSError as exc:
                say(f"skipped {f.as_posix()}: {exc.strerror or exc}")
                continue
            kind = special_kind(st.st_mode)
            if kind is not None:
                say(f"skipped {f.as_posix()}: {kind}, not a regular file")
                continue
            if (st.st_dev, st.st_ino) in seen:
                continue  # the same file again, through a hard link
            seen.add((st.st_dev, st.st_ino))
            yield f


def _link(path: Path, top: str) -> str:
    if inside(os.path.realpath(path), top):
        return f"{path.as_posix()}: a link, not followed (its target is in the tree)"
    return f"{path.as_posix()}: a link that leads out of the tree"


_MAGIC = re.compile(r"[*?\[]")


def _segment_regex(seg: str) -> str:
    out, i = [], 0
    while i < len(seg):
        c = seg[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            k = i + 1 + (seg[i + 1 : i + 2] == "!")
            k += seg[k : k + 1] == "]"
            j = seg.find("]", k)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = seg[i + 1 : j]
                body = "^" + body[1:] if body.startswith("!") else body
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def glob(pattern: str, notes: list[str] | None = None) -> list[str]:
    """Files matching a glob (``**`` for any depth), found by :func:`walk`.

    The walk starts at the pattern's fixed leading folders, so the result
    never leaves them, follows no folder link (no loop, however many links
    point back up) and holds each real file once.
    """
    parts = pattern.replace(os.sep, "/").split("/")
    fixed: list[str] = []
    while parts and not _MAGIC.search(parts[0]):
        fixed.append(parts.pop(0))
    if not parts:
        return [pattern] if os.path.isfile(pattern) else []
    root = "/".join(fixed) if fixed else "."
    if pattern.startswith("/") and not root:
        root = "/"
    regex = ""
    for i, seg in enumerate(parts):
        last = i == len(parts) - 1
        if seg == "**":
            regex += ".*" if last else "(?:[^/]+/)*"
        else:
            regex += _segment_regex(seg) + ("" if last else "/")
    matcher = re.compile(regex + r"\Z", re.S)
    if not os.path.isdir(root):
        return []
    depth = None if "**" in parts else len(parts) - 1

    def wanted(f: Path) -> bool:
        return bool(matcher.match(f.relative_to(root).as_posix()))

    found = walk(root, notes, max_depth=depth, wanted=wanted)
    return sorted(f.as_posix() if fixed else f.relative_to(root).as_posix() for f in found)
