// A finished hand, card by card: turns one hand of a game record (the export format,
// docs/formats.md) and the server's replay of it (trick winners, each team's result) into
// the sequence of table-view-like states the TableRenderer draws, with all four hands face
// up. Pure: no DOM, no fetch, so it is unit-tested in the browser on its own.

import { cardText } from "../cards.js";
import { SEATS, TEAM_NAMES, TEAMS } from "../table/words.js";

const left = (seat) => SEATS[(SEATS.indexOf(seat) + 1) % 4];
const partner = (seat) => SEATS[(SEATS.indexOf(seat) + 2) % 4];
const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** A bid as the record writes it ("nil", "blind_nil", 4) in words. */
export function bidWords(bid) {
  if (bid === "nil" || bid === 0) return "Nil";
  if (bid === "blind_nil") return "Blind nil";
  return String(bid);
}

/** The seats in bidding order: from the dealer's left, clockwise. */
export function biddingOrder(dealer) {
  const order = [left(dealer)];
  while (order.length < 4) order.push(left(order[order.length - 1]));
  return order;
}

/** Each seat's cards once the blind nil passes are made: {seat: [cards]}. */
export function holdingsAfterPasses(recordHand) {
  const passes = recordHand.passes || {};
  const held = {};
  for (const seat of SEATS) {
    const given = new Set(passes[seat] || []);
    held[seat] = recordHand.deal[seat].filter((card) => !given.has(card)).concat(passes[partner(seat)] || []);
  }
  return held;
}

/**
 * Every state of one hand, oldest first. `context`: {id, rules, preset, seats, number,
 * before: {totals, bags}, earlier: [results of the hands before]}. A state is a table view
 * (what TableRenderer.render reads) plus `face_up` (each seat's cards still in hand),
 * `shown` (the trick for the middle of the table, a finished one with its winner) and
 * `step` ({kind: deal|bid|pass|play|result, trick, label, seat, card, index}).
 */
export function handSteps(recordHand, result, context) {
  const number = context.number;
  const dealer = recordHand.dealer;
  const holdings = {};
  for (const seat of SEATS) holdings[seat] = [...recordHand.deal[seat]];
  const bids = Object.fromEntries(SEATS.map((s) => [s, null]));
  const plays = [];
  const tricksWon = Object.fromEntries(SEATS.map((s) => [s, 0]));
  const winners = [];
  const scores = {
    totals: { ...context.before.totals },
    bags: { ...context.before.bags },
    hands: [...context.earlier],
    winner: null,
  };
  const states = [];
  let version = 0;
  const snapshot = (phase, turn, step, shown = null) => {
    version += 1;
    const inTrick = plays.slice(plays.length - (plays.length % 4));
    states.push({
      id: context.id,
      version,
      status: "replay",
      rules: context.rules,
      preset: context.preset,
      seats: context.seats,
      your_seat: null,
      hand: {
        number,
        dealer,
        phase,
        turn,
        acting_seats: turn ? [turn] : [],
        bids: { ...bids },
        plays: [...plays],
        current_trick: inTrick,
        tricks_won: { ...tricksWon },
        trick_winners: [...winners],
      },
      scores: { totals: { ...scores.totals }, bags: { ...scores.bags }, hands: [...scores.hands], winner: null },
      face_up: Object.fromEntries(SEATS.map((s) => [s, [...holdings[s]]])),
      shown,
      step,
    });
  };

  const order = biddingOrder(dealer);
  snapshot("bidding", order[0], { kind: "deal", trick: null, label: `Hand ${number}: ${capital(dealer)} deals.` });
  order.forEach((seat, k) => {
    bids[seat] = recordHand.bids[seat];
    const next = k < 3 ? order[k + 1] : null;
    snapshot(next ? "bidding" : "playing", next, {
      kind: "bid",
      trick: null,
      seat,
      index: k + 1,
      label: `${capital(seat)} bids ${bidWords(bids[seat])}.`,
    });
  });

  const passes = recordHand.passes || {};
  const passers = SEATS.filter((s) => (passes[s] || []).length);
  if (passers.length) {
    const after = holdingsAfterPasses(recordHand);
    for (const seat of SEATS) holdings[seat] = after[seat];
    const words = passers.map((s) => `${capital(s)} passes ${passes[s].map(cardText).join(" and ")} to ${capital(partner(s))}`);
    snapshot("playing", null, { kind: "pass", trick: null, label: `${words.join("; ")}.` });
  }

  const holder = {};
  for (const seat of SEATS) for (const card of holdings[seat]) holder[card] = seat;
  recordHand.plays.forEach((card, i) => {
    const seat = holder[card];
    holdings[seat] = holdings[seat].filter((c) => c !== card);
    plays.push({ seat, card });
    const trick = Math.floor(i / 4) + 1;
    const position = (i % 4) + 1;
    const cards = plays.slice(4 * (trick - 1));
    let label = `Trick ${trick}, card ${position}: ${capital(seat)} plays ${cardText(card)}.`;
    let shown = { cards, winner: null, hand: number, partial: true };
    let turn = left(seat);
    if (position === 4) {
      const winner = result.trick_winners[trick - 1];
      winners.push(winner);
      tricksWon[winner] += 1;
      label += ` ${capital(winner)} wins trick ${trick}.`;
      shown = { cards, winner, hand: number, partial: false };
      turn = trick < 13 ? winner : null;
    }
    snapshot(trick === 13 && position === 4 ? "complete" : "playing", turn, {
      kind: "play",
      trick,
      seat,
      card,
      index: i + 1,
      label,
    }, shown);
  });

  for (const team of TEAMS) {
    scores.totals[team] = result[team].total;
    scores.bags[team] = result[team].bags;
  }
  scores.hands.push({ north_south: result.north_south, east_west: result.east_west });
  const words = TEAMS.map((t) => `${TEAM_NAMES[t]} ${signedWords(result[t].hand_score)}`);
  snapshot("complete", null, {
    kind: "result",
    trick: null,
    label: `Hand ${number} scored: ${words.join(", ")}.`,
  }, { cards: plays.slice(48), winner: winners[12], hand: number, partial: false });
  return states;
}

function signedWords(points) {
  if (points > 0) return `+${points}`;
  if (points < 0) return `−${Math.abs(points)}`;
  return "0";
}

/** The states of hand `number` (1-based) of a replay answer (GET /api/tables/<id>/replay). */
export function replaySteps(replay, number) {
  const record = replay.record;
  const k = number - 1;
  const previous = k > 0 ? replay.hands[k - 1] : null;
  const before = {
    totals: Object.fromEntries(TEAMS.map((t) => [t, previous ? previous[t].total : 0])),
    bags: Object.fromEntries(TEAMS.map((t) => [t, previous ? previous[t].bags : 0])),
  };
  const earlier = replay.hands.slice(0, k).map((h) => ({ north_south: h.north_south, east_west: h.east_west }));
  return handSteps(record.hands[k], replay.hands[k], {
    id: record.table.id,
    rules: record.rules,
    preset: record.table.preset,
    seats: replay.seats,
    number,
    before,
    earlier,
  });
}

/** The index of the state where trick `trick` (1-13) is complete, its winner shown. */
export function trickStepIndex(states, trick) {
  return states.findIndex((s) => s.step.kind === "play" && s.step.trick === trick && s.shown && !s.shown.partial);
}
