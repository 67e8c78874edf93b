#!/usr/bin/env python3
"""Executes a notebook headless and checks the mav viewer it displays.

    run_notebook.py NOTEBOOK OUTDIR [--timeout SECONDS]

1. Runs every cell of NOTEBOOK with nbclient, in a python3 kernel that is
   /usr/bin/python3 (a kernel spec of its own, so that no other installed
   "python3" kernel is picked up), started with this process's environment
   (PYTHONPATH must reach the mav package) and OUTDIR as its working
   directory. A cell that raises stops the run: exit status 1, and a FAIL
   line naming the cell (its number, its first line) and the error.
   A probe run after the last cell (and not kept) checks that the kernel
   was /usr/bin/python3 and where it imported mav from.
2. Writes the executed notebook to OUTDIR/NAME.ipynb, and its code cells'
   text outputs to OUTDIR/outputs.txt.
3. Finds the viewer among the cell outputs (the text/html output holding
   an <iframe class="mav-viewer">), writes the iframe's srcdoc page
   (html-unescaped) to OUTDIR/viewer.html and checks it in headless
   Chromium with test/Viewer/Inputs/check_viewer.py (the same browser,
   flags and checks as test/Viewer, against the graph JSON embedded in
   the page): nodes drawn as the JSON implies, collapse/expand, hover,
   colourings, summary, search, and no SEVERE console entry.
4. Writes the output as a notebook front end shows it, the iframe in a
   page (OUTDIR/viewer-cell.html), and checks that the viewer comes up
   inside the sandboxed srcdoc iframe, draws nodes, and that neither the
   page nor the frame logs a SEVERE console entry.

Prints one PASS/FAIL line per check; exit status 1 when any fails.
"""

import argparse
import html.parser
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Viewer", "Inputs"))

PYTHON = "/usr/bin/python3"
PROBE = ("import json, sys, mav\n"
         "print('MAV-PROBE ' + json.dumps({'executable': sys.executable, "
         "'mav': mav.__file__}))")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def fail(message):
    print("FAIL " + message, flush=True)
    return 1


def kernel_spec_dir():
    """A Jupyter data directory whose only kernel spec, python3, is
    /usr/bin/python3 (put first on JUPYTER_PATH)."""
    root = tempfile.mkdtemp(prefix="mav-notebook-jupyter-")
    spec = os.path.join(root, "kernels", "python3")
    os.makedirs(spec)
    with open(os.path.join(spec, "kernel.json"), "w") as f:
        json.dump({"argv": [PYTHON, "-Xfrozen_modules=off", "-m",
                            "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "Python 3 (" + PYTHON + ")",
                   "language": "python"}, f)
    return root


def first_line(cell):
    lines = [line for line in cell.source.splitlines() if line.strip()]
    return lines[0].strip() if lines else "(empty)"


def execute(path, outdir, timeout):
    """Runs the notebook; returns (notebook, error message or None,
    probe result, seconds)."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError

    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    jupyter = kernel_spec_dir()
    os.environ["JUPYTER_PATH"] = jupyter + (
        os.pathsep + os.environ["JUPYTER_PATH"] if os.environ.get("JUPYTER_PATH") else "")
    # Nothing from the user's Jupyter or IPython set-up.
    os.environ["IPYTHONDIR"] = os.path.join(jupyter, "ipython")
    os.environ["JUPYTER_CONFIG_DIR"] = os.path.join(jupyter, "config")
    os.environ["JUPYTER_RUNTIME_DIR"] = os.path.join(jupyter, "runtime")
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # ipykernel's debugger
    current = {"index": None}

    def on_cell_start(cell, cell_index, **_):
        current["index"] = cell_index

    client = NotebookClient(nb, kernel_name="python3", timeout=timeout,
                            resources={"metadata": {"path": outdir}},
                            on_cell_start=on_cell_start)
    def which():
        index = current["index"]
        if index is None:
            return "before the first cell"
        if index == len(nb.cells) - 1:
            return "the probe after the last cell"
        code_number = sum(1 for c in nb.cells[:index + 1] if c.cell_type == "code")
        return f"cell {index} (code cell {code_number}, '{first_line(nb.cells[index])}')"

    error = None
    start = time.time()
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError) as e:
        what = which()
        if isinstance(e, CellExecutionError):
            error = f"{what} raised {e.ename}: {ANSI.sub('', str(e.evalue))}"
        else:
            error = f"{what} timed out after {timeout} s"
        detail = ANSI.sub("", str(e)).strip()
        if detail:
            error += "\n" + "\n".join("  " + line for line in detail.splitlines()[-40:])
    except Exception as e:  # the kernel did not start, or died (DeadKernelError)
        error = f"{which()}: the kernel failed: {type(e).__name__}: {e}"
    finally:
        shutil.rmtree(jupyter, ignore_errors=True)
    seconds = time.time() - start
    probe = None
    last = nb.cells.pop()
    for output in last.get("outputs", []):
        for line in output.get("text", "").splitlines():
            if line.startswith("MAV-PROBE "):
                probe = json.loads(line[len("MAV-PROBE "):])
    return nb, error, probe, seconds


class IframeFinder(html.parser.HTMLParser):
    """The srcdoc (unescaped by the parser) of each mav-viewer iframe."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pages = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "iframe" and "mav-viewer" in (attrs.get("class") or "").split():
            self.pages.append(attrs.get("srcdoc"))


def write_outputs(nb, path):
    """The code cells' text outputs (streams, errors, text/plain), one
    "== cell N" header each, for reading and FileCheck."""
    with open(path, "w", encoding="utf-8") as f:
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            f.write(f"== cell {index}\n")
            for output in cell.get("outputs", []):
                if output.output_type == "stream":
                    f.write(output.text)
                elif output.output_type == "error":
                    f.write(ANSI.sub("", "\n".join(output.traceback)) + "\n")
                elif "text/plain" in output.get("data", {}):
                    f.write(output.data["text/plain"] + "\n")


def viewer_outputs(nb):
    """[(cell index, the text/html output, its srcdoc pages)] of the cells
    that display a mav viewer."""
    found = []
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            page = output.get("data", {}).get("text/html")
            if page is None:
                continue
            page = "".join(page) if isinstance(page, list) else page
            finder = IframeFinder()
            finder.feed(page)
            finder.close()
            if finder.pages:
                found.append((index, page, finder.pages))
    return found


def severe_entries(driver):
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def check_page(page):
    """check_viewer's checks on the standalone page. Returns the failures."""
    import check_viewer as cv
    from selenium.common.exceptions import WebDriverException

    driver, profile = cv.start_browser(1600, 1000)
    try:
        try:
            ready = cv.open_page(driver, page)
        except (AssertionError, WebDriverException) as e:
            fail("ready: " + str(e).splitlines()[0])
            for message in severe_entries(driver):
                print("  console: " + message[:300])
            return 1
        print(f"PASS ready: viewer.html in {ready['readyAt'] / 1000.0:.3f} s", flush=True)
        doc = cv.page_value(driver, "JSON.parse(document.getElementById('mav-data').textContent)")
        disp = cv.Display(doc)
        drawn = cv.drawn(driver)
        if not drawn["names"] or not drawn["edges"]:
            return fail(f"rendered: {len(drawn['names'])} nodes and {drawn['edges']} edges drawn")
        print(f"PASS rendered: {len(drawn['names'])} of {len(disp.nodes)} nodes, "
              f"{drawn['edges']} edges drawn", flush=True)
        checker = cv.Checker(driver, disp)
        for name, check in (("visible", checker.check_visible),
                            ("collapse", checker.check_collapse),
                            ("hover", checker.check_hover),
                            ("colour", checker.check_colour),
                            ("summary", checker.check_summary),
                            ("search", checker.check_search),
                            ("console", checker.check_console)):
            checker.run(name, check)
        return checker.failed
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def check_iframe(page):
    """The viewer as the notebook shows it: inside the sandboxed srcdoc
    iframe of the cell's output. Returns the failures."""
    import check_viewer as cv
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    # Chromium runs a sandboxed iframe in a process of its own
    # (IsolateSandboxedIframes), whose console chromedriver does not collect:
    # kept in the page's process, the frame's console entries are logged.
    saved = cv.CHROME_FLAGS
    cv.CHROME_FLAGS = saved + ["--disable-features=IsolateSandboxedIframes"]
    try:
        driver, profile = cv.start_browser(1600, 1000)
    finally:
        cv.CHROME_FLAGS = saved
    try:
        driver.get("file://" + os.path.abspath(page))
        frames = driver.find_elements(By.CSS_SELECTOR, "iframe.mav-viewer")
        if len(frames) != 1:
            return fail(f"iframe: {len(frames)} iframe.mav-viewer in the cell's output")
        driver.switch_to.frame(frames[0])
        try:
            cv.wait_ready(driver)
            drawn = cv.drawn(driver)
        except (AssertionError, WebDriverException) as e:
            fail("iframe: the viewer did not come up in the notebook's iframe: "
                 + str(e).splitlines()[0])
            for message in severe_entries(driver):
                print("  console: " + message[:300])
            return 1
        driver.switch_to.default_content()
        severe = severe_entries(driver)
        if severe:
            return fail(f"iframe: {len(severe)} SEVERE console entries, the first: {severe[0][:300]}")
        if not drawn["names"]:
            return fail("iframe: the viewer in the iframe drew no node")
        print(f"PASS iframe: the viewer in the cell's sandboxed iframe drew "
              f"{len(drawn['names'])} nodes, {drawn['edges']} edges; no SEVERE console entry",
              flush=True)
        return 0
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description="Executes a notebook headless and checks its mav viewer.")
    ap.add_argument("notebook")
    ap.add_argument("outdir")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    outdir = os.path.abspath(args.outdir)

    import nbformat
    nb, error, probe, seconds = execute(args.notebook, outdir, args.timeout)
    executed = os.path.join(outdir, os.path.basename(args.notebook))
    nbformat.write(nb, executed)
    write_outputs(nb, os.path.join(outdir, "outputs.txt"))
    if error:
        return fail(f"execute: {os.path.basename(args.notebook)}: {error}")
    print(f"PASS execute: {sum(c.cell_type == 'code' for c in nb.cells)} code cells "
          f"in {seconds:.1f} s, written to {executed}", flush=True)
    if probe is None:
        return fail("kernel: the probe printed nothing")
    if probe["executable"] != PYTHON:
        return fail(f"kernel: ran {probe['executable']}, not {PYTHON}")
    print(f"PASS kernel: {probe['executable']}, mav from {probe['mav']}", flush=True)
    timed = []
    for index, cell in enumerate(nb.cells):
        execution = cell.get("metadata", {}).get("execution", {})
        if "iopub.execute_input" in execution and "shell.execute_reply" in execution:
            from datetime import datetime
            parse = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
            timed.append(((parse(execution["shell.execute_reply"])
                           - parse(execution["iopub.execute_input"])).total_seconds(), index))
    if timed:
        print("slowest cells: " + ", ".join(f"cell {i} {s:.1f} s"
                                            for s, i in sorted(timed, reverse=True)[:3]))

    viewers = viewer_outputs(nb)
    if not viewers:
        return fail("viewer: no cell output holds an <iframe class=\"mav-viewer\">")
    index, cell_html, pages = viewers[0]
    if not pages[0]:
        return fail(f"viewer: cell {index}'s mav-viewer iframe has no srcdoc")
    page = os.path.join(outdir, "viewer.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(pages[0])
    print(f"PASS viewer: cell {index} shows the viewer ({len(viewers)} viewer output(s)); "
          f"its page, {len(pages[0])} characters, written to {page}", flush=True)
    failed = check_page(page)

    wrapper = os.path.join(outdir, "viewer-cell.html")
    with open(wrapper, "w", encoding="utf-8") as f:
        f.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cell "
                f"{index}</title></head><body>\n{cell_html}\n</body></html>\n")
    failed += check_iframe(wrapper)
    print(("PASS" if not failed else "FAIL") + f": {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
