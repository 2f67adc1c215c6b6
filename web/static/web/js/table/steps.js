// How an update reads card by card: the trick after each card it brought, and the trick it
// finished. Pure: from two table views and the events between them.

import { SEATS, TEAM_OF } from "./words.js";

/**
 * The trick as it stood after each card this update brought in the current hand:
 * [{cards, winner, hand, partial}], where a trick's fourth card makes it whole (not partial)
 * and names its winner. Empty when the update brings no card of this hand.
 */
export function trickSteps(previous, item) {
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
export function finishedTrick(previous, item) {
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
export function lastTrickTeam(before, result) {
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
