// The play page's lobby: continue a game, my games, my next match, the open tables and
// the tables in play, a new game (against computers or with friends), and taking a seat
// from an invite link.

import { api, ApiError, problemText } from "../api.js";
import { points } from "../breakdown.js";
import { showNextMatches } from "../competitions/next_match.js";
import { onSubmit } from "../forms.js";
import { inviteFromFragment } from "../invitations.js";
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
} from "../rules.js";
import * as session from "../session.js";
import { capital, SEATS, TEAM_OF } from "../table/words.js";
import { $, app, showOnly } from "./app.js";
import { closeTable, openTable } from "./table.js";

export async function showSetup() {
  closeTable();
  showOnly("setup-section");
  $("setup-error").textContent = "";
  if (!app.presets.size) {
    app.presets = fillPresetSelect($("setup-preset"), await loadPresets(), "standard");
    onPresetChange();
  }
  // Enabled only once the rules list is filled: a click before would send no preset.
  $("start-game").disabled = false;
  // The lists are drawn for the player signed in now: an answer arriving after they
  // signed out (or in as someone else) is dropped, not drawn for nobody.
  const auth = app.auth;
  if (!auth) return; // signed out while the rules list loaded
  await Promise.all([
    offerContinue(auth),
    showMyGames(auth),
    showOpenTables(auth),
    showTablesInPlay(auth),
    showNextMatches($("next-matches"), $("next-matches-list"), auth.token),
  ]);
}

/** Tables in the lobby with a free seat for a person: join one. */
async function showOpenTables(auth) {
  const box = $("open-tables");
  let page;
  try {
    page = await api("/api/tables?status=lobby", { token: auth.token });
  } catch {
    box.hidden = true;
    return;
  }
  if (app.auth !== auth) return;
  const items = [];
  for (const table of page.results) {
    if (table.seats.some((s) => s.username === auth.username)) continue;
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
async function showTablesInPlay(auth) {
  const box = $("watch-tables");
  let page;
  try {
    page = await api("/api/tables?status=playing");
  } catch {
    box.hidden = true;
    return;
  }
  if (app.auth !== auth) return;
  const items = page.results
    .filter((t) => !t.seats.some((s) => s.username === auth.username))
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
    if (problem instanceof ApiError && problem.status === 401) return app.screens.logOut();
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
async function showMyGames(auth) {
  const box = $("my-games");
  let page;
  try {
    page = await api("/api/tables?mine=true", { token: auth.token });
  } catch (problem) {
    if (app.auth !== auth) return;
    if (problem instanceof ApiError && problem.status === 401) return app.screens.logOut();
    box.hidden = true;
    return;
  }
  if (app.auth !== auth) return;
  const games = [...page.results];
  games.sort((a, b) => (a.status === "playing" ? 0 : 1) - (b.status === "playing" ? 0 : 1));
  const list = $("my-games-list");
  list.replaceChildren(...games.map((table) => myGameItem(table, auth.username)));
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

function myGameItem(table, username) {
  const li = document.createElement("li");
  li.className = "game-item";
  li.dataset.table = table.id;
  li.dataset.status = table.status;
  const mine = table.seats.find((s) => s.username === username);
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

async function offerContinue(auth) {
  const box = $("continue-box");
  box.hidden = true;
  const tableId = session.loadTableId();
  if (!tableId) return;
  try {
    const view = await api(`/api/tables/${tableId}`, { token: auth.token });
    if (app.auth !== auth) return;
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

/** The setup form: a table against computers (one request), or one for friends. */
const startGame = {
  error: $("setup-error"),
  send: async () => {
    const form = new FormData($("setup-form"));
    const level = form.get("level") || "easy";
    const body =
      form.get("company") === "friends"
        ? friendsTable(form)
        : {
            ...rulesChoice(),
            seat: "south",
            seats: {
              north: { kind: "bot", level: "normal" }, // the partner is always Normal
              east: { kind: "bot", level },
              west: { kind: "bot", level },
            },
          };
    // One request: the server makes the table and seats the player (and, against
    // computers, starts the game), or writes nothing (no half-made table is left behind,
    // no table with nobody at it in the open tables).
    const path = form.get("company") === "friends" ? "/api/tables/friends" : "/api/tables/quick";
    try {
      return await api(path, { method: "POST", token: app.auth.token, command: true, body });
    } catch (problem) {
      if (problem instanceof ApiError && problem.status === 401) return null;
      throw problem;
    }
  },
  done: async (created) => {
    if (!created) return app.screens.logOut();
    session.saveTableId(created.table_id);
    await openTable(created.table_id);
  },
};

/** A table for friends: the chosen seats, the player South; the others join by link. */
function friendsTable(form) {
  const seats = {};
  const invited = [];
  for (const seat of ["north", "east", "west"]) {
    const choice = form.get(`seat-${seat}`);
    if (choice === "invited") invited.push(seat);
    seats[seat] = ["human", "invited"].includes(choice) ? { kind: "human" } : { kind: "bot", level: choice };
  }
  return { ...rulesChoice(), seat: "south", seats, invited };
}

/** ``{"preset": NAME}``, or ``{"rules": {"preset": NAME, ...changes}}`` for custom rules. */
function rulesChoice() {
  const name = $("setup-preset").value || "standard";
  const changes = ruleChanges(chosenRules(), presetRules());
  return Object.keys(changes).length ? { rules: { preset: name, ...changes } } : { preset: name };
}

/** An invite link (``/?join=TABLE&seat=SEAT``, a kept seat's with ``#invite=SECRET``) waits
 * in this tab until the player is in; the address bar drops it at once (the secret too). */
export function pendingJoin() {
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
export async function enterPlatform() {
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

export function wireLobby() {
  $("setup-preset").addEventListener("change", onPresetChange);
  $("custom-options").addEventListener("change", describePreset);
  onSubmit($("setup-form"), startGame);
  $("continue-game").addEventListener("click", () => openTable(session.loadTableId()));
  for (const radio of document.querySelectorAll('input[name="company"]')) {
    radio.addEventListener("change", () => {
      const friends = document.querySelector('input[name="company"]:checked').value === "friends";
      $("friend-seats").hidden = !friends;
      $("opponents-fieldset").hidden = friends;
    });
  }
}
