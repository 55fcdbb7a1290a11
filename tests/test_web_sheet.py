"""The score sheet in a real browser (headless Chromium, Selenium, a real ``wizsim serve``): a whole
3-player game of 20 rounds from ``simulate_games`` entered by tapping, one past round corrected; the
totals equal ``GameRecord.totals()``; a reload keeps the game; the export re-imports to the same sheet
and a bad import loses nothing; advice from the sheet equals ``wizsim advise --json`` (bid advice with
``--game``: the sheet sends the finished rounds, one of them with its cards played by a random player,
and the advisor learns from them); the review on the
page equals ``wizsim review --json``; bad entries (a bid above the hand size, the hook, tricks that do
not add up) are refused next to the field and lose nothing."""

import json
import subprocess
import sys

import pytest
from harness import chromium, open_page, read_bid_table, tap
from outside import skip_without_browser

skip_without_browser()

NAMES = ["Ann", "Bob", "Cleo"]
SEED, SAMPLES = 5, 200  # the advice's (typed in the advice view's More options)
REVIEW_SAMPLES = 60
HAND_ROUND = 5  # the round whose hand (tapped) and cards played (typed) are entered: Ann bids second
PLAYED_ROUNDS = (4, HAND_ROUND)  # rounds whose turned-up card, hand and cards played are entered
BAD_ROUND = 7  # the round where bad entries are tried
CORRECTED = 6  # the past round corrected at the end


WINDOW = (1280, 900)


@pytest.fixture(scope="module")
def game():
    """A legal game with the hook: Ann (me) is player 0, Bob plays at random (so round 4's cards show the
    advisor a player unlike its model: by round 5 it models him with play noise 0.24)."""
    import wizsim
    from wizsim.record import from_games

    batch = wizsim.simulate_games(3, 1, ["heuristic", "random", "heuristic"], seed=13, trick_log=True, hook=True)
    return from_games(batch, 0, names=NAMES, me=0, hook=True)


def run_cli(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "wizsim.cli", *args, "--json"], capture_output=True, text=True,
                         check=True, timeout=300)
    return json.loads(out.stdout)


def text(driver, id_: str) -> str:
    return driver.find_element("id", id_).text


def js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def type_into(driver, id_: str, value: str) -> None:
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element("id", id_)
    js(driver, "arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus(); arguments[0].select()", box)
    box.send_keys(Keys.BACKSPACE, value, Keys.ENTER)


def sheet_cells(driver) -> list:
    """The score sheet as shown: per round, per player (bid, tricks, score, total); then the totals row."""
    return js(driver, """
        const rows = [...document.querySelectorAll('#sheet-table tbody tr')].map((tr) =>
          [...tr.querySelectorAll('td')].map((td) => [td.dataset.bid, td.dataset.tricks, td.dataset.score, td.dataset.total]));
        const foot = [...document.querySelectorAll('#sheet-table tfoot td')].map((td) => Number(td.dataset.total));
        return [rows, foot];""")


def shown_totals(driver) -> list[list[int]]:
    rows, _ = sheet_cells(driver)
    return [[int(c[3]) for c in row] for row in rows if all(c[3] != "" for c in row)]


def wait(driver, condition, timeout=60, message=""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d) or None, message=message)


def wait_advice(driver):
    wait(driver, lambda d: js(d, "return !document.getElementById('method').hidden || "
                                 "!document.getElementById('error').hidden"), message="no advice")
    error = driver.find_element("id", "error")
    assert error.get_attribute("hidden") is not None, error.text


def entered_record(game, corrected: bool):
    """What the test enters: every round's trump, bids and tricks; the hand, turned-up card and cards played of
    PLAYED_ROUNDS only; with ``corrected``, CORRECTED's tricks as corrected."""
    from wizsim.record import GameRecord

    obj = game.to_dict()
    for rd in obj["rounds"]:
        if rd["r"] not in PLAYED_ROUNDS:
            rd["turn_up"] = None
            rd.pop("hand", None)
            rd.pop("played", None)
    if corrected:
        rd = obj["rounds"][CORRECTED - 1]
        giver = next(p for p in range(3) if rd["tricks"][p] > 0)
        rd["tricks"][giver] -= 1
        rd["tricks"][(giver + 1) % 3] += 1
    return GameRecord.from_dict(obj)


def test_a_whole_game_at_the_table(server, browser, game, tmp_path):
    before_hand_round = tmp_path / "before.json"  # the finished rounds the sheet sends with the bid question
    cut = entered_record(game, corrected=False).to_dict()
    before_hand_round.write_text(json.dumps({**cut, "rounds": cut["rounds"][: HAND_ROUND - 1]}))
    page = browser
    open_page(page, server)
    # the advice's seed and deals, typed once in the advice view's More options
    tap(page, "#tab-advice")
    tap(page, "details.more summary")
    type_into(page, "seed", str(SEED))
    type_into(page, "samples", str(SAMPLES))
    # start the game: 3 players, names, Bob deals first... (the simulated game's first dealer), Ann is me, hook
    tap(page, "#tab-sheet")
    tap(page, '#ng-players button[data-value="3"]')
    for i, name in enumerate(NAMES):
        type_into(page, f"ng-name-{i}", name)
    tap(page, f'#ng-dealer button[data-value="{game.first_dealer}"]')
    tap(page, '#ng-me button[data-value="0"]')
    tap(page, "#ng-hook")
    tap(page, "#ng-start")

    for k, rd in enumerate(game.rounds):
        facts = game.facts(k)
        seats = list(facts.seat_player)
        assert text(page, "round-title").startswith(f"Round {rd.r} of 20")
        assert text(page, "round-who").startswith(f"{NAMES[facts.dealer]} deals; {NAMES[seats[0]]} bids first")
        if rd.r in PLAYED_ROUNDS:
            type_into(page, "turnup-in", rd.turn_up)
            assert page.find_element("css selector", f'#sheet-trump button[data-value="{rd.trump}"]') \
                .get_attribute("aria-pressed") == "true"
            if not js(page, "return document.getElementById('cards-entry').open"):
                tap(page, "#cards-entry summary")
            for card in rd.hand.split(","):  # tapped on the sheet's deck
                tap(page, f'#sheet-deck .tile[data-card="{card}"]')
            assert page.find_element("id", "hand-in").get_attribute("value") == rd.hand
        elif rd.r < 20:
            tap(page, f'#sheet-trump button[data-value="{rd.trump}"]')
        my_seat = facts.seat_of(0)
        for s, p in enumerate(seats):
            if rd.r == HAND_ROUND and s == my_seat - 1:
                check_bid_advice(page, rd, facts, before_hand_round)
            if rd.r == BAD_ROUND:
                bad_bids(page, rd, facts, s, p)
            assert text(page, "pad-for") == f"Tap a number: {NAMES[p]}'s bid"
            tap(page, f'#pad button[data-value="{rd.bids[p]}"]')
        if rd.r == HAND_ROUND:
            check_play_advice(page, rd, facts, before_hand_round)
        if rd.r in PLAYED_ROUNDS:
            type_into(page, "played-in", rd.played)
            assert page.find_element("id", "err-played").text == ""
        if rd.r == BAD_ROUND:
            bad_tricks(page, rd, facts)
        else:
            for p in seats:
                tap(page, f'#pad button[data-value="{rd.tricks[p]}"]')
        assert shown_totals(page) == game.totals()[: k + 1]
        if rd.r < 20:
            tap(page, "#next-round")
    assert page.find_element("id", "next-round").get_attribute("hidden") is not None
    assert "Game over" in text(page, "game-over")

    # one past round corrected: tap it on the sheet, then two trick counts (the first leaves them not adding up)
    want = entered_record(game, corrected=True)
    before, after = game.rounds[CORRECTED - 1].tricks, want.rounds[CORRECTED - 1].tricks
    tap(page, f'#sheet-table button[data-round="{CORRECTED - 1}"]')
    assert text(page, "round-title").startswith(f"Round {CORRECTED} of 20")
    changed = [p for p in range(3) if before[p] != after[p]]
    tap(page, f"#st-{changed[0]}")
    tap(page, f'#pad button[data-value="{after[changed[0]]}"]')
    assert "the tricks add up to" in text(page, "err-tricks")
    tap(page, f"#st-{changed[1]}")
    tap(page, f'#pad button[data-value="{after[changed[1]]}"]')
    assert not page.find_element("id", "err-tricks").is_displayed()
    totals = want.totals()
    assert shown_totals(page) == totals
    assert sheet_cells(page)[1] == totals[-1]
    assert [[int(c[2]) for c in row] for row in sheet_cells(page)[0]] == want.scores()
    sheet = sheet_cells(page)

    # a reload (and a closed tab: localStorage) keeps the game
    page.refresh()
    wait(page, lambda d: d.find_element("tag name", "body").get_attribute("data-ready"))
    assert page.find_element("id", "view-sheet").is_displayed()
    assert sheet_cells(page) == sheet

    # the export is the record entered, checked by the server
    tap(page, "#export-btn")
    wait(page, lambda d: d.find_element("id", "record-text").get_attribute("value"), 10, "no export")
    exported = page.find_element("id", "record-text").get_attribute("value")
    # the same record, less what only a simulation knows: which program played each seat (from_games' identities)
    assert json.loads(exported) == {k: v for k, v in want.to_dict().items() if k != "identities"}
    # a bad import: the server's one-line message naming the entry; the sheet and the text stay
    bad = json.loads(exported)
    bad["rounds"][4]["bids"][1] = 7
    bad_text = json.dumps(bad)
    js(page, "document.getElementById('record-text').value = arguments[0]", bad_text)
    tap(page, "#import-btn")
    wait(page, lambda d: d.find_element("id", "io-error").is_displayed(), 10, "no import error")
    assert text(page, "io-error") == "rounds[4].bids: Bob's bid 7 is above the hand size 5"
    assert page.find_element("id", "record-text").get_attribute("value") == bad_text
    assert sheet_cells(page) == sheet
    # a new game, then the export imported: the same sheet
    tap(page, "#new-game-btn")
    tap(page, "#ng-start")
    assert sheet_cells(page)[1] == [0, 0, 0]
    js(page, "document.getElementById('record-text').value = arguments[0]", exported)
    tap(page, "#import-btn")
    wait(page, lambda d: "Imported" in d.find_element("id", "io-status").text, 10, "no import")
    assert sheet_cells(page) == sheet

    # the review on the page equals wizsim review --json on the same record
    path = tmp_path / "game.json"
    path.write_text(exported)
    tap(page, "#tab-review")
    type_into(page, "review-samples", str(REVIEW_SAMPLES))
    type_into(page, "review-seed", "0")
    tap(page, "#tab-sheet")
    tap(page, "#review-game-btn")
    assert page.find_element("id", "view-review").is_displayed()
    wait(page, lambda d: d.find_element("id", "review-result").is_displayed()
         and "reviewed" in d.find_element("id", "review-status").text, 90, "no review")
    cli = run_cli("review", str(path), "--samples", str(REVIEW_SAMPLES), "--seed", "0")
    shown = [json.loads(tr.get_attribute("data-decision"))
             for tr in page.find_elements("css selector", "#review-table tbody tr")]
    assert shown == cli["decisions"]
    assert cli["decisions_rated"] >= 3
    figures = {dd.get_attribute("data-key"): json.loads(dd.get_attribute("data-value"))
               for dd in page.find_elements("css selector", "#review-figures dd")}
    for key in ("mean_loss", "decisions_rated", "share_within_precision", "decisions_skipped"):
        assert figures[key] == cli[key], key
    # Bob's random play in rounds 4 and 5 is learned: the later rounds' bids were asked with it, as on the page
    assert cli["learned"] and figures["learned"] == cli["learned"]
    # how each player played: the rounds with their cards entered show Bob unlike the heuristic
    rows = [json.loads(tr.get_attribute("data-player"))
            for tr in page.find_elements("css selector", "#review-players tbody tr")]
    assert rows == [x for x in cli["players"] if x["choices"] or x["bids"]] and len(rows) == 3
    bob = next(tr for tr in page.find_elements("css selector", "#review-players tbody tr") if tr.text.startswith("Bob"))
    x = cli["players"][1]
    assert f"{x['model_cards']} of {x['choices']}" in bob.text and x["model_cards"] < x["choices"]
    close = [tr for tr in page.find_elements("css selector", "#review-table tbody tr")
             if json.loads(tr.get_attribute("data-decision"))["close_call"]]
    assert all("close call" in tr.text for tr in close)
    severe = [e for e in page.get_log("browser") if e["level"] == "SEVERE"
              and "/api/record/check" not in e["message"]]  # the bad import's 422 is expected
    assert not severe, severe


def check_bid_advice(page, rd, facts, before):
    """Your bid next: advice from the sheet equals wizsim advise --json for the same state, with the game so far
    (``--game``, the file ``before``): the opponents' model it learned is not the untold one."""
    seat = facts.seat_of(0)
    earlier = list(facts.bids_by_seat[: seat - 1])
    tap(page, "#sheet-advice")
    wait_advice(page)
    args = ["advise", "--hand", rd.hand, "--trump", rd.trump, "--trump-card", rd.turn_up, "--seat", str(seat),
            "--players", "3", "--hook", "--seed", str(SEED), "--samples", str(SAMPLES), "--game", str(before)]
    if earlier:
        args += ["--bids", ",".join(map(str, earlier))]
    want = run_cli(*args)
    assert want["phase"] == "bid" and "play_noise" in want["policy"]  # Bob, from his cards in round 4
    untold = run_cli(*[a for a in args if a not in ("--game", str(before))])
    assert untold["table"] != want["table"]  # the page's answer below is the learned one, not the untold one
    assert int(text(page, "best-bid")) == want["best_bid"]
    assert read_bid_table(page) == want["table"]
    # the page says how it modelled the others from the game, by name in bidding order
    method = page.find_element("id", "method")
    assert method.get_attribute("data-learned") == want["policy"]
    others = [NAMES[p] for p in facts.seat_player if p != 0]
    names = want["policy"].split(",")
    assert "From the game so far: " + ", ".join(f"{w} as {n}" for w, n in zip(others, names, strict=True)) in method.text
    tap(page, "#back-to-sheet")


def check_play_advice(page, rd, facts, before):
    """Every bid in and the cards played before your second card typed: play advice equals the CLI's with the
    game so far (``--game``, the file ``before``; the page works out which of the cards played were yours)."""
    from wizsim.cards import format_card

    second = [pl for pl in facts.plays if pl.player == 0][1]
    cards = rd.played.replace("/", ",").split(",")
    prefix = ",".join(cards[: second.position])
    mine = {format_card(pl.card) for pl in facts.plays[: second.position] if pl.player == 0}
    held = ",".join(c for c in rd.hand.split(",") if c not in mine)
    type_into(page, "played-in", prefix)
    tap(page, "#sheet-advice")
    wait_advice(page)
    args = ["advise", "--hand", held, "--trump", rd.trump, "--trump-card", rd.turn_up,
            "--seat", str(facts.seat_of(0)), "--players", "3", "--hook", "--bids", ",".join(map(str, facts.bids_by_seat)),
            "--seed", str(SEED), "--samples", str(SAMPLES), "--game", str(before)]
    args += ["--played", prefix]
    want = run_cli(*args)
    assert want["phase"] == "play" and "play_noise" in want["policy"]  # Bob, from his cards in round 4
    assert page.find_element("id", "method").get_attribute("data-learned") == want["policy"]
    assert page.find_element("id", "best-card").get_attribute("data-card") == want["best_card"]
    shown = [(tr.get_attribute("data-card"), float(tr.find_element("css selector", 'td[data-key="ev"]').get_attribute("data-value")))
             for tr in page.find_elements("css selector", "#play-table tbody tr")]
    assert shown == [(row["card"], row["ev"]) for row in want["table"]]
    tap(page, "#back-to-sheet")


def field_state(page):
    return js(page, "return [...document.querySelectorAll('#round-table .num-in')].map((i) => [i.id, i.value])")


def bad_bids(page, rd, facts, s, p):
    """Before player ``p``'s bid: a bid above the hand size, and for the dealer the hook's bid, are refused
    next to the field; what was entered stays."""
    if s == 0:
        kept = field_state(page)
        type_into(page, f"sb-{p}", str(rd.r + 1))
        assert text(page, f"err-sb-{p}") == f"{NAMES[p]}'s bid {rd.r + 1} is above the hand size {rd.r}"
        assert page.find_element("id", f"sb-{p}").get_attribute("aria-invalid") == "true"
        now = dict(field_state(page))
        assert now[f"sb-{p}"] == str(rd.r + 1)  # the text typed stays in the field
        assert {k: v for k, v in now.items() if k != f"sb-{p}"} == {k: v for k, v in kept if k != f"sb-{p}"}
        tap(page, f"#sb-{p}")  # the pad fills the field chosen
    if s == 2:
        forbidden = rd.r - sum(facts.bids_by_seat[:2])
        assert 0 <= forbidden <= rd.r, "choose a round where the hook forbids a bid"
        type_into(page, f"sb-{p}", str(forbidden))
        assert text(page, f"err-sb-{p}") == (f"with the hook the dealer ({NAMES[p]}) may not bid {forbidden}: the bids "
                                             f"would add up to the hand size {rd.r}")
        shown = dict(field_state(page))
        assert [shown[f"sb-{q}"] for q in facts.seat_player[:2]] == [str(b) for b in facts.bids_by_seat[:2]]
        tap(page, f"#sb-{p}")


def bad_tricks(page, rd, facts):
    """Tricks that do not add up: the message next to the tricks, the counts kept; then the right one."""
    seats = list(facts.seat_player)
    for p in seats[:-1]:
        tap(page, f'#pad button[data-value="{rd.tricks[p]}"]')
    last = seats[-1]
    wrong = (rd.tricks[last] + 1) % (rd.r + 1)
    type_into(page, f"st-{last}", str(wrong))
    total = sum(rd.tricks[p] for p in seats[:-1]) + wrong
    assert text(page, "err-tricks") == f"the tricks add up to {total}, but round {rd.r} has {rd.r} tricks"
    shown = dict(field_state(page))
    assert [shown[f"st-{p}"] for p in seats] == [str(rd.tricks[p]) for p in seats[:-1]] + [str(wrong)]
    assert page.find_element("id", "next-round").get_attribute("hidden") is not None
    tap(page, f"#st-{last}")
    tap(page, f'#pad button[data-value="{rd.tricks[last]}"]')
    assert not page.find_element("id", "err-tricks").is_displayed()


def test_the_sheet_at_phone_width_by_keyboard(server):
    """390 px: nothing wider than the screen but the tables' own scroll; bids typed and Enter goes on to
    the next bidder."""
    from selenium.webdriver.common.keys import Keys

    driver = chromium(390, 844)
    try:
        open_page(driver, server)
        tap(driver, "#tab-sheet")
        tap(driver, '#ng-players button[data-value="6"]')
        tap(driver, "#ng-start")
        assert js(driver, "return document.documentElement.scrollWidth") <= 390
        first = driver.find_element("css selector", "#round-table tbody tr").get_attribute("data-player")
        box = driver.find_element("id", f"sb-{first}")
        js(driver, "arguments[0].focus()", box)
        box.send_keys("1", Keys.ENTER)
        second = driver.find_elements("css selector", "#round-table tbody tr")[1].get_attribute("data-player")
        assert js(driver, "return document.activeElement.id") == f"sb-{second}"
        assert text(driver, "pad-for") == f"Tap a number: Player {int(second) + 1}'s bid"
        assert js(driver, "return document.documentElement.scrollWidth") <= 390
    finally:
        driver.quit()
