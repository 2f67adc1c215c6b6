// The play page: sign up / log in, set up a table against bots, and play it live.
//
// The server owns the game. This page shows the viewer's table view (GET /api/tables/<id>
// and every WebSocket message carry it), sends one command per decision, and keeps only
// the token and the table id in localStorage so "Continue" finds the game again.

import { api, ApiError, problemText } from "./api.js";
import { points } from "./breakdown.js";
import { cardText } from "./cards.js";
import { TableLive } from "./live.js";
import {
  fillPresetSelect,
  loadPresets,
  optionsFromRules,
  readOptions,
  ruleChanges,
  rulesFromOptions,
  rulesSummary,
  showOptions,
  STANDARD_RULES,
} from "./rules.js";
import { showNextMatches } from "./competitions/next_match.js";
import { inviteFromFragment, renderSeatInvites } from "./invitations.js";
import * as session from "./session.js";
import { TablePresenter } from "./table/presenter.js";
import { TableRenderer } from "./table/renderer.js";
import { capital, SEATS, seatName, seatRole, TEAM_OF } from "./table/words.js";

const $ = (id) => document.getElementById(id);

const app = {
  auth: session.loadAuth(),
  presets: new Map(),
  tableId: null,
  live: null,
  renderer: null, // draws the table section
  presenter: null, // shows its updates in order
  suggestionFor: null, // "table:hand" whose suggestion was asked for
  sending: false,
};

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
  await Promise.all([
    offerContinue(),
    showMyGames(),
    showOpenTables(),
    showTablesInPlay(),
    showNextMatches($("next-matches"), $("next-matches-list"), app.auth.token),
  ]);
}

/** Tables in the lobby with a free seat for a person: join one. */
async function showOpenTables() {
  const box = $("open-tables");
  let page;
  try {
    page = await api("/api/tables?status=lobby", { token: app.auth.token });
  } catch {
    box.hidden = true;
    return;
  }
  const items = [];
  for (const table of page.results) {
    if (table.seats.some((s) => s.username === app.auth.username)) continue;
    // A seat kept for a friend is taken only by its link: it is no free seat here.
    const open = table.seats.filter((s) => s.kind === "human" && !s.username && !s.reserved);
    if (!open.length) continue;
    const li = document.createElement("li");
    li.className = "game-item";
    li.dataset.table = table.id;
    const text = document.createElement("span");
    const players = table.seats.filter((s) => s.username).map((s) => s.username);
    text.textContent = `${players.length ? players.join(", ") : "Nobody yet"} · ${open.length} free seat${open.length === 1 ? "" : "s"}`;
    li.append(text);
    for (const row of open) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Join as ${capital(row.seat)}`;
      button.addEventListener("click", () => joinTable(table.id, row.seat));
      li.append(button);
    }
    items.push(li);
  }
  $("open-tables-list").replaceChildren(...items);
  box.hidden = items.length === 0;
}

/** Tables in play anyone may watch (a spectator sees no hand in play). */
async function showTablesInPlay() {
  const box = $("watch-tables");
  let page;
  try {
    page = await api("/api/tables?status=playing");
  } catch {
    box.hidden = true;
    return;
  }
  const items = page.results
    .filter((t) => !t.seats.some((s) => s.username === app.auth.username))
    .slice(0, 10)
    .map((table) => {
      const li = document.createElement("li");
      li.className = "game-item";
      li.dataset.table = table.id;
      const text = document.createElement("span");
      const names = table.seats.map((s) => s.username || `${capital(s.bot_level || "normal")} computer`);
      text.textContent = `Hand ${table.hand_number} · ${names.join(", ")}`;
      const link = document.createElement("a");
      link.href = `/tables/${table.id}/watch/`;
      link.className = "button-link";
      link.textContent = "Watch";
      li.append(text, link);
      return li;
    });
  $("watch-tables-list").replaceChildren(...items);
  box.hidden = items.length === 0;
}

/** Sit at a table in the lobby (an invite link, or Join in the open tables). */
async function joinTable(tableId, seat, invitation = null) {
  const error = $("setup-error");
  error.textContent = "";
  try {
    await api(`/api/tables/${tableId}/seats/${seat}/take`, {
      method: "POST",
      token: app.auth.token,
      command: true,
      body: invitation ? { invitation } : {},
    });
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return logOut();
    // Already sitting there (a second click on the link) is fine: open the table.
    const view = await api(`/api/tables/${tableId}`, { token: app.auth.token }).catch(() => null);
    if (!view || view.your_seat !== seat) {
      error.textContent = `You cannot sit ${capital(seat)}: ${problemText(problem)}`;
      return;
    }
  }
  session.saveTableId(tableId);
  await openTable(tableId);
}

/** The player's tables from the server, in play first: Continue, or Replay once finished. */
async function showMyGames() {
  const box = $("my-games");
  let page;
  try {
    page = await api("/api/tables?mine=true", { token: app.auth.token });
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return logOut();
    box.hidden = true;
    return;
  }
  const games = [...page.results];
  games.sort((a, b) => (a.status === "playing" ? 0 : 1) - (b.status === "playing" ? 0 : 1));
  const list = $("my-games-list");
  list.replaceChildren(...games.map(myGameItem));
  box.hidden = games.length === 0;
}

/** The other team's players: usernames, "Easy computer" for a bot, "a free seat". */
function opponentNames(table, team) {
  const names = table.seats
    .filter((s) => TEAM_OF[s.seat] === team)
    .map((s) => s.username || (s.kind === "bot" ? `${capital(s.bot_level || "normal")} computer` : "a free seat"));
  return names.join(" and ");
}

/** A date and time in the reader's own words ("3 May 2025, 14:02"). */
function lastPlayed(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function myGameItem(table) {
  const li = document.createElement("li");
  li.className = "game-item";
  li.dataset.table = table.id;
  li.dataset.status = table.status;
  const mine = table.seats.find((s) => s.username === app.auth.username);
  const team = mine ? TEAM_OF[mine.seat] : "north_south";
  const other = team === "north_south" ? "east_west" : "north_south";
  const us = points((table.totals || {})[team] || 0);
  const them = points((table.totals || {})[other] || 0);
  const text = document.createElement("span");
  // Games are told apart by who sat against the player and when they last played.
  const when = lastPlayed(table.last_played_at || table.created_at);
  const against = `against ${opponentNames(table, other)}`;
  if (table.status === "finished") {
    const result = table.winner ? (table.winner === team ? "won" : "lost") : "finished";
    text.textContent = `Finished (${result}) ${against} · you ${us}, opponents ${them} · last played ${when}`;
  } else if (table.status === "playing") {
    text.textContent = `In play ${against} · hand ${table.hand_number} · you ${us}, opponents ${them} · last played ${when}`;
  } else {
    text.textContent = `Waiting to start · made ${when}`;
  }
  li.append(text);
  if (table.status === "finished") {
    const link = document.createElement("a");
    link.href = `/tables/${table.id}/replay/`;
    link.className = "button-link";
    link.textContent = "Replay";
    link.setAttribute("aria-label", `Replay the game ${against}, last played ${when}`);
    li.append(link);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary continue-table";
    button.textContent = "Continue";
    button.setAttribute("aria-label", `Continue the game ${against}, last played ${when}`);
    button.addEventListener("click", () => {
      session.saveTableId(table.id);
      openTable(table.id);
    });
    li.append(button);
  }
  return li;
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
    await enterPlatform();
  } catch (problem) {
    error.textContent = problemText(problem);
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
  const form = new FormData($("setup-form"));
  const level = form.get("level") || "easy";
  if (form.get("company") === "friends") return createFriendsTable(form);
  const button = $("start-game");
  button.disabled = true;
  const token = app.auth.token;
  try {
    // One request: the server makes the table, seats the player and starts the game, or
    // writes nothing (no half-made table is left behind).
    const started = await api("/api/tables/quick", {
      method: "POST",
      token,
      command: true,
      body: {
        ...rulesChoice(),
        seat: "south",
        seats: {
          north: { kind: "bot", level: "normal" }, // the partner is always Normal
          east: { kind: "bot", level },
          west: { kind: "bot", level },
        },
      },
    });
    const id = started.table_id;
    session.saveTableId(id);
    await openTable(id);
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return logOut();
    error.textContent = problem.message;
  } finally {
    button.disabled = false;
  }
}

/** A table for friends: the chosen seats, the player South; the others join by link. */
async function createFriendsTable(form) {
  const error = $("setup-error");
  const button = $("start-game");
  button.disabled = true;
  const token = app.auth.token;
  const seats = {};
  const invited = [];
  for (const seat of ["north", "east", "west"]) {
    const choice = form.get(`seat-${seat}`);
    if (choice === "invited") invited.push(seat);
    seats[seat] = ["human", "invited"].includes(choice) ? { kind: "human" } : { kind: "bot", level: choice };
  }
  try {
    // One request: the server makes the table and seats the player, or writes nothing (no
    // table with nobody at it is left in the open tables).
    const created = await api("/api/tables/friends", {
      method: "POST",
      token,
      command: true,
      body: { ...rulesChoice(), seat: "south", seats, invited },
    });
    const id = created.table_id;
    session.saveTableId(id);
    await openTable(id);
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return logOut();
    error.textContent = problemText(problem);
  } finally {
    button.disabled = false;
  }
}

/** The lobby panel of a table waiting for players: each seat, its invite link, Start. */
function renderLobby(view) {
  const panel = $("lobby-panel");
  panel.hidden = view.status !== "lobby";
  if (panel.hidden) return;
  // The seat list waits for the host's invitations: only the latest render may fill it.
  const render = (app.lobbyRender = (app.lobbyRender || 0) + 1);
  const list = document.createElement("ul");
  renderSeatInvites(list, view, {
    token: app.auth.token,
    username: app.auth.username,
    onError: (text) => {
      $("lobby-error").textContent = text;
    },
    changed: async () => {
      const fresh = await api(`/api/tables/${view.id}`, { token: app.auth.token }).catch(() => null);
      if (fresh) renderLobby(fresh);
    },
  }).then(() => {
    if (render === app.lobbyRender) $("seat-invites").replaceChildren(...list.children);
  });
  const ready = view.seats.every((s) => s.kind !== "human" || s.username);
  $("start-table").disabled = !ready || !view.your_seat;
}
/** ``{"preset": NAME}``, or ``{"rules": {"preset": NAME, ...changes}}`` for custom rules. */
function rulesChoice() {
  const name = $("setup-preset").value || "standard";
  const changes = ruleChanges(chosenRules(), presetRules());
  return Object.keys(changes).length ? { rules: { preset: name, ...changes } } : { preset: name };
}

// ------------------------------------------------------------------ the live table

function tableRenderer() {
  if (!app.renderer) {
    app.renderer = new TableRenderer($("table-section"), {
      onTitle: (title) => {
        document.title = title || "Play Spades";
      },
      onRender: renderLobby,
    });
  }
  return app.renderer;
}

async function openTable(tableId) {
  closeTable();
  app.tableId = tableId;
  app.suggestionFor = null;
  const renderer = tableRenderer();
  renderer.reset();
  app.presenter = new TablePresenter(renderer, { tableId, onBusy: showCatchingUp });
  showOnly("table-section");
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
  if (app.live) app.live.close();
  if (app.presenter) app.presenter.close();
  app.live = null;
  app.presenter = null;
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
  if (!app.presenter) return;
  // Ask for the suggestion as soon as the page knows of the bidding turn, not when the
  // presenter has finished laying out the moves before it (over a second after a hand's
  // last trick): the answer is then ready, or nearly, when the turn is drawn.
  const hand = view && view.hand;
  if (view && view.id === app.tableId && hand && hand.phase === "bidding" && hand.turn === view.your_seat) {
    maybeSuggest(view);
  }
  app.presenter.enqueue(view, events);
}

/** The page takes no move while the screen shows an older state than it knows (and says so). */
function showCatchingUp(busy) {
  const section = $("table-section");
  section.dataset.presenting = busy ? "true" : "false";
  if (app.presenter) section.dataset.version = String(app.presenter.shownVersion);
  $("hand").setAttribute("aria-busy", busy ? "true" : "false");
  if (!busy && $("move-message").dataset.kind === "catching-up") app.renderer.say("");
  if (!busy && app.renderer.view) {
    const view = app.renderer.view;
    const hand = view.hand;
    if (hand && hand.phase === "bidding" && hand.turn === view.your_seat) maybeSuggest(view);
  }
}

async function maybeSuggest(view) {
  const hand = view.hand;
  if (!hand.you || !hand.you.cards) return;
  const key = `${view.id}:${hand.number}`;
  if (app.suggestionFor === key) return;
  app.suggestionFor = key;
  let answer = null;
  try {
    answer = await api(`/api/tables/${view.id}/suggestion`, { token: app.auth.token });
  } catch {
    answer = null;
  }
  if (app.renderer && app.tableId === view.id) app.renderer.setSuggestion(hand.number, answer);
}

// ------------------------------------------------------------------ commands

async function command(path, body) {
  if (app.sending || !app.tableId || !app.presenter) return null;
  const renderer = app.renderer;
  if (app.presenter.catchingUp()) {
    renderer.say("The table is still catching up with the last moves: wait a moment, then play.", "catching-up");
    return null;
  }
  app.sending = true;
  renderer.say("");
  try {
    // The version of the view on screen: if the table has moved on since, the server
    // refuses the move (409) instead of playing it into a state the player has not seen.
    const result = await api(`/api/tables/${app.tableId}/${path}`, {
      method: "POST",
      token: app.auth.token,
      command: true,
      body: { ...body, expected_version: app.presenter.shownVersion },
    });
    if (result && result.table) enqueue(result.table, result.events || []);
    return result;
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) {
      logOut();
      return null;
    }
    renderer.say(
      problem instanceof ApiError && problem.code === "stale_version"
        ? "The table moved on before your move reached it: look again, then play."
        : problemText(problem),
    );
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
  const renderer = app.renderer;
  if (!button || !renderer || !renderer.view) return;
  const card = button.dataset.card;
  const view = renderer.view;
  const mode = renderer.handMode(view);
  if (mode === "pass") {
    const selected = renderer.selectedPass;
    if (selected.has(card)) selected.delete(card);
    else if (selected.size < 2) selected.add(card);
    else {
      renderer.say("You pass exactly two cards: unselect one first.");
      return;
    }
    button.setAttribute("aria-pressed", selected.has(card) ? "true" : "false");
    $("pass-cards").disabled = selected.size !== 2;
    renderer.say("");
    return;
  }
  if (mode === "play") {
    if (button.getAttribute("aria-disabled") === "true") {
      renderer.say(`${cardText(card)}: ${button.dataset.reason}`);
      return;
    }
    command("play", { seat: view.your_seat, card });
    return;
  }
  const hand = view.hand;
  if (view.status !== "playing" || !hand) renderer.say("The game is not in play.");
  else if (hand.phase === "bidding") renderer.say("Cards are played after everyone has bid.");
  else if (hand.phase === "passing") renderer.say("Wait for the blind nil cards to be passed.");
  else {
    const who = seatName(view, hand.turn);
    renderer.say(`It is not your turn: ${who} ${hand.turn === view.your_seat ? "are" : "is"} to play.`);
  }
}

function onBidClick(event) {
  const button = event.target.closest("button.bid-button");
  if (!button || !app.renderer || !app.renderer.view) return;
  const bid = Number(button.dataset.bid);
  bidOrWarn(bid === 0 ? "nil" : bid);
}

/** Bids, except a nil next to the partner's nil, which asks first (the double nil warning). */
function bidOrWarn(bid) {
  const renderer = app.renderer;
  if (!renderer || !renderer.view) return;
  if ((bid === "nil" || bid === "blind_nil") && renderer.warnDoubleNil(bid)) return;
  renderer.hideDoubleNil();
  command("bid", { seat: renderer.view.your_seat, bid });
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
  const seat = () => app.renderer.view.your_seat;
  $("bid-blind-nil").addEventListener("click", () => bidOrWarn("blind_nil"));
  $("double-nil-confirm").addEventListener("click", (event) => {
    app.renderer.hideDoubleNil();
    command("bid", { seat: seat(), bid: event.currentTarget.dataset.bid });
  });
  $("double-nil-cancel").addEventListener("click", () => {
    app.renderer.hideDoubleNil();
    const back = document.querySelector("#bid-buttons .bid-button, #look-cards:not([hidden])");
    if (back) back.focus();
  });
  $("look-cards").addEventListener("click", () => command("look", { seat: seat() }));
  $("pass-cards").addEventListener("click", () =>
    command("pass", { seat: seat(), cards: [...app.renderer.selectedPass] }),
  );
  $("reclaim-seat").addEventListener("click", () => command(`seats/${seat()}/reclaim`, {}));
  $("leave-table").addEventListener("click", () => showSetup());
  $("start-table").addEventListener("click", () => command("start", {}));
  for (const radio of document.querySelectorAll('input[name="company"]')) {
    radio.addEventListener("change", () => {
      const friends = document.querySelector('input[name="company"]:checked').value === "friends";
      $("friend-seats").hidden = !friends;
      $("opponents-fieldset").hidden = friends;
    });
  }
  $("new-game").addEventListener("click", () => {
    session.clearTableId();
    showSetup();
  });
}

/** An invite link (``/?join=TABLE&seat=SEAT``, a kept seat's with ``#invite=SECRET``) waits
 * in this tab until the player is in; the address bar drops it at once (the secret too). */
function pendingJoin() {
  const params = new URLSearchParams(location.search);
  const table = params.get("join");
  const invitation = inviteFromFragment();
  if (table) history.replaceState(null, "", "/");
  const seat = params.get("seat");
  if (table && SEATS.includes(seat)) sessionStorage.setItem("spades.join", JSON.stringify({ table, seat, invitation }));
  try {
    return JSON.parse(sessionStorage.getItem("spades.join") || "null");
  } catch {
    return null;
  }
}

/** Signed in: take the seat an invite link offered, or show the lobby. */
async function enterPlatform() {
  const join = pendingJoin();
  sessionStorage.removeItem("spades.join");
  if (join) history.replaceState(null, "", "/");
  // A competition's "go to my table" link (/?table=ID): the player's seat is already theirs.
  const competitionTable = new URLSearchParams(location.search).get("table");
  if (competitionTable) history.replaceState(null, "", "/");
  await showSetup();
  if (join) await joinTable(join.table, join.seat, join.invitation);
  else if (competitionTable) {
    session.saveTableId(competitionTable);
    await openTable(competitionTable);
  }
}

async function start() {
  wire();
  const join = pendingJoin();
  if (join) $("auth-heading").textContent = `You are invited to sit ${capital(join.seat)}: sign up or log in`;
  if (!app.auth) {
    showAuth();
  } else {
    try {
      await api("/api/auth/me", { token: app.auth.token });
      await enterPlatform();
    } catch (problem) {
      if (problem instanceof ApiError && problem.status === 401) logOut();
      else await showSetup();
    }
  }
  document.body.dataset.ready = "true";
}

start();
