// wizsim at the table: build the question by tapping, ask POST /api/advise, show the answer.
// The page checks nothing itself: every message about a bad question is the server's (the library's).
"use strict";

const SUITS = [["S", "\u2660", "Spades"], ["H", "\u2665", "Hearts"], ["D", "\u2666", "Diamonds"], ["C", "\u2663", "Clubs"]];
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const RANK_NAMES = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const SPECIALS = [["W", "Wizard"], ["J", "Jester"]];
const OF_EACH_SPECIAL = 4;
const PLAYER_COUNTS = [3, 4, 5, 6];
const TRUMPS = [["S", "\u2660 S", "Spades"], ["H", "\u2665 H", "Hearts"], ["D", "\u2666 D", "Diamonds"],
                ["C", "\u2663 C", "Clubs"], ["none", "none", "No trump"]];
const TARGETS = [["hand", "Your hand"], ["turnup", "Turned-up card"], ["played", "Played"]];

const state = {
  players: 4, seat: null, trump: null, turnup: null, hook: false, target: "hand",
  hand: [],    // card tokens in the order tapped ("W", "AS", "3H"); W and J repeat
  played: [],  // tokens in order of play, "/" between tricks
  fromHand: [],  // per entry of played: whether the card left the hand (undo puts it back)
  bids: ["", "", "", ""],
  bidShown: null,
  game: null,  // from the score sheet: the game's finished rounds (a game record) and the question they fit
  askedWithGame: null,  // the game sent with the last question, to say how the others were modelled
};

const $ = (id) => document.getElementById(id);

function isSpecial(tok) { return tok === "W" || tok === "J"; }
function suitOf(tok) { return isSpecial(tok) ? null : tok[1]; }
function cardName(tok) {
  if (tok === "W") return "Wizard";
  if (tok === "J") return "Jester";
  const suit = SUITS.find((s) => s[0] === tok[1]);
  return `${RANK_NAMES[tok[0]] || tok[0]} of ${suit[2]}`;
}
function cardShown(tok) {
  if (isSpecial(tok)) return tok;
  const suit = SUITS.find((s) => s[0] === tok[1]);
  return `${tok[0] === "T" ? "10" : tok[0]}${suit[1]}`;
}
function count(list, tok) { return list.filter((t) => t === tok).length; }
function used(tok) { return count(state.hand, tok) + count(state.played, tok) + (state.turnup === tok ? 1 : 0); }
function removeOne(list, tok) { const i = list.lastIndexOf(tok); if (i >= 0) list.splice(i, 1); return i >= 0; }
function pushPlayed(tok, fromHand) { state.played.push(tok); state.fromHand.push(fromHand); }
// Take the last entry ``tok`` off the played cards; a card that came from the hand goes back to it.
function dropPlayed(tok, backToHand = true) {
  const i = state.played.lastIndexOf(tok);
  if (i < 0) return false;
  const wasHand = state.fromHand[i];
  state.played.splice(i, 1); state.fromHand.splice(i, 1);
  if (wasHand && backToHand) state.hand.push(tok);
  return true;
}
function playPhase() { return state.bids.length === state.players && state.bids.every((b) => b.trim() !== ""); }

function say(text) { $("status").textContent = text; }

// ---- taps -------------------------------------------------------------------------------------

function tapCard(tok) {
  say("");
  if (state.target === "turnup") {
    if (state.turnup === tok) { state.turnup = null; render(); return; }
    if (isSpecial(tok) && used(tok) >= OF_EACH_SPECIAL) {
      if (!removeOne(state.hand, tok)) { say(`all four ${cardName(tok)}s are placed already`); return; }
    } else if (!isSpecial(tok)) {
      removeOne(state.hand, tok); dropPlayed(tok, false);
    }
    state.turnup = tok;
    if (tok === "J") state.trump = "none";
    else if (tok === "W") say("A Wizard was turned up: choose the trump the dealer named.");
    else state.trump = suitOf(tok);
    state.target = "hand";
  } else if (state.target === "hand") {
    if (isSpecial(tok)) {
      if (used(tok) < OF_EACH_SPECIAL) {
        state.hand.push(tok);
        // put back after a tap into Played took it from the hand: that one was another player's, so
        // Undo on it must not return a second copy
        const i = state.played.findLastIndex((t, k) => t === tok && state.fromHand[k]);
        if (i >= 0) state.fromHand[i] = false;
      } else if (count(state.hand, tok)) {
        state.hand = state.hand.filter((t) => t !== tok);  // the fifth tap: back to none
      } else {
        say(`all four ${cardName(tok)}s are placed already`);
      }
    } else if (state.hand.includes(tok)) {
      removeOne(state.hand, tok);
    } else if (state.played.includes(tok)) {  // a card on the table is no longer anyone's to hold
      say(`the ${cardName(tok)} was played already, so it cannot be in your hand `
        + "(to take the play back, choose Played and tap it, or Undo)");
      return;
    } else {
      if (state.turnup === tok) state.turnup = null;
      state.hand.push(tok);
    }
  } else {  // played: a card you hold leaves your hand
    if (isSpecial(tok)) {  // one you hold leaves your hand, as a suited card does
      const fromHand = removeOne(state.hand, tok);
      if (!fromHand && used(tok) >= OF_EACH_SPECIAL) {
        say(`all four ${cardName(tok)}s are placed already`); return;
      }
      pushPlayed(tok, fromHand);
      if (fromHand) {
        say(`a ${cardName(tok)} left your hand (if it was another player's, choose Your hand and tap ${tok})`);
      }
    } else if (state.played.includes(tok)) {
      dropPlayed(tok);
    } else {
      const fromHand = removeOne(state.hand, tok);
      if (state.turnup === tok) state.turnup = null;
      pushPlayed(tok, fromHand);
    }
  }
  render();
}

function playedText() {
  const tricks = [[]];
  for (const tok of state.played) {
    if (tok === "/") tricks.push([]); else tricks[tricks.length - 1].push(tok);
  }
  return tricks.map((t) => t.join(",")).join("/");
}

// ---- building the page ------------------------------------------------------------------------

function button(text, label, onClick, cls) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

// A row of toggle buttons. The buttons are built once and then only updated, so a render never takes
// keyboard focus away from the one a person just pressed; when the options themselves change (fewer
// seats, the Played choice appearing), the row is rebuilt and focus goes to the button for the same
// value, else to the chosen one, else to the first.
const picks = new WeakMap();  // container -> the latest onPick: a button calls whatever render gave last

function segmented(container, options, isOn, onPick) {
  picks.set(container, onPick);
  const same = container.children.length === options.length && options.every(([value, text, label], i) => {
    const b = container.children[i];
    return b.dataset.value === String(value) && b.textContent === text && b.getAttribute("aria-label") === (label || null);
  });
  if (!same) {
    const focused = container.contains(document.activeElement) ? document.activeElement.dataset.value : null;
    container.replaceChildren(...options.map(([value, text, label]) => {
      const b = button(text, label, () => picks.get(container)(value));
      b.dataset.value = String(value);
      return b;
    }));
    if (focused !== null) {
      const buttons = [...container.children];
      const back = buttons.find((b) => b.dataset.value === focused)
        || buttons.find((_, i) => isOn(options[i][0])) || buttons[0];
      if (back) back.focus();
    }
  }
  options.forEach(([value], i) => container.children[i].setAttribute("aria-pressed", String(isOn(value))));
}

// Left/Right (Home/End) move focus along a row of toggle buttons; Tab still leaves the row.
function arrowKeys(container) {
  container.addEventListener("keydown", (e) => {
    const buttons = [...container.querySelectorAll("button")];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0 || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, to))].focus();
  });
}

function tile(tok, rankText, symText, cls, symCls, onTap = tapCard) {
  const b = button("", null, () => onTap(tok), cls);
  b.dataset.card = tok;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankText;
  const sym = document.createElement("span");
  sym.className = symCls;
  sym.textContent = symText;
  sym.setAttribute("aria-hidden", "true");
  const badge = document.createElement("span");
  badge.className = "badge";
  b.append(rank, sym, badge);
  return b;
}

function group(cls, label, tiles) {
  const g = document.createElement("div");
  g.className = cls;
  g.setAttribute("role", "group");
  g.setAttribute("aria-label", label);
  g.append(...tiles);
  return g;
}

// The 60 tiles into ``deck`` (the advice view's, or the score sheet's with its own ``onTap``).
function buildDeck(deck = $("deck"), onTap = tapCard) {
  for (const [s, symbol, name] of SUITS) {
    deck.append(group(`suit suit-${s}`, name, RANKS.map((r) =>
      tile(r + s, r === "T" ? "10" : r, symbol, `tile suit-${s}`, "sym", onTap))));
  }
  deck.append(group("suit specials", "Wizards and Jesters (tap up to four times)",
    SPECIALS.map(([tok, name]) => tile(tok, tok, name, "tile special", "sym word", onTap))));
}

function renderDeck() {
  const playedOrder = new Map();
  let k = 0;
  for (const tok of state.played) { if (tok !== "/") { k += 1; if (!isSpecial(tok)) playedOrder.set(tok, k); } }
  for (const b of document.querySelectorAll("#deck .tile")) {
    const tok = b.dataset.card;
    const inHand = count(state.hand, tok), inPlayed = count(state.played, tok), up = state.turnup === tok;
    b.classList.toggle("in-hand", inHand > 0);
    b.classList.toggle("is-played", inPlayed > 0);
    b.classList.toggle("is-turnup", up);
    const inTarget = state.target === "hand" ? inHand > 0 : state.target === "played" ? inPlayed > 0 : up;
    b.setAttribute("aria-pressed", String(inTarget));
    const where = [];
    if (isSpecial(tok)) {
      if (inHand) where.push(`${inHand} in your hand`);
      if (inPlayed) where.push(`${inPlayed} played`);
      if (up) where.push("one turned up");
      b.querySelector(".badge").textContent = inHand ? `\u00d7${inHand}` : "";
    } else {
      if (inHand) where.push("in your hand");
      if (inPlayed) where.push(`played, card ${playedOrder.get(tok)}`);
      if (up) where.push("turned up");
      b.querySelector(".badge").textContent = inPlayed ? String(playedOrder.get(tok)) : up ? "up" : "";
    }
    b.setAttribute("aria-label", `${cardName(tok)}${where.length ? ", " + where.join(", ") : ""}`);
  }
}

function renderBids() {
  const box = $("bids");
  while (state.bids.length < state.players) state.bids.push("");
  state.bids.length = state.players;
  if (box.children.length !== state.players || box.dataset.seat !== String(state.seat)) {
    box.dataset.seat = String(state.seat);
    box.replaceChildren(...state.bids.map((value, i) => {
      const label = document.createElement("label");
      const seat = i + 1;
      const tags = [seat === state.seat ? "you" : "", seat === state.players ? "deals" : ""].filter(Boolean);
      label.className = seat === state.seat ? "mine" : "";
      const text = document.createElement("span");
      text.textContent = `Seat ${seat}${tags.length ? ` (${tags.join(", ")})` : ""}`;
      const input = document.createElement("input");
      input.type = "number";
      input.inputMode = "numeric";
      input.min = "0";
      input.max = String(Math.floor(60 / state.players));
      input.id = `bid-${seat}`;
      input.value = value;
      input.placeholder = "?";
      input.addEventListener("input", () => { state.bids[i] = input.value; renderPhase(); });
      label.append(text, input);
      return label;
    }));
  }
  // the score sheet may have filled the bids in: show them (not over what is being typed)
  [...box.querySelectorAll("input")].forEach((input, i) => {
    if (document.activeElement !== input && input.value !== state.bids[i]) input.value = state.bids[i];
  });
}

function renderPhase() {
  const play = playPhase();
  const back = !play && state.target === "played";  // a bid cleared: no Played to tap into
  if (back) state.target = "hand";
  $("played-section").hidden = !play;
  $("ask").textContent = play ? "Which card should I play?" : "What should I bid?";
  segmented($("target"), TARGETS.filter(([t]) => play || t !== "played"), (t) => t === state.target, (t) => {
    state.target = t; render();
  });
  if (back) renderDeck();
}

function render() {
  segmented($("players"), PLAYER_COUNTS.map((n) => [n, String(n), `${n} players`]), (n) => n === state.players, (n) => {
    state.players = n;
    if (state.seat !== null && state.seat > n) state.seat = null;
    render();
  });
  const seats = Array.from({ length: state.players }, (_, i) => i + 1);
  segmented($("seat"), seats.map((s) => [s, String(s), `seat ${s}${s === state.players ? ", the dealer" : ""}`]),
    (s) => s === state.seat, (s) => { state.seat = s; render(); });
  segmented($("trump"), TRUMPS, (t) => t === state.trump, (t) => { state.trump = t; render(); });
  $("turnup-text").textContent = state.turnup ? cardShown(state.turnup) : "not given";
  $("turnup-clear").hidden = !state.turnup;
  $("hook").checked = state.hook;
  $("hand-text").textContent = state.hand.length ? state.hand.join(",") : "no cards yet";
  $("hand-count").textContent = `(${state.hand.length})`;
  $("played-text").textContent = state.played.length ? playedText() : "none yet";
  renderBids();
  renderPhase();
  renderDeck();
}

// ---- asking -----------------------------------------------------------------------------------

function numberOrText(value) {
  const v = value.trim();
  return /^-?\d+$/.test(v) ? Number(v) : v;
}

function request() {
  const req = { hand: state.hand.join(",") };
  if (state.seat !== null) req.seat = state.seat;
  req.players = state.players;
  if (state.trump) req.trump = state.trump;
  if (state.turnup) req.trump_card = state.turnup;
  if (state.hook) req.hook = true;
  if (playPhase()) {
    req.bids = state.bids.map(numberOrText);
    if (state.played.length) req.played = playedText();
  } else {
    const earlier = state.bids.slice(0, Math.max(0, (state.seat || 1) - 1)).filter((b) => b.trim() !== "");
    if (earlier.length) req.bids = earlier.map(numberOrText);
  }
  for (const key of ["samples", "seed"]) { if ($(key).value.trim()) req[key] = numberOrText($(key).value); }
  for (const key of ["policy", "play"]) { if ($(key).value.trim()) req[key] = $(key).value.trim(); }
  // the game so far, so the opponents' model learns how each player has played: the question still the
  // sheet's (same seat, players and round size: on my turn, the cards held and one per finished trick), no
  // opponents' model named
  const g = state.game;
  state.askedWithGame = null;
  const r = state.hand.length + (playPhase() ? Math.floor(state.played.filter((t) => t !== "/").length / state.players) : 0);
  if (g && !req.policy && g.seat === state.seat && g.players === state.players && g.r === r) {
    req.game = g.record;
    state.askedWithGame = g;
  }
  return req;
}

async function ask() {
  const btn = $("ask");
  btn.disabled = true;
  say("Thinking\u2026");
  const started = performance.now();
  try {
    const res = await fetch("/api/advise", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request()),
    });
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) {
      showError(body && typeof body.detail === "string" ? body.detail : `the server answered ${res.status}`);
      say("");
      return;
    }
    $("error").hidden = true;
    $("empty").hidden = true;
    if (body.phase === "trump") showTrump(body);
    else if (body.phase === "play" || "best_card" in body) showPlay(body); else showBid(body);
    if (window.matchMedia("(max-width: 899px)").matches) $("answer").scrollIntoView({ block: "start" });
    say(`answered in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  } catch (e) {
    showError(`no answer from the server (${e.message})`);
    say("");
  } finally {
    btn.disabled = false;
  }
}

function showError(message) {
  const el = $("error");
  el.textContent = message;
  el.hidden = false;
}

const pct = (p) => (p === null ? "?" : `${(100 * p).toFixed(1)}%`);
const signed = (x) => (x === null ? "?" : `${x >= 0 ? "+" : "\u2212"}${Math.abs(x).toFixed(1)}`);

function cell(tag, key, value, text) {
  const td = document.createElement(tag);
  if (key) { td.dataset.key = key; td.dataset.value = value === null ? "null" : String(value); }
  td.textContent = text;
  return td;
}

function scoreCell(row, exact) {
  const td = cell("td", "ev", row.ev, signed(row.ev));
  td.classList.add("num");
  const interval = document.createElement("span");
  interval.className = "interval";
  interval.dataset.low = row.ev_low === null ? "null" : String(row.ev_low);
  interval.dataset.high = row.ev_high === null ? "null" : String(row.ev_high);
  interval.textContent = exact ? "exact" : `[${signed(row.ev_low)}, ${signed(row.ev_high)}]`;
  td.append(interval);
  return td;
}

function miniChart(dist, bid) {
  const ns = "http://www.w3.org/2000/svg";
  const w = 8, gap = 2, h = 30;
  const top = Math.max(...dist, 1e-12);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${dist.length * (w + gap)} ${h}`);
  svg.setAttribute("width", String(Math.min(dist.length * (w + gap), 150)));
  svg.setAttribute("height", String(h));
  svg.setAttribute("role", "img");
  const words = dist.map((p, t) => `${t}: ${pct(p)}`).join(", ");
  svg.setAttribute("aria-label", `tricks taken when bidding ${bid}: ${words}`);
  dist.forEach((p, t) => {
    const rect = document.createElementNS(ns, "rect");
    const bh = Math.max(p > 0 ? 1 : 0, Math.round((h - 2) * p / top));
    rect.setAttribute("x", String(t * (w + gap)));
    rect.setAttribute("y", String(h - bh));
    rect.setAttribute("width", String(w));
    rect.setAttribute("height", String(bh));
    rect.setAttribute("class", t === bid ? "bar own" : "bar");
    svg.append(rect);
  });
  const base = document.createElementNS(ns, "rect");
  base.setAttribute("x", "0"); base.setAttribute("y", String(h - 1));
  base.setAttribute("width", String(dist.length * (w + gap))); base.setAttribute("height", "1");
  base.setAttribute("class", "axis");
  svg.append(base);
  return svg;
}

function showDistribution(answer, bid) {
  state.bidShown = bid;
  const dist = answer.p_tricks[bid];
  const best = bid === answer.best_bid;
  $("dist-caption").textContent = `Tricks taken when you bid ${bid}${best ? " (the recommended bid)" : ""}`;
  const top = Math.max(...dist, 1e-12);
  $("dist-bars").replaceChildren(...dist.map((p, t) => {
    const row = document.createElement("div");
    row.className = t === bid ? "drow own" : "drow";
    const label = document.createElement("span");
    label.className = "dlabel";
    label.textContent = String(t);
    const track = document.createElement("span");
    track.className = "dtrack";
    const bar = document.createElement("span");
    bar.className = "dbar";
    bar.style.width = `${(100 * p / top).toFixed(1)}%`;
    track.append(bar);
    const value = document.createElement("span");
    value.className = "dvalue";
    value.textContent = pct(p) + (t === bid ? " \u2190 your bid" : "");
    row.append(label, track, value);
    return row;
  }));
  for (const tr of document.querySelectorAll("#bid-table tbody tr")) {
    tr.classList.toggle("shown", Number(tr.dataset.bid) === bid);
  }
}

// Show the answer of one kind ("bid", "trump" or "play") and hide the other two.
function showAnswer(kind) {
  for (const k of ["bid", "trump", "play"]) $(`${k}-answer`).hidden = k !== kind;
}

// Fill the answer table `id` with a row per entry of `a.table`: `key` names the row (its data-<key>), the row
// whose key is `best` is marked best, and `build(tr, row)` adds the cells.
function fillAnswerTable(id, a, key, best, build) {
  $(id).querySelector("tbody").replaceChildren(...a.table.map((row) => {
    const tr = document.createElement("tr");
    tr.dataset[key] = String(row[key]);
    if (row[key] === best) tr.classList.add("best");
    build(tr, row);
    return tr;
  }));
}

function showBid(a) {
  showAnswer("bid");
  const best = a.table[a.best_bid];
  $("best-bid").textContent = String(a.best_bid);
  $("best-why").textContent = `makes it ${pct(best.p_exact)} of the time, expected score ${signed(best.ev)}`;
  const close = Array.isArray(a.close_call) ? a.close_call : [];
  $("close-call").hidden = close.length < 2;
  $("close-call").textContent = close.length < 2 ? "" : `A close call: bids ${close.join(", ")} are within the `
    + "precision reached of each other; more deals (More options) can tell them apart.";
  const exact = a.method === "exact";
  fillAnswerTable("bid-table", a, "bid", a.best_bid, (tr, row) => {
    tr.dataset.allowed = String(row.allowed);
    if (close.length > 1 && close.includes(row.bid)) tr.classList.add("close");
    if (!row.allowed) tr.classList.add("forbidden");
    const th = document.createElement("th");
    th.scope = "row";
    const note = row.bid === a.best_bid ? ", recommended" : row.allowed ? "" : ", forbidden by the hook";
    const b = button(String(row.bid), `bid ${row.bid}${note}: show its tricks`, () => showDistribution(a, row.bid), "bidbtn");
    th.append(b);
    if (row.bid === a.best_bid) { const m = document.createElement("span"); m.className = "tag"; m.textContent = "best"; th.append(m); }
    if (!row.allowed) { const m = document.createElement("span"); m.className = "tag"; m.textContent = "hook"; th.append(m); }
    const chart = document.createElement("td");
    chart.className = "chart";
    chart.append(miniChart(a.p_tricks[row.bid], row.bid));
    tr.append(th, cell("td", "p_exact", row.p_exact, pct(row.p_exact)), scoreCell(row, exact),
      cell("td", "expected_tricks", row.expected_tricks, row.expected_tricks.toFixed(2)), chart);
    tr.children[1].classList.add("num");
    tr.children[3].classList.add("num");
  });
  showDistribution(a, a.best_bid);
  showMethod(a, "per bid, the same deals for every bid");
}

// The dealer on a turned-up Wizard: each suit with its best bid's expected score.
function showTrump(a) {
  showAnswer("trump");
  const best = a.table.find((row) => row.suit === a.best_suit);
  const suit = SUITS.find((x) => x[0] === a.best_suit);
  $("best-suit").textContent = suit ? `${suit[1]} ${suit[2]}` : a.best_suit;
  $("best-suit").dataset.suit = a.best_suit;
  $("suit-why").textContent = best ? `then bid ${best.best_bid}, expected score ${signed(best.ev)}` : "";
  const exact = a.method === "exact";
  fillAnswerTable("trump-table", a, "suit", a.best_suit, (tr, row) => {
    const th = cell("th", "suit", row.suit, row.suit);
    th.scope = "row";
    tr.append(th, cell("td", "best_bid", row.best_bid, String(row.best_bid)), scoreCell(row, exact));
    tr.children[1].classList.add("num");
  });
  showMethod(a, "per suit, the same deals for every suit");
}

function showPlay(a) {
  showAnswer("play");
  const best = a.table.find((row) => row.card === a.best_card);
  $("best-card").textContent = cardShown(a.best_card);
  $("best-card").dataset.card = a.best_card;
  $("card-why").textContent = best ? `makes your bid ${pct(best.p_make)} of the time, expected score ${signed(best.ev)}` : "";
  const taken = Array.isArray(a.tricks_taken) ? a.tricks_taken : [];
  $("tricks-so-far").textContent = taken.length
    ? "Tricks so far: " + taken.map((t, i) => `seat ${i + 1}${i + 1 === a.seat ? " (you)" : ""} ${t}`).join(", ")
      + (Array.isArray(a.bids) ? `; bids ${a.bids.join(", ")}` : "")
    : "";
  const exact = a.method === "exact";
  fillAnswerTable("play-table", a, "card", a.best_card, (tr, row) => {
    const th = cell("th", "card", row.card, cardShown(row.card));
    th.scope = "row";
    th.setAttribute("aria-label", cardName(row.card) + (row.card === a.best_card ? ", recommended" : ""));
    tr.append(th, cell("td", "p_make", row.p_make, pct(row.p_make)), scoreCell(row, exact),
      cell("td", "expected_tricks", row.expected_tricks, row.expected_tricks.toFixed(2)));
    tr.children[1].classList.add("num");
    tr.children[3].classList.add("num");
  });
  showMethod(a, "per card, the same deals for every card");
}

function showMethod(a, same) {
  const el = $("method");
  el.hidden = false;
  el.dataset.samples = String(a.samples);
  el.dataset.method = a.method;
  el.textContent = a.method === "exact"
    ? `Exact: every one of the ${a.samples.toLocaleString("en")} deals consistent with what you know was enumerated.`
    : `Monte Carlo: ${a.samples.toLocaleString("en")} simulated deals ${same}.`;
  // asked with the game so far: say how the others were modelled, by name (the policy lists the other seats in order)
  const g = state.askedWithGame;
  delete el.dataset.learned;
  if (g && g.others && a.policy) {
    const names = a.policy.split(",");
    if (names.length === g.others.length) {
      el.dataset.learned = a.policy;
      el.textContent += " From the game so far: " + g.others.map((who, i) => `${who} as ${names[i]}`).join(", ") + ".";
    }
  }
}

// ---- wiring -----------------------------------------------------------------------------------

function init() {
  buildDeck();
  for (const id of ["players", "seat", "trump", "target"]) arrowKeys($(id));
  $("turnup-pick").addEventListener("click", () => { state.target = "turnup"; render(); $("deck").querySelector(".tile").focus(); });
  $("turnup-clear").addEventListener("click", () => { state.turnup = null; render(); });
  $("hook").addEventListener("change", (e) => { state.hook = e.target.checked; });
  $("hand-undo").addEventListener("click", () => { state.hand.pop(); render(); });
  $("hand-clear").addEventListener("click", () => { state.hand = []; render(); });
  $("played-trick").addEventListener("click", () => {
    if (state.played.length && state.played[state.played.length - 1] !== "/") pushPlayed("/", false);
    render();
  });
  $("played-undo").addEventListener("click", () => {
    if (state.played.length) dropPlayed(state.played[state.played.length - 1]);
    render();
  });
  $("played-clear").addEventListener("click", () => {
    while (state.played.length) dropPlayed(state.played[state.played.length - 1]);
    render();
  });
  $("ask").addEventListener("click", ask);
  render();
  if (typeof initSheet === "function") initSheet();  // sheet.js: the score sheet and the review
  if (typeof initPlay === "function") initPlay();  // play.js: the practice table
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", init);
