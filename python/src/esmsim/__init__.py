"""Run the esmsim simulator of experience-sampling studies and read its results.

`run()` runs a scenario (a file, or a dict written as JSON) into a results folder and
`read()` reads one: every table as a pandas DataFrame typed as esmsim declares it in the
folder's `manifest.json`. Errors come from esmsim's JSON error reports
(`ESMSIM_ERROR_FORMAT=json`), as exceptions with the file, key, line and column.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

import pandas as pd

__all__ = ["esmsim_path", "install", "install_dir", "run", "read", "Results", "EsmsimError", "ScenarioError",
           "NotFoundError"]
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


def install_dir() -> Path:
    """Where `install()` unpacks esmsim: `$XDG_DATA_HOME/esmsim`, else `~/.local/share/esmsim`."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "esmsim"


def _version_key(folder: str) -> tuple:
    """A release folder's version as numbers (0.10.0 after 0.9.0), parts that are not numbers
    after the numbers they follow."""
    version = re.sub(r"^esmsim-(.*)-linux-x86_64$", r"\1", folder)
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.-]", version))


def _installed(directory: Path) -> Optional[str]:
    """The newest installed program under `directory`, by version (not by text), if any."""
    found = list(directory.glob("esmsim-*-linux-x86_64/esmsim")) if directory.is_dir() else []
    found = [f for f in found if os.access(f, os.X_OK)]
    found.sort(key=lambda f: _version_key(f.parent.name))
    return str(found[-1]) if found else None


def esmsim_path() -> str:
    """The esmsim program: the `ESMSIM` environment variable, then `esmsim` on the PATH, then
    the one `install()` put in `install_dir()`."""
    for candidate in (os.environ.get("ESMSIM"), shutil.which("esmsim"), _installed(install_dir())):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise NotFoundError("esmsim not found. Install it in one line: esmsim.install(url, sha256=...) with your group's "
                        "make dist tarball; or build it (make release) and set ESMSIM to the program, or put esmsim "
                        "on the PATH")


_RELEASE = re.compile(r"^esmsim-[A-Za-z0-9._-]+-linux-x86_64$")


def install(url: str, sha256: str, directory: Optional[Union[str, os.PathLike]] = None, quiet: bool = False,
            timeout: float = 120) -> str:
    """Install the self-contained esmsim program from a release tarball (what `make dist`
    writes: `esmsim-VERSION-linux-x86_64.tar.gz`).

    Downloads `url`, checks its SHA-256 against `sha256` (the `.sha256` file beside it), and
    unpacks it into `directory` (default `install_dir()`, where `esmsim_path()` looks). The
    archive is unpacked in a temporary folder beside the target and moved into place only when
    whole: a wrong checksum, a broken download, a member that is a link or lies outside the
    release folder, or a program that does not run here (`esmsim --version`) leaves nothing
    behind. `timeout` (seconds) bounds the download's waits. R's `install_esmsim()` installs
    into the same folder. No public release address exists yet: give the one your group serves.
    Returns the installed program's path; raises `EsmsimError` on any failure."""
    if not re.fullmatch(r"[0-9a-fA-F]{64}", sha256 or ""):
        raise EsmsimError("give the tarball's sha256 (64 hexadecimal digits, the .sha256 file beside it)")
    name = re.sub(r"\.tar\.gz$", "", os.path.basename(url.split("?")[0].split("#")[0]))
    if not _RELEASE.match(name):
        raise EsmsimError(f"{os.path.basename(url)} is not an esmsim release tarball (esmsim-VERSION-linux-x86_64.tar.gz)")
    target_dir = Path(directory) if directory is not None else install_dir()
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="install-", dir=target_dir))
    except OSError as e:
        raise EsmsimError(f"cannot write into {target_dir}: {e}") from None
    try:
        return _install_into(url, sha256, name, target_dir, staging, quiet, timeout)
    except EsmsimError:
        raise
    except Exception as e:  # anything else is still the installer's error, with its cause
        raise EsmsimError(f"could not install {os.path.basename(url)}: {e}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _install_into(url: str, sha256: str, name: str, target_dir: Path, staging: Path, quiet: bool,
                  timeout: float) -> str:
    archive = staging / (name + ".tar.gz")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(archive, "wb") as out:
            shutil.copyfileobj(response, out)
    except Exception as e:  # a URL error, a refused connection, an HTTP error (its status), a timeout
        raise EsmsimError(f"could not download {url}: {e}") from None
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != sha256.lower():
        raise EsmsimError(f"{os.path.basename(url)} has SHA-256 {digest}, not the {sha256.lower()} given: not installed")
    try:
        with tarfile.open(archive, "r:gz") as tar:
            # Every member checked before anything is written.
            for member in tar.getmembers():
                parts = Path(member.name).parts
                if (not parts or parts[0] != name or ".." in parts or member.name.startswith("/")
                        or not (member.isfile() or member.isdir())):
                    raise EsmsimError(f"{os.path.basename(url)} holds {member.name!r}: only regular files and "
                                      f"folders under {name}/ are installed; not installed")
            tar.extractall(staging)
    except (tarfile.TarError, OSError) as e:
        raise EsmsimError(f"could not unpack {os.path.basename(url)}: {e}") from None
    program = staging / name / "esmsim"
    if not program.is_file():
        raise EsmsimError(f"{os.path.basename(url)} holds no {name}/esmsim")
    program.chmod(0o755)
    # The program must run here before it is installed (the right system, a whole file).
    try:
        ran = subprocess.run([str(program), "--version"], capture_output=True, text=True, timeout=60)
        version = ran.stdout.strip()
        problem = None if ran.returncode == 0 and re.match(r"[0-9]", version) else (
            ran.stderr.strip() or f"exit status {ran.returncode}")
    except (OSError, subprocess.SubprocessError) as e:
        version, problem = "", str(e)
    if problem is not None:
        raise EsmsimError(f"{name}/esmsim does not run on this machine (esmsim --version: {problem}): not installed")
    target = target_dir / name
    if target.exists():
        shutil.rmtree(target)
    os.replace(staging / name, target)
    if not quiet:
        print(f"esmsim: installed {name} into {target} (SHA-256 checked; esmsim --version: {version})")
    return str(target / "esmsim")


def example(name: Optional[str] = None) -> Union[str, List[str]]:
    """The example scenarios and example pilot shipped with the package: `example()` lists
    them, `example("quickstart.yaml")` gives a scenario's path, `example("pilot.csv")` the
    simulated pilot in the per-prompt csv format (24 participants, six fixed blocks a day for
    ten days) to try `esmsim calibrate` on. Raises `EsmsimError` for an unknown name."""
    root = Path(__file__).resolve().parent / "data"
    available = sorted(p.name for p in (root / "scenarios").glob("*.yaml")) + ["pilot.csv"]
    if name is None:
        return available
    if name not in available:
        raise EsmsimError(f"no example {name!r}; the examples: {', '.join(available)}")
    return str(root / "pilot.csv") if name == "pilot.csv" else str(root / "scenarios" / name)


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
