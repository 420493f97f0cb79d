"""Run the esmsim simulator of experience-sampling studies and read its results.

`run()` runs a scenario (a file, or a dict written as JSON) into a results folder and
`read()` reads one: every table as a pandas DataFrame typed as esmsim declares it in the
folder's `manifest.json`. `design()` finds the smallest design that reaches an answers
target, `calibrate()` fits the compliance model to a pilot's records (and checks it on a
held-out part), `missingness()` gives the mask of answered prompts for your own simulation. Errors come from esmsim's JSON error reports
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
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import pandas as pd

__all__ = ["esmsim_path", "install", "install_dir", "run", "read", "Results", "design", "Design", "calibrate",
           "Calibration", "missingness", "power", "example", "EsmsimError", "ScenarioError", "NotFoundError"]
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
    if not isinstance(url, str) or not url:
        raise EsmsimError("give the tarball's address (url), a text")
    if not isinstance(sha256, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", sha256):
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
    # The command line's flag said as the function's argument (run's force).
    message = e.get("message", "").replace("add --force to replace it", "give force=True to replace it")
    if e.get("kind") == "scenario" and e.get("given_on_command_line"):
        # A value of the function's own arguments, which esmsim took from its command line.
        argument = {"population.size": "participants", "duration": "duration", "replications": "replications",
                    "seed": "seed"}.get(e.get("key") or "")
        if argument:
            return EsmsimError(f"the argument {argument}: {message}", status, stderr)
    if e.get("kind") == "scenario":
        key = e.get("key")
        # A variant's own key: esmsim says "in variant 'NAME': " before the message (as R's esm_fail reads it).
        variant = re.match(r"^in variant '(.*?)': (.*)$", message, re.S)
        if variant and key:
            key, message = f"variants[{variant.group(1)}].{key}", variant.group(2)
        return ScenarioError(message, e.get("file"), key, e.get("line"), e.get("column"), status, stderr)
    if e.get("kind") == "usage":
        message = _as_argument(message)
    where = f"{e['file']}: " if e.get("file") else ""
    return EsmsimError(f"{where}{message}", status, stderr)


# The flags the functions pass from arguments of the same name (run's seed, calibrate's people).
_ARGUMENT_FLAGS = ("participants|replications|seed|threads|people|bootstrap|evaluations|duration|target|cost|format|"
                   "holdout|kept-at-least|time-zone|utc-offset|column")
# The arguments whose names differ from their flags'.
_ARGUMENT_NAMES = {"kept-at-least": "kept_at_least", "time-zone": "time_zone", "utc-offset": "utc_offset", "column": "columns"}


def _as_argument(message: str) -> str:
    """A usage error about a flag the function passed from its own argument, said of the
    argument: seed=-1 gave "The value '-1' is invalid for '--seed <seed>'"."""
    def named(m: "re.Match[str]") -> str:
        return "the argument " + _ARGUMENT_NAMES.get(m.group(1), m.group(1))
    message = re.sub(rf"'--({_ARGUMENT_FLAGS}) <[a-z-]+>'", named, message)
    # design()'s days, per_day and participants go to esmsim as --vary NAME=VALUES.
    message = re.sub(r"^--vary (days|per_day|participants):", r"the argument \1:", message)
    return re.sub(rf"^--({_ARGUMENT_FLAGS})(?=[: ])", named, message)


# The scenario keys that name a file: read relative to the scenario file's folder.
_IMPORT_KEYS = ("aware_schedule", "esmira_study", "paco_experiment", "beiwe_study")


def _imports_from_here(node: Any, folder: Optional[str] = None) -> Any:
    """A dict scenario with its import files' relative paths made absolute from `folder` (the
    working folder by default): a dict has no folder of its own, and its temporary file's would
    not hold them."""
    if isinstance(node, Mapping):
        out = {}
        for key, value in node.items():
            if key in _IMPORT_KEYS and isinstance(value, (str, os.PathLike)) and not os.path.isabs(os.fspath(value)):
                out[key] = os.path.abspath(os.path.join(folder or os.getcwd(), os.fspath(value)))
            else:
                out[key] = _imports_from_here(value, folder)
        return out
    if isinstance(node, (list, tuple)):
        return [_imports_from_here(v, folder) for v in node]
    return node


def _plain(value: Any) -> Any:
    """numpy's numbers and arrays as Python's, for JSON."""
    if hasattr(value, "item") and callable(value.item) and getattr(value, "shape", None) == ():
        return value.item()
    if hasattr(value, "tolist") and callable(value.tolist):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not a scenario value (numbers, text, lists and dicts)")


def _in_dict(e: "ScenarioError", scenario: Any, temporary: Path) -> "ScenarioError":
    """An error in a dict scenario's temporary file said of the dict: its key, without the
    deleted file's name and line (they were named)."""
    if isinstance(scenario, Mapping) and e.file == str(temporary / "scenario.json"):
        return ScenarioError(e.message, "the scenario dict", e.key, None, None, e.exit, e.stderr)
    return e


def _arg(value: Any) -> str:
    """A value as a command-line argument: a whole float as an integer (1e5 is "100000", which
    esmsim reads; "100000.0" it refuses as a count), a path as its text."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def _scenario(scenario: Union[str, os.PathLike, Mapping[str, Any]], temporary: Path) -> str:
    """The scenario's file: a dict written as JSON into `temporary` (its import files' paths
    taken from the working folder), a path checked."""
    if isinstance(scenario, Mapping):
        path = temporary / "scenario.json"
        try:
            path.write_text(json.dumps(_imports_from_here(scenario), default=_plain))
        except (TypeError, ValueError) as e:
            raise EsmsimError(f"the scenario dict cannot be written: {e}") from None
        return str(path)
    if not isinstance(scenario, (str, os.PathLike)):
        raise EsmsimError(f"a scenario is a file's path or a dict, not {type(scenario).__name__}")
    source = os.fspath(scenario)
    if not Path(source).is_file():
        raise EsmsimError(f"no scenario file {source}")
    return source


def run(scenario: Union[str, os.PathLike, Mapping[str, Any]], output: Optional[Union[str, os.PathLike]] = None, *,
        participants: Optional[int] = None, duration: Optional[str] = None, replications: Optional[int] = None,
        seed: Optional[int] = None, threads: Optional[int] = None, force: bool = False) -> "Results":
    """Runs `esmsim run` on a scenario (a file, or a dict written to a temporary JSON file) into
    `output` (default: a new temporary folder) and returns its results (`read()`).

    People like a real study's: `{"population": {"compliance": {"preset": "fisher2017_mood"}}}`
    in the scenario (`docs/model.md`, People; `docs/scenario-reference.md`)."""
    if output is not None and not isinstance(output, (str, os.PathLike)):
        raise EsmsimError(f"output: one folder's path, not {type(output).__name__}")
    temporary = Path(tempfile.mkdtemp(prefix="esmsim-scenario-"))
    made = None  # the results' temporary folder, removed if the run fails
    try:
        source = _scenario(scenario, temporary)
        if output is None:
            made = Path(tempfile.mkdtemp(prefix="esmsim-results-"))
        folder = os.fspath(output) if output is not None else str(made / "results")
        args = ["run", source, "--output", folder]
        for flag, value in (("--participants", participants), ("--duration", duration), ("--replications", replications),
                            ("--seed", seed), ("--threads", threads)):
            if value is not None:
                # flag=value: a negative number is the option's value, not another option
                args.append(f"{flag}={_arg(value)}")
        if force:
            args.append("--force")
        _execute(args)
    except ScenarioError as e:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        raise _in_dict(e, scenario, temporary) from None
    except BaseException:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    return read(folder)


@dataclass
class Results:
    """A results folder read: `summary` (every metric with its intervals) and, where the run
    wrote them, `prompts`, `participants`, `coverage`, `coverage_summary`, `answers` (the
    variables' true values and the items' answers at every prompt), `days` (a row per
    participant and study day, `outputs.days`); `manifest` (the run's manifest: its
    `between_studies_points`, by variant, is how far a real study's answered share lies from
    esmsim's default people's 95 % of the time, in percentage points, None for people of the
    scenario's own) and `folder`."""
    folder: str
    manifest: Dict[str, Any]
    summary: pd.DataFrame
    prompts: Optional[pd.DataFrame] = None
    participants: Optional[pd.DataFrame] = None
    coverage: Optional[pd.DataFrame] = None
    coverage_summary: Optional[pd.DataFrame] = None
    answers: Optional[pd.DataFrame] = None
    days: Optional[pd.DataFrame] = None
    tables: List[str] = field(default_factory=list)


_TABLES = {"summary": "summary.csv", "prompts": "prompts.csv", "participants": "participants.csv",
           "coverage": "coverage.csv", "coverage_summary": "coverage_summary.csv", "answers": "answers.csv",
           "days": "days.csv"}

# esmsim's column types (manifest.json `tables`) as pandas dtypes.
_DTYPES = {"text": "string", "integer": "Int64", "real": "float64", "flag": "boolean", "unix_ms": "float64"}


def read(folder: Union[str, os.PathLike]) -> Results:
    """Reads a results folder: each table typed as the folder's manifest.json declares its
    columns (text, integer, real, flag, time, unix_ms); times are the participant's clock
    times, as written, without a zone. A column the manifest does not declare is read by its
    values."""
    if not isinstance(folder, (str, os.PathLike)):
        raise EsmsimError(f"read() takes a results folder's name, not {type(folder).__name__}")
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


def _whole(name: str, values: Optional[Sequence[int]]) -> Optional[str]:
    if values is None:
        return None
    import numbers

    values = [values] if isinstance(values, numbers.Integral) else list(values)
    # Whole numbers of any integer type (numpy's too: np.arange(5, 22)), not booleans.
    if not values or any(not isinstance(v, numbers.Integral) or isinstance(v, bool) for v in values):
        raise EsmsimError(f"{name}: whole numbers, such as range(5, 22) or [50, 100]")
    values = [int(v) for v in values]
    return f"{name}={','.join(str(v) for v in values)}"


@dataclass
class Design:
    """What `design()` found: `designs` (one row per design tried: participants, days, per_day,
    value, low, high, replications, reaches, clear, one_study_low, one_study_high,
    participant_days, prompts), `frontier` (the fewest days for each participants and per_day;
    days missing where none within the days given reaches the target; `clear` False where that
    design's interval straddles the target, decided on its estimate: more `replications`, up to
    50, settle it), `cheapest` (a dict, or
    None), `skipped` (designs the scenario cannot run, with the reason), and the `target`,
    `figure`, `level`, `cost` and `variant` searched, the `scenario` (its file as esmsim read
    it; None for a dict) and `searched` (a dict: the participants, days and prompts a day searched, the most
    replications of a design and the seed), as R's `esm_design()` gives them.
    `between_studies_points`: where the scenario's people are esmsim's default people, how far a
    real study's answered share lies from theirs 95 % of the time (percentage points; None for
    people of the scenario's own: a preset, a calibration's block or a compliance key of its
    own): the designs assume the default people's level, so size for a lower
    `answer_probability` or a pilot's fit (`calibrate()`) when the sample may answer less."""
    designs: pd.DataFrame
    frontier: pd.DataFrame
    cheapest: Optional[Dict[str, Any]]
    skipped: pd.DataFrame
    target: str
    figure: str
    level: float
    cost: str
    variant: str
    scenario: Optional[str] = None
    searched: Optional[Dict[str, Any]] = None
    between_studies_points: Optional[float] = None


def design(scenario: Union[str, os.PathLike, Mapping[str, Any]], target: str, *,
           days: Optional[Sequence[int]] = None, per_day: Optional[Sequence[int]] = None,
           participants: Optional[Sequence[int]] = None, variant: Optional[str] = None,
           cost: str = "participant-days", replications: int = 5, threads: Optional[int] = None) -> Design:
    """Runs `esmsim design`: the fewest days, for each number of participants and prompts a day,
    at which the scenario reaches `target`: `"answers:N@S"` (a share S of participants give at
    least N answers, such as `"answers:30@0.9"`) or `"p10:N"` (the 10th percentile of answers
    per participant is at least N). `days`, `per_day` and `participants` are the values to try
    (None keeps the scenario's). Each figure comes with its 95 % interval from the simulation;
    a design the scheduler cannot run (6 a day for Mappiness) is skipped with its reason."""
    for name, value in (("target", target), ("cost", cost)):
        if not isinstance(value, str):
            raise EsmsimError(f"{name} is text (such as \"answers:30@0.9\" or \"prompts\"), not {value!r}")
    temporary = Path(tempfile.mkdtemp(prefix="esmsim-design-"))
    try:
        source = _scenario(scenario, temporary)
        output = temporary / "design.json"
        args = ["design", source, "--target", target, "--cost", cost, "--replications", _arg(replications),
                "--output", str(output)]
        for name, values in (("days", days), ("per_day", per_day), ("participants", participants)):
            vary = _whole(name, values)
            if vary:
                args += ["--vary", vary]
        if variant is not None:
            args += ["--variant", variant]
        if threads is not None:
            args += ["--threads", _arg(threads)]
        try:
            _execute(args)
        except ScenarioError as e:
            raise _in_dict(e, scenario, temporary) from None
        found = json.loads(output.read_text())
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    frontier = pd.DataFrame(found.get("frontier") or [], columns=None)
    if "days" not in frontier.columns:
        frontier["days"] = pd.Series([None] * len(frontier), dtype="Int64")
    else:
        frontier["days"] = frontier["days"].astype("Int64")
    designs = pd.DataFrame(found.get("designs") or [])
    # Whether the frontier's design cleared the target (its interval wholly past the level):
    # one that did not was decided on its estimate, and more replications may move it (R's
    # print says "straddles").
    key = ["participants", "per_day", "days"]
    if len(frontier) and len(designs) and set(key + ["clear"]) <= set(designs.columns):
        cleared = designs[key + ["clear"]].astype({"days": "Int64"})
        frontier = frontier.merge(cleared, on=key, how="left")
    frontier["clear"] = (frontier["clear"] if "clear" in frontier.columns else pd.Series([None] * len(frontier))).astype("boolean")
    return Design(designs=designs, frontier=frontier,
                  cheapest=found.get("cheapest"), skipped=pd.DataFrame(found.get("skipped") or []),
                  target=found["target"], figure=found["figure"], level=found["level"], cost=found["cost"],
                  variant=found["variant"],
                  scenario=None if isinstance(scenario, Mapping) else found.get("scenario"),
                  searched=found.get("searched"),
                  between_studies_points=found.get("between_studies_points"))


@dataclass
class Calibration:
    """What `calibrate()` fitted: `estimates` (parameter, value, low, high, standard_error,
    at_bound, reason: all parameters estimated together), `moments` (the pilot's against the
    simulation's), `check` (with a holdout: figure, unit, observed, predicted, low, high,
    inside; else None), `check_fit` (with a holdout, the fit on the part kept that the
    predictions draw from: a dict of its `estimates` and `moments` as DataFrames and its
    `not_identified`; else None), `not_identified`, `pilot` (participants, prompts, days,
    answered, kept_at_least and kept_share_simulated with `kept_at_least`, left out), `protocol` (the protocol simulated), `block` (the `population.compliance` block to
    paste into a scenario), `files` (the block, JSON and page written) and `holdout` (the
    check's split, "days:N" or "participants:F"; None without one), as R's `esm_calibrate()`."""
    estimates: pd.DataFrame
    moments: Optional[pd.DataFrame]
    check: Optional[pd.DataFrame]
    check_fit: Optional[Dict[str, Any]]
    not_identified: List[str]
    pilot: Dict[str, Any]
    protocol: Any
    block: str
    files: Dict[str, str]
    holdout: Optional[str] = None


def calibrate(files: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]], pd.DataFrame], format: str = "csv", *,
              scenario: Optional[Union[str, os.PathLike, Mapping[str, Any]]] = None, holdout: Optional[str] = None,
              columns: Optional[Mapping[str, str]] = None, time_zone: Optional[str] = None,
              utc_offset: Optional[int] = None, seed: int = 1, people: int = 300, bootstrap: int = 200,
              evaluations: Optional[int] = None, threads: Optional[int] = None,
              output: Optional[Union[str, os.PathLike]] = None,
              kept_at_least: Optional[Union[float, str]] = None) -> Calibration:
    """Runs `esmsim calibrate` on a pilot's per-prompt records (`format`: "aware", "beiwe",
    "mpath", "esmira" or "csv"; a DataFrame is read as the csv format: its datetime columns with
    a time zone as instants (and that zone, an IANA zone or a fixed offset, the participants'
    clock, unless `time_zone` or `utc_offset` says otherwise), without one as the participants' clock, as a csv file's are,
    with `time_zone` or `utc_offset` (UTC without them); its copy for esmsim is removed once read)
    and returns the fitted compliance with its 95 % intervals; `holdout`
    ("days:N" or "participants:F") also fits on part of the pilot and checks the rest against
    the prediction. `kept_at_least`: the records hold only the participants who answered at
    least this share of their prompts ("lowest": the pilot's lowest participant share, of
    those with 5 or more prompts), and each simulation keeps the same. `people`: participants
    in each simulation of the pilot (more: less simulation noise, slower; for the fit you plan
    with, two seeds, docs/calibration.md). `output` is where the block (YAML) goes, the
    JSON and the page beside it (default: a temporary folder, kept)."""
    if isinstance(files, pd.DataFrame) and format != "csv":
        raise EsmsimError('a DataFrame is read as format="csv"')
    # The arguments checked before anything is made (a bad one left an empty folder behind).
    if not isinstance(files, (pd.DataFrame, str, os.PathLike)) and not (
            isinstance(files, Sequence) and files and all(isinstance(f, (str, os.PathLike)) for f in files)):
        raise EsmsimError(f"files: the pilot's file names or a DataFrame, not {type(files).__name__}")
    if columns is not None and not isinstance(columns, Mapping):
        raise EsmsimError('columns: a dict of role to column name, for example {"participant": "pid"}')
    if isinstance(files, pd.DataFrame) and time_zone is None and utc_offset is None:
        # Columns with a time zone: their zone is the participants' clock (as R takes a
        # POSIXct's tzone), unless time_zone or utc_offset says otherwise.
        zones = {str(files[c].dt.tz): files[c].dt.tz for c in files.columns
                 if pd.api.types.is_datetime64_any_dtype(files[c]) and getattr(files[c].dt, "tz", None) is not None}
        if len(zones) > 1:
            raise EsmsimError(f"files: the DataFrame's datetime columns have different time zones ({', '.join(sorted(zones))}): "
                              "give the participants' clock as time_zone or utc_offset")
        for name, zone in zones.items():
            if "/" in name or name == "UTC":
                time_zone = name
            else:
                # A fixed offset (pandas' UTC-05:00, datetime.timezone): its minutes (it was
                # dropped, the hours read as UTC's).
                try:
                    offset = zone.utcoffset(None)
                except Exception:  # noqa: BLE001 - a zone object that needs a date
                    offset = None
                if offset is None:
                    # A zone with rules and a name without "/" (CET, EST5EDT): esmsim judges it.
                    time_zone = name
                else:
                    utc_offset = int(offset.total_seconds() // 60)
    work = Path(tempfile.mkdtemp(prefix="esmsim-calibration-"))
    given = scenario
    if scenario is not None:
        # A dict is written to a file, as run() writes one.
        try:
            scenario = _scenario(scenario, work)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    copy = None  # the DataFrame's records written for esmsim: removed once read
    if isinstance(files, pd.DataFrame):
        frame = files.copy()
        for column in frame.columns:
            if pd.api.types.is_datetime64_any_dtype(frame[column]):
                stamps = frame[column]
                if getattr(stamps.dt, "tz", None) is None:
                    # A clock time without a zone, as in a csv file: the participants' clock
                    # (time_zone, utc_offset; UTC without them).
                    frame[column] = stamps.dt.strftime("%Y-%m-%dT%H:%M:%S.%f").where(stamps.notna(), "")
                else:
                    frame[column] = ((stamps - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(milliseconds=1)).astype("Int64")
        copy = work / "pilot.csv"
        frame.to_csv(copy, index=False)
        paths = [str(copy)]
    elif isinstance(files, (str, os.PathLike)):
        paths = [os.fspath(files)]
    else:
        paths = [os.fspath(f) for f in files]
    block = os.fspath(output) if output is not None else str(work / "calibration.yaml")
    args = ["calibrate", *paths, "--format", format, "--seed", _arg(seed), "--people", _arg(people),
            "--bootstrap", _arg(bootstrap), "--output", block]
    for flag, value in (("--scenario", scenario), ("--holdout", holdout), ("--time-zone", time_zone),
                        ("--utc-offset", utc_offset), ("--evaluations", evaluations), ("--threads", threads),
                        ("--kept-at-least", kept_at_least)):
        if value is not None:
            # flag=value: a negative UTC offset is not taken for an option.
            args.append(f"{flag}={_arg(value)}")
    for role, column in (columns or {}).items():
        args += ["--column", f"{role}={column}"]
    try:
        _execute(args)
    except ScenarioError as e:
        shutil.rmtree(work, ignore_errors=True)
        if isinstance(given, Mapping) and e.file == str(work / "scenario.json"):
            raise _in_dict(e, given, work) from None
        if copy is not None and e.file == str(copy):
            # Located in the DataFrame (its row's index label), not in the temporary copy.
            row = e.line - 2 if e.line is not None and e.line >= 2 else None
            label = files.index[row] if row is not None and row < len(files) else None
            where = f"row {label!r} of the DataFrame" if label is not None else "the DataFrame"
            raise ScenarioError(f"{where}: {e.message}", "<DataFrame>", e.key, None, None, e.exit, e.stderr) from None
        raise
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        if copy is not None:
            copy.unlink(missing_ok=True)
    if output is not None:
        shutil.rmtree(work, ignore_errors=True)
    stem = re.sub(r"\.(yaml|yml)$", "", block)
    found = json.loads(Path(stem + ".json").read_text())
    check = None
    if found.get("check"):
        check = pd.DataFrame(found["check"]["figures"])
        # A figure the held-out part could not show has no verdict: NA, not "outside".
        check["inside"] = check["inside"].astype("boolean")
    check_fit = None
    if found.get("check") and found["check"].get("fit"):
        fit = found["check"]["fit"]
        check_fit = {"estimates": pd.DataFrame(fit["estimates"]), "moments": pd.DataFrame(fit["moments"]),
                     "not_identified": list(fit.get("not_identified") or [])}
    return Calibration(
        estimates=pd.DataFrame(found["estimates"]), moments=pd.DataFrame(found["moments"]) if found.get("moments") else None,
        check=check, check_fit=check_fit, not_identified=list(found.get("not_identified") or []), pilot=found.get("pilot") or {},
        protocol=found.get("protocol"), block=found.get("block", ""),
        files={"block": block, "json": stem + ".json", "page": stem + ".html"},
        holdout=found["check"].get("holdout") if found.get("check") else None)


def missingness(scenario: Union[str, os.PathLike, Mapping[str, Any]], *, participants: Optional[int] = None,
                duration: Optional[str] = None, replications: Optional[int] = None,
                seed: Optional[int] = None) -> pd.DataFrame:
    """Runs a scenario and returns, for every prompt that fell due (volunteered answers left
    out), whether it was answered and, if not, why: a mask for data simulated elsewhere
    (statsmodels' mixed models, your own simulation), so that its power reflects the phones,
    schedules and people esmsim simulates. Columns: variant, replication, participant, day,
    prompt (numbered from 1), scheduled (the participant's clock), answered (bool), status,
    reason."""
    folder = Path(tempfile.mkdtemp(prefix="esmsim-mask-"))
    try:
        r = run(scenario, folder / "results", participants=participants, duration=duration,
                replications=replications, seed=seed)
        p = r.prompts
        if p is None:
            raise EsmsimError("the scenario writes no prompts.csv (outputs.prompts: false)")
        p = p[~p["volunteered"].astype(bool)]
        return pd.DataFrame({
            "variant": p["variant"], "replication": p["replication"], "participant": p["participant"],
            "day": p["day"], "prompt": p["prompt"], "scheduled": p["scheduled"],
            "answered": (p["status"] == "answered").astype(bool), "status": p["status"],
            "reason": p["reason"].fillna("") if "reason" in p.columns else "",
        }).reset_index(drop=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


from .power import power  # noqa: E402  (after the names it uses)
