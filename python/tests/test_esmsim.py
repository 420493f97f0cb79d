"""The Python package against the esmsim program (ESMSIM, or esmsim on the PATH)."""
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

import esmsim

needs_esmsim = pytest.mark.skipif(
    not (os.environ.get("ESMSIM") or shutil.which("esmsim")), reason="esmsim not found: set ESMSIM")


def study(**extra):
    s = {"name": "small", "seed": 7, "replications": 2, "duration": "3d", "population": {"size": 20},
         "protocol": {"window": "08:00-22:00", "schedule": {"algorithm": "fixed-blocks", "per_day": 4}, "expiry": "30m"},
         "variants": [{"name": "zeta"}, {"name": "alpha", "protocol": {"expiry": "10m"}}]}
    s.update(extra)
    return s


@needs_esmsim
def test_run_returns_typed_tables_in_the_scenarios_order(tmp_path):
    r = esmsim.run(study(), tmp_path / "out")
    assert list(r.prompts["variant"].cat.categories) == ["zeta", "alpha"]
    assert r.prompts["participant"].dtype == "Int64" and r.prompts["participant"].min() == 1
    assert r.prompts["day"].min() == 1 and r.prompts["prompt"].min() == 1
    assert pd.api.types.is_datetime64_any_dtype(r.prompts["scheduled"])
    assert r.prompts["volunteered"].dtype == "boolean"
    assert r.summary["mean"].dtype == "float64"
    # 2 variants x 2 replications x 20 participants x 3 days x 4 prompts (volunteered aside).
    assert (~r.prompts["volunteered"]).sum() == 2 * 2 * 20 * 3 * 4
    compliance = r.summary[r.summary.metric == "compliance"].set_index("variant")["mean"]
    assert compliance["alpha"] < compliance["zeta"]  # a 10-minute expiry answers less
    # Read again from the folder: the same tables.
    again = esmsim.read(tmp_path / "out")
    pd.testing.assert_frame_equal(again.prompts, r.prompts)


@needs_esmsim
def test_a_scenario_error_names_the_file_key_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: t\npopulation: {size: zero}\n")
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.run(bad, tmp_path / "out")
    assert e.value.key == "population.size" and e.value.line == 2 and e.value.file == str(bad)
    assert not (tmp_path / "out").exists()
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.run(study(population={"size": -1}))
    assert e.value.key == "population.size"
    # A variant's own key names the variant, as R's esm_run does (it was "protocol.expiry").
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.run(study(variants=[{"name": "a"}, {"name": "b", "protocol": {"expiry": "abc"}}]))
    assert e.value.key == "variants[b].protocol.expiry" and not e.value.message.startswith("in variant")


@needs_esmsim
def test_a_whole_float_is_passed_as_a_whole_number(tmp_path):
    # seed=1e5 was sent as "100000.0", which esmsim refuses for a whole number.
    r = esmsim.run(study(), tmp_path / "out", participants=10.0, seed=1e5)
    assert r.manifest["seed"] == 100000 and r.prompts["participant"].max() == 10
    # esmsim's default people carry the spread between real studies; people of one's own do not.
    assert all(v > 0 for v in r.manifest["between_studies_points"].values())
    own = esmsim.run(study(population={"size": 5, "compliance": {"answer_probability": 0.7}}), tmp_path / "own")
    assert all(v is None for v in own.manifest["between_studies_points"].values())


def test_read_refuses_a_folder_that_is_not_results(tmp_path):
    with pytest.raises(esmsim.EsmsimError):
        esmsim.read(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(esmsim.EsmsimError, match="not an esmsim results folder"):
        esmsim.read(tmp_path / "empty")


def test_a_missing_program_is_said(monkeypatch):
    monkeypatch.setenv("ESMSIM", "/nonexistent/esmsim")
    monkeypatch.setenv("PATH", "")
    with pytest.raises(esmsim.NotFoundError):
        esmsim.esmsim_path()


@needs_esmsim
def test_install_checks_the_checksum_and_leaves_nothing_half_done(tmp_path):
    """A tarball in make dist's layout, served on 127.0.0.1: a wrong SHA-256 is refused and
    leaves nothing; the right one installs a program that runs."""
    import functools
    import hashlib
    import http.server
    import subprocess
    import tarfile
    import threading

    name = "esmsim-0.1.0-linux-x86_64"
    (tmp_path / "serve" / name).mkdir(parents=True)
    shutil.copy(esmsim.esmsim_path(), tmp_path / "serve" / name / "esmsim")
    tarball = tmp_path / "serve" / (name + ".tar.gz")
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(tmp_path / "serve" / name, arcname=name)
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / "serve"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{name}.tar.gz"
        target = tmp_path / "installed"
        with pytest.raises(esmsim.EsmsimError, match="SHA-256"):
            esmsim.install(url, "0" * 64, target, quiet=True)
        assert list(target.iterdir()) == []
        with pytest.raises(esmsim.EsmsimError, match="download.*404"):
            esmsim.install(url.replace(name, "esmsim-9.9.9-linux-x86_64"), digest, target, quiet=True)
        assert list(target.iterdir()) == []
        program = esmsim.install(url, digest, target, quiet=True)
        assert program == str(target / name / "esmsim")
        assert [p.name for p in target.iterdir()] == [name]
        done = subprocess.run([program, "--version"], capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.strip()
    finally:
        server.shutdown()


def _tarball(path, name, members):
    """A release tarball shaped member by member, as a hostile or broken server might."""
    import io
    import tarfile
    with tarfile.open(path, "w:gz") as tar:
        for member, data, kind, link in members:
            info = tarfile.TarInfo(member)
            info.type = kind
            info.linkname = link
            info.size = len(data) if kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    return path


def test_install_refuses_links_a_program_that_does_not_run_and_says_the_http_status(tmp_path):
    import hashlib
    import tarfile
    name = "esmsim-9.9.9-linux-x86_64"
    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    cases = {
        "link": [(f"{name}/esmsim", b"", tarfile.SYMTYPE, str(outside))],
        "dotdot": [(f"{name}/../../evil", b"x", tarfile.REGTYPE, "")],
        "broken program": [(f"{name}/esmsim", b"not a program", tarfile.REGTYPE, "")],
    }
    for case, members in cases.items():
        tarball = _tarball(tmp_path / f"{name}.tar.gz", name, members)
        digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
        target = tmp_path / ("installed-" + case.replace(" ", "-"))
        expected = "does not run on this machine" if case == "broken program" else "only regular files and folders"
        with pytest.raises(esmsim.EsmsimError, match=expected):
            esmsim.install(tarball.as_uri(), digest, target, quiet=True)
        assert list(target.iterdir()) == []
        assert outside.read_text() == "keep"
    # A folder that cannot be written: still the installer's error.
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    with pytest.raises(esmsim.EsmsimError, match="cannot write"):
        esmsim.install((tmp_path / f"{name}.tar.gz").as_uri(), "0" * 64, blocker / "sub", quiet=True)


def test_install_folder_and_newest_version(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert esmsim.install_dir() == tmp_path / "esmsim"
    for v in ("0.9.0", "0.10.0", "0.2.0"):
        d = tmp_path / "esmsim" / f"esmsim-{v}-linux-x86_64"
        d.mkdir(parents=True)
        (d / "esmsim").write_text("#!/bin/sh\necho 1\n")
        (d / "esmsim").chmod(0o755)
    monkeypatch.delenv("ESMSIM", raising=False)
    monkeypatch.setenv("PATH", "")
    assert esmsim.esmsim_path().endswith("esmsim-0.10.0-linux-x86_64/esmsim")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "empty"))
    with pytest.raises(esmsim.NotFoundError, match=r"esmsim.install\(url, sha256"):
        esmsim.esmsim_path()


def test_the_examples_ship_with_the_package_as_the_repository_has_them():
    names = esmsim.example()
    assert "quickstart.yaml" in names and "pilot.csv" in names
    with pytest.raises(esmsim.EsmsimError, match="no example"):
        esmsim.example("nope.yaml")
    repository = Path(__file__).resolve().parents[2] / "scenarios"
    if not repository.is_dir():
        pytest.skip("not in the esmsim repository")
    for name in names:
        source = repository / ("pilot-example.csv" if name == "pilot.csv" else name)
        assert Path(esmsim.example(name)).read_bytes() == source.read_bytes(), name


@needs_esmsim
def test_an_example_scenario_runs(tmp_path):
    results = esmsim.run(esmsim.example("quickstart.yaml"), tmp_path / "out", participants=4, duration="2d")
    assert len(results.prompts) > 0


@needs_esmsim
def test_design_finds_the_fewest_days_and_skips_what_the_scheduler_cannot_run():
    s = study(replications=1, variants=[{"name": "base"}])
    s["population"] = {"size": 40}
    s["protocol"] = {"window": "08:00-22:00", "schedule": {"algorithm": "mappiness", "per_day": 5}, "expiry": "30m"}
    d = esmsim.design(s, "answers:10@0.8", days=range(3, 31), per_day=[4, 5, 6], participants=[40])
    assert d.target == "answers:10@0.8" and d.level == 0.8 and d.variant == "base"
    # Mappiness sends at most 5 a day: 6 skipped with the reason, the others searched.
    assert list(d.skipped["per_day"]) == [6] and "Mappiness" in d.skipped["reason"].iloc[0]
    assert set(d.frontier["per_day"]) == {4, 5}
    reached = d.frontier.dropna(subset=["days"]).set_index("per_day")["days"]
    assert len(reached) == 2 and reached[5] <= reached[4]  # more a day: no more days
    # The frontier's design is in the table, reaching the target; the day before it does not.
    row = d.designs[(d.designs.per_day == 5) & (d.designs.days == reached[5])].iloc[0]
    assert bool(row["reaches"]) and row["low"] <= row["value"] <= row["high"]
    # The frontier says whether its design cleared the target, as the designs' table does.
    assert str(d.frontier["clear"].dtype) == "boolean"
    assert d.frontier.set_index("per_day").loc[5, "clear"] == bool(row["clear"])
    before = d.designs[(d.designs.per_day == 5) & (d.designs.days == reached[5] - 1)]
    assert before.empty or not bool(before.iloc[0]["reaches"])
    assert d.cheapest is not None and d.cheapest["per_day"] in (4, 5)
    # What was searched, as R's esm_design() gives it; a dict has no file to name.
    assert d.searched["per_day"] == [4, 5, 6] and d.searched["participants"] == [40] and d.scenario is None
    # esmsim's default people: the spread between real studies is given; people of one's own have none.
    assert d.between_studies_points is not None and d.between_studies_points > 0
    own = dict(s, population={"size": 40, "compliance": {"answer_probability": 0.7}})
    assert esmsim.design(own, "answers:10@0.8", days=[10], per_day=[5]).between_studies_points is None
    with pytest.raises(esmsim.EsmsimError, match="whole numbers"):
        esmsim.design(s, "answers:10@0.8", days=[2.5])
    with pytest.raises(esmsim.EsmsimError, match="target is text"):
        esmsim.design(s, None)
    # A value esmsim gets as --vary is said as the argument (it said "--vary per_day: ...").
    with pytest.raises(esmsim.EsmsimError, match="^the argument per_day: expected whole numbers in 1–288"):
        esmsim.design(s, "answers:10@0.8", per_day=[300])


@needs_esmsim
def test_calibrate_reads_a_data_frame_and_checks_the_held_out_days(tmp_path):
    pilot = pd.read_csv(esmsim.example("pilot.csv"))
    for column in ("scheduled", "opened", "submitted"):
        pilot[column] = pd.to_datetime(pilot[column])
    c = esmsim.calibrate(pilot, holdout="days:7", people=100, bootstrap=50, evaluations=40,
                         output=tmp_path / "fit.yaml")
    assert c.pilot["participants"] == 24 and c.holdout == "days:7"
    estimates = c.estimates.set_index("parameter")
    assert "answer_probability" in estimates.index
    p = estimates.loc["answer_probability"]
    assert 0 < p["low"] <= p["value"] <= p["high"] < 1
    # Nullable: a figure the held-out part cannot show has no verdict (it read as outside).
    assert c.check is not None and str(c.check["inside"].dtype) == "boolean" and len(c.check) > 5
    # the fit on the first 7 days, which the predictions draw from
    assert "answer_probability" in set(c.check_fit["estimates"]["parameter"])
    assert "answered share" in set(c.check_fit["moments"]["moment"])
    assert (tmp_path / "fit.yaml").exists() and Path(c.files["page"]).exists()
    assert "compliance" in c.block
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.calibrate(pd.DataFrame({"participant": ["a"], "scheduled": ["yesterday"]}))
    assert e.value.key == "scheduled"


@needs_esmsim
def test_calibrate_kept_at_least_says_the_share_and_refuses_one_above_a_participant(tmp_path):
    pilot = pd.read_csv(esmsim.example("pilot.csv"))
    for column in ("scheduled", "opened", "submitted"):
        pilot[column] = pd.to_datetime(pilot[column])
    shares = pilot.assign(answered=pilot["submitted"].notna()).groupby("participant")["answered"].agg(["mean", "size"])
    lowest = shares[shares["size"] >= 5]["mean"].min()
    c = esmsim.calibrate(pilot, people=20, bootstrap=2, evaluations=40, kept_at_least="lowest",
                         output=tmp_path / "kept.yaml")
    assert c.pilot["kept_at_least"] == pytest.approx(lowest)
    assert 0 < c.pilot["kept_share_simulated"] <= 1
    plain = esmsim.calibrate(pilot, people=20, bootstrap=2, evaluations=40).pilot
    assert plain["kept_at_least"] is None and plain["kept_share_simulated"] is None
    with pytest.raises(esmsim.EsmsimError, match="answered less"):
        esmsim.calibrate(pilot, people=20, bootstrap=2, evaluations=40, kept_at_least=min(lowest + 0.05, 1.0))


@needs_esmsim
def test_missingness_is_one_row_per_prompt_due_with_why():
    m = esmsim.missingness(study(), participants=10, replications=1)
    assert len(m) == 2 * 10 * 3 * 4  # variants x participants x days x prompts a day
    assert m["answered"].dtype == bool and m["participant"].min() == 1
    assert (m.loc[m.answered, "reason"] == "").all() and (m.loc[~m.answered, "reason"] != "").all()
    # The shorter expiry loses more.
    share = m.groupby("variant", observed=True)["answered"].mean()
    assert share["alpha"] < share["zeta"]


def power_study():
    return {"name": "power", "seed": 1,
            "population": {"preset": "own_phones", "size": 20,
                           "state": {"company": {"share": 0.4, "slope": 4, "slope_sd": 1}}},
            "protocol": {"window": "09:00-21:00", "expiry": "30m",
                         "schedule": {"algorithm": "fixed-blocks", "per_day": 5}}}


def test_power_refuses_a_study_without_a_predictor():
    pytest.importorskip("statsmodels")
    s = power_study()
    del s["population"]["state"]
    with pytest.raises(esmsim.EsmsimError, match="population.state.company"):
        esmsim.power(s, participants=[20], days=[5])


@needs_esmsim
def test_power_fits_the_answers_the_complete_data_and_mcar():
    pytest.importorskip("statsmodels")
    r = esmsim.power(power_study(), participants=[20], days=[7], replications=8, random_slope=False)
    assert list(r["analysis"]) == ["answered", "complete", "mcar"]
    assert (r["replications"] + r["failed"] == 8).all()
    by = r.set_index("analysis")
    # MCAR draws as many of the complete data's prompts as were answered.
    assert by.loc["mcar", "answers"] == by.loc["answered", "answers"] < by.loc["complete", "answers"]
    # A slope of 4 (sd 1) with 20 people a week: found, and estimated near 4 (6 standard errors).
    for a in ("answered", "complete"):
        assert by.loc[a, "power"] > 0.5, r
        assert abs(by.loc[a, "estimate"] - 4) < 6 * by.loc[a, "bias_se"] + 0.5, r
        assert by.loc[a, "bias"] == pytest.approx(by.loc[a, "estimate"] - 4)
    # The complete data's 95 % Wald intervals hold the planned slope of 4 in most replications
    # (a wrong standard error or slope gave none).
    assert by.loc["complete", "coverage"] >= 0.5, r
    assert ((r["power_low"] <= r["power"]) & (r["power"] <= r["power_high"])).all()
    assert ((r["coverage_low"] <= r["coverage"]) & (r["coverage"] <= r["coverage_high"])).all()
    assert "warnings" in r.columns
    # People differ (a person's mean state): the random intercept's variance is found, not left
    # at 0 with an infinite likelihood as L-BFGS left most of these fits (singular 0.75-0.95).
    assert (r["singular"] < 0.5).all(), r
    with pytest.raises(esmsim.EsmsimError, match="truth is the tested coefficient"):
        esmsim.power(power_study(), participants=[20], days=[7], truth=4)


def ar_study():
    """Mood at five fixed times three hours apart: its autocorrelation over three hours is
    exp(-180 / 95) = 0.150 (the R package's test of the same study)."""
    return {"name": "ar", "seed": 11,
            "population": {"size": 20, "variables": [{"name": "mood", "mean": 50, "person_sd": 10, "sd": 12,
                                                      "reversion": "95m"}]},
            "protocol": {"window": "08:00-22:00", "expiry": "30m",
                         "schedule": {"algorithm": "fixed-times",
                                      "times": ["09:00", "12:00", "15:00", "18:00", "21:00"]}}}


def test_power_of_answers_needs_a_formula_naming_known_columns():
    pytest.importorskip("statsmodels")
    from esmsim.power import _answer_names, _check_formula
    # answers.csv's questionnaire is a column a model can use, its levels the questionnaires' names.
    two = {"population": {"variables": [{"name": "mood"}]},
           "protocol": {"questionnaires": [{"name": "day"}, {"name": "evening"}]}}
    assert _answer_names(two)["questionnaires"] == ["day", "evening"]
    _check_formula("mood ~ questionnaire", "questionnaire[T.evening]", _answer_names(two))
    assert _answer_names(ar_study())["questionnaires"] == ["esm"]
    with pytest.raises(esmsim.EsmsimError, match="give formula and term"):
        esmsim.power(ar_study(), participants=[5], days=[2])
    with pytest.raises(esmsim.EsmsimError, match="stress_within"):
        esmsim.power(ar_study(), participants=[5], days=[2], formula="mood ~ stress_within", term="stress_within")


@needs_esmsim
def test_power_of_an_ar1_model_on_the_answers():
    pytest.importorskip("statsmodels")
    r = esmsim.power(ar_study(), participants=[20], days=[4], replications=30, formula="mood ~ mood_lag_within",
                     term="mood_lag_within", truth=0.150)
    by = r.set_index("analysis")
    assert by.loc["complete", "answers"] == 20 * 4 * 5
    assert by.loc["mcar", "answers"] == by.loc["answered", "answers"] < by.loc["complete", "answers"]
    # The complete data's AR estimate: 0.099 over 200 replications in R (below 0.150 by the
    # within-person centring of 20 prompts); 30 replications of sd 0.058 give a standard
    # error of 0.011.
    assert abs(by.loc["complete", "estimate"] - 0.099) < 4 * 0.058 / 30 ** 0.5, r
    assert (r["failed"] == 0).all(), r
    assert by.loc["answered", "estimate"] < by.loc["complete", "estimate"], r
    # Bias and coverage against the truth given (0.150): the centring's bias is what they show.
    assert (r["bias"] == r["estimate"] - 0.150).all() and by.loc["complete", "bias"] < 0
    assert ((0 <= r["coverage_low"]) & (r["coverage_low"] <= r["coverage"]) & (r["coverage"] <= r["coverage_high"])).all()


@needs_esmsim
def test_days_are_read_typed_and_add_up_to_the_participants(tmp_path):
    r = esmsim.run(study(outputs={"days": True}), tmp_path / "out")
    assert "days" in r.tables and r.days["enrolled"].dtype == "boolean" and r.days["answered"].dtype == "Int64"
    # 2 variants x 2 replications x 20 participants x 3 days.
    assert len(r.days) == 2 * 2 * 20 * 3
    keys = ["variant", "replication", "participant"]
    answered = r.days.groupby(keys, observed=True)["answered"].sum()
    completed = r.participants.set_index(keys)["completed"]
    assert (answered.reindex(completed.index) == completed).all()


def _temporary(prefix):
    import tempfile
    return {p.name for p in Path(tempfile.gettempdir()).glob(prefix + "*")}


@needs_esmsim
def test_calibrate_reads_naive_times_as_a_csv_files_and_removes_its_copy(tmp_path):
    # Naive datetimes are the participants' clock, as in the csv file: the same fit from the
    # file and from its DataFrame with a time zone (they were read as UTC, so every hour's odds
    # moved by the zone's offset). The DataFrame's copy is not left behind.
    before = _temporary("esmsim-calibration-")
    kwargs = dict(time_zone="Europe/Brussels", people=30, bootstrap=5, evaluations=30)
    from_file = esmsim.calibrate(esmsim.example("pilot.csv"), output=tmp_path / "file.yaml", **kwargs)
    pilot = pd.read_csv(esmsim.example("pilot.csv"), parse_dates=["scheduled", "opened", "submitted"])
    from_frame = esmsim.calibrate(pilot, output=tmp_path / "frame.yaml", **kwargs)
    assert from_frame.estimates.to_dict("records") == from_file.estimates.to_dict("records")
    assert _temporary("esmsim-calibration-") == before


@needs_esmsim
def test_run_says_a_bad_value_or_scenario_plainly_and_leaves_no_folder(tmp_path):
    before = _temporary("esmsim-")
    with pytest.raises(esmsim.EsmsimError) as e:
        esmsim.run(study(), participants=-5)
    assert "Missing value" not in str(e.value) and "participants" in str(e.value)
    # Said by the function's argument, not as the scenario's key population.size.
    with pytest.raises(esmsim.EsmsimError, match="^the argument duration: expected a duration"):
        esmsim.run(study(), duration="2")
    # An argument esmsim reads as a command-line flag is said as the argument, not as the flag.
    with pytest.raises(esmsim.EsmsimError, match="for the argument seed$"):
        esmsim.run(study(), seed=-1)
    with pytest.raises(esmsim.EsmsimError, match="^the argument replications must be between 1 and"):
        esmsim.run(study(), replications=0)
    with pytest.raises(esmsim.EsmsimError, match="^the argument people: expected"):
        esmsim.calibrate(esmsim.example("pilot.csv"), people=0)
    with pytest.raises(esmsim.EsmsimError):
        esmsim.run(["not", "a", "scenario"])
    with pytest.raises(esmsim.EsmsimError):
        esmsim.run({"name": "x", "seed": object()})
    assert _temporary("esmsim-") == before
    import numpy as np
    r = esmsim.run(study(seed=np.int64(3)), participants=np.int64(5))
    assert r.manifest is not None
    # An existing folder: the argument to give is force=True, not the command line's --force.
    with pytest.raises(esmsim.EsmsimError, match="give force=True to replace it"):
        esmsim.run(study(), r.folder)


@needs_esmsim
def test_power_says_a_missing_or_bad_file_by_its_own_name(tmp_path):
    pytest.importorskip("statsmodels")
    with pytest.raises(esmsim.EsmsimError) as e:
        esmsim.power(tmp_path / "nope.yaml", participants=20, days=5)
    assert "no scenario file" in str(e.value)
    bad = tmp_path / "pw.yaml"
    bad.write_text("name: t\nprotocol:\n  expiry: 30mins\n")
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.power(bad, participants=20, days=5)
    assert e.value.file == str(bad) and e.value.key == "protocol.expiry" and e.value.line == 3


@needs_esmsim
def test_a_bad_cell_of_a_data_frame_is_located_by_its_row():
    pilot = pd.read_csv(esmsim.example("pilot.csv"))
    pilot.loc[5, "scheduled"] = "yesterday"
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.calibrate(pilot)
    assert e.value.file == "<DataFrame>" and e.value.key == "scheduled"
    assert "row 5 of the DataFrame" in str(e.value) and "esmsim-calibration" not in str(e.value)


@needs_esmsim
def test_power_leaves_no_results_behind_and_reads_plain_clock_times(tmp_path):
    # Each design's results are removed once read (they stayed in the temporary folder, 37 MB
    # each); a YAML file's unquoted clock times stay clock times (PyYAML read 12:30 as 750).
    pytest.importorskip("statsmodels")
    pytest.importorskip("yaml")
    scenario = tmp_path / "ar.yaml"
    scenario.write_text("name: ar\nseed: 11\npopulation:\n  size: 8\n  variables:\n"
                        "    - {name: mood, mean: 50, person_sd: 10, sd: 12, reversion: 95m}\n"
                        "protocol:\n  window: \"08:00-22:00\"\n  expiry: 30m\n"
                        "  schedule: {algorithm: fixed-times, times: [09:00, 12:30, 15:00]}\n")
    before = (_temporary("esmsim-results-"), _temporary("esmsim-power-"))
    r = esmsim.power(scenario, participants=[8], days=[2, 3], replications=3, formula="mood ~ mood_lag_within",
                     term="mood_lag_within")
    assert list(r.loc[r["analysis"] == "complete", "answers"]) == [8 * 2 * 3, 8 * 3 * 3]
    assert (_temporary("esmsim-results-"), _temporary("esmsim-power-")) == before


def test_power_without_variables_says_a_model_it_does_not_fit():
    pytest.importorskip("statsmodels")
    with pytest.raises(esmsim.EsmsimError, match="declare population.variables"):
        esmsim.power(power_study(), participants=[20], days=[5], formula="state ~ company_within + hour", term="hour")
    for bad in (42, None):
        with pytest.raises(esmsim.EsmsimError, match="a file name or a dict"):
            esmsim.power(bad, participants=[20], days=[5])
    with pytest.raises(esmsim.EsmsimError, match="whole numbers"):
        esmsim.power(power_study(), participants=["a"], days=[5])


def test_bad_arguments_are_esmsim_errors_and_leave_nothing(tmp_path):
    before = _temporary("esmsim-calibration-")
    for files, kwargs in ((42, {}), (None, {}), (esmsim.example("pilot.csv"), {"columns": ["participant"]})):
        with pytest.raises(esmsim.EsmsimError):
            esmsim.calibrate(files, **kwargs)
    assert _temporary("esmsim-calibration-") == before
    with pytest.raises(esmsim.EsmsimError, match="results folder"):
        esmsim.read(None)
    with pytest.raises(esmsim.EsmsimError, match="address"):
        esmsim.install(None, "0" * 64)
    # 2.7 days ran 2 days without a word; checked before statsmodels is needed.
    for kwargs, said in (({"participants": [20], "days": [2.7]}, "days are whole numbers of at least 1, not 2.7"),
                         ({"participants": [float("nan")], "days": [3]}, "participants are whole numbers"),
                         ({"participants": [20], "days": [3], "alpha": 5}, "alpha is the test's level")):
        with pytest.raises(esmsim.EsmsimError, match=said):
            esmsim.power({"name": "p"}, **kwargs)


@needs_esmsim
def test_power_refuses_a_design_that_cannot_run_before_any_runs(monkeypatch):
    pytest.importorskip("statsmodels")
    ran = []
    monkeypatch.setattr(esmsim, "run", lambda *a, **k: ran.append(a) or pytest.fail("a design ran"))
    s = power_study()
    s["protocol"]["schedule"] = {"algorithm": "fixed-times", "times": ["09:00", "13:00", "17:00"]}
    with pytest.raises(esmsim.ScenarioError, match=r"design 2 of 2 \(10 participants, 2 days, 5 a day\) cannot run") as e:
        esmsim.power(s, participants=[10], days=[2], per_day=[3, 5], replications=2)
    assert e.value.key == "protocol.schedule.per_day" and e.value.file == "the scenario dict" and not ran


def test_a_singular_fit_is_what_lme4_calls_singular():
    from types import SimpleNamespace
    from esmsim.power import _singular
    # A random intercept's variance at 0, a slope perfectly correlated with it: singular.
    assert _singular(SimpleNamespace(cov_re=pd.DataFrame([[1e-12]]), scale=2.0))
    assert _singular(SimpleNamespace(cov_re=pd.DataFrame([[4.0, 2.0], [2.0, 1.0]]), scale=1.0))
    # Variances well above 0 and a correlation of 0.5: not.
    assert not _singular(SimpleNamespace(cov_re=pd.DataFrame([[4.0]]), scale=2.0))
    assert not _singular(SimpleNamespace(cov_re=pd.DataFrame([[4.0, 1.0], [1.0, 1.0]]), scale=1.0))


def test_power_says_its_own_arguments_and_what_per_day_varies():
    pytest.importorskip("statsmodels")
    for kwargs, said in ((dict(seed=-1), "the argument seed is a whole number"),
                         (dict(replications=0), "the argument replications is a whole number"),
                         (dict(replications=2.5), "the argument replications is a whole number")):
        with pytest.raises(esmsim.EsmsimError, match=said):
            esmsim.power(power_study(), participants=[10], days=[2], **kwargs)
    # per_day varies protocol.schedule: a scenario of questionnaires does not use it.
    s = power_study()
    s["protocol"] = {"window": "09:00-21:00", "questionnaires": [
        {"name": "a", "expiry": "30m", "schedule": {"algorithm": "fixed-blocks", "per_day": 4}}]}
    with pytest.raises(esmsim.EsmsimError, match="which this scenario does not use \\(it has protocol.questionnaires\\)"):
        esmsim.power(s, participants=[10], days=[2], per_day=[3, 5])


@needs_esmsim
def test_power_says_an_error_in_an_imported_file_there(tmp_path, monkeypatch):
    pytest.importorskip("statsmodels")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.json").write_text("[{\"expiration\": -5}]")
    s = power_study()
    s["protocol"] = {"aware_schedule": "broken.json"}
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.power(s, participants=[10], days=[2])
    assert e.value.file == str(tmp_path / "broken.json"), (e.value.file, e.value.message)


@needs_esmsim
def test_power_runs_each_prompts_a_day_and_schedule():
    pytest.importorskip("statsmodels")
    r = esmsim.power(power_study(), participants=[20], days=[3], per_day=[3, 6], schedule=["fixed-blocks", "buffered-blocks"],
                     replications=3, random_slope=False)
    assert len(r) == 12 and set(r["per_day"]) == {3, 6} and set(r["schedule"]) == {"fixed-blocks", "buffered-blocks"}
    # The designs in R's order (expand.grid): per_day before schedule, each design's three analyses.
    designs = r[["per_day", "schedule"]].drop_duplicates().apply(tuple, axis=1).tolist()
    assert designs == [(3, "fixed-blocks"), (6, "fixed-blocks"), (3, "buffered-blocks"), (6, "buffered-blocks")]
    assert (r["test"] == "Wald z").all() and (r["seconds"] > 0).all()
    assert r["singular"].between(0, 1).all()
    complete = r[r["analysis"] == "complete"].groupby("per_day")["answers"].mean()
    # Twice the prompts a day: about twice the complete data (3 days, 20 people; a dropout aside).
    assert 1.8 < complete[6] / complete[3] < 2.2, r


@needs_esmsim
def test_design_takes_numpy_whole_numbers():
    import numpy as np
    d = esmsim.design(esmsim.example("quickstart.yaml"), "answers:5@0.5", days=np.arange(2, 4), per_day=np.array([3]),
                      participants=[20])
    assert list(d.frontier["per_day"]) == [3]


@needs_esmsim
def test_calibrate_takes_a_data_frames_time_zone_as_the_clock(tmp_path):
    # Columns with a zone: that zone is the participants' clock (as R takes a POSIXct's tzone),
    # so the same fit as the file with time_zone= (without it the clock was UTC).
    kwargs = dict(people=30, bootstrap=5, evaluations=30)
    from_file = esmsim.calibrate(esmsim.example("pilot.csv"), output=tmp_path / "file.yaml", time_zone="Europe/Brussels",
                                 **kwargs)
    pilot = pd.read_csv(esmsim.example("pilot.csv"), parse_dates=["scheduled", "opened", "submitted"])
    for c in ("scheduled", "opened", "submitted"):
        pilot[c] = pilot[c].dt.tz_localize("Europe/Brussels")
    from_frame = esmsim.calibrate(pilot, output=tmp_path / "frame.yaml", **kwargs)
    assert from_frame.estimates.to_dict("records") == from_file.estimates.to_dict("records")


@needs_esmsim
def test_calibrate_takes_a_fixed_offset_as_the_clock_and_a_dict_scenario(tmp_path):
    # pandas' UTC+01:00 (times parsed with their offsets) was dropped: the hours read as UTC's.
    from datetime import timedelta, timezone
    kwargs = dict(people=30, bootstrap=5, evaluations=30)
    from_file = esmsim.calibrate(esmsim.example("pilot.csv"), output=tmp_path / "file.yaml", utc_offset=60, **kwargs)
    pilot = pd.read_csv(esmsim.example("pilot.csv"), parse_dates=["scheduled", "opened", "submitted"])
    for c in ("scheduled", "opened", "submitted"):
        pilot[c] = pilot[c].dt.tz_localize(timezone(timedelta(hours=1)))
    from_frame = esmsim.calibrate(pilot, output=tmp_path / "frame.yaml", **kwargs)
    assert from_frame.estimates.to_dict("records") == from_file.estimates.to_dict("records")
    # A zone with rules whose name has no "/" (CET) is passed on as a zone (it was refused).
    cet = pilot.copy()
    for c in ("scheduled", "opened", "submitted"):
        cet[c] = cet[c].dt.tz_convert("CET")
    from_cet = esmsim.calibrate(cet, output=tmp_path / "cet.yaml", **kwargs)
    assert from_cet.estimates.to_dict("records") == esmsim.calibrate(
        esmsim.example("pilot.csv"), output=tmp_path / "file-cet.yaml", time_zone="CET", **kwargs).estimates.to_dict("records")
    mixed = pilot.copy()
    mixed["opened"] = mixed["opened"].dt.tz_convert("Europe/Brussels")
    with pytest.raises(esmsim.EsmsimError, match="different time zones"):
        esmsim.calibrate(mixed, **kwargs)
    # A dict scenario is read as run() reads one, and its error said of the dict.
    with pytest.raises(esmsim.ScenarioError) as e:
        esmsim.calibrate(esmsim.example("pilot.csv"), scenario={"name": "x", "protocol": {"expiry": "-5m"}}, **kwargs)
    assert e.value.file == "the scenario dict" and e.value.key == "protocol.expiry", e.value


@needs_esmsim
def test_an_error_in_a_dict_scenario_is_said_of_the_dict(tmp_path):
    # Not of its temporary JSON file (named, with a line, after it was deleted).
    bad = {"name": "x", "protocol": {"expiry": "-5m"}}
    for call in (lambda: esmsim.run(bad, tmp_path / "out"),
                 lambda: esmsim.design(bad, "answers:5@0.5", days=[2, 3])):
        with pytest.raises(esmsim.ScenarioError) as e:
            call()
        assert e.value.file == "the scenario dict" and e.value.key == "protocol.expiry" and e.value.line is None, e.value
        assert "scenario.json" not in str(e.value)
