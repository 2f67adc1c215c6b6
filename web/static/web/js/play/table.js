// The play page's table: read once, then live over the WebSocket (live.js), shown in order
// by the TablePresenter and drawn by the TableRenderer; the lobby panel over a table
// waiting for players; the bid suggestion; every move one command with the version on
// screen.

import { api, ApiError, problemText } from "../api.js";
import { cardText } from "../cards.js";
import { renderSeatInvites } from "../invitations.js";
import { TableLive } from "../live.js";
import * as session from "../session.js";
import { TablePresenter } from "../table/presenter.js";
import { TableRenderer } from "../table/renderer.js";
import { seatName } from "../table/words.js";
import { $, app, showOnly } from "./app.js";

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
      if (!app.auth) return;
      const fresh = await api(`/api/tables/${view.id}`, { token: app.auth.token }).catch(() => null);
      if (fresh && app.tableId === view.id) renderLobby(fresh);
    },
  }).then(() => {
    if (render === app.lobbyRender) $("seat-invites").replaceChildren(...list.children);
  });
  const ready = view.seats.every((s) => s.kind !== "human" || s.username);
  $("start-table").disabled = !ready || !view.your_seat;
}

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

export async function openTable(tableId) {
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
    if (problem instanceof ApiError && problem.status === 401) return app.screens.logOut();
    session.clearTableId();
    await app.screens.showSetup();
    $("setup-error").textContent = problem.message;
    return;
  }
  // Logged out, or another table opened, while the view was on its way: it is not drawn.
  if (!app.auth || app.tableId !== tableId) return;
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

export function closeTable() {
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
  if (kind === "failed" && /token/i.test(text)) return app.screens.logOut();
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
    // None this time ("No suggestion is available right now"): the next view of the turn
    // or the presenter settling on it asks again.
    if (app.suggestionFor === key) app.suggestionFor = null;
  }
  if (app.renderer && app.tableId === view.id) app.renderer.setSuggestion(hand.number, answer);
}

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
      app.screens.logOut();
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
  if (!app.auth || !app.tableId) return;
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

export function wireTable() {
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
  $("leave-table").addEventListener("click", () => app.screens.showSetup());
  $("start-table").addEventListener("click", () => command("start", {}));
  $("new-game").addEventListener("click", () => {
    session.clearTableId();
    app.screens.showSetup();
  });
}
