"""The page in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by Selenium against a real ``wizsim serve`` process on a free local port. The README example
built by tapping tiles gives the same answer as ``wizsim advise --json`` with the same seed; the same
server serves 8 concurrent clients. In CI a missing Chromium fails the run instead of skipping."""

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from harness import ask_and_wait, open_page, read_bid_table, tap, tap_question
from outside import skip_without_browser

skip_without_browser()


WINDOW = (390, 844)  # a phone


@pytest.fixture
def page(server, browser):
    open_page(browser, server)
    return browser


def cli_json(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "wizsim.cli", "advise", *args, "--json"], capture_output=True,
                         text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def test_readme_example_by_tapping_equals_the_cli(page):
    tap_question(page, hand=["W", "AS", "3H"], trump="S", seat=2, seed=7)
    assert page.find_element("id", "hand-text").text == "W,AS,3H"
    ask_and_wait(page)
    assert page.find_element("id", "error").get_attribute("hidden") is not None, page.find_element("id", "error").text
    want = cli_json("--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--seed", "7")
    assert int(page.find_element("id", "best-bid").text) == want["best_bid"]
    assert read_bid_table(page) == want["table"]
    method = page.find_element("id", "method")
    assert int(method.get_attribute("data-samples")) == want["samples"]
    assert method.get_attribute("data-method") == want["method"]
    assert f"{want['samples']:,}" in method.text
    close = page.find_element("id", "close-call")
    assert close.is_displayed() == (len(want["close_call"] or []) > 1)
    best = page.find_element("css selector", "#bid-table tr.best")
    assert int(best.get_attribute("data-bid")) == want["best_bid"]
    # the distribution drawn is the recommended bid's, one bar per trick count 0..r
    assert len(page.find_elements("css selector", "#dist-bars .drow")) == len(want["table"])
    assert page.find_element("css selector", "#dist-bars .drow.own .dlabel").text == str(want["best_bid"])
    severe = [e for e in page.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe  # no script error, nothing the page's security policy had to block


def test_wizard_tile_counts_to_four_then_back_to_none(page):
    wizard = page.find_element("css selector", '#deck .tile[data-card="W"]')
    for n in range(1, 5):
        tap(page, '#deck .tile[data-card="W"]')
        assert wizard.find_element("css selector", ".badge").text == f"\u00d7{n}"
        assert wizard.get_attribute("aria-pressed") == "true"
        assert f"{n} in your hand" in wizard.get_attribute("aria-label")
    assert page.find_element("id", "hand-text").text == "W,W,W,W"
    tap(page, '#deck .tile[data-card="W"]')
    assert wizard.get_attribute("aria-pressed") == "false"
    assert page.find_element("id", "hand-text").text == "no cards yet"


def test_keyboard_alone_builds_a_hand(page):
    from selenium.webdriver.common.keys import Keys

    tile = page.find_element("css selector", '#deck .tile[data-card="QH"]')
    assert tile.tag_name == "button"
    page.execute_script("arguments[0].focus()", tile)
    tile.send_keys(Keys.ENTER)
    assert tile.get_attribute("aria-pressed") == "true"
    tile.send_keys(Keys.SPACE)
    assert tile.get_attribute("aria-pressed") == "false"


def test_turned_up_card_sets_the_trump(page):
    tap(page, "#turnup-pick")
    tap(page, '#deck .tile[data-card="7D"]')
    assert page.find_element("id", "turnup-text").text == "7\u2666"
    assert page.find_element("css selector", '#trump button[data-value="D"]').get_attribute("aria-pressed") == "true"
    tap(page, '#deck .tile[data-card="KS"]')  # back to building the hand
    assert page.find_element("id", "hand-text").text == "KS"


def test_a_bad_question_shows_the_servers_message(page):
    tap(page, '#deck .tile[data-card="AS"]')
    ask_and_wait(page)  # no seat, no trump
    error = page.find_element("id", "error")
    assert error.get_attribute("hidden") is None
    assert error.text == "seat is required"


def test_every_bid_entered_turns_the_page_to_play_advice(page):
    tap_question(page, hand=["AS", "KH"], trump="S", seat=2, bids=[1, 0, 1, 0], seed=1, samples=50)
    assert page.find_element("id", "played-section").is_displayed()
    assert page.find_element("id", "ask").text == "Which card should I play?"
    tap(page, '#target button[data-value="played"]')
    tap(page, '#deck .tile[data-card="AS"]')  # a card of the hand, played: it leaves the hand
    assert page.find_element("id", "played-text").text == "AS"
    assert page.find_element("id", "hand-text").text == "KH"
    tap(page, '#played-undo')
    tap(page, '#deck .tile[data-card="5H"]')  # seat 1 led the 5 of hearts
    assert page.find_element("id", "played-text").text == "5H"
    assert sorted(page.find_element("id", "hand-text").text.split(",")) == ["AS", "KH"]  # undone: back in hand
    ask_and_wait(page)
    assert page.find_element("id", "error").get_attribute("hidden") is not None, page.find_element("id", "error").text
    assert page.find_element("id", "play-answer").is_displayed()
    want = cli_json("--hand", "AS,KH", "--trump", "S", "--seat", "2", "--bids", "1,0,1,0", "--played", "5H",
                    "--seed", "1", "--samples", "50")
    assert want["phase"] == "play"
    assert page.find_element("id", "best-card").get_attribute("data-card") == want["best_card"]
    assert len(page.find_elements("css selector", "#play-table tbody tr")) == len(want["table"])


def test_eight_concurrent_clients_get_the_same_answers(server):
    import httpx

    bodies = [{"hand": "W,AS,3H", "trump": "S", "seat": 2, "seed": s} for s in range(4)] * 2
    with httpx.Client(base_url=server, timeout=120) as c:
        alone = [c.post("/api/advise", json=b).json() for b in bodies[:4]]

        def one(body):
            with httpx.Client(base_url=server, timeout=120) as own:
                return own.post("/api/advise", json=body)

        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(one, bodies))
    assert [r.status_code for r in results] == [200] * 8
    assert [r.json() for r in results] == alone * 2


def test_a_close_call_is_said(page):
    tap_question(page, hand=["AH", "KS"], trump="S", seat=2, seed=9, samples=200)
    ask_and_wait(page)
    want = cli_json("--hand", "AH,KS", "--trump", "S", "--seat", "2", "--seed", "9", "--samples", "200")
    assert len(want["close_call"]) > 1  # the case is chosen to be one
    close = page.find_element("id", "close-call")
    assert close.is_displayed() and f"bids {', '.join(map(str, want['close_call']))}" in close.text
    marked = [int(tr.get_attribute("data-bid")) for tr in page.find_elements("css selector", "#bid-table tr.close")]
    assert marked == want["close_call"]


def active_element(driver):
    return driver.execute_script("return document.activeElement")


@pytest.mark.parametrize(("group", "value", "key"), [("players", "5", "ENTER"), ("players", "3", "SPACE"),
                                                      ("seat", "3", "ENTER"), ("seat", "4", "SPACE"),
                                                      ("trump", "H", "ENTER"), ("trump", "none", "SPACE")])
def test_choosing_by_keyboard_keeps_focus_on_the_chosen_button(page, group, value, key):
    """Choosing re-renders the page; focus stays on the button chosen, so Tab, Enter, Space and the
    arrows go on from there."""
    from selenium.webdriver.common.keys import Keys

    css = f'#{group} button[data-value="{value}"]'
    chosen = page.find_element("css selector", css)
    page.execute_script("arguments[0].focus()", chosen)
    chosen.send_keys(getattr(Keys, key))
    chosen = page.find_element("css selector", css)  # the same element or its rebuilt twin
    assert chosen.get_attribute("aria-pressed") == "true"
    assert active_element(page) == chosen
    # the keyboard goes on: an arrow moves along the row, Enter chooses there, focus still on it
    first = page.find_element("css selector", f"#{group} button") == chosen
    page.switch_to.active_element.send_keys(Keys.ARROW_RIGHT if first else Keys.ARROW_LEFT)
    moved = active_element(page)
    assert moved.get_attribute("data-value") != value and moved.find_element("xpath", "..").get_attribute("id") == group
    moved.send_keys(Keys.ENTER)
    assert active_element(page) == moved and moved.get_attribute("aria-pressed") == "true"
    assert chosen.get_attribute("aria-pressed") == "false"


def test_player_count_by_keyboard_keeps_focus_when_the_seats_change(page):
    from selenium.webdriver.common.keys import Keys

    tap(page, '#seat button[data-value="4"]')
    three = page.find_element("css selector", '#players button[data-value="3"]')
    page.execute_script("arguments[0].focus()", three)
    three.send_keys(Keys.ENTER)  # seat 4 is gone with 3 players: the seat and bid rows are rebuilt
    assert len(page.find_elements("css selector", "#seat button")) == 3
    assert active_element(page) == page.find_element("css selector", '#players button[data-value="3"]')
    page.switch_to.active_element.send_keys(Keys.TAB)  # Tab goes on to the next control in the page
    assert active_element(page).find_element("xpath", "..").get_attribute("id") == "players"


def hand_and_played(driver) -> tuple[str, str]:
    return driver.find_element("id", "hand-text").text, driver.find_element("id", "played-text").text


@pytest.mark.parametrize("special", ["W", "J"])
def test_a_wizard_or_jester_played_leaves_the_hand(page, special):
    other = "J" if special == "W" else "W"
    tap_question(page, hand=[special, special, other, "AS"], trump="S", seat=2, bids=[1, 0, 1, 0])
    tap(page, '#target button[data-value="played"]')
    tile = page.find_element("css selector", f'#deck .tile[data-card="{special}"]')
    tap(page, f'#deck .tile[data-card="{special}"]')  # two of four placed in the hand, one played
    assert hand_and_played(page) == (f"{special},{other},AS", special)
    assert tile.find_element("css selector", ".badge").text == "\u00d71"
    assert "1 in your hand, 1 played" in tile.get_attribute("aria-label")
    tap(page, f'#deck .tile[data-card="{special}"]')  # the second one the hand holds
    assert hand_and_played(page) == (f"{other},AS", f"{special},{special}")
    tap(page, f'#deck .tile[data-card="{special}"]')  # none held now: another player's
    assert hand_and_played(page) == (f"{other},AS", f"{special},{special},{special}")
    tap(page, "#played-undo")
    tap(page, "#played-undo")  # the hand's copy goes back to it
    assert hand_and_played(page) == (f"{other},AS,{special}", special)
    # it was another player's: put back in the hand, and Undo does not return a second copy
    tap(page, '#target button[data-value="hand"]')
    tap(page, f'#deck .tile[data-card="{special}"]')
    assert hand_and_played(page) == (f"{other},AS,{special},{special}", special)
    tap(page, "#played-undo")
    assert hand_and_played(page) == (f"{other},AS,{special},{special}", "none yet")


def test_a_wizard_played_in_turn_gives_the_clis_play_advice(page):
    """Seat 1 led the 5 of hearts, seat 2 (you) played its Wizard, seat 3 ... and now it is your turn
    again after trick 1: the hand asked about no longer holds that Wizard."""
    tap_question(page, hand=["W", "J", "AS"], trump="S", seat=4, bids=[1, 0, 1, 0], seed=3, samples=50)
    tap(page, '#target button[data-value="played"]')
    for card in ("5H", "KH", "2H", "W"):  # seats 1..3, then you (seat 4)
        tap(page, f'#deck .tile[data-card="{card}"]')
    assert hand_and_played(page) == ("J,AS", "5H,KH,2H,W")
    ask_and_wait(page)  # you won trick 1 with the Wizard: you lead trick 2
    assert page.find_element("id", "error").get_attribute("hidden") is not None, page.find_element("id", "error").text
    want = cli_json("--hand", "J,AS", "--trump", "S", "--seat", "4", "--bids", "1,0,1,0", "--played", "5H,KH,2H,W",
                    "--seed", "3", "--samples", "50")
    assert page.find_element("id", "best-card").get_attribute("data-card") == want["best_card"]
    assert [tr.get_attribute("data-card") for tr in page.find_elements("css selector", "#play-table tbody tr")] \
        == [row["card"] for row in want["table"]]


def test_a_played_card_is_not_added_to_the_hand(page):
    tap_question(page, hand=["AS", "KH"], trump="S", seat=2, bids=[1, 0, 1, 0])
    tap(page, '#target button[data-value="played"]')
    tap(page, '#deck .tile[data-card="5H"]')  # seat 1 led the 5 of hearts
    tap(page, '#target button[data-value="hand"]')
    tap(page, '#deck .tile[data-card="5H"]')
    assert hand_and_played(page) == ("AS,KH", "5H")  # refused: neither set changes
    status = page.find_element("id", "status").text
    assert "5 of Hearts was played already" in status and "cannot be in your hand" in status
    tile = page.find_element("css selector", '#deck .tile[data-card="5H"]')
    assert tile.get_attribute("aria-pressed") == "false" and "in your hand" not in tile.get_attribute("aria-label")
    ask_and_wait(page)  # the question is still the right one: seat 2 to play after the 5 of hearts
    assert page.find_element("id", "error").get_attribute("hidden") is not None, page.find_element("id", "error").text
    assert page.find_element("id", "play-answer").is_displayed()
