"""Executes the notebooks headless (what `make test` does after `swift test`).

Each notebook runs in notebooks/ with matplotlib's Agg backend and the esmsim binary given by
ESMSIM (the Makefile passes the release build). A notebook fails when a cell raises, which
includes its own asserts on the results. Usage: python scripts/run_notebooks.py [NOTEBOOK...]"""
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def main(paths):
    os.environ.setdefault("MPLBACKEND", "Agg")
    paths = [Path(p) for p in paths] or sorted(NOTEBOOKS.glob("*.ipynb"))
    failed = []
    for path in paths:
        start = time.monotonic()
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, kernel_name="python3", timeout=600,
                                resources={"metadata": {"path": str(NOTEBOOKS)}})
        try:
            client.execute()
            print(f"notebook {path.name}: ok ({time.monotonic() - start:.1f} s)")
        except CellExecutionError as error:
            failed.append(path.name)
            print(f"notebook {path.name}: FAILED\n{error}", file=sys.stderr)
    if failed:
        print(f"{len(failed)} notebook(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
