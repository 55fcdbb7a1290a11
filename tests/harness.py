"""Drive a real ``wizsim serve`` process and a headless Chromium: for the browser tests, the
screenshot script (``scripts/screenshot_page.py``) and the serve benchmark (``benchmarks/serve.py``), which
put ``tests/`` on their path. Not part of the package.

``served()`` starts ``wizsim serve --port 0`` (a free port on 127.0.0.1, no race for it) and yields
its URL once the server says it is ready; ``chromium()`` opens Debian's Chromium through its
chromedriver (``/usr/bin/chromium``, ``/usr/bin/chromedriver``: nothing is downloaded at run time);
``tap_question()`` builds a question on the page by tapping, as a person would.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

CHROMIUM = os.environ.get("WIZSIM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("WIZSIM_CHROMEDRIVER", "/usr/bin/chromedriver")
READY = re.compile(r"ready at (http://\S+/)")
READY_TIMEOUT_S = 300.0  # a fresh Numba cache compiles the advisor's kernels first


def wait_warm(url: str, timeout: float, lines: list[str]) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while not httpx.get(url + "api/health", timeout=30).json()["warm"]:
        if time.monotonic() > deadline:
            raise RuntimeError(f"wizsim serve did not warm within {timeout:.0f} s:\n{''.join(lines)}")
        time.sleep(0.2)


def chromium_available() -> bool:
    return all(os.path.exists(p) or shutil.which(p) for p in (CHROMIUM, CHROMEDRIVER))


@contextlib.contextmanager
def served(timeout: float = READY_TIMEOUT_S, extra_env: dict | None = None, args: tuple[str, ...] = (),
           warm: bool = True) -> Iterator[str]:
    """A ``wizsim serve`` process on a free local port (``args``: more options, e.g. ``--allow-host``);
    yields its URL (with ``warm``, once ``/api/health`` says every kernel is warm: the server is ready at
    once and warms beside it, and these tests time answers, not a first compile), stops it (SIGTERM) after."""
    env = {**os.environ, **(extra_env or {}), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "wizsim.cli", "serve", "--host", "127.0.0.1", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    found = threading.Event()
    url: list[str] = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            m = READY.search(line)
            if m and not url:
                url.append(m.group(1))
                found.set()
        found.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not found.wait(timeout) or not url:
            raise RuntimeError(f"wizsim serve did not get ready within {timeout:.0f} s:\n{''.join(lines)}")
        if warm:
            wait_warm(url[0], timeout, lines)
        yield url[0]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def chromium(width: int = 1280, height: int = 900):
    """A headless Chromium (Selenium WebDriver) with a ``width`` x ``height`` CSS-pixel viewport."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--force-device-scale-factor=1", f"--window-size={width},{height}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    # --window-size sets the outer window; make the viewport itself the asked size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


def open_page(driver, url: str, timeout: float = 30.0) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, timeout).until(lambda d: d.find_element("tag name", "body").get_attribute("data-ready"))


def tap(driver, css: str) -> None:
    from selenium.webdriver.common.by import By

    el = driver.find_element(By.CSS_SELECTOR, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    el.click()


def tap_question(driver, hand: list[str], trump: str, seat: int, players: int = 4, bids=(), seed: int | None = None,
                 samples: int | None = None) -> None:
    """Build the question by tapping tiles and buttons (the seed and samples are typed in "More options")."""
    from selenium.webdriver.common.by import By

    tap(driver, f'#players button[data-value="{players}"]')
    tap(driver, f'#seat button[data-value="{seat}"]')
    tap(driver, f'#trump button[data-value="{trump}"]')
    for card in hand:
        tap(driver, f'#deck .tile[data-card="{card}"]')
    for i, bid in enumerate(bids):
        box = driver.find_element(By.ID, f"bid-{i + 1}")
        box.clear()
        box.send_keys(str(bid))
    if seed is not None or samples is not None:
        tap(driver, "details.more summary")
        for key, value in (("seed", seed), ("samples", samples)):
            if value is not None:
                box = driver.find_element(By.ID, key)
                box.clear()
                box.send_keys(str(value))


def ask_and_wait(driver, timeout: float = 60.0) -> None:
    """Press the ask button and wait for an answer or an error on the page."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("document.getElementById('method').hidden = true; "
                          "document.getElementById('error').hidden = true;")
    tap(driver, "#ask")

    def done(d):
        shown = d.execute_script("return !document.getElementById('method').hidden || "
                                 "!document.getElementById('error').hidden")
        return shown or None

    WebDriverWait(driver, timeout).until(done, message=f"no answer within {timeout:.0f} s")


# Every visible element whose right edge passes the viewport, outside a declared scroll frame (``.scroll``:
# its own frame may scroll sideways, never the page).
_OVERFLOWING = """
const width = arguments[0], out = [];
for (const e of document.querySelectorAll('body *')) {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
  const frame = e.parentElement && e.parentElement.closest('.scroll');
  if (frame) continue;
  if (r.right > width + 0.5 || r.left < -0.5) {
    out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string'
      ? '.' + e.className.trim().split(/\\s+/).join('.') : ''} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
}
return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth, out};
"""


def overflowing(driver, width: int) -> list[str]:
    """What sticks out of a ``width`` px viewport: the page's own width when it scrolls sideways, and each
    visible element (outside a ``.scroll`` frame) whose box passes an edge. Empty when the page fits."""
    got = driver.execute_script(_OVERFLOWING, width)
    problems = list(got["out"])
    if got["inner"] != width or got["scroll"] > width:
        problems.insert(0, f"the page is {got['scroll']} px wide (viewport {got['inner']} px), not {width}")
    return problems


def read_bid_table(driver) -> list[dict]:
    """The bid table as the page shows it: per bid its flags, every ``data-key`` cell and the interval."""
    rows = []
    for tr in driver.find_elements("css selector", "#bid-table tbody tr"):
        row = {"bid": int(tr.get_attribute("data-bid")), "allowed": tr.get_attribute("data-allowed") == "true"}
        for td in tr.find_elements("css selector", "td[data-key]"):
            value = td.get_attribute("data-value")
            row[td.get_attribute("data-key")] = None if value == "null" else float(value)
        interval = tr.find_element("css selector", ".interval")
        for key, attr in (("ev_low", "data-low"), ("ev_high", "data-high")):
            value = interval.get_attribute(attr)
            row[key] = None if value == "null" else float(value)
        rows.append(row)
    return rows
