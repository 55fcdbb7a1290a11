"""The page on a phone (issue 34): at 360 x 740 CSS px (the narrowest common phone) nothing makes the page
scroll sideways, whatever the hand and the table. The bid answer for a 20-card hand (3 players, round 20)
fits without even its own frame scrolling; a 6-player score sheet (long names, a whole game) fits its
frame with every player's column and total in view, the leader marked in the totals row. Headless
Chromium (Debian's ``chromium`` and ``chromium-driver``) against a real ``wizsim serve``."""

import json

import pytest
from outside import skip_without_browser

from wizsim.web.harness import ask_and_wait, open_page, overflowing, tap, tap_question

skip_without_browser()

WINDOW = (360, 740)
HAND_20 = "W,W,AS,KS,QS,JS,TS,9S,AH,KH,QH,JH,TH,AD,KD,QD,AC,KC,J,J".split(",")
NAMES_6 = ["Annabelle", "Bartholomew", "Cleopatra", "Dan", "Evangeline", "Frederick"]


@pytest.fixture
def page(server, browser):
    open_page(browser, server)
    return browser


def frame_fits(driver, css: str) -> tuple[int, int]:
    return tuple(driver.execute_script(
        "const f = document.querySelector(arguments[0]); return [f.scrollWidth, f.clientWidth]", css))


def test_a_20_card_bid_answer_fits_360_px(page):
    tap_question(page, hand=HAND_20, trump="none", seat=2, players=3, seed=1, samples=100)
    ask_and_wait(page, 120)
    assert page.find_element("id", "error").get_attribute("hidden") is not None, page.find_element("id", "error").text
    rows = page.find_elements("css selector", "#bid-table tbody tr")
    assert len(rows) == 21  # bids 0..20
    assert overflowing(page, 360) == []
    width, shown = frame_fits(page, "#bid-answer .scroll")
    assert width <= shown, f"the bid table is {width} px in a {shown} px frame"
    # every column's figures readable: the last column's right edge inside the viewport
    right = page.execute_script("return Math.max(...[...document.querySelectorAll('#bid-table td')]"
                                ".filter((td) => td.offsetParent).map((td) => td.getBoundingClientRect().right))")
    assert right <= 360


def six_player_game() -> dict:
    import wizsim
    from wizsim.record import from_games

    batch = wizsim.simulate_games(6, 1, "heuristic", seed=7, trick_log=True)
    return from_games(batch, 0, names=NAMES_6, me=0).to_dict()


def test_a_6_player_sheet_fits_360_px_and_marks_the_leader(page):
    from selenium.webdriver.support.ui import WebDriverWait

    record = six_player_game()
    tap(page, "#tab-sheet")
    tap(page, "#ng-start")
    page.execute_script("document.getElementById('record-text').value = arguments[0]", json.dumps(record))
    tap(page, "#import-btn")
    WebDriverWait(page, 30).until(lambda d: "Imported" in d.find_element("id", "io-status").text)
    assert overflowing(page, 360) == []
    width, shown = frame_fits(page, "#score-sheet .scroll")
    assert width <= shown, f"the sheet is {width} px in a {shown} px frame: some players' columns are hidden"
    # every name (whole, for the tooltip and screen readers) and every total in view at once
    heads = page.find_elements("css selector", "#sheet-table thead th[title]")
    assert [h.get_attribute("title") for h in heads[1:]] == NAMES_6
    feet = page.find_elements("css selector", "#sheet-table tfoot td")
    assert len(feet) == 6 and all(td.is_displayed() for td in feet)
    frame = page.execute_script("return document.querySelector('#score-sheet .scroll').getBoundingClientRect()")
    for td in feet:  # the totals row is held at the frame's foot: in view without scrolling the sheet
        box = page.execute_script("return arguments[0].getBoundingClientRect()", td)
        assert frame["left"] <= box["left"] and box["right"] <= frame["right"] + 0.5
        assert frame["top"] <= box["top"] and box["bottom"] <= frame["bottom"] + 0.5
    totals = [int(td.get_attribute("data-total")) for td in feet]
    want = wizsim_totals(record)
    assert totals == want
    leaders = [int(td.get_attribute("data-player")) for td in page.find_elements("css selector", "#sheet-table tfoot td.leader")]
    assert leaders == [p for p, t in enumerate(want) if t == max(want)]
    assert all("leads" in page.find_element("css selector", f'#sheet-table tfoot td[data-player="{p}"]')
               .get_attribute("aria-label") for p in leaders)


def wizsim_totals(record: dict) -> list[int]:
    from wizsim.record import GameRecord

    return list(GameRecord.from_dict(record).totals()[-1])
