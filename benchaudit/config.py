"""Configuration: ``[tool.benchaudit]`` in pyproject.toml, ``[benchaudit]`` in
setup.cfg, then command-line flags on top.

Unknown keys are errors: a misspelt key silently ignored is how a check that
someone thinks is on stays off. So are unknown rule names and rule options,
values of the wrong type, and numbers out of their bounds (each a one-line
message naming the key). Configuration files are read with a size cap.

A configuration file lives in the repository being checked, so a pull request
can change it. What would switch the check off wholesale -- ``*`` or a whole
family (``BA``, ``BA2``) in ``ignore`` or ``per-file-ignores``, and
``fail-on = "never"`` -- is honoured only next to ``allow-broad-ignores =
true``; otherwise it is left out and reported (``broad-suppression``).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchaudit import limits
from benchaudit.errors import ConfigError
from benchaudit.options import Option, is_broad

#: Every key the configuration accepts, with a one-line meaning (shown in the README).
KEYS: dict[str, str] = {
    "select": "rules to run (names, codes or code prefixes); default all",
    "ignore": "rules to skip",
    "fail-on": "lowest severity that makes the exit code 1: error, warning, info or never",
    "format": "default output format(s)",
    "n": "item counts by benchmark name, e.g. {my-bench = 250}; override the registry",
    "seed": "seed for every randomised method (bootstrap, permutation); default 0",
    "alpha": "significance level for tests and intervals; default 0.05",
    "resamples": "bootstrap / permutation resamples; default 10000",
    "per-file-ignores": "map of glob -> rules to ignore in matching files",
    "baseline": "baseline file of accepted findings",
    "kind": "force the input kind (results, document, leaderboard, battles, ...)",
    "columns": "column names for per-item files: {model=..., item=..., score=..., ...}",
    "baseline-model": "model that comparisons are made against; default the first",
    "max-rows": "refuse per-item files with more rows than this",
    "max-decompressed-mb": (
        "largest decompressed size of a gzip'd input or .eval member, in MB; default 512"
    ),
    "max-wide-columns": "most model columns a wide per-item file may have; default 200",
    "max-wide-cells": ("most model columns x rows a wide per-item file may have; default 20000000"),
    "max-parquet-rows": "most rows a Parquet per-item file may have; default 20000000",
    "corpus": "training-corpus shards (globs) for the contamination rule",
    "benchmark": "benchmark item file for the contamination rule",
    "ngram": "n-gram length for the contamination scan; default 13",
    "rules": "per-rule options: {rule-name = {option = value}}",
    "allow-broad-ignores": "honour '*', whole families and fail-on = never from this file",
    # Reader caps of docs/limits.md (benchaudit/limits.py holds the defaults).
    "max-line-bytes": "longest shard or benchmark line / text document, in bytes; default 32 MiB",
    "max-expansion": "largest decompressed-to-compressed ratio of a .gz/.zst shard; default 100",
    "max-benchmark-bytes": "largest benchmark item file, in bytes; default 256 MiB",
    "max-baseline-bytes": "largest baseline file, in bytes; default 16 MiB",
    "pdf-max-pages": "refuse PDFs with more pages; default 2000",
    "pdf-max-chars-per-page": "refuse PDF pages that draw more characters; default 200000",
    "pdf-max-stream-bytes": "refuse PDFs with a stream that decodes to more bytes; default 16 MiB",
    "pdf-max-content-bytes": "refuse PDFs with more decoded page content in all; default 4 MiB",
    "max-document-mb": "largest Markdown, text or HTML document, in MB; default 16",
    "max-paragraph-numbers": "numbers read from one paragraph of prose; default 2000",
}

#: Bounds of the numbers the configuration sets (also the command-line flags').
MAX_RESAMPLES = 100_000
MAX_SEED = 2**63 - 1
MAX_NGRAM = 64
MAX_ITEMS = 10**9
#: Largest configuration or baseline file read.
MAX_FILE_BYTES = 1 << 20


@dataclass(frozen=True)
class Refused:
    """A broad suppression a configuration file asked for and did not get."""

    key: str
    value: str
    where: str
    line: int | None = None

FAIL_ON = ("error", "warning", "info", "never")


@dataclass
class Config:
    """Resolved settings for one run."""

    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    fail_on: str = "error"
    formats: list[str] = field(default_factory=lambda: ["text"])
    n: dict[str, int] = field(default_factory=dict)
    seed: int = 0
    alpha: float = 0.05
    resamples: int = 10000
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    baseline: str | None = None
    kind: str | None = None
    columns: dict[str, str] = field(default_factory=dict)
    baseline_model: str | None = None
    max_rows: int | None = None
    #: Input caps (``None``: the default in :mod:`benchaudit.inputs.limits`).
    max_decompressed_mb: int | None = None
    max_wide_columns: int | None = None
    max_wide_cells: int | None = None
    max_parquet_rows: int | None = None
    max_document_mb: int | None = None
    max_paragraph_numbers: int | None = None
    #: Reader caps (:class:`benchaudit.limits.Limits`); None: the defaults.
    limits: Any = None
    corpus: list[str] = field(default_factory=list)
    benchmark: str | None = None
    ngram: int = 13
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str | None = None
    allow_broad_ignores: bool = False
    #: Broad suppressions left out because ``allow-broad-ignores`` was not set.
    refused: list[Refused] = field(default_factory=list)
    #: Skip named files of no known kind, and empty ones, with a note (the
    #: pre-commit hook passes every staged file with a matching extension).
    skip_unknown: bool = False

    def rule_options(self, name: str) -> dict[str, Any]:
        return dict(self.rules.get(name, {}))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _as_list(key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        return [v.strip() for v in value.replace("\n", ",").split(",") if v.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value]
    raise ConfigError(
        f"config key {key!r} must be a list of names or a comma-separated string, "
        f"got {_short(value)}"
    )


def _as_int(key: str, value: Any, minimum: int = 0, maximum: int | None = None) -> int:
    text = str(value).strip()
    if isinstance(value, (bool, list, dict, float)) or not re.fullmatch(r"[+-]?\d+", text):
        raise ConfigError(f"config key {key!r} must be a whole number, got {_short(value)}")
    if len(text) > 30:
        raise ConfigError(f"config key {key!r} is out of range: {_short(value)}")
    out = int(text)
    if out < minimum:
        raise ConfigError(f"config key {key!r} must be at least {minimum}, got {out}")
    if maximum is not None and out > maximum:
        raise ConfigError(f"config key {key!r} must be at most {maximum:,}, got {out:,}")
    return out


def _as_number(key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ConfigError(f"config key {key!r} must be a number, got {_short(value)}")
    try:
        out = float(str(value).strip())
    except ValueError:
        raise ConfigError(f"config key {key!r} must be a number, got {_short(value)}") from None
    if out != out or out in (float("inf"), float("-inf")):
        raise ConfigError(f"config key {key!r} must be a finite number, got {_short(value)}")
    return out


def _as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, str) else None
    if text in ("true", "yes", "on", "1"):
        return True
    if text in ("false", "no", "off", "0"):
        return False
    raise ConfigError(f"config key {key!r} must be true or false, got {_short(value)}")


def _as_str(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"config key {key!r} must be a string, got {_short(value)}")
    return value


#: Integer keys: (minimum, maximum).
_INTS = {
    "seed": (0, MAX_SEED),
    "resamples": (1, MAX_RESAMPLES),
    "ngram": (1, MAX_NGRAM),
    "max-rows": (1, None),
    # Reader caps (benchaudit/inputs/limits.py has the defaults).
    "max-decompressed-mb": (1, None),
    "max-wide-columns": (1, None),
    "max-wide-cells": (1, None),
    "max-parquet-rows": (1, None),
    "max-document-mb": (1, 4096),
    "max-paragraph-numbers": (1, None),
}


def check_int(flag: str, value: Any, key: str) -> int:
    """A command-line number checked against the bounds of configuration key ``key``."""
    lo, hi = (1, MAX_ITEMS) if key == "n" else _INTS[key]
    return _as_int(flag, value, lo, hi)


def apply(cfg: Config, raw: dict[str, Any], where: str) -> Config:
    """Merge a raw mapping (from a file) into ``cfg``, validating every key."""
    try:
        return _apply(cfg, raw, where)
    except ConfigError as exc:
        text = str(exc)
        raise ConfigError(text if text.startswith(f"{where}:") else f"{where}: {text}") from None


def _apply(cfg: Config, raw: dict[str, Any], where: str) -> Config:
    for key, value in raw.items():
        norm = key.replace("_", "-")
        if norm not in KEYS:
            raise ConfigError(f"{where}: unknown config key {key!r}")
        if norm in ("select", "ignore", "corpus"):
            setattr(cfg, norm, _as_list(key, value))
        elif norm == "fail-on":
            if str(value) not in FAIL_ON:
                raise ConfigError(f"{where}: fail-on must be one of {', '.join(FAIL_ON)}")
            cfg.fail_on = str(value)
        elif norm == "format":
            cfg.formats = _as_list(key, value)
        elif norm == "n":
            cfg.n.update(_as_mapping_of_ints(where, key, value))
        elif norm in limits.KEYS:
            current = cfg.limits or limits.DEFAULT
            cfg.limits = replace(current, **{limits.KEYS[norm]: _as_int(key, value, 1, None)})
        elif norm in _INTS:
            setattr(cfg, norm.replace("-", "_"), _as_int(key, value, *_INTS[norm]))
        elif norm == "alpha":
            cfg.alpha = _as_number(key, value)
            if not 0 < cfg.alpha < 1:
                raise ConfigError(f"{where}: alpha must be between 0 and 1")
        elif norm == "per-file-ignores":
            cfg.per_file_ignores = {
                str(k): _as_list(f"{key}.{k}", v) for k, v in _as_mapping(where, key, value).items()
            }
            _known_rules(key, [n for names in cfg.per_file_ignores.values() for n in names])
        elif norm == "columns":
            cfg.columns = {
                str(k): _as_str(f"{key}.{k}", v) for k, v in _as_mapping(where, key, value).items()
            }
        elif norm == "rules":
            cfg.rules = _rule_options(where, key, value)
        elif norm == "allow-broad-ignores":
            cfg.allow_broad_ignores = _as_bool(key, value)
        else:
            setattr(cfg, norm.replace("-", "_"), _as_str(key, value))
    if not cfg.allow_broad_ignores:
        _refuse_broad(cfg, raw, where)
    return cfg


def _known_rules(key: str, names: list[str]) -> None:
    """Refuse a rule name that no rule has (a misspelt ignore hides nothing, silently)."""
    from benchaudit.registry import select

    try:
        select((), [n for n in names if n.strip() != "*"])
    except ConfigError as exc:
        raise ConfigError(f"{key}: {exc}") from None


def _refuse_broad(cfg: Config, raw: dict[str, Any], where: str) -> None:
    keys = {k.replace("_", "-") for k in raw}
    if "ignore" in keys:
        for name in [n for n in cfg.ignore if is_broad(n)]:
            cfg.refused.append(Refused("ignore", name, where))
        cfg.ignore = [n for n in cfg.ignore if not is_broad(n)]
    if "per-file-ignores" in keys:
        for pattern, names in list(cfg.per_file_ignores.items()):
            for name in [n for n in names if is_broad(n)]:
                cfg.refused.append(Refused(f"per-file-ignores.{pattern}", name, where))
            cfg.per_file_ignores[pattern] = [n for n in names if not is_broad(n)]
    if "fail-on" in keys and cfg.fail_on == "never":
        cfg.refused.append(Refused("fail-on", "never", where))
        cfg.fail_on = Config.fail_on


def _rule_options(where: str, key: str, value: Any) -> dict[str, dict[str, Any]]:
    """Per-rule options, each rule known and each option one it declares, of its type."""
    from benchaudit.registry import lookup

    out: dict[str, dict[str, Any]] = {}
    for name, options in _as_mapping(where, key, value).items():
        try:
            cls = lookup(str(name))
        except ConfigError:
            raise ConfigError(
                f"{where}: {key}.{name}: unknown rule (see 'benchaudit rules')"
            ) from None
        if not isinstance(options, dict):
            raise ConfigError(f"{where}: {key}.{name} must be a table of options")
        declared = getattr(cls, "option_types", None)
        if declared is None and cls.__module__.startswith("benchaudit.rules."):
            declared = {}  # a built-in rule without options takes none
        checked: dict[str, Any] = {}
        for opt, v in options.items():
            full = f"{key}.{name}.{opt}"
            if declared is None:  # a rule from a pack that declares none
                checked[str(opt)] = v
                continue
            spec = declared.get(str(opt))
            if spec is None:
                known = ", ".join(sorted(declared)) or "none"
                raise ConfigError(f"{where}: {full}: unknown option (known: {known})")
            checked[str(opt)] = _option_value(full, spec, v)
        out[cls.name] = checked
    return out


def _option_value(key: str, spec: Option, value: Any) -> Any:
    lo = None if spec.minimum is None else int(spec.minimum)
    hi = None if spec.maximum is None else int(spec.maximum)
    if spec.kind == "int":
        return _as_int(key, value, lo if lo is not None else -(2**63), hi)
    if spec.kind == "ints":
        items = value if isinstance(value, list) else str(value).replace(",", " ").split()
        return [_as_int(key, v, lo if lo is not None else -(2**63), hi) for v in items]
    if spec.kind == "number":
        out = _as_number(key, value)
        if (spec.minimum is not None and out < spec.minimum) or (
            spec.maximum is not None and out > spec.maximum
        ):
            raise ConfigError(
                f"config key {key!r} must be between {spec.minimum} and {spec.maximum}, got {out}"
            )
        return out
    if spec.kind == "bool":
        return _as_bool(key, value)
    if spec.kind == "str":
        text = _as_str(key, value)
        if spec.choices and text.replace("_", "-").lower() not in spec.choices:
            raise ConfigError(f"config key {key!r} must be one of {', '.join(spec.choices)}")
        return text
    if spec.kind in ("table-of-int", "table-of-number"):
        if not isinstance(value, dict):
            raise ConfigError(f"config key {key!r} must be a table, got {_short(value)}")
        if spec.kind == "table-of-int":
            return {str(k): _as_int(f"{key}.{k}", v, lo or 0, hi) for k, v in value.items()}
        return {str(k): _as_number(f"{key}.{k}", v) for k, v in value.items()}
    raise ValueError(f"unknown option kind {spec.kind!r}")  # a rule's own mistake


def _as_mapping(where: str, key: str, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        # setup.cfg spells a mapping as lines "name = value" or "name: value".
        out: dict[str, Any] = {}
        for line in value.splitlines():
            if not line.strip():
                continue
            sep = "=" if "=" in line else ":"
            if sep not in line:
                raise ConfigError(f"{where}: {key!r} entries must look like 'name = value'")
            k, v = line.split(sep, 1)
            out[k.strip()] = v.strip()
        return out
    raise ConfigError(f"{where}: config key {key!r} must be a table, got {_short(value)}")


def _as_mapping_of_ints(where: str, key: str, value: Any) -> dict[str, int]:
    return {
        str(k): _as_int(f"{key}.{k}", v, 1, MAX_ITEMS)
        for k, v in _as_mapping(where, key, value).items()
    }


def _text(p: Path) -> str:
    from benchaudit import fs
    from benchaudit.errors import InputError

    try:
        data = fs.read_capped(p, str(p), MAX_FILE_BYTES, "config file")
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    return data.decode("utf-8")


def read_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The benchaudit section of one config file, or {} when it has none."""
    p = Path(path)
    try:
        if p.suffix == ".toml":
            if sys.version_info >= (3, 11):
                import tomllib
            else:
                import tomli as tomllib
            data = tomllib.loads(_text(p))
            if p.name == "pyproject.toml":
                return dict(data.get("tool", {}).get("benchaudit", {}))
            # A standalone benchaudit.toml may hold keys at the top or under [benchaudit].
            return dict(data.get("benchaudit", data))
        return _read_cfg(p)
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read config: {exc.strerror or exc}") from None
    except ValueError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"{p}: invalid config: {first}") from None


def _read_cfg(p: Path) -> dict[str, Any]:
    # configparser is imported here: most runs have no setup.cfg to read.
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(_text(p), source=str(p))
    except configparser.Error as exc:
        raise ValueError(str(exc)) from None
    if parser.has_section("benchaudit"):
        return dict(parser.items("benchaudit"))
    return {}


def discover(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The nearest pyproject.toml or setup.cfg with a benchaudit section."""
    here = Path(start or os.getcwd()).resolve()
    for folder in (here, *here.parents):
        for name in ("pyproject.toml", "setup.cfg"):
            candidate = folder / name
            if candidate.is_file():
                try:
                    text = _text(candidate)
                except (ConfigError, UnicodeDecodeError):
                    return candidate  # reading it again says what is wrong
                # A section header on a line of its own: a comment that names it is not one.
                marker = r"\[tool\.benchaudit[\].]" if name == "pyproject.toml" else r"\[benchaudit\]"
                if re.search(rf"^[ \t]*{marker}", text, re.M):
                    return candidate
        if (folder / ".git").exists():
            break
    return None


def load(path: str | None = None, start: str | None = None) -> Config:
    """Read the configuration: an explicit file, else the nearest discovered one."""
    cfg = Config()
    found = Path(path) if path else discover(start)
    if found is None:
        return cfg
    if path and not found.is_file():
        raise ConfigError(f"{found}: config file not found")
    cfg.source = str(found)
    apply(cfg, read_file(found), str(found))
    if cfg.refused:
        lines = _text(found).splitlines()
        cfg.refused = [_with_line(r, lines) for r in cfg.refused]
    return cfg


def _with_line(r: Refused, lines: list[str]) -> Refused:
    """The refused entry with the line of the file that holds it (the key's, else the name's)."""
    key = r.key.split(".", 1)[0]
    for i, text in enumerate(lines, 1):
        bare = text.strip().replace("_", "-")
        if bare.startswith((key, f'"{key}"', f"'{key}'")) and r.value in text:
            return Refused(r.key, r.value, r.where, i)
    for i, text in enumerate(lines, 1):
        if text.strip().replace("_", "-").startswith((key, f"[tool.benchaudit.{key}")):
            return Refused(r.key, r.value, r.where, i)
    return r
