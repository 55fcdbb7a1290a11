// wizsim at the table: the score sheet (the whole game, kept in this browser), advice from the sheet
// and the review of a game. Loaded after app.js and shares its helpers ($, button, segmented, arrowKeys,
// buildDeck, state, render, ask, cardShown, cardName, signed).
//
// Everything about the score is computed here, with no server round trip: the hand size and the dealer
// of each round, the hook, the tricks adding up, the rules' score and the running totals. The server is
// asked only to check a record on import and export (POST /api/record/check), for advice
// (POST /api/advise, through the advice view) and for a review (POST /api/review).
//
// The game is kept as a game record (docs/game-record.md) whose open entries may be null: bids and
// tricks are per player (the order of players), ``hand`` and ``played`` are card text. Every change
// is saved to localStorage at once, so the game survives a reload and a closed tab.
"use strict";

const STORE_KEY = "wizsim.sheet.v1";
const PREVIOUS_KEY = "wizsim.sheet.previous";
const MAX_NAME = 40;
const SHEET_TRUMPS = TRUMPS;
const SHEET_TARGETS = [["turnup", "Turned up"], ["hand", "Your hand"], ["played", "Played"]];

const sheet = {
  game: null,      // {players, first_dealer, hook, me, rounds: [{r, turn_up, trump, bids, tricks, hand, played}]}
  sel: 0,          // the round shown in the editor (index)
  active: null,    // the field the number pad fills: {kind: "bid"|"tricks", p}
  pending: {},     // field id -> text refused (kept in the field, with its message)
  errors: {},      // field id -> message
  view: "advice",
  newGame: { players: 4, names: ["", "", "", "", "", ""], dealer: 0, me: 0, hook: false },
  editing: false,  // the start form shown over a game in progress
  target: "hand",  // where a tap on the sheet's deck puts the card
  built: null,     // key of the editor as built (round and players), to update rather than rebuild
};

// ---- the rules, in the browser ----------------------------------------------------------------

const nRounds = (n) => Math.floor(60 / n);
const dealerOf = (g, k) => (g.first_dealer + k) % g.players.length;
// Player index at each seat of round k: the dealer's next player first, the dealer last.
function seatPlayers(g, k) {
  const n = g.players.length;
  return Array.from({ length: n }, (_, s) => (dealerOf(g, k) + 1 + s) % n);
}
const scoreOf = (bid, tricks) => (bid === tricks ? 20 + 10 * tricks : -10 * Math.abs(bid - tricks));
const isNum = (v) => Number.isInteger(v);
const bidsIn = (rd) => rd.bids.every(isNum);
const trickSum = (rd) => rd.tricks.reduce((a, t) => a + (isNum(t) ? t : 0), 0);
// A round is closed when every bid and every trick count is in and the tricks add up to the hand size.
const closed = (rd) => bidsIn(rd) && rd.tricks.every(isNum) && trickSum(rd) === rd.r;
const isLastRound = (g, rd) => rd.r === nRounds(g.players.length);

// Card text as wizsim reads it: W (Z, Wizard), J (N, Jester), rank then suit, 10 or T for ten.
function parseToken(raw) {
  const t = raw.trim().toUpperCase();
  if (!t) return { error: "an empty card (two commas in a row?)" };
  if (["W", "Z", "WIZARD"].includes(t)) return { tok: "W" };
  if (["J", "N", "JESTER"].includes(t)) return { tok: "J" };
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(t);
  if (m) return { tok: (m[1] === "10" ? "T" : m[1]) + m[2] };
  if (/^(1|13)[SHDC]$/.test(t)) return { error: `${raw.trim()}: ranks are 2..10, J, Q, K, A (an ace is ${"A" + t.slice(-1)})` };
  return { error: `${raw.trim()} is not a card (like AS, TH or 10H, 3H, W for a Wizard, J for a Jester)` };
}

// Card text to tokens; with ``tricks`` the "/" between tricks is kept as a token.
function parseCardText(text, tricks = false) {
  const out = [];
  const seen = new Set();
  const specials = { W: 0, J: 0 };
  const groups = tricks ? text.split("/") : [text];
  for (let g = 0; g < groups.length; g += 1) {
    if (!groups[g].trim()) {
      if (g === groups.length - 1 && g > 0) break;  // a trailing "/"
      if (groups.length === 1) break;
    }
    for (const raw of groups[g].split(",")) {
      const got = parseToken(raw);
      if (got.error) return { error: got.error };
      const tok = got.tok;
      if (tok === "W" || tok === "J") {
        specials[tok] += 1;
        if (specials[tok] > 4) return { error: `more than four ${cardName(tok)}s: the deck has four` };
      } else if (seen.has(tok)) {
        return { error: `${tok} is given twice: each card is in the deck once` };
      }
      seen.add(tok);
      out.push(tok);
    }
    if (tricks && g < groups.length - 1) out.push("/");
  }
  return { cards: out };
}

// The trick's winner (index into ``cards``), docs/rules.md 5: the first Wizard, else the highest trump,
// else the highest card of the led suit, else (all Jesters) the first Jester.
function trickWinner(cards, trump) {
  const w = cards.indexOf("W");
  if (w >= 0) return w;
  const rank = (tok) => RANKS.indexOf(tok[0]);
  const best = (suit) => {
    let at = -1;
    cards.forEach((tok, i) => { if (tok !== "J" && tok[1] === suit && (at < 0 || rank(tok) > rank(cards[at]))) at = i; });
    return at;
  };
  if (trump && trump !== "none") { const t = best(trump); if (t >= 0) return t; }
  const lead = cards.find((tok) => tok !== "J");
  return lead ? best(lead[1]) : 0;
}

// Who played each card of ``tokens`` (with "/" tokens): player indices, null for the "/" entries.
function whoPlayed(g, k, tokens, trump) {
  const seats = seatPlayers(g, k);
  const n = seats.length;
  const out = [];
  let leader = 0;
  let trick = [];
  for (const tok of tokens) {
    if (tok === "/") { out.push(null); continue; }
    out.push(seats[(leader + trick.length) % n]);
    trick.push(tok);
    if (trick.length === n) { leader = (leader + trickWinner(trick, trump)) % n; trick = []; }
  }
  return out;
}

// ---- storage and the record -------------------------------------------------------------------

function save() {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify({ game: sheet.game, sel: sheet.sel }));
  } catch (e) {
    sheetSay(`the game could not be saved in this browser (${e.message}): export it to keep it`);
  }
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
    if (saved && saved.game && Array.isArray(saved.game.rounds) && saved.game.rounds.length) {
      sheet.game = saved.game;
      sheet.sel = Math.min(Math.max(0, saved.sel | 0), saved.game.rounds.length - 1);
    }
  } catch (e) { sheet.game = null; }
}

function newRound(g, r) {
  const n = g.players.length;
  return { r, turn_up: null, trump: r === nRounds(n) ? "none" : null, bids: Array(n).fill(null),
    tricks: Array(n).fill(null), hand: "", played: "" };
}

// The game as a record (docs/game-record.md): the rounds up to the first that is not closed, that one
// too when its bids and trump are in (without tricks); a hand only when it has the round's cards.
function toRecord(g) {
  const rec = { players: [...g.players], first_dealer: g.first_dealer, hook: g.hook };
  if (g.me !== null && g.me !== undefined) rec.me = g.me;
  rec.rounds = [];
  for (const rd of g.rounds) {
    if (!bidsIn(rd) || !rd.trump) break;
    const done = closed(rd);
    const out = { r: rd.r, turn_up: rd.turn_up, trump: rd.trump, bids: [...rd.bids], tricks: done ? [...rd.tricks] : null };
    const hand = rd.hand ? parseCardText(rd.hand) : null;
    if (rec.me !== undefined && hand && hand.cards && hand.cards.length === rd.r) out.hand = hand.cards.join(",");
    if (rd.played && rd.played.trim()) out.played = rd.played;
    if (rd.hints && rd.hints.length) out.hints = rd.hints;  // the practice table's hints taken
    rec.rounds.push(out);
    if (!done) break;
  }
  return rec;
}

// A checked record (the server's canonical form) as the sheet's game.
function fromRecord(rec) {
  const g = { players: [...rec.players], first_dealer: rec.first_dealer, hook: !!rec.hook,
    me: rec.me === undefined ? null : rec.me, rounds: [] };
  for (const rd of rec.rounds) {
    g.rounds.push({ r: rd.r, turn_up: rd.turn_up || null, trump: rd.trump, bids: [...rd.bids],
      tricks: rd.tricks ? [...rd.tricks] : Array(g.players.length).fill(null), hand: rd.hand || "",
      played: rd.played || "", ...(rd.hints ? { hints: rd.hints } : {}) });
  }
  if (!g.rounds.length) g.rounds.push(newRound(g, 1));
  return g;
}

// Per round, each player's score (null for a round not closed); the running totals after each round.
function scoresAndTotals(g) {
  const n = g.players.length;
  const running = Array(n).fill(0);
  return g.rounds.map((rd) => {
    if (!closed(rd)) return { scores: null, totals: [...running] };
    const scores = rd.bids.map((b, p) => scoreOf(b, rd.tricks[p]));
    scores.forEach((s, p) => { running[p] += s; });
    return { scores, totals: [...running] };
  });
}

// ---- entering a round -------------------------------------------------------------------------

function sheetSay(text) { $("io-status").textContent = text; }
const fieldId = (kind, p) => `${kind === "bid" ? "sb" : "st"}-${p}`;
const nameOf = (p) => sheet.game.players[p];

function refuse(id, text, message) {
  sheet.pending[id] = text;
  sheet.errors[id] = message;
}
function accept(id) { delete sheet.pending[id]; delete sheet.errors[id]; }

// A bid typed or tapped for player ``p`` of the round shown: committed, or refused with a message.
function setBid(p, text) {
  const g = sheet.game, k = sheet.sel, rd = g.rounds[k], id = fieldId("bid", p);
  const v = String(text).trim();
  if (v === "") { rd.bids[p] = null; accept(id); return true; }
  if (!/^\d+$/.test(v)) { refuse(id, v, `${nameOf(p)}'s bid must be a whole number 0..${rd.r}`); return false; }
  const bid = Number(v);
  if (bid > rd.r) { refuse(id, v, `${nameOf(p)}'s bid ${bid} is above the hand size ${rd.r}`); return false; }
  const trial = [...rd.bids];
  trial[p] = bid;
  const dealer = dealerOf(g, k);
  if (g.hook && trial.every(isNum) && trial.reduce((a, b) => a + b, 0) === rd.r) {
    refuse(id, v, p === dealer
      ? `with the hook the dealer (${nameOf(dealer)}) may not bid ${bid}: the bids would add up to the hand size ${rd.r}`
      : `with the hook the bids may not add up to the hand size ${rd.r} (${nameOf(dealer)} deals and bid ${trial[dealer]})`);
    return false;
  }
  rd.bids[p] = bid;
  accept(id);
  return true;
}

function setTricks(p, text) {
  const rd = sheet.game.rounds[sheet.sel], id = fieldId("tricks", p);
  const v = String(text).trim();
  if (v === "") { rd.tricks[p] = null; accept(id); return true; }
  if (!/^\d+$/.test(v)) { refuse(id, v, `${nameOf(p)}'s tricks must be a whole number 0..${rd.r}`); return false; }
  const t = Number(v);
  if (t > rd.r) { refuse(id, v, `${nameOf(p)}'s tricks ${t} are above the hand size ${rd.r}`); return false; }
  rd.tricks[p] = t;
  accept(id);
  return true;
}

function setTurnup(text) {
  const g = sheet.game, rd = g.rounds[sheet.sel];
  const v = text.trim();
  accept("turnup");
  if (!v) { rd.turn_up = null; return; }
  if (isLastRound(g, rd)) { refuse("turnup", v, "nothing is turned up in the last round: the whole deck is dealt"); return; }
  const got = parseCardText(v);
  if (got.error || got.cards.length !== 1) { refuse("turnup", v, got.error || "one card, like 7D, W or J"); return; }
  const tok = got.cards[0];
  if (parseCardText(rd.hand || "").cards?.includes(tok) && tok !== "W" && tok !== "J") {
    refuse("turnup", v, `${tok} is in your hand: a card is in the deck once`); return;
  }
  rd.turn_up = tok;
  accept("trump");
  if (tok === "J") rd.trump = "none";
  else if (tok === "W") { if (rd.trump === "none") rd.trump = null; }
  else rd.trump = tok[1];
}

function setTrump(t) {
  const g = sheet.game, rd = g.rounds[sheet.sel];
  accept("trump");
  if (isLastRound(g, rd) && t !== "none") { sheet.errors.trump = "the last round has no trump: nothing is turned up"; return; }
  const up = rd.turn_up;
  if (up === "J" && t !== "none") { sheet.errors.trump = "a Jester turned up means no trump"; return; }
  if (up === "W" && t === "none") {
    sheet.errors.trump = `on a turned-up Wizard the dealer (${nameOf(dealerOf(g, sheet.sel))}) names a suit`; return;
  }
  if (up && up !== "W" && up !== "J" && up[1] !== t) {
    sheet.errors.trump = `the turned-up ${cardShown(up)} makes ${up[1]} trump (clear the turned-up card to change it)`; return;
  }
  rd.trump = t;
}

function setCards(kind, text) {
  const g = sheet.game, rd = g.rounds[sheet.sel];
  const id = kind === "hand" ? "hand" : "played";
  accept(id);
  const got = parseCardText(text, kind === "played");
  if (got.error) { refuse(id, text, got.error); return; }
  const cards = got.cards;
  if (kind === "hand") {
    if (cards.length > rd.r) { refuse(id, text, `${cards.length} cards, but round ${rd.r} deals ${rd.r}`); return; }
    if (rd.turn_up && rd.turn_up.length === 2 && cards.includes(rd.turn_up)) {
      refuse(id, text, `${rd.turn_up} is the turned-up card: a card is in the deck once`); return;
    }
    rd.hand = cards.join(",");
    if (cards.length && cards.length < rd.r) sheet.errors.hand = `${cards.length} of the ${rd.r} cards so far`;
  } else {
    const n = g.players.length;
    const flat = cards.filter((c) => c !== "/");
    if (flat.length > n * rd.r) { refuse(id, text, `${flat.length} cards, but round ${rd.r} has ${n * rd.r}`); return; }
    let inTrick = 0;
    for (const c of cards) {
      if (c === "/") {
        if (inTrick !== n) { refuse(id, text, `a "/" that does not close a trick: a trick has ${n} cards`); return; }
        inTrick = 0;
      } else { inTrick = inTrick % n + 1; }
    }
    // "/" after every complete trick, as wizsim writes it
    const out = [];
    let t = [];
    for (const c of flat) { t.push(c); if (t.length === n) { out.push(t.join(",")); t = []; } }
    if (t.length) out.push(t.join(","));
    rd.played = out.join("/");
  }
}

// The field the number pad fills: the one chosen, else the next bid in bidding order, else the next
// trick count.
function padTarget() {
  const g = sheet.game, rd = g.rounds[sheet.sel];
  if (sheet.active) return sheet.active;
  const seats = seatPlayers(g, sheet.sel);
  const bid = seats.find((p) => !isNum(rd.bids[p]));
  if (bid !== undefined) return { kind: "bid", p: bid };
  const tricks = seats.find((p) => !isNum(rd.tricks[p]));
  if (tricks !== undefined) return { kind: "tricks", p: tricks };
  return null;
}

function tapNumber(value) {
  const target = padTarget();
  if (!target) return;
  const ok = target.kind === "bid" ? setBid(target.p, String(value)) : setTricks(target.p, String(value));
  if (ok) sheet.active = null;
  changed();
}

function changed() {
  save();
  renderSheet();
}

// ---- drawing the sheet ------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-")) e.dataset[k.slice(5).replace(/-(.)/g, (_, c) => c.toUpperCase())] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function showView(view) {
  sheet.view = view;
  for (const v of ["sheet", "advice", "review", "play"]) {
    $(`view-${v}`).hidden = v !== view;
    $(`tab-${v}`).setAttribute("aria-current", v === view ? "page" : "false");
  }
  if (view === "sheet") renderSheet();
  if (view === "review") renderReviewButtons();
}

function renderNewGame() {
  const ng = sheet.newGame;
  segmented($("ng-players"), PLAYER_COUNTS.map((n) => [n, String(n), `${n} players`]), (n) => n === ng.players, (n) => {
    ng.players = n;
    if (ng.dealer >= n) ng.dealer = 0;
    if (ng.me >= n) ng.me = 0;
    renderNewGame();
  });
  const box = $("ng-names");
  if (box.children.length !== ng.players) {
    box.replaceChildren(...Array.from({ length: ng.players }, (_, i) => {
      const input = el("input", { id: `ng-name-${i}`, type: "text", autocomplete: "off", maxlength: String(MAX_NAME),
        placeholder: `Player ${i + 1}`, "aria-label": `name of player ${i + 1}` });
      input.value = ng.names[i];
      input.addEventListener("input", () => { ng.names[i] = input.value; renderNewGameChoices(); });
      return input;
    }));
  }
  renderNewGameChoices();
  $("ng-cancel").hidden = !sheet.game;
}

const ngName = (i) => sheet.newGame.names[i].trim() || `Player ${i + 1}`;

function renderNewGameChoices() {
  const ng = sheet.newGame;
  const ids = Array.from({ length: ng.players }, (_, i) => i);
  segmented($("ng-dealer"), ids.map((i) => [i, ngName(i), `${ngName(i)} deals first`]), (i) => i === ng.dealer,
    (i) => { ng.dealer = i; renderNewGameChoices(); });
  segmented($("ng-me"), [...ids.map((i) => [i, ngName(i), `I am ${ngName(i)}`]), [-1, "nobody", "I am not playing"]],
    (i) => i === ng.me, (i) => { ng.me = i; renderNewGameChoices(); });
  $("ng-hook").checked = ng.hook;
}

function startGame() {
  const ng = sheet.newGame;
  const names = Array.from({ length: ng.players }, (_, i) => ngName(i));
  const seen = new Map();
  for (const [i, name] of names.entries()) {
    if (seen.has(name)) {
      $("ng-error").textContent = `players[${i}]: ${name} is also player ${seen.get(name) + 1}: give each player a different name`;
      $("ng-error").hidden = false;
      return;
    }
    seen.set(name, i);
  }
  $("ng-error").hidden = true;
  keepPrevious();
  const g = { players: names, first_dealer: ng.dealer, hook: ng.hook, me: ng.me < 0 ? null : ng.me, rounds: [] };
  g.rounds.push(newRound(g, 1));
  setGame(g, 0);
}

function keepPrevious() {
  if (!sheet.game) return;
  try { localStorage.setItem(PREVIOUS_KEY, JSON.stringify(sheet.game)); } catch (e) { /* nothing more to do */ }
}

function setGame(g, sel) {
  sheet.game = g;
  sheet.sel = sel;
  sheet.editing = false;
  sheet.active = null;
  sheet.pending = {};
  sheet.errors = {};
  sheet.built = null;
  save();
  renderSheet();
}

function selectRound(k) {
  if (k === sheet.sel) return;
  sheet.sel = k;
  sheet.active = null;
  sheet.pending = {};
  sheet.errors = {};
  save();
  renderSheet();
}

function renderSheet() {
  const g = sheet.game;
  $("new-game").hidden = !!g && !sheet.editing;
  $("game").hidden = !g;
  $("restore-btn").hidden = !localStorage.getItem(PREVIOUS_KEY);
  if (!g || sheet.editing) renderNewGame();
  if (!g) return;
  renderEditor();
  renderTable();
}

function fieldInput(kind, p) {
  const input = el("input", { id: fieldId(kind, p), type: "text", inputmode: "numeric", autocomplete: "off",
    class: "num-in", "aria-label": `${nameOf(p)}'s ${kind === "bid" ? "bid" : "tricks"}`,
    "aria-describedby": `err-${fieldId(kind, p)}` });
  // A change (on leaving the field) commits it and keeps it the pad's field; Enter commits and goes on
  // to the next open field.
  const commit = () => {
    const ok = kind === "bid" ? setBid(p, input.value) : setTricks(p, input.value);
    changed();
    return ok;
  };
  input.addEventListener("change", commit);
  const choose = () => { sheet.active = { kind, p }; renderPad(); };
  input.addEventListener("focus", choose);
  input.addEventListener("click", choose);  // focused already (after Enter): a tap still chooses it
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (commit()) sheet.active = null;
    const next = padTarget();
    if (next) $(fieldId(next.kind, next.p)).focus();
  });
  return input;
}

function renderEditor() {
  const g = sheet.game, k = sheet.sel, rd = g.rounds[k], n = g.players.length;
  const seats = seatPlayers(g, k);
  const dealer = dealerOf(g, k);
  const key = `${k}/${g.players.join("|")}/${g.me}`;
  if (sheet.built !== key) {
    sheet.built = key;
    $("round-table").querySelector("tbody").replaceChildren(...seats.map((p, s) => {
      const tags = [s === 0 ? "bids first" : "", p === dealer ? "deals" : "", p === g.me ? "you" : ""].filter(Boolean);
      const th = el("th", { scope: "row", class: p === g.me ? "mine" : "" }, el("span", { text: nameOf(p) }));
      if (tags.length) th.append(el("small", { text: ` ${tags.join(", ")}` }));
      const bidCell = el("td", {}, fieldInput("bid", p), el("span", { id: `err-${fieldId("bid", p)}`, class: "ferr", role: "alert" }));
      const trickCell = el("td", {}, fieldInput("tricks", p),
        el("span", { id: `err-${fieldId("tricks", p)}`, class: "ferr", role: "alert" }));
      return el("tr", { "data-player": String(p), class: p === g.me ? "mine" : "" }, th, bidCell, trickCell,
        el("td", { class: "num score", id: `rs-${p}` }));
    }));
    const pad = $("pad");
    pad.replaceChildren(...Array.from({ length: rd.r + 1 }, (_, v) => {
      const b = button(String(v), null, () => tapNumber(v));
      b.dataset.value = String(v);
      return b;
    }));
  }
  $("round-title").textContent = `Round ${rd.r} of ${nRounds(n)}: ${rd.r} card${rd.r > 1 ? "s" : ""} each`;
  $("round-who").textContent = `${nameOf(dealer)} deals; ${nameOf(seats[0])} bids first and leads.`
    + (g.hook ? " Hook: the bids may not add up to " + rd.r + "." : "");
  const last = isLastRound(g, rd);
  const tu = $("turnup-in");
  tu.disabled = last;
  tu.placeholder = last ? "none: the last round" : "e.g. 7D, W, J";
  if (document.activeElement !== tu) tu.value = "turnup" in sheet.pending ? sheet.pending.turnup : rd.turn_up || "";
  segmented($("sheet-trump"), SHEET_TRUMPS, (t) => t === rd.trump, (t) => { setTrump(t); changed(); });
  const total = bidsIn(rd) ? rd.bids.reduce((a, b) => a + b, 0) : null;
  for (const p of seats) {
    for (const kind of ["bid", "tricks"]) {
      const id = fieldId(kind, p), input = $(id);
      const stored = kind === "bid" ? rd.bids[p] : rd.tricks[p];
      if (document.activeElement !== input || id in sheet.pending) {
        input.value = id in sheet.pending ? sheet.pending[id] : isNum(stored) ? String(stored) : "";
      }
      input.setAttribute("aria-invalid", String(id in sheet.errors));
      $(`err-${id}`).textContent = sheet.errors[id] || "";
    }
    const sc = $(`rs-${p}`);
    const s = closed(rd) ? scoreOf(rd.bids[p], rd.tricks[p]) : null;
    sc.textContent = s === null ? "" : (s > 0 ? "+" : "") + s;
    sc.dataset.score = s === null ? "" : String(s);
  }
  const tricksIn = rd.tricks.every(isNum);
  const bad = tricksIn && trickSum(rd) !== rd.r;
  $("err-tricks").hidden = !bad;
  $("err-tricks").textContent = bad ? `the tricks add up to ${trickSum(rd)}, but round ${rd.r} has ${rd.r} tricks` : "";
  for (const p of seats) if (bad) $(fieldId("tricks", p)).setAttribute("aria-invalid", "true");
  $("err-bids").hidden = total === null;
  $("err-bids").className = "hint";
  $("err-bids").textContent = total === null ? "" : `Bids: ${total} for ${rd.r} trick${rd.r > 1 ? "s" : ""} `
    + (total > rd.r ? "(over)" : total < rd.r ? "(under)" : "(even)");
  for (const id of ["turnup", "trump", "hand", "played"]) $(`err-${id}`).textContent = sheet.errors[id] || "";
  const hi = $("hand-in"), pl = $("played-in");
  if (document.activeElement !== hi) hi.value = "hand" in sheet.pending ? sheet.pending.hand : rd.hand;
  if (document.activeElement !== pl) pl.value = "played" in sheet.pending ? sheet.pending.played : rd.played;
  const handCount = rd.hand ? rd.hand.split(",").length : 0;
  $("hand-in-count").textContent = `(${handCount} of ${rd.r})`;
  $("cards-entry").hidden = g.me === null;
  renderPad();
  renderSheetDeck();
  // the round's buttons
  const current = k === g.rounds.length - 1;
  const next = $("next-round");
  next.hidden = !(current && closed(rd) && rd.r < nRounds(n));
  next.textContent = `Next round (${rd.r + 1} cards)`;
  const adv = $("sheet-advice");
  adv.hidden = g.me === null || closed(rd);
  adv.textContent = adviceLabel();
}

function renderPad() {
  const target = padTarget();
  const g = sheet.game;
  for (const input of document.querySelectorAll("#round-table .num-in")) input.classList.remove("active");
  $("pad").hidden = !target;
  if (!target) { $("pad-for").textContent = "Every bid and trick count is in."; return; }
  $(fieldId(target.kind, target.p)).classList.add("active");
  $("pad-for").textContent = `Tap a number: ${g.players[target.p]}'s ${target.kind === "bid" ? "bid" : "tricks"}`;
}

function renderTable() {
  const g = sheet.game, n = g.players.length;
  const rows = scoresAndTotals(g);
  const table = $("sheet-table");
  // a name as wide as its column allows (cut with an ellipsis on a phone; whole in the tooltip and to a
  // screen reader); "you" on a line of its own
  table.querySelector("thead").replaceChildren(el("tr", {}, el("th", { scope: "col", class: "rcol", title: "Round", "aria-label": "Round", text: "Rd" }),
    ...g.players.map((name, p) => el("th", { scope: "col", class: p === g.me ? "mine" : "", title: name,
      "aria-label": name + (p === g.me ? " (you)" : "") }, el("span", { class: "pname", text: name }),
    ...(p === g.me ? [el("small", { class: "you", text: "you" })] : [])))));
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.round : undefined;
  table.querySelector("tbody").replaceChildren(...g.rounds.map((rd, k) => {
    const row = rows[k];
    const dealer = dealerOf(g, k);
    const pick = button(String(rd.r), `round ${rd.r}${k === sheet.sel ? ", shown" : ""}: show and correct it`,
      () => selectRound(k), "roundbtn");
    pick.dataset.round = String(k);
    const th = el("th", { scope: "row", class: "rcol" }, pick);
    if (rd.trump) th.append(el("small", { class: "trumpmark", text: rd.trump === "none" ? "\u2013" : SUITS.find((x) => x[0] === rd.trump)[1] }));
    const tr = el("tr", { "data-round": String(k), class: k === sheet.sel ? "shown" : "" }, th,
      ...g.players.map((_, p) => {
        const b = rd.bids[p], t = rd.tricks[p];
        const s = row.scores ? row.scores[p] : null;
        const td = el("td", { "data-player": String(p), "data-bid": isNum(b) ? String(b) : "",
          "data-tricks": isNum(t) ? String(t) : "", "data-score": s === null ? "" : String(s),
          "data-total": row.scores ? String(row.totals[p]) : "", class: (p === dealer ? "dealer " : "") + (s === null ? "" : s > 0 ? "made" : "missed") });
        td.append(el("span", { class: "bt", text: `${isNum(b) ? b : "\u00b7"}/${isNum(t) ? t : "\u00b7"}` }));
        if (s !== null) {
          td.append(el("span", { class: "sc", text: (s > 0 ? "+" : "") + s }), el("span", { class: "tot", text: String(row.totals[p]) }));
        }
        td.addEventListener("click", () => selectRound(k));
        return td;
      }));
    return tr;
  }));
  if (focused !== undefined) { const b = table.querySelector(`button[data-round="${focused}"]`); if (b) b.focus(); }
  const totals = rows.length ? rows[rows.length - 1].totals : Array(n).fill(0);
  // the leader (all who share the top total, once a round is scored) marked in the totals row
  const scored = g.rounds.some(closed), top = Math.max(...totals);
  table.querySelector("tfoot").replaceChildren(el("tr", {}, el("th", { scope: "row", class: "rcol", text: "Total" }),
    ...totals.map((t, p) => {
      const lead = scored && t === top;
      const td = el("td", { "data-player": String(p), "data-total": String(t), class: lead ? "num leader" : "num",
        "aria-label": `${g.players[p]}: ${t}${lead ? ", leads" : ""}` });
      if (lead) td.append(el("span", { class: "crown", "aria-hidden": "true", text: "\u2605" }));
      td.append(String(t));
      return td;
    })));
  const done = g.rounds.filter(closed).length;
  $("sheet-caption").textContent = `${g.players.length} players, ${nRounds(n)} rounds${g.hook ? ", the hook" : ""}; `
    + `${done} round${done === 1 ? "" : "s"} scored. Each cell: bid/tricks, the round's score, the running total.`;
  const over = g.rounds.length === nRounds(n) && g.rounds.every(closed);
  $("game-over").hidden = !over;
  if (over) {
    const top = Math.max(...totals);
    const winners = g.players.filter((_, p) => totals[p] === top);
    $("game-over").textContent = `Game over: ${winners.join(" and ")} ${winners.length > 1 ? "share the win" : "wins"} with ${top} points.`;
  }
  const lastClosed = lastClosedRound();
  $("review-round-btn").hidden = g.me === null || lastClosed === null;
  $("review-round-btn").textContent = lastClosed === null ? "Review this round" : `Review round ${lastClosed + 1}`;
  $("review-game-btn").hidden = g.me === null || lastClosed === null;
}

function lastClosedRound() {
  const g = sheet.game;
  if (!g) return null;
  let last = null;
  for (let k = 0; k < g.rounds.length && closed(g.rounds[k]); k += 1) last = k;
  return last;
}

// ---- the sheet's deck: tap the turned-up card, your hand, the cards played ----------------------

function tapSheetCard(tok) {
  const rd = sheet.game.rounds[sheet.sel];
  if (sheet.target === "turnup") {
    setTurnup(rd.turn_up === tok ? "" : tok);
    if (!sheet.errors.turnup) sheet.target = "hand";
  } else if (sheet.target === "hand") {
    const cards = rd.hand ? rd.hand.split(",") : [];
    const i = cards.lastIndexOf(tok);
    if (i >= 0 && tok !== "W" && tok !== "J") cards.splice(i, 1); else cards.push(tok);
    setCards("hand", cards.join(","));
  } else {
    const text = rd.played ? `${rd.played},${tok}` : tok;
    setCards("played", text);
  }
  changed();
}

function renderSheetDeck() {
  const rd = sheet.game.rounds[sheet.sel];
  const last = isLastRound(sheet.game, rd);
  if (last && sheet.target === "turnup") sheet.target = "hand";
  segmented($("sheet-target"), SHEET_TARGETS.filter(([t]) => !last || t !== "turnup"), (t) => t === sheet.target,
    (t) => { sheet.target = t; renderSheetDeck(); });
  const hand = rd.hand ? rd.hand.split(",") : [];
  const played = rd.played ? rd.played.split(/[,/]/) : [];
  for (const b of document.querySelectorAll("#sheet-deck .tile")) {
    const tok = b.dataset.card;
    const inHand = count(hand, tok), inPlayed = count(played, tok), up = rd.turn_up === tok;
    b.classList.toggle("in-hand", inHand > 0);
    b.classList.toggle("is-played", inPlayed > 0);
    b.classList.toggle("is-turnup", up);
    const inTarget = sheet.target === "hand" ? inHand > 0 : sheet.target === "played" ? inPlayed > 0 : up;
    b.setAttribute("aria-pressed", String(inTarget));
    b.querySelector(".badge").textContent = (tok === "W" || tok === "J") && inHand ? `\u00d7${inHand}` : up ? "up" : "";
    const where = [inHand ? "in your hand" : "", inPlayed ? "played" : "", up ? "turned up" : ""].filter(Boolean);
    b.setAttribute("aria-label", `${cardName(tok)}${where.length ? ", " + where.join(", ") : ""}`);
  }
}

// ---- advice from the sheet --------------------------------------------------------------------

// What the advice is about now: "trump" (you deal on a turned-up Wizard), "bid" or "card".
function adviceKind() {
  const g = sheet.game, k = sheet.sel, rd = g.rounds[k];
  if (g.me === null) return null;
  const seats = seatPlayers(g, k);
  if (rd.turn_up === "W" && !rd.trump && seats[seats.length - 1] === g.me) return "trump";
  return bidsIn(rd) ? "card" : "bid";
}

function adviceLabel() {
  return { trump: "Advice: which trump to name", bid: "Advice: what to bid", card: "Advice: which card to play" }[adviceKind()]
    || "Advice";
}

// Fill the advice view's question from the game (your seat this round, the bids heard, the trump and
// turned-up card, your hand, the cards played) and ask it: the same request as the advice view's own.
function adviseFromSheet() {
  const g = sheet.game, k = sheet.sel, rd = g.rounds[k], n = g.players.length;
  const seats = seatPlayers(g, k);
  const seat = seats.indexOf(g.me) + 1;
  const kind = adviceKind();
  const hand = rd.hand ? rd.hand.split(",") : [];
  state.players = n;
  state.seat = seat;
  state.hook = g.hook;
  state.turnup = rd.turn_up;
  state.trump = kind === "trump" ? null : rd.trump;
  state.target = "hand";
  state.played = [];
  state.fromHand = [];
  const bySeat = seats.map((p) => rd.bids[p]);
  if (kind === "card") {
    state.bids = bySeat.map(String);
    const tokens = rd.played ? parseCardText(rd.played, true).cards || [] : [];
    const who = whoPlayed(g, k, tokens, rd.trump);
    const held = [...hand];
    tokens.forEach((tok, i) => {
      const mine = who[i] === g.me;
      if (mine) { const j = held.indexOf(tok); if (j >= 0) held.splice(j, 1); }
      state.played.push(tok);
      state.fromHand.push(mine);
    });
    state.hand = held;
  } else {
    // the bids heard before yours, in bidding order (bid advice); none before naming the trump
    state.bids = bySeat.map((b, s) => (kind === "bid" && s < seat - 1 && isNum(b) ? String(b) : ""));
    state.hand = hand;
  }
  state.bidShown = null;
  state.game = null;
  // the finished rounds before this one, when every one of them is closed and some show the cards played:
  // the advisor learns from them how each player plays (for the trump, the bid and the cards)
  const rec = toRecord(g);
  rec.rounds = rec.rounds.filter((x) => x.r < rd.r);
  if (rec.rounds.length === k && rec.rounds.every((x) => x.tricks) && rec.rounds.some((x) => x.played)) {
    state.game = { record: rec, seat, players: n, r: rd.r, others: seats.filter((p) => p !== g.me).map((p) => g.players[p]) };
  }
  $("from-sheet").hidden = false;
  $("from-sheet-text").textContent = `From the score sheet: round ${rd.r}, ${g.players[g.me]} in seat ${seat} of ${n}. `;
  showView("advice");
  render();
  ask();
}

// ---- import and export ------------------------------------------------------------------------

async function checkRecord(record) {
  const res = await fetch("/api/record/check", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(record),
  });
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  if (!res.ok) throw new Error(body && typeof body.detail === "string" ? body.detail : `the server answered ${res.status}`);
  return body;
}

function ioError(message) {
  $("io-error").textContent = message;
  $("io-error").hidden = !message;
}

async function exportGame() {
  ioError("");
  const rec = toRecord(sheet.game);
  let text = JSON.stringify(rec, null, 1);
  try {
    const checked = await checkRecord(rec);
    text = recordText(checked.record);
    sheetSay(`Exported ${checked.record.rounds.length} round${checked.record.rounds.length === 1 ? "" : "s"}: checked by the server.`);
  } catch (e) {
    ioError(`The record as it stands has a problem: ${e.message}`);
  }
  $("record-text").value = text;
  const link = $("export-download");
  if (link.href && link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
  link.hidden = false;
}

// One line per field and per round, as wizsim writes records.
function recordText(rec) {
  const lines = Object.entries(rec).filter(([k]) => k !== "rounds").map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const rounds = rec.rounds.map((rd) => `    ${JSON.stringify(rd)}`).join(",\n");
  lines.push(`  "rounds": [\n${rounds}\n  ]`);
  return `{\n${lines.join(",\n")}\n}`;
}

async function importGame() {
  ioError("");
  const text = $("record-text").value;
  let obj;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    ioError(`record: not valid JSON (${e.message})`);
    return;
  }
  try {
    const checked = await checkRecord(obj);
    keepPrevious();
    const g = fromRecord(checked.record);
    setGame(g, g.rounds.length - 1);
    sheetSay(`Imported ${g.players.join(", ")}: ${checked.record.rounds.length} rounds. The game before is kept (Bring back the previous game).`);
  } catch (e) {
    ioError(e.message);
  }
}

function restorePrevious() {
  const prev = JSON.parse(localStorage.getItem(PREVIOUS_KEY) || "null");
  if (!prev) return;
  const now = sheet.game;
  if (now) localStorage.setItem(PREVIOUS_KEY, JSON.stringify(now)); else localStorage.removeItem(PREVIOUS_KEY);
  setGame(prev, prev.rounds.length - 1);
  sheetSay("The previous game is back (the one shown before is kept in its place).");
}

// ---- the review -------------------------------------------------------------------------------

function renderReviewButtons() {
  const last = lastClosedRound();
  $("review-round").hidden = last === null;
  $("review-round").textContent = last === null ? "Review the last round" : `Review round ${last + 1}`;
}

async function runReview(round) {
  const g = sheet.game;
  showView("review");
  const err = $("review-error");
  err.hidden = true;
  if (!g) { err.textContent = "Start a game on the score sheet (or import one) to review it."; err.hidden = false; return; }
  const body = toRecord(g);
  for (const key of ["samples", "seed"]) {
    const v = $(`review-${key}`).value.trim();
    if (v) body[key] = /^-?\d+$/.test(v) ? Number(v) : v;
  }
  if (round !== undefined && round !== null) body.round = round;
  $("review-status").textContent = `Reviewing ${round ? `round ${round}` : "the game"}\u2026`;
  $("review-result").hidden = true;
  $("review-result").dataset.round = round ? String(round) : "";
  for (const id of ["review-game", "review-round"]) $(id).disabled = true;
  const started = performance.now();
  try {
    const res = await fetch("/api/review", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    let answer = null;
    try { answer = await res.json(); } catch (e) { answer = null; }
    if (!res.ok) {
      err.textContent = answer && typeof answer.detail === "string" ? answer.detail : `the server answered ${res.status}`;
      err.hidden = false;
      $("review-status").textContent = "";
      return;
    }
    showReview(answer, round);
    $("review-status").textContent = `reviewed in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  } catch (e) {
    err.textContent = `no answer from the server (${e.message})`;
    err.hidden = false;
    $("review-status").textContent = "";
  } finally {
    for (const id of ["review-game", "review-round"]) $(id).disabled = false;
  }
}

// The hint taken at a reviewed decision (the practice table records them in the rounds' ``hints``): the
// round's hint of that kind, for a card the one at the card that was played.
function hintFor(d) {
  const g = sheet.game;
  const rd = g && g.rounds[d.round - 1];
  if (!rd || !Array.isArray(rd.hints)) return null;
  if (d.kind !== "card") return rd.hints.find((h) => h.kind === d.kind) || null;
  const cards = (rd.played || "").split(/[,/]/).filter(Boolean);
  return rd.hints.find((h) => h.kind === "card" && cards[h.at] === d.chosen) || null;
}

const KIND_NAMES = { bid: "bid", trump: "trump named", card: "card" };
const fmt = (x, digits = 1) => (x === null || x === undefined ? "?" : x.toFixed(digits));

function shownChoice(kind, value) {
  if (kind === "card") return cardShown(String(value));
  return String(value);
}

// Why, for each decision that was not the advised one (its "reasons"): a line of play for a card, the cards'
// chances of taking a trick for a bid, each suit's expected tricks for a trump.
function reviewWhy(d) {
  const r = d.reasons;
  if (!r) return "";
  if (r.kind === "trump") {
    return r.suits.map((x) => `${x.suit} ${x.expected_tricks.toFixed(2)}`).join(", ") + " tricks expected at each suit's best bid";
  }
  return r.text || "";
}

// A reason's text as the page shows it: cards with their suit signs, "seat 3" (the advisor's seats: 1 bids
// first, the last deals) as the player's name, ``dealer`` the index of the round's dealer in ``names``.
function whyShown(text, names, dealer) {
  return text.replace(/\bseat (\d)/g, (m, s) => (names ? names[(dealer + Number(s)) % names.length] : m))
    .replace(/\b([2-9TJQKA][SHDC])\b/g, (m) => cardShown(m));
}

function showReview(a, round) {
  const result = $("review-result");
  result.hidden = false;
  const lost = a.decisions.filter((d) => d.loss_low !== null && d.loss_low > 0).length;
  const who = sheet.game && sheet.game.me !== null ? sheet.game.players[sheet.game.me] : "the player";
  $("review-summary").textContent = a.decisions_rated
    ? `${who}${round ? ` in round ${round}` : ""}: ${fmt(a.mean_loss, 2)} points lost a decision on average; `
      + `${Math.round(100 * a.share_within_precision)}% within the advice's precision; ${lost} lost beyond the interval.`
    : `No decision to rate${round ? ` in round ${round}` : ""}: enter your hand for a round (Your hand and the cards played).`;
  const figures = [
    ["mean_loss", "Mean loss per decision", a.mean_loss === null ? "\u2013" : `${fmt(a.mean_loss, 2)} points`],
    ["decisions_rated", "Decisions rated", String(a.decisions_rated)],
    ["share_within_precision", "Within the advice's precision",
      a.share_within_precision === null ? "\u2013" : `${(100 * a.share_within_precision).toFixed(0)}%`],
    ["decisions_skipped", "Not rated (no hand entered)", String(a.decisions_skipped ?? 0)],
  ];
  // the rounds whose decisions were asked with the opponents' model learned from the rounds before
  const learned = Object.keys(a.learned || {});
  if (learned.length) {
    figures.push(["learned", "Asked with what the game had shown",
      `round${learned.length > 1 ? "s" : ""} ${learned.join(", ")} (the others' play learned from the rounds before)`]);
  }
  $("review-figures").replaceChildren(...figures.flatMap(([key, label, text]) => {
    const value = a[key] === null || a[key] === undefined ? "null" : typeof a[key] === "object" ? JSON.stringify(a[key]) : String(a[key]);
    const dd = el("dd", { "data-key": key, "data-value": value, text });
    return [el("dt", { text: label }), dd];
  }));
  const players = (a.players || []).filter((x) => x.choices || x.bids);
  $("review-players").hidden = !players.length;
  $("review-players").querySelector("tbody").replaceChildren(...players.map((x) => {
    const tr = el("tr");
    tr.dataset.player = JSON.stringify(x);
    tr.append(
      el("td", { text: x.player }),
      el("td", { class: "num", text: x.choices ? `${x.model_cards} of ${x.choices}` : "\u2013" }),
      el("td", { class: "num", text: x.play_noise.toFixed(2) }),
      el("td", { class: "num", text: x.bids ? `${x.model_bids} of ${x.bids}` : "\u2013" }),
      el("td", { class: "num", text: (x.bid_shift >= 0 ? "+" : "") + x.bid_shift.toFixed(1) }),
      el("td", { class: "num", text: `${Math.round(100 * x.blind)}%` }));
    return tr;
  }));
  $("review-table").querySelector("tbody").replaceChildren(...a.decisions.map((d) => {
    const isLost = d.loss_low !== null && d.loss_low > 0;
    const hinted = hintFor(d);
    const verdict = isLost ? "lost" : d.close_call ? "close call" : d.loss === 0 ? "best" : "within precision";
    const tr = el("tr", { class: isLost ? "lost" : d.close_call ? "close" : "" });
    tr.dataset.decision = JSON.stringify(d);
    tr.append(
      el("td", { class: "num", text: String(d.round) }),
      el("td", { text: KIND_NAMES[d.kind] || d.kind }),
      el("td", { text: shownChoice(d.kind, d.chosen) }),
      el("td", { text: shownChoice(d.kind, d.best) }),
      el("td", { class: "num", text: signed(d.ev_chosen) }),
      el("td", { class: "num", text: signed(d.ev_best) }),
      el("td", { class: "num" }, fmt(d.loss), el("span", { class: "interval", text: `[${fmt(d.loss_low)}, ${fmt(d.loss_high)}]` })),
      el("td", {}, el("span", { class: `mark ${verdict.replace(/ /g, "-")}`, text: verdict }),
        ...(hinted ? [el("span", { class: "mark hint-taken", "data-best": String(hinted.best),
          text: `hint: ${shownChoice(d.kind, hinted.best)}` })] : [])));
    return tr;
  }));
  const why = a.decisions.filter((d) => d.chosen !== d.best && reviewWhy(d));
  $("review-why").hidden = !why.length;
  const g = sheet.game;
  $("review-why").replaceChildren(...why.map((d) => el("li", { "data-round": String(d.round), "data-kind": d.kind,
    text: `Round ${d.round}, ${KIND_NAMES[d.kind] || d.kind} ${shownChoice(d.kind, d.chosen)} (best `
      + `${shownChoice(d.kind, d.best)}): ${whyShown(reviewWhy(d), g && g.players, g ? dealerOf(g, d.round - 1) : 0)}.` })));
}

// ---- wiring -----------------------------------------------------------------------------------

function initSheet() {
  load();
  buildDeck($("sheet-deck"), tapSheetCard);
  for (const id of ["ng-players", "ng-dealer", "ng-me", "sheet-trump", "pad", "sheet-target"]) arrowKeys($(id));
  for (const b of document.querySelectorAll("nav.views button")) b.addEventListener("click", () => showView(b.dataset.view));
  $("ng-hook").addEventListener("change", (e) => { sheet.newGame.hook = e.target.checked; });
  $("ng-start").addEventListener("click", startGame);
  $("ng-cancel").addEventListener("click", () => { sheet.editing = false; renderSheet(); });
  $("new-game-btn").addEventListener("click", () => {
    const g = sheet.game;
    if (g) {  // the same table again, by default
      const names = [...g.players, "", "", "", "", "", ""].slice(0, 6);
      sheet.newGame = { players: g.players.length, names, dealer: (g.first_dealer + g.rounds.length) % g.players.length,
        me: g.me === null ? -1 : g.me, hook: g.hook };
      $("ng-names").replaceChildren();
    }
    sheet.editing = true;
    renderSheet();
    $("ng-players").querySelector("button").focus();
  });
  $("turnup-in").addEventListener("change", (e) => { setTurnup(e.target.value); changed(); });
  $("hand-in").addEventListener("change", (e) => { setCards("hand", e.target.value); changed(); });
  $("played-in").addEventListener("change", (e) => { setCards("played", e.target.value); changed(); });
  for (const id of ["turnup-in", "hand-in", "played-in"]) {
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); e.target.blur(); } });
  }
  $("sheet-trick").addEventListener("click", () => {
    const rd = sheet.game.rounds[sheet.sel];
    if (rd.played && !rd.played.endsWith("/")) setCards("played", `${rd.played}/`);
    changed();
  });
  $("sheet-undo").addEventListener("click", () => {
    const rd = sheet.game.rounds[sheet.sel];
    if (sheet.target === "played") setCards("played", rd.played.replace(/[,/]?[^,/]*$/, ""));
    else if (sheet.target === "hand") setCards("hand", rd.hand.replace(/,?[^,]*$/, ""));
    else setTurnup("");
    changed();
  });
  $("next-round").addEventListener("click", () => {
    const g = sheet.game;
    const rd = g.rounds[g.rounds.length - 1];
    if (!closed(rd) || rd.r >= nRounds(g.players.length)) return;
    g.rounds.push(newRound(g, rd.r + 1));
    sheet.sel = g.rounds.length - 1;
    sheet.active = null;
    sheet.pending = {};
    sheet.errors = {};
    changed();
    $("turnup-in").disabled ? $("pad").querySelector("button").focus() : $("turnup-in").focus();
  });
  $("sheet-advice").addEventListener("click", adviseFromSheet);
  $("back-to-sheet").addEventListener("click", () => showView("sheet"));
  $("export-btn").addEventListener("click", exportGame);
  $("import-btn").addEventListener("click", importGame);
  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    $("record-text").value = await file.text();
    e.target.value = "";
    importGame();
  });
  $("restore-btn").addEventListener("click", restorePrevious);
  $("review-round-btn").addEventListener("click", () => { const k = lastClosedRound(); runReview(k === null ? null : k + 1); });
  $("review-game-btn").addEventListener("click", () => runReview(null));
  $("review-game").addEventListener("click", () => runReview(null));
  $("review-round").addEventListener("click", () => { const k = lastClosedRound(); if (k !== null) runReview(k + 1); });
  $("review-back").addEventListener("click", () => showView("sheet"));
  showView(sheet.game ? "sheet" : "advice");
}
