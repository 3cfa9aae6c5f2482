"""One escaping layer for everything that came from an input.

Model names, file names, claims and benchmark names come from files nobody
has vetted, and the reports go to terminals, CI logs and pull-request
comments. Every writer passes such text through this module:

- :func:`visible` shows control characters instead of sending them: C0 (but
  tab and newline), DEL, C1 (``\\x9b`` is a one-byte CSI), and the Unicode
  line separators and bidirectional overrides that reorder what a reader sees.
  An ANSI or OSC sequence then arrives as the text ``\\x1b]52;...`` and
  moves no cursor, writes no clipboard and makes no hyperlink.
- :func:`no_commands` breaks the prefixes a GitHub Actions runner reads as a
  workflow command: ``::`` (``::error``, ``::add-mask::``,
  ``::stop-commands::``) and ``##[`` (the older form, recognised anywhere in a
  line).
- :func:`line` is both, on one line: what text output and logs use.
- :func:`markdown` and :func:`markdown_code` for Markdown: punctuation that
  makes links, images, emphasis, code, math or HTML is escaped, and anything
  GitHub would turn into a link or a notification (``@name``, ``#12``, a URL,
  an e-mail address) goes into a code span, where neither mentions nor
  autolinks apply (an entity such as ``&#64;`` does not help: mentions are
  found after entities are decoded).
- :func:`json_text` keeps JSON valid and its strings raw, but writes the
  characters JSON allows unescaped (DEL, C1, U+2028 ...) as ``\\u`` escapes,
  so that printing the file on a terminal is safe too.
"""

from __future__ import annotations

import re

#: Characters never sent as themselves: C0 but tab and newline, DEL, C1, the Unicode
#: line and paragraph separators, bidirectional marks, overrides and isolates, BOM, and
#: lone surrogates (a file name's undecodable bytes), which no output encoding takes.
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
    "\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)
#: A second colon after a colon, and a bracket after two hashes.
_COMMAND = re.compile(r"(?<=:):|(?<=##)\[")


def _show(m: re.Match[str]) -> str:
    c = m.group(0)
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text: object) -> str:
    """``text`` with every control character written as an escape (``\\x1b``)."""
    return _CONTROL.sub(_show, str(text))


def no_commands(text: str) -> str:
    """``text`` with no workflow-command prefix: ``::`` -> ``:%3A``, ``##[`` -> ``##%5B``."""
    return _COMMAND.sub(lambda m: "%3A" if m.group(0) == ":" else "%5B", text)


def one_line(text: str) -> str:
    return " ".join(text.split())


def line(text: object) -> str:
    """Input text for one line of text output or a log: visible, one line, no command."""
    return no_commands(one_line(visible(text)))


def safe(text: object) -> str:
    """Input text for a format that keeps its lines (HTML): visible and no command."""
    return no_commands(visible(text))


# ------------------------------------------------------------------ markdown

#: A word GitHub links or notifies on: @mention, #123 / GH-123 reference, URL, e-mail, www.
_LINKY = re.compile(r"@|#\d|\bGH-\d|://|\bwww\.", re.I)
#: Markdown punctuation escaped with a backslash wherever it appears.
_MD_PUNCT = re.compile(r"([\\`*_\[\]{}!~$|^])")


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in ``text``."""
    longest = max((len(r) for r in re.findall(r"`+", text)), default=0)
    return "`" * (longest + 1)


def markdown_code(text: object, table: bool = True) -> str:
    """Input text as one inline code span: nothing in it is markup, link or mention.

    The fence is longer than any backtick run inside, so a backtick in a file
    name cannot close the span; ``|`` is escaped inside tables, where GFM splits
    cells before it reads code spans.
    """
    s = no_commands(one_line(visible(text)))
    if table:
        s = s.replace("|", "\\|")
    if not s:
        return ""
    fence = _fence(s)
    pad = " " if s.startswith("`") or s.endswith("`") or fence != "`" else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _md_word(word: str) -> str:
    if _LINKY.search(word):
        return markdown_code(word)
    word = _MD_PUNCT.sub(r"\\\1", word)
    return word.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def markdown(text: object, block: bool = False) -> str:
    """Input text for a Markdown table cell or paragraph, rendered as the same words.

    With ``block``, syntax that means something at the start of a line (``#``,
    ``>``, ``-``, ``1.``) is escaped too, so the text can start one.
    """
    words = no_commands(one_line(visible(text))).split(" ")
    out = " ".join(_md_word(w) for w in words if w)
    if not block:
        return out
    out = re.sub(r"^(\d+)([.)])", r"\1\\\2", out)
    return re.sub(r"^([#>+=-])", r"\\\1", out)


# ---------------------------------------------------------------------- json

_JSON_RAW = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def json_text(dumped: str) -> str:
    """A JSON document with the characters JSON lets through raw written as ``\\u`` escapes,
    and the second character of ``::`` and ``##[`` too.

    Those characters and pairs can only occur inside strings (JSON's own syntax is
    ASCII and never puts two colons or ``##[`` together), so the document parses
    to the same values, and printing it in a CI log runs no workflow command.
    """
    out = _JSON_RAW.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped)
    return _COMMAND.sub(lambda m: "\\u003a" if m.group(0) == ":" else "\\u005b", out)
