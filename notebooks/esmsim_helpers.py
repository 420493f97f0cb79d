"""What the notebooks share beyond the esmsim Python package (python/, installed into the
notebooks' venv by notebooks/requirements.txt): where the ready scenarios are, running a scenario
given as YAML text, a metric by variant, a mean with its interval, and the `esmsim` command for
what the package does not wrap (`esmsim schedule`).

The program is the package's (`esmsim.esmsim_path()`: ESMSIM, then esmsim on the PATH, then an
installed one); in a clone whose release build exists, that build."""
import os
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

import esmsim as package

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "scenarios"
if not os.environ.get("ESMSIM") and (REPO / ".build" / "release" / "esmsim").is_file():
    os.environ["ESMSIM"] = str(REPO / ".build" / "release" / "esmsim")


def esmsim(*args):
    """Runs the esmsim command with these arguments and returns its standard output; raises
    with its error message if it fails."""
    done = subprocess.run([package.esmsim_path(), *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"esmsim {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def run_scenario(scenario, **options):
    """Runs a scenario (a path, or YAML text) with the package (`esmsim.run`, options such as
    participants=200) and returns its results: typed DataFrames (`summary`, `prompts`,
    `participants`, `coverage_summary`…)."""
    if isinstance(scenario, str) and "\n" in scenario:
        path = Path(tempfile.mkdtemp(prefix="esmsim-notebook-")) / "scenario.yaml"
        path.write_text(scenario)
        scenario = path
    return package.run(scenario, **options)


def metric(table, name):
    """One metric's mean per variant, in the scenario's variant order."""
    rows = table[table.metric == name]
    return pd.Series(rows["mean"].values, index=rows["variant"].astype(str).values, name=name)


def mean_with_interval(values):
    """Mean and a 95 % normal interval half-width (1.96 standard errors)."""
    values = pd.Series(values).dropna()
    return values.mean(), 1.96 * values.std(ddof=1) / len(values) ** 0.5
