"""docs/notebooks/explore.ipynb runs from top to bottom (nbclient, a fresh kernel) without
an error and draws its figures."""

import os
import unittest

import nbformat
from nbclient import NotebookClient

from support import SOURCE_DIR

NOTEBOOK = os.path.join(SOURCE_DIR, "docs", "notebooks", "explore.ipynb")


class Notebook(unittest.TestCase):
    def test_explore_runs_and_draws_its_figures(self):
        nb = nbformat.read(NOTEBOOK, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                self.assertEqual(cell.get("outputs", []), [], "the notebook is kept with its outputs stripped")
        os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
        os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger, on a frozen-module Python
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": os.path.dirname(NOTEBOOK)}}).execute()
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        self.assertEqual(errors, [])
        images = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                  if o.output_type in ("display_data", "execute_result") and "image/png" in o.get("data", {})]
        self.assertGreaterEqual(len(images), 3, "the heatmap, the time series and the arrows")


if __name__ == "__main__":
    unittest.main()
