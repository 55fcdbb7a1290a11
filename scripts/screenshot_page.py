"""Screenshots of the ``wizsim serve`` page with the README example asked and answered, on a phone
(390 px wide) and a laptop (1280 px): ``docs/img/serve-390.png`` and ``docs/img/serve-1280.png``.

    python scripts/screenshot_page.py [--out docs/img]

Starts a real server on a free local port and Debian's headless Chromium (``chromium``,
``chromium-driver``), taps the hand W, AS, 3H with spades trump in seat 2, asks with seed 7, and
saves the whole page (its full height) at each width.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wizsim.web.harness import ask_and_wait, chromium, open_page, served, tap_question

WIDTHS = (390, 1280)
EXAMPLE = dict(hand=["W", "AS", "3H"], trump="S", seat=2, seed=7)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img", help="folder for the PNG files")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with served() as url:
        for width in WIDTHS:
            driver = chromium(width, 900)
            try:
                open_page(driver, url)
                tap_question(driver, **EXAMPLE)
                ask_and_wait(driver)
                driver.execute_script("window.scrollTo(0, 0)")
                height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": width, "height": int(height), "deviceScaleFactor": 1,
                                        "mobile": width < 600})
                path = out / f"serve-{width}.png"
                path.write_bytes(driver.get_screenshot_as_png())
                print(f"wrote {path} ({width} x {height} px)")
            finally:
                driver.quit()


if __name__ == "__main__":
    main()
