"""Configuration: ``[tool.benchaudit]`` in pyproject.toml, ``[benchaudit]`` in
setup.cfg, then command-line flags on top.

Unknown keys are errors: a misspelt key silently ignored is how a check that
someone thinks is on stays off.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchaudit.errors import ConfigError

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
    "corpus": "training-corpus shards (globs) for the contamination rule",
    "benchmark": "benchmark item file for the contamination rule",
    "ngram": "n-gram length for the contamination scan; default 13",
    "rules": "per-rule options: {rule-name = {option = value}}",
}

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
    corpus: list[str] = field(default_factory=list)
    benchmark: str | None = None
    ngram: int = 13
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str | None = None
    #: Skip named files of no known kind, and empty ones, with a note (the
    #: pre-commit hook passes every staged file with a matching extension).
    skip_unknown: bool = False

    def rule_options(self, name: str) -> dict[str, Any]:
        return dict(self.rules.get(name, {}))


def _as_list(key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        return [v.strip() for v in value.replace("\n", ",").split(",") if v.strip()]
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value]
    raise ConfigError(f"config key {key!r} must be a list or a comma-separated string")


def _as_int(key: str, value: Any, minimum: int = 0) -> int:
    try:
        out = int(str(value).strip())
    except ValueError:
        raise ConfigError(f"config key {key!r} must be a whole number, got {value!r}") from None
    if out < minimum:
        raise ConfigError(f"config key {key!r} must be at least {minimum}, got {out}")
    return out


def apply(cfg: Config, raw: dict[str, Any], where: str) -> Config:
    """Merge a raw mapping (from a file) into ``cfg``, validating every key."""
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
        elif norm in ("seed", "resamples", "ngram", "max-rows"):
            setattr(cfg, norm.replace("-", "_"), _as_int(key, value, 1 if norm != "seed" else 0))
        elif norm == "alpha":
            try:
                cfg.alpha = float(value)
            except ValueError:
                raise ConfigError(f"{where}: alpha must be a number") from None
            if not 0 < cfg.alpha < 1:
                raise ConfigError(f"{where}: alpha must be between 0 and 1")
        elif norm == "per-file-ignores":
            cfg.per_file_ignores = {
                str(k): _as_list(key, v) for k, v in _as_mapping(where, key, value).items()
            }
        elif norm == "columns":
            cfg.columns = {str(k): str(v) for k, v in _as_mapping(where, key, value).items()}
        elif norm == "rules":
            cfg.rules = {str(k): dict(v) for k, v in _as_mapping(where, key, value).items()}
        else:
            setattr(cfg, norm.replace("-", "_"), str(value))
    return cfg


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
    raise ConfigError(f"{where}: config key {key!r} must be a table")


def _as_mapping_of_ints(where: str, key: str, value: Any) -> dict[str, int]:
    return {str(k): _as_int(f"{key}.{k}", v, 1) for k, v in _as_mapping(where, key, value).items()}


def read_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The benchaudit section of one config file, or {} when it has none."""
    p = Path(path)
    try:
        if p.suffix == ".toml":
            try:
                import tomllib
            except ModuleNotFoundError:  # Python 3.10
                import tomli as tomllib
            data = tomllib.loads(p.read_text(encoding="utf-8"))
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
        parser.read_string(p.read_text(encoding="utf-8"), source=str(p))
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
                    text = candidate.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                marker = "[tool.benchaudit" if name == "pyproject.toml" else "[benchaudit]"
                if marker in text:
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
    return apply(cfg, read_file(found), str(found))
