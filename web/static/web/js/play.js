// The play page: sign up / log in, set up a table against bots, and play it live.
//
// The server owns the game. This page shows the viewer's table view (GET /api/tables/<id>
// and every WebSocket message carry it), sends one command per decision, and keeps only
// the token and the table id in localStorage so "Continue" finds the game again.

import { api, ApiError } from "./api.js";
import { breakdownElement, points, signed, TEAM_LABELS } from "./breakdown.js";
import { cardFace, cardText, cardWords, sortHand } from "./cards.js";
import { TableLive } from "./live.js";
import {
  fillPresetSelect,
  loadPresets,
  optionsFromRules,
  presetLabel,
  readOptions,
  ruleChanges,
  rulesFromOptions,
  rulesSummary,
  showOptions,
  STANDARD_RULES,
} from "./rules.js";
import * as session from "./session.js";

const $ = (id) => document.getElementById(id);
const SEATS = ["north", "east", "south", "west"];
const POSITIONS = ["bottom", "left", "top", "right"]; // clockwise from the viewer
const TEAM_OF = { north: "north_south", south: "north_south", east: "east_west", west: "east_west" };
const TRICK_PAUSE_MS = 1400; // a finished trick stays in the middle this long
const CARD_PAUSE_MS = 450; // between two cards played by the computer players
const CATCH_UP = 6; // with more updates than this waiting, show them without pauses

const app = {
  auth: session.loadAuth(),
  presets: new Map(),
  tableId: null,
  live: null,
  view: null, // the table view on screen
  queue: [], // {view, events} not shown yet, oldest first
  queuedVersion: 0,
  shownVersion: 0, // the version whose update has been shown in full (pauses included)
  presenting: false,
  suggestion: null, // {hand, bid, counted: Set}
  suggestionFor: null, // "table:hand" whose suggestion was asked for
  selectedPass: new Set(),
  resultsShown: null,
  sending: false,
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

// ------------------------------------------------------------------ screens

function showOnly(sectionId) {
  for (const id of ["auth-section", "setup-section", "table-section"]) {
    $(id).hidden = id !== sectionId;
  }
  const account = $("account");
  account.hidden = !app.auth;
  if (app.auth) $("account-name").textContent = app.auth.username;
}

function showAuth() {
  closeTable();
  showOnly("auth-section");
}

async function showSetup() {
  closeTable();
  showOnly("setup-section");
  $("setup-error").textContent = "";
  if (!app.presets.size) {
    app.presets = fillPresetSelect($("setup-preset"), await loadPresets(), "standard");
    onPresetChange();
  }
  // Enabled only once the rules list is filled: a click before would send no preset.
  $("start-game").disabled = false;
  await offerContinue();
}

function presetRules() {
  const preset = app.presets.get($("setup-preset").value);
  return preset && preset.rules ? preset.rules : STANDARD_RULES;
}

/** The rules the table will have: the preset's, changed by the custom options. */
function chosenRules() {
  const base = presetRules();
  return rulesFromOptions(readOptions($("setup-form"), optionsFromRules(base)), base);
}

function onPresetChange() {
  showOptions($("setup-form"), optionsFromRules(presetRules()));
  describePreset();
}

function describePreset() {
  const preset = app.presets.get($("setup-preset").value);
  const parts = [];
  if (preset && preset.description) parts.push(preset.description);
  const changed = Object.keys(ruleChanges(chosenRules(), presetRules())).length > 0;
  parts.push((changed ? "With your changes: " : "") + rulesSummary(chosenRules()));
  $("setup-preset-description").textContent = parts.join(" ");
}

async function offerContinue() {
  const box = $("continue-box");
  box.hidden = true;
  const tableId = session.loadTableId();
  if (!tableId) return;
  try {
    const view = await api(`/api/tables/${tableId}`, { token: app.auth.token });
    if (view.status !== "playing" || !view.your_seat) {
      session.clearTableId();
      return;
    }
    const totals = view.scores.totals;
    const mine = TEAM_OF[view.your_seat];
    const theirs = mine === "north_south" ? "east_west" : "north_south";
    const number = view.hand ? view.hand.number : 1;
    $("continue-summary").textContent =
      `hand ${number}, you and your partner ${points(totals[mine])}, opponents ${points(totals[theirs])}`;
    box.hidden = false;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) session.clearTableId();
  }
}

// ------------------------------------------------------------------ accounts

async function authenticate(form, path, errorId) {
  const error = $(errorId);
  error.textContent = "";
  const username = form.elements.username.value.trim();
  const password = form.elements.password.value;
  if (!username || !password) {
    error.textContent = "Enter a username and a password.";
    return;
  }
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const answer = await api(path, { method: "POST", body: { username, password } });
    app.auth = { token: answer.token, username: answer.user.username };
    session.saveAuth(answer.token, answer.user.username);
    form.reset();
    await showSetup();
  } catch (problem) {
    error.textContent = problem.message;
  } finally {
    button.disabled = false;
  }
}

function logOut() {
  session.clearAuth();
  app.auth = null;
  showAuth();
}

// ------------------------------------------------------------------ creating a table

async function startGame(event) {
  event.preventDefault();
  const error = $("setup-error");
  error.textContent = "";
  const level = new FormData($("setup-form")).get("level") || "easy";
  const button = $("start-game");
  button.disabled = true;
  const token = app.auth.token;
  try {
    const created = await api("/api/tables", {
      method: "POST",
      token,
      command: true,
      body: {
        ...rulesChoice(),
        seats: {
          north: { kind: "bot", level: "normal" }, // the partner is always Normal
          east: { kind: "bot", level },
          west: { kind: "bot", level },
        },
      },
    });
    const id = created.table_id;
    await api(`/api/tables/${id}/seats/south/take`, { method: "POST", token, command: true, body: {} });
    await api(`/api/tables/${id}/start`, { method: "POST", token, command: true, body: {} });
    session.saveTableId(id);
    await openTable(id);
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return logOut();
    error.textContent = problem.message;
  } finally {
    button.disabled = false;
  }
}

/** ``{"preset": NAME}``, or ``{"rules": {"preset": NAME, ...changes}}`` for custom rules. */
function rulesChoice() {
  const name = $("setup-preset").value || "standard";
  const changes = ruleChanges(chosenRules(), presetRules());
  return Object.keys(changes).length ? { rules: { preset: name, ...changes } } : { preset: name };
}

// ------------------------------------------------------------------ the live table

async function openTable(tableId) {
  closeTable();
  Object.assign(app, {
    tableId,
    view: null,
    queue: [],
    queuedVersion: 0,
    shownVersion: 0,
    suggestion: null,
    suggestionFor: null,
    selectedPass: new Set(),
    resultsShown: null,
  });
  showOnly("table-section");
  $("hand-result").hidden = true;
  $("last-trick-panel").hidden = true;
  $("move-message").textContent = "";
  let view;
  try {
    view = await api(`/api/tables/${tableId}`, { token: app.auth.token });
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return logOut();
    session.clearTableId();
    await showSetup();
    $("setup-error").textContent = problem.message;
    return;
  }
  enqueue(view, []);
  const live = new TableLive(tableId, app.auth.token, {
    onMessage: (message) => {
      if (message.table) enqueue(message.table, message.events || []);
    },
    onStatus: connectionStatus,
  });
  live.version = view.version; // only what comes after the view we have
  app.live = live;
  live.connect();
}

function closeTable() {
  document.title = "Play Spades";
  $("score-sheet-rows").dataset.count = "";
  if (app.live) app.live.close();
  app.live = null;
  app.tableId = null;
}

function connectionStatus(kind, text) {
  const banner = $("connection");
  if (kind === "open") {
    banner.hidden = true;
    banner.textContent = "";
    return;
  }
  if (kind === "failed" && /token/i.test(text)) return logOut();
  banner.hidden = false;
  banner.textContent = text;
}

function enqueue(view, events) {
  if (!view || view.id !== app.tableId || view.version <= app.queuedVersion) return;
  app.queuedVersion = view.version;
  app.queue.push({ view, events });
  pump();
}

async function pump() {
  if (app.presenting) return;
  app.presenting = true;
  showCatchingUp(true);
  try {
    while (app.queue.length) {
      const item = app.queue.shift();
      if (item.view.id !== app.tableId) continue;
      await present(item);
      if (app.view === item.view) app.shownVersion = item.view.version;
    }
  } finally {
    app.presenting = false;
    showCatchingUp(false);
  }
}

/**
 * True while the screen shows an older state than the page knows: an update is being laid
 * out (a finished trick stays in the middle for a moment) or is waiting its turn. The page
 * takes no move then, so a tap can never land in a trick the player has not seen.
 */
function catchingUp() {
  return app.presenting || app.queue.length > 0 || (app.view && app.view.version !== app.shownVersion);
}

function showCatchingUp(on) {
  const section = $("table-section");
  section.dataset.presenting = on ? "true" : "false";
  if (app.view) section.dataset.version = String(app.shownVersion);
  $("hand").setAttribute("aria-busy", on ? "true" : "false");
  if (!on && $("move-message").dataset.kind === "catching-up") {
    $("move-message").textContent = "";
    $("move-message").dataset.kind = "";
  }
}

/**
 * Show one update. Its cards are laid one at a time (a message may bring several), a
 * finished trick stays in the middle with its winner for a moment, and the next update
 * waits a little after a computer player's card, so play can be followed.
 */
async function present(item) {
  const previous = app.view;
  const view = item.view;
  const hurry = app.queue.length > CATCH_UP;
  const steps = previous ? trickSteps(previous, item) : [];
  const newHand = Boolean(previous && previous.hand && view.hand && previous.hand.number !== view.hand.number);
  const finished = newHand || !steps.length ? finishedTrick(previous, item) : null;
  render(view, finished);
  if (finished) {
    showLastTrick(finished);
    if (!hurry) await sleep(TRICK_PAUSE_MS);
  }
  for (const [k, step] of steps.entries()) {
    const last = k === steps.length - 1;
    if (!step.partial) {
      renderTrick(view, step);
      showLastTrick(step);
      if (!hurry) await sleep(TRICK_PAUSE_MS);
    } else if (!last) {
      renderTrick(view, step);
      if (!hurry) await sleep(CARD_PAUSE_MS);
    }
  }
  if (app.view === view) renderTrick(view, null);
  const you = view.your_seat;
  const botCard = item.events.some((e) => e.type === "CardPlayed" && e.data.seat !== you);
  if (botCard && app.queue.length && !hurry) await sleep(CARD_PAUSE_MS);
}

/**
 * The trick as it stood after each card this update brought in the current hand:
 * [{cards, winner, hand, partial}], where a trick's fourth card makes it whole (not partial)
 * and names its winner. Empty when the update brings no card of this hand.
 */
function trickSteps(previous, item) {
  const hand = item.view.hand;
  if (!hand) return [];
  const fresh = item.events.filter(
    (e) =>
      e.type === "CardPlayed" && e.version > previous.version && e.data.hand_number === hand.number,
  );
  const base = hand.plays.length - fresh.length;
  if (!fresh.length || base < 0) return [];
  return fresh.map((_, k) => {
    const i = base + k;
    const winner = i % 4 === 3 ? hand.trick_winners[Math.floor(i / 4)] : undefined;
    return {
      cards: hand.plays.slice(i - (i % 4), i + 1),
      winner: winner || null,
      hand: hand.number,
      partial: !winner,
    };
  });
}

/** The trick this update finished, {cards: [{seat, card}], winner, hand}, or null. */
function finishedTrick(previous, item) {
  const before = previous && previous.hand;
  const after = item.view.hand;
  if (!before || !after) return null;
  if (after.number === before.number) {
    const won = after.trick_winners.length;
    if (won <= before.trick_winners.length) return null;
    const k = won - 1;
    return { cards: after.plays.slice(4 * k, 4 * k + 4), winner: after.trick_winners[k], hand: after.number };
  }
  // A new hand was dealt with the last card: finish the old hand from the events.
  const plays = [...before.plays];
  for (const event of item.events) {
    if (event.version <= previous.version) continue; // already in the view shown before
    if (event.type === "CardPlayed" && event.data.hand_number === before.number) {
      plays.push({ seat: event.data.seat, card: event.data.card });
    }
  }
  if (plays.length < 52) return null;
  return {
    cards: plays.slice(48, 52),
    winner: null,
    winnerTeam: lastTrickTeam(before, item.view.scores.hands[before.number - 1]),
    hand: before.number,
  };
}

/** The team that took a hand's last trick: its tricks in the result exceed those before. */
function lastTrickTeam(before, result) {
  if (!result) return null;
  for (const team of ["north_south", "east_west"]) {
    const earlier = SEATS.filter((s) => TEAM_OF[s] === team).reduce(
      (sum, s) => sum + before.tricks_won[s],
      0,
    );
    if (result[team].breakdown.tricks > earlier) return team;
  }
  return null;
}

/** Who took a finished trick, in words: a seat, or a side when only the side is known. */
function takerText(view, finished) {
  if (finished.winner) {
    const name = seatName(view, finished.winner);
    return name === "You" ? "you" : name;
  }
  if (!finished.winnerTeam) return null;
  return view.your_seat && finished.winnerTeam === TEAM_OF[view.your_seat]
    ? "your side"
    : "the opponents";
}

// ------------------------------------------------------------------ rendering

function positionOf(view, seat) {
  const you = SEATS.indexOf(view.your_seat || "south");
  return POSITIONS[(SEATS.indexOf(seat) - you + 4) % 4];
}

function seatName(view, seat) {
  if (seat === view.your_seat) return "You";
  const you = view.your_seat;
  if (you && TEAM_OF[seat] === TEAM_OF[you]) return "Partner";
  return capital(seat);
}

function seatRole(view, seat) {
  const row = view.seats.find((s) => s.seat === seat);
  if (!row) return "";
  if (row.controller === "bot") return `${capital(row.bot_level || row.level || "normal")} computer`;
  return row.username || "Open seat";
}

function bidText(bid) {
  if (bid === null || bid === undefined) return "–";
  if (bid === "nil" || bid === 0) return "Nil";
  if (bid === "blind_nil") return "Blind nil";
  return String(bid);
}

function render(view, finished) {
  app.view = view;
  const hand = view.hand;
  renderScores(view);
  renderSeats(view);
  renderTrick(view, finished);
  renderStatus(view);
  renderTitle(view);
  renderBidding(view);
  renderPassing(view);
  renderHand(view);
  renderHandResult(view);
  renderScoreSheet(view);
  renderGameOver(view);
  renderSeatControl(view);
  if (hand && hand.phase === "bidding" && hand.turn === view.your_seat) maybeSuggest(view);
}

function renderScores(view) {
  const hand = view.hand;
  const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
  const boxes = [
    [mine, "us", "You & partner"],
    [mine === "north_south" ? "east_west" : "north_south", "them", "Opponents"],
  ];
  for (const [team, slot, title] of boxes) {
    $(`team-${slot}`).querySelector(".team-name").textContent = `${title} (${TEAM_LABELS[team]})`;
    $(`score-${slot}`).textContent = points(view.scores.totals[team]);
    $(`bags-${slot}`).textContent = view.scores.bags[team];
    $(`hand-${slot}`).textContent = hand ? teamHandLine(hand, team) : "–";
  }
  $("hand-number").textContent = hand ? `Hand ${hand.number}` : "Waiting to start";
  $("rules-summary").textContent =
    `${presetLabel(view.preset.name)} rules · ${rulesSummary(view.rules)}`;
}

/** "bid 7 + nil, won 5": the team's contract (once both have bid) and tricks so far. */
function teamHandLine(hand, team) {
  const seats = SEATS.filter((s) => TEAM_OF[s] === team);
  const bids = seats.map((s) => hand.bids[s]);
  const won = seats.reduce((sum, s) => sum + hand.tricks_won[s], 0);
  if (bids.some((b) => b === null)) return `won ${won}`;
  const contract = bids.reduce((sum, b) => sum + (typeof b === "number" ? b : 0), 0);
  const nils = bids.filter((b) => b === "nil" || b === "blind_nil" || b === 0).length;
  return `bid ${contract}${nils ? " + nil" : ""}, won ${won}`;
}

function renderSeats(view) {
  const hand = view.hand;
  for (const seat of SEATS) {
    const pos = positionOf(view, seat);
    const box = document.querySelector(`.seat[data-pos="${pos}"]`);
    box.dataset.seat = seat;
    const toAct = hand && hand.phase !== "complete" && (hand.turn === seat || (hand.phase === "passing" && hand.acting_seats.includes(seat)));
    box.classList.toggle("to-act", Boolean(toAct) && view.status === "playing");
    const name = seatName(view, seat);
    const bid = hand ? bidText(hand.bids[seat]) : "–";
    const tricks = hand ? hand.tricks_won[seat] : 0;
    box.replaceChildren();
    const title = document.createElement("p");
    title.className = "seat-name";
    title.textContent = name === "You" ? `You (${capital(seat)})` : `${name}${name === capital(seat) ? "" : ` (${capital(seat)})`}`;
    const role = document.createElement("p");
    role.className = "seat-role";
    role.textContent = seat === view.your_seat ? "" : seatRole(view, seat);
    const stats = document.createElement("p");
    stats.className = "seat-stats";
    stats.innerHTML = `Bid <strong class="seat-bid"></strong> · Tricks <strong class="seat-tricks"></strong>`;
    stats.querySelector(".seat-bid").textContent = bid;
    stats.querySelector(".seat-tricks").textContent = String(tricks);
    box.append(title);
    if (role.textContent) box.append(role);
    box.append(stats);
    if (toAct && view.status === "playing") {
      const marker = document.createElement("p");
      marker.className = "turn-marker";
      marker.textContent = seat === view.your_seat ? "Your turn" : hand.phase === "bidding" ? "Bidding…" : "Thinking…";
      box.append(marker);
    }
  }
}

/** The middle of the table: ``shown`` (a trick being laid or just won) or the current trick. */
function renderTrick(view, shown) {
  const hand = view.hand;
  const slots = document.querySelectorAll(".trick-slot");
  slots.forEach((slot) => slot.replaceChildren());
  const caption = $("trick-caption");
  const cards = shown ? shown.cards : hand ? hand.current_trick : [];
  const finished = shown && !shown.partial ? shown : null;
  for (const play of cards) {
    const slot = document.querySelector(`.trick-slot[data-pos="${positionOf(view, play.seat)}"]`);
    const face = cardFace(play.card);
    face.setAttribute("aria-label", `${seatName(view, play.seat)}: ${cardWords(play.card)}`);
    if (finished && finished.winner === play.seat) face.classList.add("winner");
    slot.append(face);
  }
  $("trick").classList.toggle("finished", Boolean(finished));
  if (finished) {
    const taker = takerText(view, finished);
    caption.textContent = finished.winner
      ? `${seatName(view, finished.winner)} ${finished.winner === view.your_seat ? "win" : "wins"} the trick`
      : `Hand ${finished.hand} is over${taker ? `: last trick to ${taker}` : ""}`;
  } else {
    caption.textContent = "";
  }
}

function showLastTrick(finished) {
  const view = app.view;
  const list = $("last-trick");
  list.replaceChildren();
  for (const play of finished.cards) {
    const li = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = seatName(view, play.seat);
    const face = cardFace(play.card);
    if (finished.winner === play.seat) face.classList.add("winner");
    li.append(who, face);
    list.append(li);
  }
  const taker = takerText(view, finished);
  $("last-trick-winner").textContent = finished.winner
    ? `Won by ${taker}`
    : `Last trick of hand ${finished.hand}${taker ? `, won by ${taker}` : ""}`;
  $("last-trick-panel").hidden = false;
}

function renderTitle(view) {
  const hand = view.hand;
  const waiting =
    view.status === "playing" &&
    hand &&
    (hand.turn === view.your_seat || (hand.phase === "passing" && hand.you && hand.you.owes_pass));
  document.title = waiting ? "● Your turn · Spades" : "Play Spades";
}

function renderStatus(view) {
  const line = $("status-line");
  const hand = view.hand;
  const you = view.your_seat;
  let text = "";
  if (view.status === "lobby") text = "Waiting for the game to start…";
  else if (view.status === "finished") text = "Game over.";
  else if (hand && hand.phase === "bidding") {
    if (hand.turn === you) {
      text = hand.you && !hand.you.cards
        ? "Your turn to bid: bid blind nil, or look at your cards first."
        : "Your turn to bid.";
    } else {
      text = `${seatName(view, hand.turn)} ${hand.turn === you ? "are" : "is"} bidding…`;
    }
  } else if (hand && hand.phase === "passing") {
    text = hand.you && hand.you.owes_pass
      ? "Choose two cards to pass to your partner."
      : "Waiting for the blind nil cards to be passed…";
  } else if (hand && hand.phase === "playing") {
    if (hand.turn === you) {
      text = hand.current_trick.length ? "Your turn: play a card." : "Your lead: play a card.";
    } else {
      text = `${seatName(view, hand.turn)} to play…`;
    }
  }
  if (line.textContent !== text) line.textContent = text;
}

function renderBidding(view) {
  const hand = view.hand;
  const panel = $("bid-panel");
  const mine = hand && hand.you;
  const myTurn = view.status === "playing" && hand && hand.phase === "bidding" && hand.turn === view.your_seat;
  panel.hidden = !myTurn;
  if (!myTurn) return;
  const blindFirst = !mine.cards;
  $("blind-box").hidden = !blindFirst;
  $("bid-box").hidden = blindFirst;
  $("blind-points").textContent = view.rules.blind_nil_points;
  $("bid-blind-nil").hidden = !mine.may_bid_blind_nil;
  if (blindFirst) return;
  const suggestion = app.suggestion && app.suggestion.hand === hand.number ? app.suggestion : null;
  const text = $("suggestion");
  if (suggestion && suggestion.bid === null) {
    text.textContent = "No suggestion is available right now.";
  } else if (suggestion) {
    const counted = suggestion.counted.size;
    text.textContent =
      `Suggested bid: ${bidText(suggestion.bid)}. ` +
      (counted
        ? `The ${counted} card${counted === 1 ? "" : "s"} it counted ${counted === 1 ? "is" : "are"} marked ★ in your hand.`
        : "No card counted as a sure trick.");
  } else {
    text.textContent = "Working out a suggested bid…";
  }
  const buttons = $("bid-buttons");
  const wanted = mine.legal_bids.map(String).join(",") + "|" + (suggestion ? suggestion.bid : "");
  if (buttons.dataset.bids === wanted) return;
  buttons.dataset.bids = wanted;
  buttons.replaceChildren();
  for (const bid of mine.legal_bids) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "bid-button";
    button.dataset.bid = String(bid);
    button.textContent = bid === 0 ? "Nil" : String(bid);
    if (bid === 0) button.setAttribute("aria-label", "Nil (zero tricks)");
    const suggested = suggestion && (suggestion.bid === bid || (suggestion.bid === "nil" && bid === 0));
    if (suggested) {
      button.classList.add("suggested");
      button.setAttribute("aria-label", `${button.textContent} (suggested)`);
    }
    buttons.append(button);
  }
}

async function maybeSuggest(view) {
  const hand = view.hand;
  if (!hand.you || !hand.you.cards) return;
  const key = `${view.id}:${hand.number}`;
  if (app.suggestionFor === key) return;
  app.suggestionFor = key;
  try {
    const answer = await api(`/api/tables/${view.id}/suggestion`, { token: app.auth.token });
    app.suggestion = { hand: hand.number, bid: answer.bid, counted: new Set(answer.counted) };
  } catch {
    app.suggestion = { hand: hand.number, bid: null, counted: new Set() };
  }
  if (app.view && app.view.hand && app.view.hand.number === hand.number) {
    renderBidding(app.view);
    renderHand(app.view);
  }
}

function renderPassing(view) {
  const hand = view.hand;
  const owes = view.status === "playing" && hand && hand.phase === "passing" && hand.you && hand.you.owes_pass;
  $("pass-panel").hidden = !owes;
  if (!owes) app.selectedPass.clear();
  $("pass-cards").disabled = app.selectedPass.size !== 2;
}

function handMode(view) {
  const hand = view.hand;
  if (view.status !== "playing" || !hand || !hand.you) return "idle";
  if (hand.phase === "passing" && hand.you.owes_pass) return "pass";
  if (hand.phase === "playing" && hand.turn === view.your_seat) return "play";
  return "idle";
}

function renderHandNote(view) {
  const hand = view.hand;
  const mine = hand && hand.you;
  const parts = [];
  if (mine && hand.phase !== "bidding" && view.status === "playing") {
    if (mine.passed) parts.push(`You passed ${mine.passed.map(cardText).join(", ")}.`);
    if (mine.received) {
      parts.push(`From your partner: ${mine.received.map(cardText).join(", ")} (dashed outline).`);
    }
  }
  $("hand-note").textContent = parts.join(" ");
}

function renderHand(view) {
  const list = $("hand");
  list.replaceChildren();
  renderHandNote(view);
  const hand = view.hand;
  const mine = hand && hand.you;
  if (!mine) return;
  if (!mine.cards) {
    for (let i = 0; i < 13; i += 1) {
      const li = document.createElement("li");
      const back = document.createElement("span");
      back.className = "card back";
      back.setAttribute("aria-hidden", "true");
      li.append(back);
      list.append(li);
    }
    list.setAttribute("aria-label", "Your hand: 13 cards, face down");
    return;
  }
  list.setAttribute("aria-label", `Your hand: ${mine.cards.length} cards`);
  const mode = handMode(view);
  const legal = new Set(mine.legal_cards || []);
  const counted =
    app.suggestion && app.suggestion.hand === hand.number && hand.phase === "bidding"
      ? app.suggestion.counted
      : new Set();
  const received = new Set(mine.received || []);
  for (const card of sortHand(mine.cards)) {
    const li = document.createElement("li");
    const button = cardFace(card, "button");
    let label = cardWords(card);
    if (mode === "play") {
      if (!legal.has(card)) {
        button.classList.add("illegal");
        button.setAttribute("aria-disabled", "true");
        button.dataset.reason = (mine.refusals && mine.refusals[card]) || "You cannot play that card now.";
        label += " (cannot be played now)";
      } else {
        button.classList.add("playable");
      }
    } else if (mode === "pass") {
      button.setAttribute("aria-pressed", app.selectedPass.has(card) ? "true" : "false");
    } else {
      button.setAttribute("aria-disabled", "true");
    }
    if (counted.has(card)) {
      button.classList.add("counted");
      label += " (counted for the suggestion)";
      const star = document.createElement("span");
      star.className = "counted-mark";
      star.setAttribute("aria-hidden", "true");
      star.textContent = "★";
      button.append(star);
    }
    if (received.has(card) && hand.phase !== "bidding") {
      button.classList.add("received");
      label += " (from your partner)";
    }
    button.setAttribute("aria-label", label);
    li.append(button);
    list.append(li);
  }
}

function renderHandResult(view) {
  const hands = view.scores.hands;
  if (app.resultsShown === null) app.resultsShown = Math.max(0, hands.length - 1);
  if (hands.length <= app.resultsShown || !hands.length) return;
  app.resultsShown = hands.length;
  const number = hands.length;
  const result = hands[number - 1];
  $("hand-result-heading").textContent = `Hand ${number} result`;
  const body = $("hand-result-body");
  body.replaceChildren();
  const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
  const order = mine === "north_south" ? ["north_south", "east_west"] : ["east_west", "north_south"];
  order.forEach((team, i) => {
    const block = breakdownElement(result[team], `${i === 0 ? "You & partner" : "Opponents"} (${TEAM_LABELS[team]})`);
    block.dataset.team = team;
    body.append(block);
  });
  $("hand-result").hidden = false;
}

/** Every scored hand: each side's hand score and running total. */
function renderScoreSheet(view) {
  const hands = view.scores.hands;
  const body = $("score-sheet-rows");
  $("score-sheet").hidden = hands.length === 0;
  if (body.dataset.count === String(hands.length)) return;
  body.dataset.count = String(hands.length);
  const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
  const theirs = mine === "north_south" ? "east_west" : "north_south";
  body.replaceChildren(
    ...hands.map((result, i) => {
      const row = document.createElement("tr");
      const number = document.createElement("th");
      number.scope = "row";
      number.textContent = String(i + 1);
      row.append(number);
      for (const team of [mine, theirs]) {
        const cell = document.createElement("td");
        cell.className = "num";
        cell.textContent = `${signed(result[team].hand_score)} → ${points(result[team].total)}`;
        row.append(cell);
      }
      return row;
    }),
  );
}

function renderGameOver(view) {
  const box = $("game-over");
  const over = view.status === "finished";
  box.hidden = !over;
  if (!over) return;
  const winner = view.scores.winner;
  const totals = view.scores.totals;
  const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
  const theirs = mine === "north_south" ? "east_west" : "north_south";
  const score = `${points(totals[mine])} to ${points(totals[theirs])}`;
  $("game-over-text").textContent =
    winner === mine
      ? `You and your partner won, ${score}!`
      : winner
        ? `The opponents (${TEAM_LABELS[winner]}) won, ${points(totals[winner])} to ${points(totals[mine])}.`
        : `Final score ${score}.`;
  $("bid-panel").hidden = true;
  $("pass-panel").hidden = true;
}

function renderSeatControl(view) {
  const row = view.seats.find((s) => s.seat === view.your_seat);
  $("bot-playing").hidden = !(row && row.controller === "bot" && view.status === "playing");
}

// ------------------------------------------------------------------ commands

async function command(path, body) {
  if (app.sending || !app.tableId) return null;
  const message = $("move-message");
  if (catchingUp()) {
    message.textContent = "The table is still catching up with the last moves: wait a moment, then play.";
    message.dataset.kind = "catching-up";
    return null;
  }
  app.sending = true;
  message.textContent = "";
  message.dataset.kind = "";
  try {
    // The version of the view on screen: if the table has moved on since, the server
    // refuses the move (409) instead of playing it into a state the player has not seen.
    const result = await api(`/api/tables/${app.tableId}/${path}`, {
      method: "POST",
      token: app.auth.token,
      command: true,
      body: { ...body, expected_version: app.shownVersion },
    });
    if (result && result.table) enqueue(result.table, result.events || []);
    return result;
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) {
      logOut();
      return null;
    }
    message.textContent =
      problem instanceof ApiError && problem.code === "stale_version"
        ? "The table moved on before your move reached it: look again, then play."
        : problem.message;
    if (problem instanceof ApiError && problem.status === 409) refresh();
    return null;
  } finally {
    app.sending = false;
  }
}

async function refresh() {
  try {
    const view = await api(`/api/tables/${app.tableId}`, { token: app.auth.token });
    enqueue(view, []);
  } catch {
    // the WebSocket brings the table up to date anyway
  }
}

function onHandClick(event) {
  const button = event.target.closest("button.card");
  if (!button || !app.view) return;
  const card = button.dataset.card;
  const view = app.view;
  const mode = handMode(view);
  const message = $("move-message");
  if (mode === "pass") {
    if (app.selectedPass.has(card)) app.selectedPass.delete(card);
    else if (app.selectedPass.size < 2) app.selectedPass.add(card);
    else {
      message.textContent = "You pass exactly two cards: unselect one first.";
      return;
    }
    button.setAttribute("aria-pressed", app.selectedPass.has(card) ? "true" : "false");
    $("pass-cards").disabled = app.selectedPass.size !== 2;
    message.textContent = "";
    return;
  }
  if (mode === "play") {
    if (button.getAttribute("aria-disabled") === "true") {
      message.textContent = `${cardText(card)}: ${button.dataset.reason}`;
      return;
    }
    command("play", { seat: view.your_seat, card });
    return;
  }
  const hand = view.hand;
  if (view.status !== "playing" || !hand) message.textContent = "The game is not in play.";
  else if (hand.phase === "bidding") message.textContent = "Cards are played after everyone has bid.";
  else if (hand.phase === "passing") message.textContent = "Wait for the blind nil cards to be passed.";
  else message.textContent = `It is not your turn: ${seatName(view, hand.turn)} ${hand.turn === view.your_seat ? "are" : "is"} to play.`;
}

function onBidClick(event) {
  const button = event.target.closest("button.bid-button");
  if (!button || !app.view) return;
  const bid = Number(button.dataset.bid);
  command("bid", { seat: app.view.your_seat, bid: bid === 0 ? "nil" : bid });
}

// ------------------------------------------------------------------ start

function wire() {
  $("register-form").addEventListener("submit", (e) => {
    e.preventDefault();
    authenticate(e.target, "/api/auth/register", "register-error");
  });
  $("login-form").addEventListener("submit", (e) => {
    e.preventDefault();
    authenticate(e.target, "/api/auth/token", "login-error");
  });
  $("log-out").addEventListener("click", logOut);
  $("setup-preset").addEventListener("change", onPresetChange);
  $("custom-options").addEventListener("change", describePreset);
  $("setup-form").addEventListener("submit", startGame);
  $("continue-game").addEventListener("click", () => openTable(session.loadTableId()));
  $("hand").addEventListener("click", onHandClick);
  $("bid-buttons").addEventListener("click", onBidClick);
  $("bid-blind-nil").addEventListener("click", () =>
    command("bid", { seat: app.view.your_seat, bid: "blind_nil" }),
  );
  $("look-cards").addEventListener("click", () => command("look", { seat: app.view.your_seat }));
  $("pass-cards").addEventListener("click", () =>
    command("pass", { seat: app.view.your_seat, cards: [...app.selectedPass] }),
  );
  $("reclaim-seat").addEventListener("click", () =>
    command(`seats/${app.view.your_seat}/reclaim`, {}),
  );
  $("leave-table").addEventListener("click", () => showSetup());
  $("new-game").addEventListener("click", () => {
    session.clearTableId();
    showSetup();
  });
}

async function start() {
  wire();
  if (!app.auth) {
    showAuth();
  } else {
    try {
      await api("/api/auth/me", { token: app.auth.token });
      await showSetup();
    } catch (problem) {
      if (problem instanceof ApiError && problem.status === 401) logOut();
      else await showSetup();
    }
  }
  document.body.dataset.ready = "true";
}

start();
