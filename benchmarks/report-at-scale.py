#!/usr/bin/env python3
"""Figures of `stackjournal report` on a big session, next to the ten-entry demo session.

    benchmarks/report-at-scale.py [--actions N] [--dir DIR] [--runs R] [--stackjournal PATH]

Generates a session of about N entries once (`stackjournal demo --actions N --durability
normal`), writes its page, then opens the page R times in headless Chromium (Debian's
`chromium`), driven through its DevTools protocol over a pipe, and prints:

* the page's size and the time `report` takes to write it (and its peak memory, via GNU time);
* the load time: navigation start until the page has drawn its first moment (the page records
  performance.now() then), and the JavaScript heap once loaded;
* the time to jump to the last moment (End) at once after loading and again 3 s later, and to
  step back one entry (ArrowLeft), measured inside the page around the key's handler;
* scrolling the entry list: one screen per animation frame for 180 frames, the frame
  intervals (median, 95th percentile, worst) against the same scroll of an empty page's frames.

Build first: swift build -c release --product stackjournal
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


class Browser:
    """Headless Chromium over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated)."""

    def __init__(self, width=1280, height=800):
        self.profile = tempfile.mkdtemp(prefix="report-bench-chromium-")
        to_browser = os.pipe()
        from_browser = os.pipe()

        def descriptors():
            os.dup2(to_browser[0], 3)
            os.dup2(from_browser[1], 4)

        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run", "--hide-scrollbars",
             f"--window-size={width},{height}", f"--user-data-dir={self.profile}",
             "about:blank"],
            pass_fds=(3, 4), preexec_fn=descriptors,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser[0])
        os.close(from_browser[1])
        self.out = to_browser[1]
        self.inp = from_browser[0]
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params=None, session=None, timeout=300):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self.buffer:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no answer to {method}")
                chunk = os.read(self.inp, 1 << 20)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable", session=session)
        self.send("Page.navigate", {"url": url}, session=session)
        return Tab(self, target, session)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Tab:
    def __init__(self, browser, target, session):
        self.browser, self.target, self.session = browser, target, session

    def evaluate(self, expression):
        result = self.browser.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=self.session)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def wait(self, expression, timeout=300):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(f"Boolean({expression})"):
                    return
            except RuntimeError:
                pass  # the document is still being replaced
            time.sleep(0.05)
        raise RuntimeError(f"never true: {expression}")

    def close(self):
        self.browser.send("Target.closeTarget", {"targetId": self.target})


KEY_TIME = """
(() => {
  const start = performance.now();
  document.dispatchEvent(new KeyboardEvent('keydown', {key: '%s', bubbles: true}));
  return performance.now() - start;
})()
"""

SCROLL = """
new Promise((done) => {
  const list = document.getElementById('timeline-scroll');
  const frames = [];
  let last = null;
  let n = 0;
  function frame(now) {
    if (last !== null) frames.push(now - last);
    last = now;
    if (list) list.scrollTop += list.clientHeight;
    if (++n <= 180) requestAnimationFrame(frame); else done(frames);
  }
  requestAnimationFrame(frame);
})
"""


def spread(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
    return f"median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms, worst {values[-1]:.1f} ms"


def measure(browser, page, runs, label):
    url = "file://" + os.path.abspath(page)
    loads, heaps, ends, idle_ends, backs, scrolls, rows = [], [], [], [], [], [], None
    for _ in range(runs):
        tab = browser.open(url)
        tab.wait("document.documentElement.dataset.readyMs !== undefined")
        loads.append(float(tab.evaluate("document.documentElement.dataset.readyMs")))
        heaps.append(tab.evaluate("performance.memory ? performance.memory.usedJSHeapSize : 0"))
        ends.append(tab.evaluate(KEY_TIME % "End"))
        backs.append(tab.evaluate(KEY_TIME % "ArrowLeft"))
        tab.evaluate(KEY_TIME % "Home")
        time.sleep(3)
        idle_ends.append(tab.evaluate(KEY_TIME % "End"))
        scrolls += tab.evaluate(SCROLL)
        rows = tab.evaluate("document.querySelectorAll('.row').length")
        tab.close()
    print(f"{label}:")
    print(f"  load (navigation start to the first moment drawn): {spread(loads)}"
          f" over {runs} runs")
    print(f"  JavaScript heap once loaded: {statistics.median(heaps) / 2**20:.0f} MiB")
    print(f"  End at once after loading (rebuild and draw the last moment): {spread(ends)}")
    print(f"  End from Home, 3 s after loading (moments rebuilt while idle): {spread(idle_ends)}")
    print(f"  ArrowLeft from there: {spread(backs)}")
    print(f"  scrolling the entry list a screen per frame: {spread(scrolls)}"
          f" ({rows} rows in the DOM)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--dir", default="/tmp/stackjournal-report-bench")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stackjournal", default=".build/release/stackjournal")
    options = parser.parse_args()
    sj = options.stackjournal
    os.makedirs(options.dir, exist_ok=True)
    big = os.path.join(options.dir, f"big-{options.actions}.sqlite")
    if not os.path.exists(big):
        print(f"generating {options.actions} actions into {big} (durability normal)")
        subprocess.run([sj, "demo", "--db", big, "--actions", str(options.actions),
                        "--durability", "normal", "--session", "big"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    small = os.path.join(options.dir, "small.sqlite")
    if os.path.exists(small):
        os.remove(small)
    subprocess.run([sj, "demo", "--db", small, "--session", "small"], check=True,
                   stdout=subprocess.DEVNULL)

    pages = {}
    for name, db in (("small", small), ("big", big)):
        page = os.path.join(options.dir, f"{name}.html")
        command = ["/usr/bin/time", "-f", "%e %M", sj, "report", name, "--db", db, "-o", page,
                   "--max-entries", str(max(200_000, options.actions + 100))]
        run = subprocess.run(command, capture_output=True, text=True, check=True)
        seconds, kib = run.stderr.strip().splitlines()[-1].split()
        entries = json.loads(subprocess.run(
            [sj, "sessions", "--db", db, "--json"], capture_output=True, text=True,
            check=True).stdout)["sessions"][0]["entries"]
        size = os.path.getsize(page)
        print(f"{name}: {entries} entries, page {size / 2**20:.1f} MiB "
              f"({size / max(entries, 1):.0f} bytes per entry), written in {float(seconds):.2f} s, "
              f"peak memory {int(kib) / 1024:.0f} MiB")
        pages[name] = page

    browser = Browser()
    try:
        for name in ("small", "big"):
            measure(browser, pages[name], options.runs, name)
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
