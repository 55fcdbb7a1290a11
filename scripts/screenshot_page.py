"""Screenshots of the ``wizsim serve`` page: the README example asked and answered on a laptop (1280 px):
``docs/img/serve-1280.png``; the score sheet of a game in progress and its review at 1280 px:
``docs/img/sheet-1280.png`` and ``docs/img/review-1280.png``; on a phone (360 x 740, one screen each): the
bid answer for a 20-card hand (3 players, round 20), ``docs/img/serve-360.png``, and a whole 6-player
game's score sheet, ``docs/img/sheet-360.png``; the practice table (the Play view) mid-game, its hand, the
trick forming and the totals, ``docs/img/play-360.png``, and a hint taken at a card decision, the card
marked and the reason under it, ``docs/img/hint-360.png``.

    python scripts/screenshot_page.py [--out docs/img] [--phone-only]

Starts a real server on a free local port and Debian's headless Chromium (``chromium``,
``chromium-driver``), taps the hand W, AS, 3H with spades trump in seat 2, asks with seed 7, and
saves the whole page (its full height) at each width. For the score sheet it imports the first
SHEET_ROUNDS rounds of a simulated 4-player game (``simulate_games``, seed 7, Ann's hands and every
card played, exported with ``from_games``) through the page's Import, shows the round in play, then
reviews the game on the page (REVIEW_SAMPLES deals per decision, seed 0). For the practice table it
deals a PLAY game (4 players, you player 1, heuristic opponents, seed 5, 3 rounds: the browser test's) by
the page's controls, takes the first legal choice at each decision until a trick forms with you
to play (after round 1), then taps Hint.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the browser harness lives with the tests
from harness import ask_and_wait, chromium, open_page, served, tap_question  # noqa: E402

WIDTHS = (1280,)
EXAMPLE = dict(hand=["W", "AS", "3H"], trump="S", seat=2, seed=7)
PHONE = (360, 740)
HAND_20 = dict(hand="W,W,AS,KS,QS,JS,TS,9S,AH,KH,QH,JH,TH,AD,KD,QD,AC,KC,J,J".split(","), trump="none", seat=2,
               players=3, seed=1, samples=2000)
NAMES_6 = ["Annabelle", "Bartholomew", "Cleopatra", "Dan", "Evangeline", "Frederick"]
SHEET_ROUNDS = 9
REVIEW_SAMPLES = 300
NAMES = ["Ann", "Bob", "Cleo", "Dan"]
PLAY = dict(players=4, me=1, policy="heuristic", seed=5, rounds=3)  # tests/test_web_play.py's game


def whole_page(driver, width: int, path: Path) -> None:
    """Save the whole page (its full height) at ``width``."""
    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": int(height), "deviceScaleFactor": 1, "mobile": width < 600})
    path.write_bytes(driver.get_screenshot_as_png())
    print(f"wrote {path} ({width} x {height} px)")


def sample_game() -> str:
    """A 4-player game of rounds 1..SHEET_ROUNDS, the last one in play (bids in, no tricks yet)."""
    import json

    import wizsim
    from wizsim.record import from_games

    record = from_games(wizsim.simulate_games(4, 1, "heuristic", seed=7, trick_log=True), 0, names=NAMES, me=0)
    obj = record.to_dict()
    obj["rounds"] = obj["rounds"][:SHEET_ROUNDS]
    last = obj["rounds"][-1]
    last["tricks"] = None
    last.pop("played", None)
    return json.dumps(obj)


def sheet_pictures(url: str, out: Path, width: int = 1280) -> None:
    from harness import tap
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium(width, 900)
    try:
        open_page(driver, url)
        tap(driver, "#tab-sheet")
        tap(driver, "#ng-start")  # a game to import over
        driver.execute_script("document.getElementById('record-text').value = arguments[0]", sample_game())
        tap(driver, "#import-btn")
        WebDriverWait(driver, 30).until(lambda d: "Imported" in d.find_element("id", "io-status").text)
        driver.execute_script("document.getElementById('record-text').value = ''")
        whole_page(driver, width, out / f"sheet-{width}.png")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        tap(driver, "#tab-review")
        for key, value in (("samples", REVIEW_SAMPLES), ("seed", 0)):
            driver.find_element("id", f"review-{key}").send_keys(str(value))
        tap(driver, "#review-game")
        WebDriverWait(driver, 300).until(lambda d: "reviewed" in d.find_element("id", "review-status").text)
        whole_page(driver, width, out / f"review-{width}.png")
    finally:
        driver.quit()


def screen(driver, css: str, path: Path) -> None:
    """Save one screen with the element ``css`` at its top."""
    driver.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'start'})", css)
    path.write_bytes(driver.get_screenshot_as_png())
    print(f"wrote {path} ({PHONE[0]} x {PHONE[1]} px)")


def phone_pictures(url: str, out: Path) -> None:
    """A 20-card bid answer and a 6-player sheet on a 360 x 740 phone."""
    import json

    from harness import tap
    from selenium.webdriver.support.ui import WebDriverWait

    import wizsim
    from wizsim.record import from_games

    driver = chromium(*PHONE)
    try:
        open_page(driver, url)
        tap_question(driver, **HAND_20)
        ask_and_wait(driver, 300)
        screen(driver, "#answer", out / "serve-360.png")
        record = from_games(wizsim.simulate_games(6, 1, "heuristic", seed=7, trick_log=True), 0, names=NAMES_6, me=0)
        tap(driver, "#tab-sheet")
        tap(driver, "#ng-start")
        driver.execute_script("document.getElementById('record-text').value = arguments[0]",
                              json.dumps(record.to_dict()))
        tap(driver, "#import-btn")
        WebDriverWait(driver, 30).until(lambda d: "Imported" in d.find_element("id", "io-status").text)
        screen(driver, "#score-sheet", out / "sheet-360.png")
    finally:
        driver.quit()


def _settled(driver) -> str:
    """Wait for the practice table to show the server's answer; return the phase."""
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d):
        busy = d.find_element("id", "view-play").get_attribute("data-busy")
        phase = d.find_element("id", "play-turn").get_attribute("data-phase")
        return busy == "false" and phase in ("trump", "bid", "card", "over") and phase
    return WebDriverWait(driver, 60).until(ready)


def _trick_forming(driver) -> bool:
    """Your card to play after round 1 (totals shown), a trick begun by the others, more than one card allowed."""
    a = driver.execute_script("return play.answer")
    log = a["trick_log"]
    return (a["round"] > 1 and bool(log) and 0 < len(log[-1]["cards"]) < a["players"]
            and len(a["legal"]) > 1)


def play_pictures(url: str, out: Path) -> None:
    """The practice table mid-game and a hint with its reason on a 360 x 740 phone."""
    from harness import tap
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium(*PHONE)
    try:
        open_page(driver, url)
        driver.execute_script("localStorage.clear()")
        open_page(driver, url)
        tap(driver, "#tab-play")
        for key in ("players", "me", "policy"):
            tap(driver, f'#play-{key} button[data-value="{PLAY[key]}"]')
        for key in ("seed", "rounds"):
            box = driver.find_element("id", f"play-{key}")
            box.clear()
            box.send_keys(str(PLAY[key]))
        tap(driver, "#play-start")
        while True:
            phase = _settled(driver)
            if phase == "over":
                raise RuntimeError("the game ended before a trick formed with a card to choose")
            if phase == "card" and _trick_forming(driver):
                break
            tap(driver, "#play-hand .pcard:enabled" if phase == "card" else "#play-pad button:enabled")
        screen(driver, "#play-game", out / "play-360.png")
        tap(driver, "#play-hint")
        WebDriverWait(driver, 60).until(lambda d: d.find_element("id", "play-hint-why").is_displayed())
        screen(driver, "#play-trick", out / "hint-360.png")
    finally:
        driver.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img", help="folder for the PNG files")
    parser.add_argument("--phone-only", action="store_true", help="only the 360 px pictures")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with served() as url:
        phone_pictures(url, out)
        play_pictures(url, out)
        if args.phone_only:
            return
        for width in WIDTHS:
            driver = chromium(width, 900)
            try:
                open_page(driver, url)
                tap_question(driver, **EXAMPLE)
                ask_and_wait(driver)
                whole_page(driver, width, out / f"serve-{width}.png")
            finally:
                driver.quit()
        sheet_pictures(url, out)


if __name__ == "__main__":
    main()
