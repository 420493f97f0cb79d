"""Run the esmsim simulator of experience-sampling studies and read its results.

`run()` runs a scenario (a file, or a dict written as JSON) into a results folder and
`read()` reads one: every table as a pandas DataFrame typed as esmsim declares it in the
folder's `manifest.json`. Errors come from esmsim's JSON error reports
(`ESMSIM_ERROR_FORMAT=json`), as exceptions with the file, key, line and column.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

import pandas as pd

__all__ = ["esmsim_path", "run", "read", "Results", "EsmsimError", "ScenarioError", "NotFoundError"]
__version__ = "0.1.0"


class EsmsimError(Exception):
    """esmsim failed; `message` is its own, `exit` its exit status."""

    def __init__(self, message: str, exit: int = 1, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.exit = exit
        self.stderr = stderr


class ScenarioError(EsmsimError):
    """A problem in a scenario or an input file, located: `file`, `key` (the key path, for
    example `population.size`), `line` and `column` (None where esmsim gives none)."""

    def __init__(self, message: str, file: Optional[str], key: Optional[str], line: Optional[int],
                 column: Optional[int], exit: int = 1, stderr: str = "") -> None:
        super().__init__(message, exit, stderr)
        self.file = file
        self.key = key
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = ":".join(str(x) for x in (self.file, self.line, self.column) if x is not None)
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class NotFoundError(EsmsimError):
    """The esmsim program was not found."""


def esmsim_path() -> str:
    """The esmsim program: the `ESMSIM` environment variable, then `esmsim` on the PATH."""
    for candidate in (os.environ.get("ESMSIM"), shutil.which("esmsim")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise NotFoundError("esmsim not found: set ESMSIM to the program, or put esmsim on the PATH (make release builds it)")


def _execute(args: List[str]) -> subprocess.CompletedProcess:
    env = dict(os.environ, ESMSIM_ERROR_FORMAT="json")
    done = subprocess.run([esmsim_path(), *args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise _error(done.stderr, done.returncode)
    return done


def _error(stderr: str, status: int) -> EsmsimError:
    reports = [line for line in stderr.splitlines() if line.startswith('{"esmsim_error"')]
    if not reports:
        lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("esmsim: warning:")]
        return EsmsimError(lines[-1] if lines else f"esmsim exited with status {status}", status, stderr)
    e = json.loads(reports[-1])["esmsim_error"]
    message = e.get("message", "")
    if e.get("kind") == "scenario":
        return ScenarioError(message, e.get("file"), e.get("key"), e.get("line"), e.get("column"), status, stderr)
    where = f"{e['file']}: " if e.get("file") else ""
    return EsmsimError(f"{where}{message}", status, stderr)


def run(scenario: Union[str, os.PathLike, Mapping[str, Any]], output: Optional[Union[str, os.PathLike]] = None, *,
        participants: Optional[int] = None, duration: Optional[str] = None, replications: Optional[int] = None,
        seed: Optional[int] = None, threads: Optional[int] = None, force: bool = False) -> "Results":
    """Runs `esmsim run` on a scenario (a file, or a dict written to a temporary JSON file) into
    `output` (default: a new temporary folder) and returns its results (`read()`)."""
    temporary: Optional[Path] = None
    if isinstance(scenario, Mapping):
        temporary = Path(tempfile.mkdtemp(prefix="esmsim-scenario-"))
        path = temporary / "scenario.json"
        path.write_text(json.dumps(scenario))
        source = str(path)
    else:
        source = os.fspath(scenario)
        if not Path(source).is_file():
            raise EsmsimError(f"no scenario file {source}")
    folder = os.fspath(output) if output is not None else str(Path(tempfile.mkdtemp(prefix="esmsim-results-")) / "results")
    args = ["run", source, "--output", folder]
    for flag, value in (("--participants", participants), ("--duration", duration), ("--replications", replications),
                        ("--seed", seed), ("--threads", threads)):
        if value is not None:
            args += [flag, str(value)]
    if force:
        args.append("--force")
    try:
        _execute(args)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    return read(folder)


@dataclass
class Results:
    """A results folder read: `summary` (every metric with its intervals) and, where the run
    wrote them, `prompts`, `participants`, `coverage`, `coverage_summary`; `manifest` (the
    run's manifest) and `folder`."""
    folder: str
    manifest: Dict[str, Any]
    summary: pd.DataFrame
    prompts: Optional[pd.DataFrame] = None
    participants: Optional[pd.DataFrame] = None
    coverage: Optional[pd.DataFrame] = None
    coverage_summary: Optional[pd.DataFrame] = None
    tables: List[str] = field(default_factory=list)


_TABLES = {"summary": "summary.csv", "prompts": "prompts.csv", "participants": "participants.csv",
           "coverage": "coverage.csv", "coverage_summary": "coverage_summary.csv"}

# esmsim's column types (manifest.json `tables`) as pandas dtypes.
_DTYPES = {"text": "string", "integer": "Int64", "real": "float64", "flag": "boolean", "unix_ms": "float64"}


def read(folder: Union[str, os.PathLike]) -> Results:
    """Reads a results folder: each table typed as the folder's manifest.json declares its
    columns (text, integer, real, flag, time, unix_ms); times are the participant's clock
    times, as written, without a zone. A column the manifest does not declare is read by its
    values."""
    root = Path(folder)
    if not root.is_dir():
        raise EsmsimError(f"no results folder {root}")
    manifest_path = root / "manifest.json"
    manifest: Dict[str, Any] = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    variants = manifest.get("variants") or []
    tables: Dict[str, pd.DataFrame] = {}
    for name, file in _TABLES.items():
        path = root / file
        if not path.exists():
            continue
        columns = {c["name"]: c["type"] for c in manifest.get("tables", {}).get(name, {}).get("columns", [])}
        raw = pd.read_csv(path, dtype=str, keep_default_na=False)
        typed = {}
        for column in raw.columns:
            values = raw[column].replace("", None)
            kind = columns.get(column)
            try:
                if kind == "time":
                    typed[column] = pd.to_datetime(values, format="%Y-%m-%dT%H:%M:%S.%f")
                elif kind == "flag":
                    typed[column] = values.map({"1": True, "0": False, None: None}).astype("boolean")
                elif kind in _DTYPES:
                    typed[column] = pd.to_numeric(values).astype(_DTYPES[kind]) if kind != "text" else values.astype("string")
                else:
                    converted = pd.to_numeric(values, errors="coerce")
                    typed[column] = converted if converted.notna().sum() == values.notna().sum() else values.astype("string")
            except (ValueError, TypeError) as e:
                raise EsmsimError(f"{path}: column {column}: not a valid {kind}: {e}") from None
        df = pd.DataFrame(typed, columns=list(raw.columns))
        if "variant" in df.columns and variants and set(df["variant"].dropna()) <= set(variants):
            df["variant"] = pd.Categorical(df["variant"].astype(object), categories=variants, ordered=False)
        tables[name] = df
    if "summary" not in tables:
        raise EsmsimError(f"{root}: no summary.csv: not an esmsim results folder")
    return Results(folder=str(root.resolve()), manifest=manifest, tables=sorted(tables), **tables)
