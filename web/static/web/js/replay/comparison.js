// The same game under two sets of rules, hand by hand: the game's own results (the replay)
// beside a rescoring (GET /api/tables/<id>/rescore?rules=NAME), with the first action of a
// hand the other rules forbid. Pure: no DOM.

const TEAMS = ["north_south", "east_west"];

/**
 * [{hand, own: {north_south: {hand_score, total}, east_west}, other: same or null, flag}]
 * `other` is null for a hand the other rules never reach (their game was over before it);
 * `flag` is the rescoring's flag for that hand ({action, index, seat, card, reason}) or null.
 */
export function comparisonRows(ownHands, rescored) {
  const byNumber = new Map(rescored.hands.map((h) => [h.hand_number, h]));
  const flags = flagsByHand(rescored);
  return ownHands.map((own, k) => {
    const hand = k + 1;
    const other = byNumber.get(hand) || null;
    const pick = (result) =>
      Object.fromEntries(TEAMS.map((t) => [t, { hand_score: result[t].hand_score, total: result[t].total }]));
    return { hand, own: pick(own), other: other ? pick(other) : null, flag: flags.get(hand) || null };
  });
}

/** Map hand number -> the rescoring's flag for it. */
export function flagsByHand(rescored) {
  return new Map((rescored.flags || []).map((flag) => [flag.hand, flag]));
}

/** A flag in words: "Play 17 (West, 5♠): Spades have not been broken…" */
export function flagText(flag, cardText) {
  const seat = flag.seat ? flag.seat.charAt(0).toUpperCase() + flag.seat.slice(1) : "";
  let where = "";
  if (flag.action === "play") where = `Play ${flag.index} (${seat}, ${cardText(flag.card)})`;
  else if (flag.action === "bid") where = `Bid ${flag.index || ""} (${seat} bid ${flag.bid})`.replace("  ", " ");
  else if (flag.action === "pass") where = seat ? `${seat}'s pass` : "The pass";
  else where = capitalWord(flag.action || "action");
  return `${where}: ${flag.reason}`;
}

const capitalWord = (word) => word.charAt(0).toUpperCase() + word.slice(1);
