// Draws a table view into a given element: scores, seats, the trick, the viewer's hand and
// controls. No page-wide state: every element is found inside `root` by its data-part, and
// parts a page does not have (a tournament tile has no hand) are simply not drawn.

import { breakdownElement, points, signed } from "../breakdown.js";
import { cardFace, cardText, cardWords, nameCard, sortHand } from "../cards.js";
import { chartKey, scoreChart } from "../chart.js";
import { presetTitle, rulesSummary } from "../rules.js";
import { roving } from "./roving.js";
import {
  bidText,
  capital,
  doubleNilWarning,
  partnerNilBid,
  positionOf,
  SEATS,
  seatName,
  seatRole,
  statusText,
  suggestionText,
  takerText,
  TEAM_NAMES,
  TEAM_OF,
  teamHandLine,
  trickCaption,
} from "./words.js";

export const HAND_RESULT_MS = 8000; // a hand's result stays over the table this long

export class TableRenderer {
  /** `root` holds the parts; `options.onTitle(text)` hears the page title it suggests. */
  constructor(root, options = {}) {
    this.root = root;
    this.onTitle = options.onTitle || (() => {});
    this.onRender = options.onRender || (() => {}); // the page's own parts (a lobby panel)
    this.resultTimer = null;
    const dismiss = this.part("dismiss-result");
    if (dismiss) dismiss.addEventListener("click", () => this.hideHandResult());
    // The hand and the bids are one tab stop each, with the arrow keys inside (roving.js).
    const hand = this.part("hand");
    const bids = this.part("bid-buttons");
    this.handStop = hand ? roving(hand, "button.card") : () => null;
    this.bidStop = bids ? roving(bids, "button.bid-button") : () => null;
    this.reset();
  }

  hideHandResult() {
    clearTimeout(this.resultTimer);
    const panel = this.part("hand-result");
    if (panel) panel.hidden = true;
  }

  reset() {
    this.view = null;
    this.suggestion = null; // {hand, bid, counted: Set}
    this.selectedPass = new Set();
    this.resultsShown = null;
    this.turnKey = null; // the turn the focus was last moved to
    this.autoBid = null; // the bid the focus was put on, while the player has not moved it
    const rows = this.part("score-sheet-rows");
    if (rows) rows.dataset.count = "";
    const chart = this.part("score-chart");
    if (chart) chart.dataset.count = "";
    clearTimeout(this.resultTimer);
    for (const name of ["hand-result", "last-trick-panel"]) {
      const panel = this.part(name);
      if (panel) panel.hidden = true;
    }
    this.say("");
  }

  part(name) {
    return this.root.querySelector(`[data-part="${name}"]`);
  }

  parts(selector) {
    return this.root.querySelectorAll(selector);
  }

  /** The move message under the hand (a refusal, a hint); `kind` tags why it is there. */
  say(text, kind = "") {
    const message = this.part("move-message");
    if (!message) return;
    message.textContent = text;
    message.dataset.kind = kind;
  }

  /** Draw `view`; `shown` is a trick to show in the middle instead of the current one. */
  render(view, shown = null) {
    const focus = this.focusBefore();
    this.view = view;
    this.renderScores(view);
    this.renderSeats(view);
    this.renderTrick(view, shown);
    this.setText("status-line", statusText(view));
    this.renderTitle(view);
    this.renderBidding(view);
    this.renderPassing(view);
    this.renderHand(view);
    this.renderFaceUp(view);
    this.renderHandResult(view);
    this.renderScoreSheet(view);
    this.renderScoreChart(view);
    this.renderGameOver(view);
    this.renderSeatControl(view);
    this.onRender(view);
    this.restoreFocus(focus);
    this.updateStops();
    this.focusTurn(view);
  }

  setText(name, text) {
    const el = this.part(name);
    if (el && el.textContent !== text) el.textContent = text;
  }

  // ---------------------------------------------------------------- focus

  /** What had the keyboard focus inside the table: a card, a bid, or a named control. */
  focusBefore() {
    const active = document.activeElement;
    if (!active || !this.root.contains(active) || active === document.body) return null;
    if (active.dataset.card && active.closest('[data-part="hand"]')) return { card: active.dataset.card };
    if (active.dataset.bid) return { bid: active.dataset.bid };
    const named = active.closest("[data-part]");
    return { part: named ? named.dataset.part : null, inHandArea: Boolean(active.closest(".hand-area, .action-panel")) };
  }

  /**
   * Put the focus back where it was after an update redrew it: the same card or control, or
   * the hand when that control went away (a bid panel closes once the bid is made).
   */
  restoreFocus(focus) {
    if (!focus || (document.activeElement && document.activeElement !== document.body && this.root.contains(document.activeElement))) return;
    const hand = this.part("hand");
    let target = null;
    if (focus.card && hand) target = hand.querySelector(`button.card[data-card="${focus.card}"]`);
    if (!target && focus.bid) target = this.root.querySelector(`button[data-bid="${focus.bid}"]`);
    if (!target && focus.part) {
      const el = this.part(focus.part);
      if (el && !el.closest("[hidden]") && el.matches("button, [tabindex], input, select")) target = el;
    }
    if (!target && hand) target = hand.querySelector("button.card.playable") || hand.querySelector("button.card");
    if (target) target.focus({ preventScroll: true });
  }

  /** After a redraw: which card and which bid Tab lands on (the suggested bid first). */
  updateStops() {
    const bids = this.part("bid-buttons");
    this.bidStop(bids ? bids.querySelector(".bid-button.suggested") : null);
    this.handStop(null);
  }

  /**
   * What the viewer acts on now, when it is their turn: [a key naming the turn, the
   * control]. The suggested bid (or the first), "Look at my cards" before a blind nil
   * choice, the first card to pass or the first playable card; null when it is not their turn.
   */
  turnTarget(view) {
    const hand = view.hand;
    if (!view.your_seat || view.status !== "playing" || !hand || !hand.you) return null;
    const base = `${view.id}:${hand.number}`;
    if (hand.phase === "bidding" && hand.turn === view.your_seat) {
      const look = this.part("look-cards");
      if (!hand.you.cards && look) return [`${base}:look`, look];
      const bids = this.part("bid-buttons");
      const bid = bids && (bids.querySelector(".bid-button.suggested") || bids.querySelector(".bid-button"));
      return bid ? [`${base}:bid`, bid] : null;
    }
    const mode = this.handMode(view);
    if (mode === "idle") return null;
    const list = this.part("hand");
    const card = list && (list.querySelector("button.card.playable") || (mode === "pass" && list.querySelector("button.card")));
    return card ? [`${base}:${mode}:${(hand.you.cards || []).length}`, card] : null;
  }

  /**
   * At each new turn of the viewer, move the focus to what they act on, unless they are
   * busy elsewhere: typing in a field, or on a control outside the table. Once per turn, so
   * a redraw during the turn never pulls the focus back from where the player moved it.
   */
  focusTurn(view) {
    const turn = this.turnTarget(view);
    if (!turn) {
      this.turnKey = null;
      return;
    }
    const [key, target] = turn;
    if (key === this.turnKey) return;
    this.turnKey = key;
    if (!this.mayTakeFocus() || this.alreadyOnAnAction(target)) return;
    target.focus({ preventScroll: !this.offScreen(target) });
    this.autoBid = target.dataset.bid || null;
  }

  /** The focus is already on something the player may act on now, in the same group as
   * ``target`` (another playable card, another bid): it stays where the player put it. */
  alreadyOnAnAction(target) {
    const active = document.activeElement;
    if (!active || active === target || active.parentElement !== target.parentElement) return false;
    if (active.disabled || active.getAttribute("aria-disabled") === "true") return false;
    return active.classList.contains("card") ? active.classList.contains("playable") || !target.classList.contains("playable") : true;
  }

  mayTakeFocus() {
    const active = document.activeElement;
    if (!active || active === document.body || active === document.documentElement) return true;
    if (!this.root.contains(active)) return false;
    return !active.matches("input, textarea, select, [contenteditable]");
  }

  /** Whether `el` is out of the viewport (on a phone the bids are below the felt). */
  offScreen(el) {
    const box = el.getBoundingClientRect();
    return box.bottom < 0 || box.top > window.innerHeight;
  }

  // ---------------------------------------------------------------- scores and seats

  renderScores(view) {
    const hand = view.hand;
    const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
    const boxes = [
      [mine, "us", view.your_seat ? "You & partner" : TEAM_NAMES.north_south],
      [mine === "north_south" ? "east_west" : "north_south", "them", view.your_seat ? "Opponents" : TEAM_NAMES.east_west],
    ];
    for (const [team, slot, title] of boxes) {
      const box = this.part(`team-${slot}`);
      if (!box) continue;
      const name = box.querySelector(".team-name");
      name.textContent = view.your_seat ? `${title} (${TEAM_NAMES[team]})` : title;
      this.setText(`score-${slot}`, points(view.scores.totals[team]));
      this.setText(`bags-${slot}`, String(view.scores.bags[team]));
      this.setText(`hand-${slot}`, hand ? teamHandLine(hand, team) : "–");
    }
    this.setText("hand-number", hand ? `Hand ${hand.number}` : "Waiting to start");
    this.setText("rules-summary", `${presetTitle(view.preset.name)} · ${rulesSummary(view.rules)}`);
  }

  renderSeats(view) {
    const hand = view.hand;
    for (const seat of SEATS) {
      const box = this.root.querySelector(`.seat[data-pos="${positionOf(view, seat)}"]`);
      if (!box) continue;
      box.dataset.seat = seat;
      const toAct =
        hand &&
        hand.phase !== "complete" &&
        (hand.turn === seat || (hand.phase === "passing" && hand.acting_seats.includes(seat)));
      const acting = Boolean(toAct) && view.status === "playing";
      box.classList.toggle("to-act", acting);
      const name = seatName(view, seat);
      box.replaceChildren();
      const title = document.createElement("p");
      title.className = "seat-name";
      title.textContent =
        name === "You" ? `You (${capital(seat)})` : `${name}${name === capital(seat) ? "" : ` (${capital(seat)})`}`;
      box.append(title);
      const role = seat === view.your_seat ? "" : seatRole(view, seat);
      if (role) {
        const line = document.createElement("p");
        line.className = "seat-role";
        line.textContent = role;
        box.append(line);
      }
      const stats = document.createElement("p");
      stats.className = "seat-stats";
      stats.innerHTML = `Bid <strong class="seat-bid"></strong> · Tricks <strong class="seat-tricks"></strong>`;
      stats.querySelector(".seat-bid").textContent = hand ? bidText(hand.bids[seat]) : "–";
      stats.querySelector(".seat-tricks").textContent = String(hand ? hand.tricks_won[seat] : 0);
      box.append(stats);
      if (acting) {
        const marker = document.createElement("p");
        marker.className = "turn-marker";
        marker.textContent =
          seat === view.your_seat ? "Your turn" : hand.phase === "bidding" ? "Bidding…" : "Thinking…";
        box.append(marker);
      }
    }
  }

  // ---------------------------------------------------------------- the trick

  /** The middle of the table: `shown` (a trick being laid or just won) or the current trick. */
  renderTrick(view, shown) {
    const hand = view.hand;
    const slots = this.parts(".trick-slot");
    slots.forEach((slot) => slot.replaceChildren());
    const cards = shown ? shown.cards : hand ? hand.current_trick : [];
    const finished = shown && !shown.partial ? shown : null;
    for (const play of cards) {
      const slot = this.root.querySelector(`.trick-slot[data-pos="${positionOf(view, play.seat)}"]`);
      if (!slot) continue;
      const face = cardFace(play.card);
      nameCard(face, `${seatName(view, play.seat)}: ${cardWords(play.card)}`);
      if (finished && finished.winner === play.seat) face.classList.add("winner");
      slot.append(face);
    }
    const trick = this.part("trick");
    if (trick) trick.classList.toggle("finished", Boolean(finished));
    this.setText("trick-caption", finished ? trickCaption(view, finished) : "");
  }

  showLastTrick(finished) {
    const view = this.view;
    const list = this.part("last-trick");
    if (!list) return;
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
    this.setText(
      "last-trick-winner",
      finished.winner
        ? `Won by ${taker}`
        : `Last trick of hand ${finished.hand}${taker ? `, won by ${taker}` : ""}`,
    );
    this.part("last-trick-panel").hidden = false;
  }

  renderTitle(view) {
    const hand = view.hand;
    const waiting =
      view.status === "playing" &&
      hand &&
      (hand.turn === view.your_seat || (hand.phase === "passing" && hand.you && hand.you.owes_pass));
    this.onTitle(waiting ? "● Your turn · Spades" : null);
  }

  // ---------------------------------------------------------------- the viewer's decisions

  renderBidding(view) {
    const panel = this.part("bid-panel");
    if (!panel) return;
    const hand = view.hand;
    const mine = hand && hand.you;
    const myTurn =
      view.status === "playing" && hand && hand.phase === "bidding" && hand.turn === view.your_seat;
    panel.hidden = !myTurn;
    const warning = this.part("double-nil");
    if (warning && (!myTurn || warning.dataset.hand !== String(hand.number))) warning.hidden = true;
    if (!myTurn) return;
    const blindFirst = !mine.cards;
    this.part("blind-box").hidden = !blindFirst;
    this.part("bid-box").hidden = blindFirst;
    this.setText("blind-points", String(view.rules.blind_nil_points));
    this.part("bid-blind-nil").hidden = !mine.may_bid_blind_nil;
    if (blindFirst) return;
    const suggestion = this.suggestion && this.suggestion.hand === hand.number ? this.suggestion : null;
    this.setText("suggestion", suggestionText(suggestion));
    const buttons = this.part("bid-buttons");
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

  /**
   * Before the viewer bids `bid` ("nil" or "blind_nil") next to a partner's nil: shows the
   * warning, whose confirm button carries the bid (`data-bid`), and returns true; false when
   * the partner has not bid nil (bid straight away).
   */
  warnDoubleNil(bid) {
    const view = this.view;
    const warning = this.part("double-nil");
    const partnerBid = view && partnerNilBid(view);
    if (!warning || !partnerBid) return false;
    warning.dataset.hand = String(view.hand.number);
    this.setText("double-nil-text", doubleNilWarning(partnerBid, bid, view.rules));
    const confirm = this.part("double-nil-confirm");
    confirm.dataset.bid = bid;
    confirm.textContent = bid === "blind_nil" ? "Bid blind nil anyway" : "Bid nil anyway";
    warning.hidden = false;
    this.part("double-nil-cancel").focus();
    return true;
  }

  /** Hides the double nil warning (a bid was chosen, or the player thought again). */
  hideDoubleNil() {
    const warning = this.part("double-nil");
    if (warning) warning.hidden = true;
  }

  /**
   * The suggestion for hand `hand`: {bid, counted: [cards], marks, reason} or null when
   * none came. It may come before the turn is on screen (asked for as soon as the page
   * knows of the turn); it is drawn when the turn is.
   */
  setSuggestion(hand, answer) {
    // A Nil suggestion marks no card: it counted none as a trick.
    const counted = answer && answer.bid !== 0 && answer.bid !== "nil" ? answer.counted : [];
    this.suggestion = {
      hand,
      bid: answer ? answer.bid : null,
      counted: new Set(counted),
      marks: answer ? answer.marks : null,
      reason: answer ? answer.reason : "",
    };
    if (this.view && this.view.hand && this.view.hand.number === hand) {
      const focus = this.focusBefore();
      this.renderBidding(this.view);
      this.renderHand(this.view);
      this.restoreFocus(focus);
      this.updateStops();
      // The focus was put on the first bid before the suggestion came: move it to the
      // suggested one, unless the player has moved it since.
      const active = document.activeElement;
      const suggested = this.part("bid-buttons") && this.part("bid-buttons").querySelector(".bid-button.suggested");
      if (suggested && active && active.dataset.bid && active.dataset.bid === this.autoBid && active !== suggested) {
        suggested.focus({ preventScroll: true });
        this.autoBid = suggested.dataset.bid;
        this.updateStops();
      }
      this.focusTurn(this.view);
    }
  }

  renderPassing(view) {
    const panel = this.part("pass-panel");
    if (!panel) return;
    const hand = view.hand;
    const owes = view.status === "playing" && hand && hand.phase === "passing" && hand.you && hand.you.owes_pass;
    panel.hidden = !owes;
    if (!owes) this.selectedPass.clear();
    this.part("pass-cards").disabled = this.selectedPass.size !== 2;
  }

  /** "play", "pass" or "idle": what a tap on a card of the hand means now. */
  handMode(view = this.view) {
    const hand = view && view.hand;
    if (!view || view.status !== "playing" || !hand || !hand.you) return "idle";
    if (hand.phase === "passing" && hand.you.owes_pass) return "pass";
    if (hand.phase === "playing" && hand.turn === view.your_seat) return "play";
    return "idle";
  }

  renderHandNote(view) {
    const hand = view.hand;
    const mine = hand && hand.you;
    const parts = [];
    if (mine && hand.phase !== "bidding" && view.status === "playing") {
      if (mine.passed) parts.push(`You passed ${mine.passed.map(cardText).join(", ")}.`);
      if (mine.received) {
        parts.push(`From your partner: ${mine.received.map(cardText).join(", ")} (dashed outline).`);
      }
    }
    this.setText("hand-note", parts.join(" "));
  }

  renderHand(view) {
    const list = this.part("hand");
    if (!list) return;
    list.replaceChildren();
    this.renderHandNote(view);
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
    const mode = this.handMode(view);
    const legal = new Set(mine.legal_cards || []);
    const counted =
      this.suggestion && this.suggestion.hand === hand.number && hand.phase === "bidding"
        ? this.suggestion.counted
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
        button.setAttribute("aria-pressed", this.selectedPass.has(card) ? "true" : "false");
      } else {
        button.setAttribute("aria-disabled", "true");
      }
      if (counted.has(card)) {
        button.classList.add("counted");
        label +=
          this.suggestion.marks === "best_chance" ? " (your best chance of a trick)" : " (counted for the suggestion)";
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
      nameCard(button, label);
      li.append(button);
      list.append(li);
    }
  }

  /**
   * Every seat's cards face up (a replay: `view.face_up` = {seat: [cards]}), each in the
   * `.face-up-hand[data-pos]` list of the "face-up" part. Pages without it draw nothing.
   */
  renderFaceUp(view) {
    const box = this.part("face-up");
    if (!box || !view.face_up) return;
    for (const seat of SEATS) {
      const list = box.querySelector(`.face-up-hand[data-pos="${positionOf(view, seat)}"]`);
      if (!list) continue;
      const cards = sortHand(view.face_up[seat] || []);
      list.dataset.seat = seat;
      list.setAttribute("aria-label", `${seatName(view, seat)}'s hand: ${cards.length} card${cards.length === 1 ? "" : "s"}`);
      list.replaceChildren(
        ...cards.map((card) => {
          const li = document.createElement("li");
          li.append(cardFace(card));
          return li;
        }),
      );
    }
  }

  // ---------------------------------------------------------------- results

  renderHandResult(view) {
    const panel = this.part("hand-result");
    if (!panel) return;
    const hands = view.scores.hands;
    if (this.resultsShown === null) this.resultsShown = Math.max(0, hands.length - 1);
    if (hands.length <= this.resultsShown || !hands.length) return;
    this.resultsShown = hands.length;
    const number = hands.length;
    const result = hands[number - 1];
    this.setText("hand-result-heading", `Hand ${number} result`);
    const body = this.part("hand-result-body");
    body.replaceChildren();
    const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
    const order = mine === "north_south" ? ["north_south", "east_west"] : ["east_west", "north_south"];
    order.forEach((team, i) => {
      const who = view.your_seat ? (i === 0 ? "You & partner" : "Opponents") : null;
      const title = who ? `${who} (${TEAM_NAMES[team]})` : TEAM_NAMES[team];
      const block = breakdownElement(result[team], title);
      block.dataset.team = team;
      body.append(block);
    });
    panel.hidden = false;
    panel.dataset.hand = String(number);
    // While the game goes on the result gives way to the next hand after a few seconds;
    // the game's last result stays until it is closed.
    clearTimeout(this.resultTimer);
    if (view.status === "playing") {
      this.resultTimer = setTimeout(() => this.hideHandResult(), HAND_RESULT_MS);
    }
  }

  /** Every scored hand: each side's hand score and running total. */
  renderScoreSheet(view) {
    const sheet = this.part("score-sheet");
    if (!sheet) return;
    const hands = view.scores.hands;
    const body = this.part("score-sheet-rows");
    sheet.hidden = hands.length === 0;
    if (body.dataset.count === String(hands.length)) return;
    body.dataset.count = String(hands.length);
    const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
    const theirs = mine === "north_south" ? "east_west" : "north_south";
    // A spectator has no "you": the columns are the teams' names.
    this.setText("sheet-us", view.your_seat ? "You & partner" : TEAM_NAMES[mine]);
    this.setText("sheet-them", view.your_seat ? "Opponents" : TEAM_NAMES[theirs]);
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

  /** Both teams' totals hand by hand (chart.js), redrawn when a hand is scored. */
  renderScoreChart(view) {
    const box = this.part("score-chart");
    if (!box) return;
    const hands = view.scores.hands;
    const panel = this.part("score-chart-panel");
    if (panel) panel.hidden = hands.length === 0;
    if (box.dataset.count === String(hands.length)) return;
    box.dataset.count = String(hands.length);
    const marks = [{ value: view.rules.target_score, label: `Game ${view.rules.target_score}` }];
    box.replaceChildren(scoreChart(hands, { title: "Score history: each side's total after every hand", marks }), chartKey());
  }

  renderGameOver(view) {
    const box = this.part("game-over");
    if (!box) return;
    const over = view.status === "finished";
    box.hidden = !over;
    if (!over) return;
    const winner = view.scores.winner;
    const totals = view.scores.totals;
    const mine = view.your_seat ? TEAM_OF[view.your_seat] : "north_south";
    const theirs = mine === "north_south" ? "east_west" : "north_south";
    const score = `${points(totals[mine])} to ${points(totals[theirs])}`;
    // A finished game without a winner is a draw (a fixed number of hands, level).
    const drawn = !winner && view.scores.finished_after_hand;
    let text;
    if (drawn) {
      const count = view.scores.finished_after_hand;
      text = `A draw after ${count} hand${count === 1 ? "" : "s"}, ${score}.`;
    } else if (!view.your_seat) {
      text = winner ? `${TEAM_NAMES[winner]} won, ${score}.` : `Final score ${score}.`;
    } else if (winner === mine) {
      text = `You and your partner won, ${score}!`;
    } else if (winner) {
      text = `The opponents (${TEAM_NAMES[winner]}) won, ${points(totals[winner])} to ${points(totals[mine])}.`;
    } else {
      text = `Final score ${score}.`;
    }
    this.setText("game-over-text", text);
    // A player starts a new game; a spectator may replay this one or go back to the tables.
    const newGame = this.part("new-game");
    if (newGame) newGame.hidden = !view.your_seat;
    const spectator = this.part("spectator-actions");
    if (spectator) {
      spectator.hidden = Boolean(view.your_seat);
      this.part("watch-replay").href = `/tables/${view.id}/replay/`;
    }
    for (const name of ["bid-panel", "pass-panel"]) {
      const panel = this.part(name);
      if (panel) panel.hidden = true;
    }
  }

  renderSeatControl(view) {
    const banner = this.part("bot-playing");
    if (!banner) return;
    const row = view.seats.find((s) => s.seat === view.your_seat);
    banner.hidden = !(row && row.controller === "bot" && view.status === "playing");
  }
}
