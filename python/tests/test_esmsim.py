"""The Python package against the esmsim program (ESMSIM, or esmsim on the PATH)."""
import os
import shutil

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
