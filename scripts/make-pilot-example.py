"""Writes scenarios/pilot-example.csv, the example pilot shipped with the R and Python packages:
scenarios/pilot-example.yaml simulated by esmsim, its prompts as a per-prompt table in the
generic csv format `esmsim calibrate --format csv` reads (participant, scheduled, opened,
submitted; the participants' clock, ISO 8601 without a zone).

Usage: python3 scripts/make-pilot-example.py [ESMSIM]   (default .build/release/esmsim)"""
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(esmsim):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([esmsim, "run", str(ROOT / "scenarios/pilot-example.yaml"), "--output", tmp + "/out"],
                       stdout=subprocess.DEVNULL,
                       check=True)
        with open(tmp + "/out/prompts.csv", newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["volunteered"] == "0"]
    with open(ROOT / "scenarios/pilot-example.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["participant", "scheduled", "opened", "submitted"])
        for r in rows:
            w.writerow([f"p{int(r['participant']):02d}", r["scheduled"], r["opened"], r["submitted"]])
    print(f"scenarios/pilot-example.csv: {len(rows)} prompts")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build/release/esmsim"))
