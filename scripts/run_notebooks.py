"""Executes the notebooks headless (what `make test` does after `swift test`).

Each notebook runs in notebooks/ with the esmsim binary given by ESMSIM (the Makefile passes
the release build), its figures inline (`%matplotlib inline`). A notebook fails when a cell
raises, which includes its own asserts on the results, or when it shows no figure. The
executed notebooks, figures included, are written to notebooks/executed/ (not tracked) to
open in Jupyter. Usage: python scripts/run_notebooks.py [NOTEBOOK...]"""
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def figures(nb):
    """The figures (PNG or SVG outputs) an executed notebook holds."""
    return sum(1 for cell in nb.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
               if out.get("output_type") in ("display_data", "execute_result")
               and ("image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})))


def main(paths):
    executed = NOTEBOOKS / "executed"
    executed.mkdir(exist_ok=True)
    paths = [Path(p) for p in paths] or sorted(NOTEBOOKS.glob("*.ipynb"))
    failed = []
    for path in paths:
        start = time.monotonic()
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, kernel_name="python3", timeout=600,
                                resources={"metadata": {"path": str(NOTEBOOKS)}})
        try:
            client.execute()
            shown = figures(nb)
            nbformat.write(nb, executed / path.name)
            if shown == 0:
                failed.append(path.name)
                print(f"notebook {path.name}: FAILED: it ran but shows no figure", file=sys.stderr)
                continue
            print(f"notebook {path.name}: ok ({time.monotonic() - start:.1f} s, {shown} figures; "
                  f"executed copy in notebooks/executed/)")
        except CellExecutionError as error:
            failed.append(path.name)
            print(f"notebook {path.name}: FAILED\n{error}", file=sys.stderr)
    if failed:
        print(f"{len(failed)} notebook(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
