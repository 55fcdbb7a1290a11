// wizsim at the table: the practice table. A game against wizsim's players (POST /api/play replays it
// from the seed and your choices; the others decide on the server), a hint at any decision (POST
// /api/advise, the request the server gives for it), the game kept in this browser and exported as a
// game record the score sheet and the review open. Loaded after app.js and sheet.js and shares their
// helpers ($, button, segmented, cardShown, cardName, signed, el, checkRecord, fromRecord, setGame,
// keepPrevious, runReview, showView, recordText).
"use strict";

const PLAY_KEY = "wizsim.play.v1";
const PLAY_POLICIES = [["heuristic", "heuristic"], ["random", "random"], ["search", "search"]];

const play = {
  setup: { players: 4, me: 0, policies: "heuristic", seed: 1, rounds: null, hook: false },
  game: null,   // {setup, choices: [...], hints: [{round, kind, at, best}]}
  answer: null,  // the last answer of POST /api/play
  hint: null,    // the hint shown for the decision at hand: {kind, best, text}
  busy: false,
};

function playSave() {
  try { localStorage.setItem(PLAY_KEY, JSON.stringify(play.game)); } catch (e) { /* the game goes on unsaved */ }
}

function playLoad() {
  try {
    const saved = JSON.parse(localStorage.getItem(PLAY_KEY) || "null");
    if (saved && saved.setup && Array.isArray(saved.choices)) play.game = saved;
  } catch (e) { play.game = null; }
}

function playSay(text) { $("play-status").textContent = text; }
function playError(text) { $("play-error").textContent = text; $("play-error").hidden = !text; }

async function playRequest() {
  const g = play.game;
  const body = { ...g.setup, choices: g.choices };
  if (body.rounds === null) delete body.rounds;
  const res = await fetch("/api/play", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body) });
  let answer = null;
  try { answer = await res.json(); } catch (e) { answer = null; }
  if (!res.ok) throw new Error(answer && typeof answer.detail === "string" ? answer.detail : `the server answered ${res.status}`);
  return answer;
}

async function playRefresh() {
  play.busy = true;
  renderPlay();
  playSay("The others are playing\u2026");
  try {
    play.answer = await playRequest();
    playError("");
    playSay("");
  } catch (e) {
    playError(e.message);
    playSay("");
  } finally {
    play.busy = false;
    renderPlay();
  }
}

function playStart() {
  const s = play.setup;
  const seed = Number($("play-seed").value || "0");
  const rounds = $("play-rounds").value.trim() ? Number($("play-rounds").value) : null;
  play.game = { setup: { players: s.players, me: s.me, policies: s.policies, seed, rounds, hook: $("play-hook").checked },
    choices: [], hints: [] };
  play.answer = null;
  play.hint = null;
  playSave();
  playRefresh();
}

function playChoose(choice) {
  if (play.busy || !play.answer || !play.answer.to_act) return;
  play.game.choices.push(choice);
  play.hint = null;
  playSave();
  playRefresh();
}

// ---- the hint ----------------------------------------------------------------------------------

async function playHint() {
  const a = play.answer;
  if (!a || !a.to_act || play.busy) return;
  $("play-hint").disabled = true;
  playSay("Thinking\u2026");
  try {
    const res = await fetch("/api/advise", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...a.advise, seed: 0, explain: true }) });
    const h = await res.json();
    if (!res.ok) throw new Error(typeof h.detail === "string" ? h.detail : `the server answered ${res.status}`);
    const kind = a.phase === "trump" ? "trump" : a.phase === "bid" ? "bid" : "card";
    const best = kind === "trump" ? h.best_suit : kind === "bid" ? h.best_bid : h.best_card;
    play.hint = { kind, best, text: hintText(kind, h), why: whyShown(whyText(h.reasons), a.names, a.dealer), reason: h };
    const rd = a.round;
    const at = kind === "card" ? a.trick_log.reduce((n, t) => n + t.cards.length, 0) : null;
    const hints = play.game.hints;
    if (!hints.some((x) => x.round === rd && x.kind === kind && x.at === at)) {
      hints.push(kind === "card" ? { round: rd, kind, at, best } : { round: rd, kind, best });
    }
    playSave();
    playSay("");
  } catch (e) {
    playError(`no hint: ${e.message}`);
    playSay("");
  } finally {
    $("play-hint").disabled = false;
    renderPlay();
  }
}

function hintText(kind, h) {
  const rows = [...h.table].filter((x) => x.allowed !== false).sort((x, y) => y.ev - x.ev);
  const second = rows[1];
  if (kind === "trump") {
    const best = h.table.find((x) => x.suit === h.best_suit);
    return `Name ${h.best_suit}: then bid ${best.best_bid}, expected score ${signed(best.ev)}`
      + (second ? `; next best ${second.suit}, ${signed(second.ev)}` : "");
  }
  if (kind === "bid") {
    const best = h.table[h.best_bid];
    return `Bid ${h.best_bid}: you make it ${pct(best.p_exact)} of the time, expected score ${signed(best.ev)}, `
      + `expected tricks ${best.expected_tricks.toFixed(2)}` + (second ? `; next best bid ${second.bid}, ${signed(second.ev)}` : "");
  }
  const best = h.table.find((x) => x.card === h.best_card);
  return `Play ${cardShown(h.best_card)}: you make your bid ${pct(best.p_make)} of the time, expected score ${signed(best.ev)}, `
    + `expected tricks ${best.expected_tricks.toFixed(2)}`
    + (second ? `; next best ${cardShown(second.card)}: ${pct(second.p_make)}, ${signed(second.ev)}` : "");
}

// The reason under a hint (the answer's "reasons", asked with explain): where the tricks come from for a bid
// or a trump, a line of play from the simulated deals for a card.
function whyText(r) {
  if (!r || !r.text) return "";
  if (r.kind !== "card") return `Why: ${r.text}.`;
  const c = r.compare;
  return `Why: ${r.text} (one simulated deal; ${c.card} scores more than ${c.other} on ${pct(c.better)} of them, `
    + `less on ${pct(c.worse)}).`;
}

// ---- drawing ------------------------------------------------------------------------------------

const suitShown = (t) => (t === "none" ? "no trump" : (SUITS.find((x) => x[0] === t) || [t, t])[1] + " " + t);

function renderPlaySetup() {
  const s = play.setup;
  segmented($("play-players"), PLAYER_COUNTS.map((n) => [n, String(n), `${n} players`]), (n) => n === s.players, (n) => {
    s.players = n; if (s.me >= n) s.me = 0; renderPlaySetup();
  });
  segmented($("play-me"), Array.from({ length: s.players }, (_, i) => [i, String(i + 1), `you are player ${i + 1}`]),
    (i) => i === s.me, (i) => { s.me = i; renderPlaySetup(); });
  segmented($("play-policy"), PLAY_POLICIES, (p) => p === s.policies, (p) => { s.policies = p; renderPlaySetup(); });
  $("play-rounds").max = String(Math.floor(60 / s.players));
  $("play-rounds").placeholder = `all ${Math.floor(60 / s.players)}`;
}

function cardButton(tok, legal, onTap) {
  const b = button("", `${cardName(tok)}${legal ? "" : ", not playable now"}`, () => onTap(tok), "pcard");
  b.dataset.card = tok;
  const suit = tok === "W" || tok === "J" ? "special" : tok[1];
  b.classList.add(`suit-${suit}`);
  b.textContent = cardShown(tok);
  b.disabled = !legal;
  return b;
}

function renderPlay() {
  const g = play.game, a = play.answer;
  $("play-setup").hidden = !!g && !play.editing;
  $("play-game").hidden = !g || !a;
  $("view-play").dataset.busy = String(play.busy);
  renderPlaySetup();
  if (!g || !a) return;
  const names = a.names;
  $("play-title").textContent = a.game_over ? `Game over after round ${a.round}`
    : `Round ${a.round} of ${a.rounds}: ${a.round} card${a.round > 1 ? "s" : ""} each`;
  const trump = a.trump === null ? "to be named by the dealer" : suitShown(a.trump);
  $("play-info").textContent = `${names[a.dealer]} deals, ${names[a.leads_first]} leads. Trump: ${trump}`
    + (a.turn_up ? ` (turned up ${cardShown(a.turn_up)})` : " (nothing turned up)") + ".";
  // the players: bid, tricks, total; the leader marked
  const top = Math.max(...a.totals), scored = a.record.rounds.some((r) => r.tricks);
  $("play-table").querySelector("tbody").replaceChildren(...names.map((name, p) => {
    const lead = scored && a.totals[p] === top;
    const tr = el("tr", { "data-player": String(p), class: [p === a.me ? "mine" : "", p === a.current ? "turn" : ""].join(" ").trim() },
      el("th", { scope: "row", text: name + (p === a.dealer ? " (deals)" : "") }),
      el("td", { class: "num", "data-key": "bid", text: a.bids[p] === null ? "\u00b7" : String(a.bids[p]) }),
      el("td", { class: "num", "data-key": "tricks", text: String(a.tricks[p]) }),
      el("td", { class: lead ? "num leader" : "num", "data-key": "total", text: (lead ? "\u2605 " : "") + a.totals[p] }));
    return tr;
  }));
  // the trick as it forms, and the last one with its winner
  const log = a.trick_log;
  const current = log.length && log[log.length - 1].winner === null ? log[log.length - 1] : null;
  const done = log.filter((t) => t.winner !== null);
  const lastDone = done.length ? done[done.length - 1] : null;
  const trickLine = (t) => t.cards.map((c) => `${names[c.player]} ${cardShown(c.card)}`).join(", ");
  $("play-trick").textContent = current ? `This trick: ${trickLine(current)}` : "This trick: no card yet";
  $("play-trick").dataset.cards = current ? current.cards.map((c) => c.card).join(",") : "";
  $("play-last").textContent = lastDone ? `Trick ${done.length}: ${trickLine(lastDone)}; ${names[lastDone.winner]} won it.` : "";
  $("play-last").dataset.winner = lastDone ? String(lastDone.winner) : "";
  // the decision
  const hint = play.hint;
  const phase = a.to_act ? a.phase : null;
  $("play-turn").textContent = a.game_over ? finalLine(a)
    : !a.to_act ? "Waiting for the others\u2026"
      : phase === "trump" ? "A Wizard was turned up and you deal: name the trump."
        : phase === "bid" ? "Your bid:" : "Your card: tap one you may play.";
  $("play-turn").dataset.phase = phase || (a.game_over ? "over" : "wait");
  const pad = $("play-pad");
  pad.hidden = !(phase === "bid" || phase === "trump");
  if (phase === "bid") {
    pad.replaceChildren(...Array.from({ length: a.round + 1 }, (_, v) => {
      const b = button(String(v), `bid ${v}`, () => playChoose(v));
      b.dataset.value = String(v);
      b.disabled = play.busy || !a.legal.includes(v);
      if (hint && hint.kind === "bid" && hint.best === v) b.classList.add("hinted");
      return b;
    }));
  } else if (phase === "trump") {
    pad.replaceChildren(...a.legal.map((t) => {
      const b = button(suitShown(t), `name ${t} trump`, () => playChoose(t));
      b.dataset.value = t;
      b.disabled = play.busy;
      if (hint && hint.kind === "trump" && hint.best === t) b.classList.add("hinted");
      return b;
    }));
  }
  $("play-hand").replaceChildren(...a.hand.map((tok) => {
    const legal = phase === "card" && !play.busy && a.legal.includes(tok);
    const b = cardButton(tok, legal, (t) => playChoose(t));
    if (hint && hint.kind === "card" && hint.best === tok) b.classList.add("hinted");
    return b;
  }));
  $("play-hint").hidden = !a.to_act;
  $("play-hint-text").hidden = !hint;
  $("play-hint-text").textContent = hint ? hint.text : "";
  $("play-hint-why").hidden = !hint || !hint.why;
  $("play-hint-why").textContent = hint ? hint.why : "";
  $("play-done").hidden = !a.game_over;
  $("play-hints-taken").textContent = g.hints.length ? `Hints taken: ${g.hints.length}` : "";
}

function finalLine(a) {
  const top = Math.max(...a.totals);
  const winners = a.names.filter((_, p) => a.totals[p] === top);
  return `Game over: ${winners.join(" and ")} ${winners.length > 1 ? "share the win" : "wins"} with ${top} points.`;
}

// ---- the game record: export, the score sheet, the review -----------------------------------------

function playRecord() {
  const rec = JSON.parse(JSON.stringify(play.answer.record));
  for (const h of play.game.hints) {
    const rd = rec.rounds[h.round - 1];
    if (!rd) continue;
    const entry = h.kind === "card" ? { kind: h.kind, at: h.at, best: h.best } : { kind: h.kind, best: h.best };
    (rd.hints = rd.hints || []).push(entry);
  }
  return rec;
}

async function playExport() {
  playError("");
  try {
    const checked = await checkRecord(playRecord());
    const text = recordText(checked.record);
    $("play-record").value = text;
    const link = $("play-download");
    if (link.href && link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
    link.hidden = false;
    playSay("Exported: a game record the score sheet and wizsim review open.");
  } catch (e) { playError(e.message); }
}

async function playToSheet(review) {
  playError("");
  try {
    const checked = await checkRecord(playRecord());
    keepPrevious();
    const g = fromRecord(checked.record);
    setGame(g, g.rounds.length - 1);
    if (review) runReview(null); else showView("sheet");
  } catch (e) { playError(e.message); }
}

function initPlay() {
  playLoad();
  for (const id of ["play-players", "play-me", "play-policy"]) arrowKeys($(id));
  $("play-start").addEventListener("click", () => { play.editing = false; playStart(); });
  $("play-hint").addEventListener("click", playHint);
  $("play-new").addEventListener("click", () => { play.editing = true; renderPlay(); });
  $("play-export").addEventListener("click", playExport);
  $("play-sheet").addEventListener("click", () => playToSheet(false));
  $("play-review").addEventListener("click", () => playToSheet(true));
  renderPlay();
  if (play.game) {
    play.setup = { ...play.game.setup };
    playRefresh();
  }
}
