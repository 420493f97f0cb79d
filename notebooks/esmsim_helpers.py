"""Helpers the notebooks share: find the esmsim command, run it, read its results.

The command is taken from the ESMSIM environment variable, else `esmsim` on PATH, else the
release build of this repository (`make release` builds it)."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "scenarios"


def esmsim_binary():
    """The esmsim command to run."""
    for candidate in (os.environ.get("ESMSIM"), shutil.which("esmsim"),
                      str(REPO / ".build" / "release" / "esmsim")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("esmsim not found: run `make release`, or set ESMSIM to the binary")


def esmsim(*args):
    """Runs esmsim with these arguments and returns its standard output; raises with its
    error message if it fails."""
    done = subprocess.run([esmsim_binary(), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"esmsim {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def run_scenario(scenario, *options):
    """Runs a scenario (a path, or YAML text) into a fresh folder and returns the folder."""
    out = Path(tempfile.mkdtemp(prefix="esmsim-notebook-")) / "results"
    if isinstance(scenario, str) and "\n" in scenario:
        path = out.parent / "scenario.yaml"
        path.write_text(scenario)
        scenario = path
    esmsim("run", scenario, "--output", out, *options)
    return out


def summary(folder):
    """summary.csv as a table: one row per variant and metric (mean, sd, ci_low, ci_high, n,
    participant_ci_low, participant_ci_high)."""
    return pd.read_csv(Path(folder) / "summary.csv", keep_default_na=False, na_values=[""])


def metric(table, name):
    """One metric's mean per variant, in the scenario's variant order."""
    rows = table[table.metric == name]
    return pd.Series(rows["mean"].values, index=rows["variant"].values, name=name)


def mean_with_interval(values):
    """Mean and a 95 % normal interval half-width (1.96 standard errors)."""
    values = pd.Series(values).dropna()
    return values.mean(), 1.96 * values.std(ddof=1) / len(values) ** 0.5
