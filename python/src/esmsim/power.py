"""Power for a within-person effect under the missingness esmsim simulates, with statsmodels'
mixed models (as R's `esm_power()` with lme4): each design is simulated `replications` times
and the model fitted three ways: on the answers the study got, on the complete data (every
prompt up to a dropout answered) and on as many of the complete data's prompts as were
answered, drawn at random (MCAR at the same count)."""
from __future__ import annotations

import math
import numbers
import os
import shutil
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple:
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _fit(data: pd.DataFrame, random_slope: bool, formula: str = "state ~ company_within",
         term: str = "company_within", re_formula: Optional[str] = None) -> Dict[str, Any]:
    """The mixed model `formula` (default state ~ company_within, with a random slope when
    `random_slope`; `re_formula` the random part otherwise), Wald z test of `term`."""
    import statsmodels.formula.api as smf
    from statsmodels.tools.sm_exceptions import ConvergenceWarning

    if data["participant"].nunique() < 3:
        return {"error": f"{data['participant'].nunique()} participants answered: a mixed model needs 3"}
    if re_formula is None:
        re_formula = "~company_within" if random_slope else "1"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = smf.mixedlm(formula, data, groups=data["participant"], re_formula=re_formula, missing="drop")
            try:
                fit = model.fit(reml=True, method=["lbfgs"])
            except np.linalg.LinAlgError:  # L-BFGS stepped onto a singular random-effects matrix: BFGS
                fit = model.fit(reml=True, method=["bfgs"])
            # L-BFGS can end a random intercept's fit at a variance of 0 with an infinite
            # likelihood and call it converged (17 of 20 answered data sets of a plain company
            # study, where lme4 and statsmodels' BFGS found variances of 14-145): refitted by BFGS.
            if not np.isfinite(fit.llf):
                fit = model.fit(reml=True, method=["bfgs"])
        except Exception as e:  # a failed fit is counted, as simr counts it
            return {"error": f"{type(e).__name__}: {e}"}
    if term not in fit.params:
        return {"error": f"the model has no coefficient {term}"}
    estimate, se = float(fit.params[term]), float(fit.bse[term])
    if not (math.isfinite(estimate) and math.isfinite(se) and se > 0):
        return {"error": f"no standard error for {term}"}
    return {"estimate": estimate, "se": se, "p": 2 * (1 - _normal_cdf(abs(estimate / se))),
            "warnings": sum(issubclass(w.category, ConvergenceWarning) for w in caught), "singular": _singular(fit)}


def _singular(fit: Any) -> bool:
    """Whether the random effects' fit is singular by lme4's `isSingular()` rule: a diagonal
    element of the Cholesky factor of their covariance relative to the residual variance below
    1e-4 (a variance at 0, or a correlation at ±1), or no such factor. statsmodels stops short of
    a boundary lme4 reaches, so it says singular less often than lme4 on the same data."""
    try:
        relative = np.atleast_2d(np.asarray(fit.cov_re, dtype=float)) / float(fit.scale)
        factor = np.linalg.cholesky(relative)
    except (np.linalg.LinAlgError, ValueError, ZeroDivisionError):
        return True
    return bool(np.any(~np.isfinite(factor)) or np.any(np.diag(factor) < 1e-4))


def _normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _analysis_data(rows: pd.DataFrame, state, company) -> pd.DataFrame:
    d = pd.DataFrame({"state": np.asarray(state, dtype=float), "company": np.asarray(company, dtype=float),
                      "participant": rows["participant"].to_numpy()})
    d["company_within"] = d["company"] - d.groupby("participant")["company"].transform("mean")
    return d


def _lag(values: pd.Series, data: pd.DataFrame) -> pd.Series:
    """The previous row's value within a participant and day (NaN at a day's first row)."""
    return values.groupby([data["participant"], data["day"]], sort=False).shift(1)


def answers_data(rows: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """The data an analysis of `answers.csv` sees (as R's `esm_power()`): its columns, and for
    each variable and item in `names` its value centred within person (`<name>_within`), the
    previous analysed row's value that day (`<name>_lag`, `<name>_lag_within`) and the hours
    since that row (`gap_hours`). Rows in time order; lags are taken in the rows given."""
    d = rows.sort_values(["participant", "prompt"]).reset_index(drop=True)
    time = pd.to_datetime(d["scheduled"])
    hours = (time - pd.Timestamp("2000-01-01")).dt.total_seconds() / 3600
    d["hour"] = time.dt.hour
    d["gap_hours"] = hours - _lag(hours, d)
    for n in names:
        x = d[n].astype(float)
        within = x - x.groupby(d["participant"]).transform("mean")
        d[f"{n}_within"] = within
        d[f"{n}_lag"] = _lag(x, d)
        d[f"{n}_lag_within"] = _lag(within, d)
    return d


def _answer_names(base: Mapping[str, Any]) -> Optional[Dict[str, List[str]]]:
    variables = (base.get("population") or {}).get("variables")
    if not variables:
        return None
    names = lambda xs: [str(x["name"]) for x in (xs or [])]  # noqa: E731
    protocol = base.get("protocol") or {}
    # answers.csv's questionnaire column: the questionnaires' names, or the one survey's id.
    questionnaires = names(protocol.get("questionnaires")) or [str((protocol.get("survey") or {}).get("id", "esm"))]
    return {"variables": names(variables), "predictors": names((base.get("population") or {}).get("person_predictors")),
            "items": names(protocol.get("items")), "questionnaires": questionnaires}


def _check_formula(formula: str, term: str, names: Dict[str, List[str]]) -> None:
    """A formula's variables checked on a few rows of the analysed columns before anything is
    simulated: an unknown name fails at once with patsy's message."""
    from patsy import PatsyError, dmatrices
    from . import EsmsimError

    rows = pd.DataFrame({"participant": [1, 1, 2, 2, 3, 3], "prompt": range(1, 7), "day": 1,
                         "questionnaire": [names["questionnaires"][i % len(names["questionnaires"])] for i in range(6)],
                         "scheduled": "2026-01-05T09:00:00.000", "answered": True})
    for n in names["predictors"] + names["variables"] + names["items"]:
        rows[n] = [1.0, 2.0, 3.0, 2.0, 1.0, 3.0]
    try:
        _, x = dmatrices(formula, answers_data(rows, names["variables"] + names["items"]), return_type="dataframe",
                         NA_action="drop")
    except PatsyError as e:
        raise EsmsimError(f"the model {formula}: {e}") from None
    except Exception as e:  # a name patsy looks up and does not find
        raise EsmsimError(f"the model {formula}: {type(e).__name__}: {e}") from None
    if term not in x.columns:
        raise EsmsimError(f"the model {formula} has no coefficient {term} (it has {', '.join(x.columns)})")


def _yaml_loader(yaml: Any) -> Any:
    """PyYAML's safe loader without YAML 1.1's base-60 numbers, so that a clock time written
    plainly (`times: [09:00, 12:30]`) stays the text esmsim reads (it was read as 750)."""
    import re

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        k: [(tag, regexp) for tag, regexp in v if tag not in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    # Whole numbers and decimals as YAML 1.2 has them (no 1_000, no 12:30).
    Loader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?(0|[1-9][0-9]*)$"), list("-+0123456789"))
    Loader.add_implicit_resolver(
        "tag:yaml.org,2002:float",
        re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
        list("-+0123456789."))
    return Loader


def _whole_numbers(name: str, values: Any) -> List[int]:
    """One design's value or several (a number is a list of one) as whole numbers of at least 1,
    else an error naming `name` (2.7 days ran 2 days without a word)."""
    from . import EsmsimError

    try:
        floats = [float(v) for v in np.atleast_1d(values)]
    except (TypeError, ValueError):
        raise EsmsimError(f"{name} are whole numbers of at least 1, or lists of them, not {values!r}") from None
    if not floats or not all(np.isfinite(v) and v.is_integer() and v >= 1 for v in floats):
        raise EsmsimError(f"{name} are whole numbers of at least 1, not {', '.join(f'{v:g}' for v in floats) or repr(values)}")
    return [int(v) for v in floats]


def _design(base: Mapping[str, Any], n: int, d: int, per: Optional[int], algorithm: Optional[str], seed: int,
            replications: int, answers: bool) -> Dict[str, Any]:
    """A design's scenario: the scenario with the design's size, days, prompts a day and schedule."""
    s = dict(base)
    s["seed"], s["replications"], s["duration"] = seed, replications, f"{int(d)}d"
    s["population"] = dict(base.get("population") or {}, size=int(n))
    if per is not None or algorithm is not None:
        protocol = dict(base.get("protocol") or {})
        protocol["schedule"] = dict(protocol.get("schedule") or {})
        if per is not None:
            protocol["schedule"]["per_day"] = per
        if algorithm is not None:
            protocol["schedule"]["algorithm"] = algorithm
        s["protocol"] = protocol
    s["outputs"] = {"prompts": not answers, "participants": False, "coverage": False, "sqlite": False,
                    "report": False}
    if answers:
        s["outputs"]["answers"] = True
    return s


def _check_varied_schedule(base: Mapping[str, Any]) -> None:
    """`per_day` and `schedule` vary `protocol.schedule`: a scenario that does not use it (its
    questionnaires' own schedules, an imported protocol) is refused as such."""
    from . import EsmsimError, _IMPORT_KEYS

    protocol = base.get("protocol") or {}
    other = ("protocol.questionnaires" if protocol.get("questionnaires") else
             next((f"protocol.{k}" for k in _IMPORT_KEYS if protocol.get(k)), None))
    if other:
        raise EsmsimError(f"per_day and schedule vary protocol.schedule, which this scenario does not use (it has "
                          f"{other}): give per_day and schedule in the scenario, one call per design")


def _design_label(n: int, d: int, per: Optional[int], algorithm: Optional[str]) -> str:
    parts = [f"{n} participants", f"{d} days"] + ([f"{per} a day"] if per is not None else []) + \
        ([algorithm] if algorithm is not None else [])
    return ", ".join(parts)


def _check_design(s: Mapping[str, Any], label: str, scenario: Any) -> None:
    """`esmsim validate` on a design's scenario; its error names the design (and the scenario
    as the caller gave it: the file's name, or the dict)."""
    from . import ScenarioError, _execute, _in_dict, _scenario

    temporary = Path(tempfile.mkdtemp(prefix="esmsim-power-"))
    try:
        _execute(["validate", _scenario(s, temporary)])
    except ScenarioError as e:
        # Located in the design's own file: said of the dict (`_in_dict`), or of the file the
        # caller gave; an error in an imported file keeps its file and line.
        e = _in_dict(e, s, temporary)
        file = os.fspath(scenario) if e.file == "the scenario dict" and isinstance(scenario, (str, os.PathLike)) else e.file
        raise ScenarioError(f"{label} cannot run: {e.message}", file, e.key, e.line, e.column, e.exit, e.stderr) from None
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def power(scenario: Union[str, Mapping[str, Any]], participants: Sequence[int], days: Sequence[int], *,
          per_day: Optional[Sequence[int]] = None, schedule: Optional[Sequence[str]] = None,
          replications: int = 100, alpha: float = 0.05, seed: int = 1, random_slope: bool = True,
          threads: Optional[int] = None, formula: Optional[str] = None, term: Optional[str] = None,
          re_formula: str = "1", truth: Optional[float] = None) -> pd.DataFrame:
    """Power to detect the company slope (`population.state.company`) for each design of
    `participants` x `days` x `per_day` x `schedule` (prompts a day and schedule algorithms,
    `protocol.schedule`; None keeps the scenario's): a row per design and analysis ("answered", "complete", "mcar")
    with power and its Wilson 95 % interval (power_low, power_high), the mean estimate, its
    `bias` against the planned slope (`population.state.company.slope`) with the Monte Carlo
    standard error `bias_se`, the `coverage` of the 95 % Wald intervals (with coverage_low,
    coverage_high), the replications fitted, the fits that failed (`failed`, `first_error`) and
    the convergence `warnings`: R's `esm_power()` columns. Raises `EsmsimError` when every
    fit of a design fails. Needs statsmodels (`pip install esmsim[power]`).

    With `population.variables` (the answers researchers analyse, `answers.csv`): `formula`
    (statsmodels' mixedlm, for example "mood ~ mood_lag_within") over the answers' columns and
    those `answers_data()` derives, `term` the coefficient tested, `re_formula` its random part
    ("1": a random intercept; "~stress_within": and a random slope); the three data sets are the
    answered rows, every prompt (complete) and MCAR of the answered count; `truth`, the tested
    coefficient's true value, gives bias and coverage (None: not reported).

    Every design is checked (`esmsim validate`) before any runs: one the scenario cannot run
    (a per_day its schedule refuses) raises at once, naming the design."""
    from . import EsmsimError, _execute, _imports_from_here, run

    participants, days = _whole_numbers("participants", participants), _whole_numbers("days", days)
    if per_day is not None:
        per_day = _whole_numbers("per_day", per_day)
    if schedule is not None:
        schedule = [schedule] if isinstance(schedule, str) else list(schedule)
        if not schedule or not all(isinstance(a, str) and a for a in schedule):
            raise EsmsimError(f"schedule names schedule algorithms (text), not {schedule!r}")
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise EsmsimError(f"alpha is the test's level, a number above 0 and below 1, not {alpha!r}")
    # The arguments every design is run with, said as arguments (not as the scenario's keys).
    for name, value, low, high in (("seed", seed, 0, 2 ** 63 - 1), ("replications", replications, 1, 100_000)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
            raise EsmsimError(f"the argument {name} is a whole number from {low} to {high}, not {value!r}")
    try:
        import statsmodels  # noqa: F401
    except ImportError:
        raise EsmsimError("esmsim.power() needs statsmodels: pip install statsmodels") from None
    if isinstance(scenario, Mapping):
        base = dict(scenario)
    elif not isinstance(scenario, (str, os.PathLike)):
        raise EsmsimError(f"a scenario is a file name or a dict, not {type(scenario).__name__}")
    else:
        path = os.fspath(scenario)
        if not os.path.isfile(path):
            raise EsmsimError(f"no scenario file {path}")
        # Checked as a file first, so that a problem is located in it (file, key, line).
        _execute(["validate", path])
        try:
            if path.endswith(".json"):
                import json
                with open(path) as f:
                    base = json.load(f)
            else:
                try:
                    import yaml  # PyYAML: only to read a scenario file here (pip install esmsim[power])
                except ImportError:
                    raise EsmsimError("reading a YAML scenario in esmsim.power() needs PyYAML; give the scenario as a dict") from None
                with open(path) as f:
                    base = yaml.load(f, Loader=_yaml_loader(yaml))
        except EsmsimError:
            raise
        except Exception as e:  # noqa: BLE001: any reader's error, said with the file
            raise EsmsimError(f"{path}: {type(e).__name__}: {e}") from None
        # Its import files are the file's folder's, as esmsim reads them.
        base = _imports_from_here(base, os.path.dirname(os.path.abspath(path)))
    names = _answer_names(base)
    if names is not None:
        if not formula or not term:
            raise EsmsimError("with population.variables, give formula and term: a model of your variables and items")
        _check_formula(formula, term, names)
    elif formula is not None or term is not None:
        # Without variables the model is the company slope's (R's esm_power() fits a formula
        # of the company data too; here only the default): said, not ignored.
        if (formula or "state ~ company_within").replace(" ", "") != "state~company_within" or (term or "company_within") != "company_within":
            raise EsmsimError("without population.variables esmsim.power() fits state ~ company_within (the company slope): "
                              "declare population.variables to fit a model of your own")
    state = (base.get("population") or {}).get("state") or {}
    company = state.get("company") or {}
    if truth is not None and (names is None or isinstance(truth, bool) or not isinstance(truth, numbers.Real)
                              or not math.isfinite(truth)):
        raise EsmsimError("truth is the tested coefficient's true value (a number) with population.variables; "
                          "without them the planned slope is population.state.company.slope")
    slope = (float(truth) if truth is not None else None) if names is not None else float(company.get("slope") or 0)
    share = company.get("share")
    if names is None and (not isinstance(share, (int, float)) or not 0 < share < 1):
        raise EsmsimError("esmsim.power() needs population.state.company with a share between 0 and 1 (and a slope)")
    if base.get("variants"):
        raise EsmsimError("esmsim.power() runs one protocol: give a scenario without variants")
    if per_day is not None or schedule is not None:
        _check_varied_schedule(base)
    noise = float(state.get("report_noise", 5))
    # The designs in R's order (expand.grid: participants change fastest, then days, per_day,
    # schedule), so that "design 2 of 8" and the rows are the same designs in both packages.
    grid = [(n, d, k, a) for a in (schedule or [None]) for k in (per_day or [None]) for d in days for n in participants]
    designs = [_design(base, n, d, k, a, seed, replications, names is not None) for n, d, k, a in grid]
    # Every design checked before any runs, so that one that cannot run is said at once.
    for g, s in enumerate(designs):
        _check_design(s, f"design {g + 1} of {len(grid)} ({_design_label(*grid[g])})", scenario)
    known = slope is not None
    rng = np.random.default_rng(seed)
    rows: List[Dict[str, Any]] = []
    for (n, d, per, algorithm), s in zip(grid, designs):
        started = time.monotonic()
        # Each design's results read, then removed (they were left in the temporary folder).
        folder = tempfile.mkdtemp(prefix="esmsim-power-")
        try:
            result = run(s, os.path.join(folder, "results"), threads=threads)
            p = result.prompts if names is None else result.answers
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        fits: Dict[str, List[Dict[str, Any]]] = {"answered": [], "complete": [], "mcar": []}
        for _, rep in p.groupby("replication", observed=True):
            if names is not None:
                rep = rep.sort_values(["participant", "prompt"])
                answered = rep[rep["answered"].astype(bool)]
                take = np.sort(rng.choice(len(rep), size=min(len(answered), len(rep)), replace=False))
                derived = names["variables"] + names["items"]
                for a, part in (("answered", answered), ("complete", rep), ("mcar", rep.iloc[take])):
                    data = answers_data(part, derived)
                    fits[a].append(dict(_fit(data, False, formula, term, re_formula), rows=len(data)))
                continue
            answered = rep[(rep["status"] == "answered") & ~rep["volunteered"].astype(bool) & rep["with_others"].notna()]
            complete = rep[rep["due_state"].notna() & rep["due_with_others"].notna()]
            y = complete["due_state"].to_numpy(dtype=float) + rng.normal(0, noise, len(complete))
            take = rng.choice(len(complete), size=min(len(answered), len(complete)), replace=False)
            sets = {
                "answered": _analysis_data(answered, answered["reported_state"], answered["with_others"]),
                "complete": _analysis_data(complete, y, complete["due_with_others"]),
                "mcar": _analysis_data(complete.iloc[take], y[take], complete["due_with_others"].iloc[take]),
            }
            for a, data in sets.items():
                fits[a].append(dict(_fit(data, random_slope), rows=len(data)))
        for a, fs in fits.items():
            ok = [f for f in fs if "error" not in f]
            errors = [f["error"] for f in fs if "error" in f]
            k = sum(f["p"] < alpha for f in ok)
            low, high = _wilson(k, len(ok))
            estimates = [f["estimate"] for f in ok]
            covered = sum(abs(f["estimate"] - slope) <= 1.959964 * f["se"] for f in ok) if known else 0
            c_low, c_high = _wilson(covered, len(ok)) if known else (math.nan, math.nan)
            rows.append({
                "participants": int(n), "days": int(d), "per_day": per, "schedule": algorithm, "analysis": a, "replications": len(ok),
                "power": k / len(ok) if ok else math.nan, "power_low": low, "power_high": high,
                "estimate": float(np.mean(estimates)) if ok else math.nan,
                "bias": float(np.mean(estimates)) - slope if ok and known else math.nan,
                "bias_se": float(np.std(estimates, ddof=1) / math.sqrt(len(ok))) if len(ok) > 1 else math.nan,
                "coverage": covered / len(ok) if ok and known else math.nan,
                "coverage_low": c_low, "coverage_high": c_high,
                "answers": float(np.mean([f["rows"] for f in fs])) if fs else math.nan,
                "singular": float(np.mean([f["singular"] for f in ok])) if ok else math.nan,
                "seconds": time.monotonic() - started, "test": "Wald z" if ok else None,
                "failed": len(errors), "warnings": sum(f.get("warnings", 0) for f in ok),
                "first_error": errors[0] if errors else None,
            })
        if all(r["replications"] == 0 for r in rows[-3:]):
            first = next((r["first_error"] for r in rows[-3:] if r["first_error"]), "")
            raise EsmsimError(f"every fit failed for {_design_label(n, d, per, algorithm)}; the first error: {first}")
    return pd.DataFrame(rows)
