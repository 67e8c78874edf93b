#!/usr/bin/env python3
"""Checks a mav HTML viewer page in headless Chromium (Selenium).

    check_viewer.py PAGE.html --json EXPORTED.json [--screenshot OUT.png]
    check_viewer.py PAGE.html --open-time [--runs N]

Opens PAGE through file:// and waits for window.mavViewer.ready, then checks,
printing one PASS/FAIL line each (exit status 1 when any fails):

  visible    the drawn nodes and collapsed scopes are exactly those the JSON
             implies for the default collapse state (rules below), and
             mavViewer.visibleNodeCount() agrees; the edges drawn are the
             graph's edges between them, merged
  collapse   collapsing and expanding a scope (clicking its header, then its
             box) changes the drawing both ways as computed from the JSON
  hover      hovering a node fills #mav-details with its name, op, target,
             shape and every leaf of its common/hardware/software metadata
  colour     each colouring of #mav-colour changes the node fills, and means
             what it says (one colour per mase_op; heat by params/FLOPs)
  summary    clicking a row of #mav-summary highlights that scope
  search     a node name typed into #mav-search is revealed and highlighted
  console    no SEVERE entry in the browser console; nothing was loaded
             from anywhere but the page itself

The viewer's drawing rules, mirrored from viewer/src/js/:
  - a node's scope is its "scope" (version 2), else a call_module's target,
    else "" (top level); every prefix of a scope path is a scope;
  - a scope with no child scope whose nodes are one node, or only calls of
    that very module, is drawn as its nodes;
  - a scope with more than 300 direct items shows them in ranges of 100
    (ranges of ranges of 100**k when there would be more than 300 ranges);
  - graphs of at most 300 nodes open fully expanded, larger ones with only
    the top level open (the top-level scopes collapsed).

--open-time prints the seconds from navigation to ready (performance.now()
at ready), the median of --runs runs, and the last layout's milliseconds.
"""

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

CHUNK_MAX = 300
CHUNK_SIZE = 100
EXPAND_ALL_MAX_NODES = 300
MAX_VISIBLE = 2000

CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage"]


# ----------------------------------------------------------- the JSON's view

class Scope:
    def __init__(self, path, parent):
        self.path, self.parent = path, parent
        self.children, self.direct = [], []
        self.order, self.count, self.flat = float("inf"), 0, False
        self.items = None
        self.kind = "scope"


class Node:
    kind = "node"

    def __init__(self, index, raw):
        self.order, self.raw, self.name = index, raw, raw["name"]


class Chunk:
    kind = "chunk"

    def __init__(self, path, items):
        self.path, self.items = path, items
        self.order = items[0].order


class Display:
    """The display tree the viewer draws, computed from the exported JSON."""

    def __init__(self, doc):
        graph = doc["graphs"][0]
        self.scopes = {}
        self.root = self.scope("")
        for m in doc.get("modules") or []:
            if isinstance(m.get("path"), str):
                self.scope(m["path"])
        self.nodes = []
        for i, raw in enumerate(graph["nodes"]):
            path = raw.get("scope")
            if not isinstance(path, str):
                path = raw["target"] if raw.get("op") == "call_module" and isinstance(raw.get("target"), str) else ""
            n = Node(i, raw)
            n.scope = self.scope(path)
            n.scope.direct.append(n)
            self.nodes.append(n)
        self.by_name = {n.name: n for n in self.nodes}
        self.edges = [(self.by_name[e["from"]], self.by_name[e["to"]]) for e in graph.get("edges", [])
                      if e.get("from") in self.by_name and e.get("to") in self.by_name and e["from"] != e["to"]]
        for n in self.nodes:
            s = n.scope
            while s is not None:
                s.count += 1
                s.order = min(s.order, n.order)
                s = s.parent
        for s in self.scopes.values():
            if s is self.root or s.children or not s.direct:
                continue
            s.flat = len(s.direct) == 1 or all(
                n.raw.get("op") == "call_module" and n.raw.get("target") == s.path for n in s.direct)
        self.display = {}
        self.build(self.root)

    def scope(self, path):
        if path in self.scopes:
            return self.scopes[path]
        parent = None if path == "" else self.scope(path.rsplit(".", 1)[0] if "." in path else "")
        s = Scope(path, parent)
        if parent is not None:
            parent.children.append(s)
        self.scopes[path] = s
        return s

    def build(self, scope):
        items = list(scope.direct)
        for c in scope.children:
            if not c.count:
                continue
            if c.flat:
                items.extend(c.direct)
            else:
                self.build(c)
                items.append(c)
        items.sort(key=lambda it: it.order)
        scope.items = self.chunk(scope, items, 0)
        self.set_up(scope)
        self.display[scope.path] = scope

    def chunk(self, owner, items, offset):
        if len(items) <= CHUNK_MAX:
            return items
        size = CHUNK_SIZE
        while -(-len(items) // size) > CHUNK_MAX:
            size *= CHUNK_SIZE
        chunks = []
        for a in range(0, len(items), size):
            part = items[a:a + size]
            first, last = offset + a, offset + a + len(part) - 1
            c = Chunk(f"{owner.path}[{first}-{last}]", part)
            c.items = self.chunk(owner, part, first)
            self.set_up(c)
            self.display[c.path] = c
            chunks.append(c)
        return chunks

    @staticmethod
    def set_up(scope):
        for it in scope.items:
            it.up = scope

    # -- what is drawn for a set of expanded display paths
    def visible(self, expanded):
        nodes, collapsed = [], []

        def walk(scope):
            for it in scope.items:
                if it.kind == "node":
                    nodes.append(it.name)
                elif it.path in expanded:
                    walk(it)
                else:
                    collapsed.append(it.path)
        walk(self.root)
        return set(nodes), set(collapsed)

    def edge_count(self, expanded):
        def rep(n):
            r, s = ("n", n.name), n.up
            while s is not None and s is not self.root:
                if s.path not in expanded:
                    r = ("s", s.path)
                s = s.up
            return r
        pairs = set()
        for a, b in self.edges:
            ra, rb = rep(a), rep(b)
            if ra != rb:
                pairs.add((ra, rb))
        return len(pairs)

    def default_expanded(self):
        if len(self.nodes) <= EXPAND_ALL_MAX_NODES:
            every = {p for p in self.display if p != ""}
            n, c = self.visible(every)
            if len(n) + len(c) <= MAX_VISIBLE:
                return every
        return set()

    def ancestors(self, item):
        out, s = [], item.up
        while s is not None and s is not self.root:
            out.append(s.path)
            s = s.up
        return out


# ------------------------------------------------------------------- browser

def start_browser(width, height):
    opts = webdriver.ChromeOptions()
    profile = tempfile.mkdtemp(prefix="mav-viewer-chrome-")
    for flag in CHROME_FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        opts.add_argument(flag)
    if os.path.exists("/usr/bin/chromium"):
        opts.binary_location = "/usr/bin/chromium"
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))
    driver.set_page_load_timeout(180)
    driver.set_script_timeout(180)
    return driver, profile


def call(driver, expr):
    """Evaluates an expression (a promise is awaited) in the page."""
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.resolve().then(() => eval(arguments[0]))"
        ".then(v => done({ok: v === undefined ? null : v}), e => done({error: String(e && e.stack || e)}));",
        expr)


def page_value(driver, expr):
    r = call(driver, expr)
    if "error" in r:
        raise AssertionError(f"{expr}: {r['error']}")
    return r["ok"]


def wait_ready(driver):
    return page_value(driver, "mavViewer.ready.then(v => ({readyAt: v.readyAt, layoutMs: v.layoutMs,"
                              " renderMs: v.renderMs}))")


DRAWN_JS = """(() => {
  const names = [...document.querySelectorAll('#mav-viewport .mav-node')].map(e => e.getAttribute('data-name'));
  const collapsed = [...document.querySelectorAll('#mav-viewport .mav-scope[data-collapsed="true"]')].map(e => e.getAttribute('data-path'));
  const open = [...document.querySelectorAll('#mav-viewport .mav-scope[data-collapsed="false"]')].map(e => e.getAttribute('data-path'));
  return {names, collapsed, open, edges: document.querySelectorAll('#mav-viewport .mav-edge').length,
          count: mavViewer.visibleNodeCount()};
})()"""


def drawn(driver):
    return page_value(driver, DRAWN_JS)


# -------------------------------------------------------------------- checks

class Checker:
    def __init__(self, driver, disp):
        self.d, self.disp = driver, disp
        self.failed = 0
        self.expanded = disp.default_expanded()

    def report(self, ok, name, detail):
        print(("PASS " if ok else "FAIL ") + name + ": " + detail, flush=True)
        if not ok:
            self.failed += 1

    def run(self, name, fn):
        try:
            fn()
        except AssertionError as e:
            self.report(False, name, str(e))
        except WebDriverException as e:
            self.report(False, name, "browser: " + (e.msg or str(e)).splitlines()[0])

    def compare_drawing(self, what):
        """The drawing equals the JSON's for self.expanded; returns the count."""
        got = drawn(self.d)
        names, collapsed = self.disp.visible(self.expanded)
        want = len(names) + len(collapsed)
        problems = []
        if set(got["names"]) != names or len(got["names"]) != len(names):
            extra = sorted(set(got["names"]) - names)[:3]
            missing = sorted(names - set(got["names"]))[:3]
            problems.append(f"nodes differ (extra {extra}, missing {missing})")
        if set(got["collapsed"]) != collapsed or len(got["collapsed"]) != len(collapsed):
            extra = sorted(set(got["collapsed"]) - collapsed)[:3]
            missing = sorted(collapsed - set(got["collapsed"]))[:3]
            problems.append(f"collapsed scopes differ (extra {extra}, missing {missing})")
        if got["count"] != want:
            problems.append(f"visibleNodeCount() is {got['count']}, the JSON implies {want}")
        want_open = set(p for p in self.expanded if p in self.disp.display)
        want_open = {p for p in want_open if all(a in self.expanded for a in self.disp.ancestors(self.disp.display[p]))}
        if set(got["open"]) != want_open:
            problems.append(f"open scopes differ: {sorted(set(got['open']) ^ want_open)[:4]}")
        edges = self.disp.edge_count(self.expanded)
        if got["edges"] != edges:
            problems.append(f"{got['edges']} edges drawn, the JSON implies {edges}")
        if problems:
            raise AssertionError(what + ": " + "; ".join(problems))
        return want, edges

    def check_visible(self):
        count, edges = self.compare_drawing("default state")
        mode = "all expanded" if self.expanded else "top level only"
        self.report(True, "visible", f"{count} boxes ({mode}; {len(self.disp.nodes)} nodes in the graph), {edges} edges")

    def pick_scope(self):
        """A scope to fold: the largest open top-level one, else the largest collapsed one that fits."""
        tops = [it for it in self.disp.root.items if it.kind != "node"]
        if not tops:
            return None
        open_tops = [s for s in tops if s.path in self.expanded]
        if open_tops:
            return max(open_tops, key=lambda s: (getattr(s, "count", len(s.items)), -s.order))
        fits = []
        for s in tops:
            n, c = self.disp.visible(self.expanded | {s.path})
            if len(n) + len(c) <= MAX_VISIBLE:
                fits.append((len(n) + len(c), s))
        return max(fits, key=lambda x: x[0])[1] if fits else None

    def check_collapse(self):
        s = self.pick_scope()
        if s is None:
            self.report(True, "collapse", "skipped: the graph has no scope to collapse")
            return
        before, _ = self.compare_drawing("before")
        steps = []
        first, second = ("collapse", "expand") if s.path in self.expanded else ("expand", "collapse")
        for action in (first, second):
            self.click_scope(s.path, action)
            if action == "collapse":
                self.expanded.discard(s.path)
            else:
                self.expanded.add(s.path)
                self.expanded.update(self.disp.ancestors(s))
            n, _ = self.compare_drawing(f"after {action} {s.path}")
            state = page_value(self.d, f"document.querySelector('.mav-scope[data-path=\"{s.path}\"]')"
                                       f".getAttribute('data-collapsed')")
            if state != ("true" if action == "collapse" else "false"):
                raise AssertionError(f"{s.path} has data-collapsed={state} after {action}")
            steps.append((action, n))
        if steps[0][1] == before:
            raise AssertionError(f"{first} of {s.path} did not change the count ({before})")
        if steps[1][1] != before:
            raise AssertionError(f"{second} of {s.path} gave {steps[1][1]} boxes, not the {before} of before")
        self.report(True, "collapse", f"{s.path}: {before} boxes, " +
                    ", ".join(f"{n} after {a}" for a, n in steps))

    def click_scope(self, path, action):
        """Collapses (a click on its header) or expands (a click on its box) a drawn scope, as a user does."""
        page_value(self.d, f"mavViewer.revealPath({json.dumps(path)})")
        sel = f'#mav-viewport .mav-scope[data-path="{css(path)}"]'
        sel += ' > .mav-scope-head' if action == "collapse" else '[data-collapsed="true"]'
        found = self.d.find_elements(By.CSS_SELECTOR, sel)
        if not found:
            raise AssertionError(f"no {sel} to click to {action} {path}")
        target = found[0].find_element(By.CSS_SELECTOR, ".mav-head-hit" if action == "collapse" else ".mav-box")
        ActionChains(self.d).move_to_element(target).click().perform()
        page_value(self.d, "mavViewer.idle()")

    def pick_node(self):
        """A node with the most metadata (common, hardware, software leaves), deepest in the scopes first."""
        def weight(n):
            raw = n.raw
            w = sum(len(leaves(raw.get(k))) for k in ("common", "hardware", "software") if isinstance(raw.get(k), dict))
            return (w + (50 if raw.get("op") == "call_module" else 0), len(self.disp.ancestors(n)), -n.order)
        return max(self.disp.nodes, key=weight)

    def check_hover(self):
        n = self.pick_node()
        ok = page_value(self.d, f"mavViewer.reveal({json.dumps(n.name)})")
        if ok is False:
            raise AssertionError(f"mavViewer.reveal({n.name}) refused")
        for a in self.disp.ancestors(n):
            self.expanded.add(a)
        el = self.d.find_element(By.CSS_SELECTOR, f'#mav-viewport .mav-node[data-name="{css(n.name)}"]')
        ActionChains(self.d).move_to_element(el).perform()
        deadline = time.time() + 5
        while self.d.find_element(By.ID, "mav-details").get_attribute("data-name") != n.name:
            if time.time() > deadline:
                raise AssertionError(f"hovering {n.name} did not show it in #mav-details")
            time.sleep(0.05)
        raw = n.raw
        details = self.d.find_element(By.ID, "mav-details")

        def field(key):
            cells = details.find_elements(By.CSS_SELECTOR, f'tr[data-field="{key}"] td')
            return cells[0].text if cells else None
        problems = []
        for key in ("name", "op", "target", "module_class", "mase_op", "mase_type"):
            if key in raw and field(key) != str(raw[key]):
                problems.append(f"{key} shows {field(key)!r}, not {raw[key]!r}")
        res = (raw.get("results") or [{}])[0]
        if isinstance(res.get("shape"), list):
            want = "[" + ", ".join("?" if d is None else str(d) for d in res["shape"]) + "]"
            if not (field("shape") or "").startswith(want):
                problems.append(f"shape shows {field('shape')!r}, not {want}")
        if isinstance(raw.get("scope"), str) and raw["scope"] and field("scope") != raw["scope"]:
            problems.append(f"scope shows {field('scope')!r}, not {raw['scope']!r}")
        shown = {e.get_attribute("data-key"): e.get_attribute("data-value")
                 for e in details.find_elements(By.CSS_SELECTOR, "[data-key]")}
        compared = 0
        for section in ("common", "hardware", "software"):
            value = raw.get(section)
            sec = details.find_elements(By.CSS_SELECTOR, f'[data-section="{section}"]')
            if not sec:
                problems.append(f"no {section} section")
                continue
            if not isinstance(value, dict):
                if "not set" not in sec[0].text and "none" not in sec[0].text:
                    problems.append(f"{section} is absent but the panel does not say so")
                continue
            for key, leaf in leaves(value, section).items():
                compared += 1
                if key not in shown:
                    problems.append(f"{key} is not shown")
                elif json.loads(shown[key]) != leaf:
                    problems.append(f"{key} shows {shown[key]}, not {json.dumps(leaf)}")
        extra = [k for k in shown if k.split(".")[0] in ("common", "hardware", "software")
                 and k not in leaves_all(raw)]
        if extra:
            problems.append(f"shows keys the JSON lacks: {extra[:3]}")
        if problems:
            raise AssertionError(f"{n.name}: " + "; ".join(problems[:5]))
        self.report(True, "hover", f"{n.name}: name, op, target, shape and {compared} metadata values match the JSON")

    def fills(self):
        return page_value(self.d, """(() => {
          const out = {};
          for (const g of document.querySelectorAll('#mav-viewport .mav-node'))
            out['n:' + g.getAttribute('data-name')] = g.querySelector('.mav-box').getAttribute('fill');
          for (const g of document.querySelectorAll('#mav-viewport .mav-scope[data-collapsed="true"]'))
            out['s:' + g.getAttribute('data-path')] = g.querySelector('.mav-box').getAttribute('fill');
          return out;
        })()""")

    def check_colour(self):
        select = Select(self.d.find_element(By.ID, "mav-colour"))
        values = [o.get_attribute("value") for o in select.options]
        if sorted(values) != sorted(["mase_op", "entry_exit", "flops", "params"]):
            raise AssertionError(f"#mav-colour offers {values}")
        body = [k for k in self.fills() if k.startswith("n:")
                and self.disp.by_name[k[2:]].raw.get("op") not in ("placeholder", "output")]
        if not body:  # only inputs, outputs and collapsed scopes drawn: show a node
            n = self.pick_node()
            if page_value(self.d, f"mavViewer.reveal({json.dumps(n.name)})") is False:
                raise AssertionError(f"no node to colour is drawn, and mavViewer.reveal({n.name}) refused")
            self.expanded.update(self.disp.ancestors(n))
        start = select.first_selected_option.get_attribute("value")
        order = [v for v in ("entry_exit", "params", "flops", "mase_op") if v != start] + [start]
        previous = self.fills()
        done = []
        for mode in order:
            select.select_by_value(mode)
            now = self.fills()
            if not now or any(v is None for v in now.values()):
                raise AssertionError(f"{mode}: a drawn box has no fill")
            if now == previous:
                raise AssertionError(f"switching to {mode} changed no fill")
            self.meaning(mode, now)
            done.append(f"{mode} ({len(set(now.values()))} colours)")
            previous = now
        self.report(True, "colour", ", ".join(done))

    def meaning(self, mode, fills):
        nodes = [self.disp.by_name[k[2:]] for k in fills if k.startswith("n:")]
        body = [n for n in nodes if n.raw.get("op") not in ("placeholder", "output")]
        if mode == "mase_op":
            by_op = {}
            for n in body:
                by_op.setdefault(n.raw.get("mase_op") or "", set()).add(fills["n:" + n.name])
            if any(len(c) != 1 for c in by_op.values()):
                raise AssertionError("mase_op: one op drawn in several colours")
            colours = [next(iter(c)) for c in by_op.values()]
            if len(set(colours)) != len(colours):
                raise AssertionError("mase_op: two ops share a colour")
        elif mode in ("params", "flops"):
            value = {}
            for n in body:
                v = (n.raw.get("software") or {}).get(mode)
                value[n.name] = v if isinstance(v, (int, float)) and v > 0 else 0
            zero = {fills["n:" + k] for k, v in value.items() if v == 0}
            if len(zero) > 1:
                raise AssertionError(f"{mode}: nodes without {mode} drawn in {len(zero)} colours")
            pos = {}
            for k, v in value.items():
                if v:
                    pos.setdefault(v, set()).add(fills["n:" + k])
            if any(len(c) != 1 for c in pos.values()):
                raise AssertionError(f"{mode}: equal values drawn in different colours")
            if len(pos) > 1 and len({next(iter(c)) for c in pos.values()}) < 2:
                raise AssertionError(f"{mode}: different values drawn in one colour")
            if pos and zero and zero & {next(iter(c)) for c in pos.values()}:
                raise AssertionError(f"{mode}: a node with {mode} drawn like one without")
        elif mode == "entry_exit":
            by = {}
            for n in body:
                sw = n.raw.get("software") or {}
                by.setdefault(sw.get("entry"), set()).add(fills["n:" + n.name])
            if any(len(c) != 1 for c in by.values()):
                raise AssertionError("entry_exit: one entry class drawn in several colours")

    def check_summary(self):
        rows = self.d.find_elements(By.CSS_SELECTOR, "#mav-summary tr[data-path]")
        if not rows:
            if any(s.count for s in self.disp.scopes.values() if s is not self.disp.root):
                raise AssertionError("the graph has scopes but #mav-summary has no row")
            self.report(True, "summary", "no scopes, no rows")
            return
        target = None
        for r in rows:
            path = r.get_attribute("data-path")
            s = self.disp.scopes.get(path)
            if s is not None and s.count and not s.flat:
                target = (r, s)
        if target is None:
            self.report(True, "summary", f"{len(rows)} rows (none of a drawn box)")
            return
        row, s = target
        self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        row.find_element(By.CSS_SELECTOR, ".mav-rname").click()
        deadline = time.time() + 20
        sel = f'#mav-viewport .mav-scope[data-path="{css(s.path)}"].mav-highlight'
        while not self.d.find_elements(By.CSS_SELECTOR, sel):
            if time.time() > deadline:
                raise AssertionError(f"clicking the row of {s.path} did not highlight its scope")
            time.sleep(0.05)
        self.report(True, "summary", f"{len(rows)} rows shown; clicking {s.path} highlights it in the graph")

    def check_search(self):
        n = self.disp.nodes[len(self.disp.nodes) * 2 // 3]
        box = self.d.find_element(By.ID, "mav-search")
        box.clear()
        box.send_keys(n.name)
        box.send_keys(Keys.ENTER)
        sel = f'#mav-viewport .mav-node[data-name="{css(n.name)}"].mav-highlight'
        deadline = time.time() + 20
        while not self.d.find_elements(By.CSS_SELECTOR, sel):
            if time.time() > deadline:
                raise AssertionError(f"searching {n.name} did not reveal and highlight it")
            time.sleep(0.05)
        self.report(True, "search", f"{n.name} revealed and highlighted")

    def check_console(self):
        logs = self.d.get_log("browser")
        severe = [e["message"] for e in logs if e.get("level") == "SEVERE"]
        foreign = page_value(self.d, "performance.getEntriesByType('resource').map(e => e.name)"
                                     ".filter(n => !/^(file|data|blob|about):/.test(n))")
        if severe:
            raise AssertionError(f"{len(severe)} SEVERE console entries, the first: {severe[0][:300]}")
        if foreign:
            raise AssertionError(f"the page loaded {foreign[:3]}")
        self.report(True, "console", f"no SEVERE entry ({len(logs)} entries), no request outside the page")


def leaves(obj, prefix=""):
    """The leaves the details panel shows: scalars, and arrays of scalars."""
    out = {}

    def walk(v, key):
        if v is None or not isinstance(v, (dict, list)) or (
                isinstance(v, list) and all(x is None or not isinstance(x, (dict, list)) for x in v)):
            out[key] = v
            return
        items = v.items() if isinstance(v, dict) else enumerate(v)
        for k, x in items:
            walk(x, f"{key}.{k}" if key else str(k))
    if isinstance(obj, dict):
        for k, v in obj.items():
            walk(v, f"{prefix}.{k}" if prefix else k)
    return out


def leaves_all(raw):
    out = {}
    for section in ("common", "hardware", "software"):
        if isinstance(raw.get(section), dict):
            out.update(leaves(raw[section], section))
    return out


def css(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


# ---------------------------------------------------------------------- main

def open_page(driver, page):
    driver.get("file://" + os.path.abspath(page))
    return wait_ready(driver)


def main():
    ap = argparse.ArgumentParser(description="Checks a mav HTML viewer page in headless Chromium.")
    ap.add_argument("page")
    ap.add_argument("--json", help="the exported JSON the page embeds (the checks compare with it)")
    ap.add_argument("--screenshot", help="save a PNG of the page, after the hover check")
    ap.add_argument("--open-time", action="store_true", help="only print the seconds from navigation to ready")
    ap.add_argument("--runs", type=int, default=1, help="--open-time: open the page this many times, print the median")
    ap.add_argument("--window", default="1600,1000", help="the browser window, WIDTH,HEIGHT")
    args = ap.parse_args()
    if not args.open_time and not args.json:
        ap.error("--json is required (unless --open-time)")
    width, height = (int(x) for x in args.window.split(","))

    if args.open_time:
        times, layout = [], 0
        for _ in range(max(1, args.runs)):
            driver, profile = start_browser(width, height)
            try:
                r = open_page(driver, args.page)
                times.append(r["readyAt"] / 1000.0)
                layout = r["layoutMs"]
                severe = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
                if severe:
                    print("FAIL console: " + severe[0][:300])
                    return 1
            finally:
                driver.quit()
                shutil.rmtree(profile, ignore_errors=True)
        print(f"open-time: {statistics.median(times):.3f} s (layout {layout:.0f} ms; runs: "
              + " ".join(f"{t:.3f}" for t in times) + ")")
        return 0

    with open(args.json, encoding="utf-8") as f:
        disp = Display(json.load(f))
    driver, profile = start_browser(width, height)
    try:
        try:
            r = open_page(driver, args.page)
        except (AssertionError, WebDriverException) as e:
            print("FAIL ready: " + str(e).splitlines()[0])
            for entry in driver.get_log("browser"):
                print("  console: " + entry["message"][:300])
            return 1
        print(f"PASS ready: in {r['readyAt'] / 1000.0:.3f} s (layout {r['layoutMs']:.0f} ms, render {r['renderMs']:.0f} ms)")
        c = Checker(driver, disp)
        c.run("visible", c.check_visible)
        c.run("collapse", c.check_collapse)
        c.run("hover", c.check_hover)
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        c.run("colour", c.check_colour)
        c.run("summary", c.check_summary)
        c.run("search", c.check_search)
        c.run("console", c.check_console)
        print(f"{7 - c.failed} passed, {c.failed} failed")
        return 1 if c.failed else 0
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
