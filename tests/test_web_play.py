"""The practice table in a real browser (headless Chromium, Selenium, a real ``wizsim serve``): a whole
4-player game of 3 rounds (the Rounds option: a full game of 15 rounds is ~10x longer) played by tapping
the page's own controls, a hint taken at a bid and at a card (the advice marked in the hand equals
``POST /api/advise`` for that decision), a reload in the middle that resumes the game, the end, and the
review of the game with the hints shown beside their decisions; at 360 and 1280 px wide."""

import httpx
import pytest
from outside import skip_without_browser

from wizsim.web.harness import chromium, open_page, overflowing, tap

skip_without_browser()

ROUNDS, SEED = 3, 5


@pytest.fixture(params=[(360, 740), (1280, 900)], ids=["360", "1280"])
def page(server, request):
    driver = chromium(*request.param)
    try:
        open_page(driver, server)
        driver.execute_script("localStorage.clear()")
        open_page(driver, server)
        yield driver
    finally:
        driver.quit()


def settled(driver, timeout: float = 60.0) -> dict:
    """Wait for the page to have the server's answer; return the decision shown."""
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d):
        busy = d.find_element("id", "view-play").get_attribute("data-busy")
        phase = d.find_element("id", "play-turn").get_attribute("data-phase")
        return busy == "false" and phase in ("trump", "bid", "card", "over") and phase
    phase = WebDriverWait(driver, timeout).until(ready)
    return {"phase": phase, "round": driver.find_element("id", "play-title").text,
            "hand": [b.get_attribute("data-card") for b in driver.find_elements("css selector", "#play-hand .pcard")]}


def take_hint(driver, server) -> str:
    from selenium.webdriver.support.ui import WebDriverWait

    tap(driver, "#play-hint")
    WebDriverWait(driver, 60).until(lambda d: d.find_element("id", "play-hint-text").is_displayed())
    marked = driver.find_elements("css selector", "#play-hand .pcard.hinted, #play-pad button.hinted")
    assert len(marked) == 1
    return marked[0].get_attribute("data-card") or marked[0].get_attribute("data-value")


def test_a_whole_game_with_hints_a_reload_and_the_review(page, server):
    width = page.execute_script("return window.innerWidth")
    tap(page, "#tab-play")
    tap(page, '#play-players button[data-value="4"]')
    tap(page, '#play-me button[data-value="1"]')
    tap(page, '#play-policy button[data-value="heuristic"]')
    for key, value in (("seed", SEED), ("rounds", ROUNDS)):
        box = page.find_element("id", f"play-{key}")
        box.clear()
        box.send_keys(str(value))
    tap(page, "#play-start")
    hinted = {"bid": None, "card": None}
    decisions = 0
    reloaded = False
    while True:
        state = settled(page)
        if state["phase"] == "over":
            break
        if width <= 360:
            assert overflowing(page, width) == [], state
        choices = len(page.find_elements("css selector", "#play-hand .pcard:enabled, #play-pad button:enabled"))
        if state["phase"] in hinted and hinted[state["phase"]] is None and choices > 1:  # a decision the review rates
            best = take_hint(page, server)
            # the hint is the advice for that decision: the same request asked directly
            request = page.execute_script("return play.answer.advise")
            want = httpx.post(server + "api/advise", json={**request, "seed": 0}, timeout=120).json()
            assert best == str(want["best_bid"] if state["phase"] == "bid" else want["best_card"])
            hinted[state["phase"]] = best
            css = f'#play-pad button[data-value="{best}"]' if state["phase"] == "bid" else \
                f'#play-hand .pcard[data-card="{best}"]'
            tap(page, css)  # take the advice
        elif state["phase"] == "card":
            tap(page, "#play-hand .pcard:enabled")
        else:
            tap(page, "#play-pad button:enabled")
        decisions += 1
        if decisions == 6 and not reloaded:  # a reload in the middle resumes the game where it was
            before = settled(page)
            page.refresh()
            open_page(page, server)
            tap(page, "#tab-play")
            assert settled(page) == before
            reloaded = True
    assert reloaded and all(hinted.values())
    totals = [int(td.get_attribute("textContent").split()[-1]) for td in
              page.find_elements("css selector", '#play-table td[data-key="total"]')]
    assert "Game over" in page.find_element("id", "play-turn").text
    leader = page.find_elements("css selector", "#play-table td.leader")
    assert leader and all(int(td.get_attribute("textContent").split()[-1]) == max(totals) for td in leader)
    # the review of the game, on the page, with the hints beside their decisions
    from selenium.webdriver.support.ui import WebDriverWait

    page.execute_script("document.getElementById('review-samples').value = '60'")
    tap(page, "#play-review")
    WebDriverWait(page, 300).until(lambda d: "reviewed" in d.find_element("id", "review-status").text)
    marks = page.find_elements("css selector", "#review-table .mark.hint-taken")
    assert sorted(m.get_attribute("data-best") for m in marks) == sorted(hinted.values())
    rows = page.find_elements("css selector", "#review-table tbody tr")
    kinds = [r.find_element("css selector", "td:nth-child(2)").text for r in rows]
    assert kinds.count("bid") == ROUNDS and "card" in kinds  # every bid rated, and the cards with a choice
    sheet_rounds = page.execute_script("return sheet.game.rounds.length")
    assert sheet_rounds == ROUNDS
    if width <= 360:
        assert overflowing(page, width) == []
