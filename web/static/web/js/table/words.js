// A table view in words: seats, bids, whose turn it is. Pure: no DOM, no page state, so the
// play page, the spectator view, the replay viewer and tournament tiles all say the same.

export const SEATS = ["north", "east", "south", "west"];
export const POSITIONS = ["bottom", "left", "top", "right"]; // clockwise from the viewer
export const TEAM_OF = { north: "north_south", south: "north_south", east: "east_west", west: "east_west" };
// The sides as every page names them (the one spelling: breakdowns, charts, replays, competitions).
export const TEAMS = ["north_south", "east_west"];
export const TEAM_NAMES = { north_south: "North-South", east_west: "East-West" };

export const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** Where a seat sits on screen: the viewer (south for a spectator) at the bottom. */
export function positionOf(view, seat) {
  const you = SEATS.indexOf(view.your_seat || "south");
  return POSITIONS[(SEATS.indexOf(seat) - you + 4) % 4];
}

/** "You", "Partner" or the seat's name ("East"). */
export function seatName(view, seat) {
  if (seat === view.your_seat) return "You";
  const you = view.your_seat;
  if (you && TEAM_OF[seat] === TEAM_OF[you]) return "Partner";
  return capital(seat);
}

/** "Easy computer", the player's name, or "Open seat". */
export function seatRole(view, seat) {
  const row = view.seats.find((s) => s.seat === seat);
  if (!row) return "";
  if (row.controller === "bot") return `${capital(row.bot_level || row.level || "normal")} computer`;
  return row.username || "Open seat";
}

export function isNil(bid) {
  return bid === 0 || bid === "nil";
}

/** The viewer's partner's bid when it is nil or blind nil ("nil", "blind_nil"), else null. */
export function partnerNilBid(view) {
  const you = SEATS.indexOf(view.your_seat);
  if (you < 0 || !view.hand) return null;
  const bid = view.hand.bids[SEATS[(you + 2) % 4]];
  if (bid === "blind_nil") return bid;
  return isNil(bid) ? "nil" : null;
}

/** A bid as shown: "–" (none yet), "Nil", "Blind nil" or the number. */
export function bidText(bid) {
  if (bid === null || bid === undefined) return "–";
  if (isNil(bid)) return "Nil";
  if (bid === "blind_nil") return "Blind nil";
  return String(bid);
}

/** "bid 7 + nil, won 5": the team's contract (once both have bid) and tricks so far. */
export function teamHandLine(hand, team) {
  const seats = SEATS.filter((s) => TEAM_OF[s] === team);
  const bids = seats.map((s) => hand.bids[s]);
  const won = seats.reduce((sum, s) => sum + hand.tricks_won[s], 0);
  if (bids.some((b) => b === null)) return `won ${won}`;
  const contract = bids.reduce((sum, b) => sum + (typeof b === "number" ? b : 0), 0);
  const nils = bids.filter((b) => b === "nil" || b === "blind_nil" || b === 0).length;
  return `bid ${contract}${nils ? " + nil" : ""}, won ${won}`;
}

/** The one status line under the scores: whose turn, in words, for this viewer. */
export function statusText(view) {
  const hand = view.hand;
  const you = view.your_seat;
  if (view.status === "lobby") return "Waiting for the game to start…";
  if (view.status === "finished") return "Game over.";
  if (!hand) return "";
  const is = (seat) => (seat === you ? "are" : "is");
  if (hand.phase === "bidding") {
    if (hand.turn === you) {
      return hand.you && !hand.you.cards
        ? "Your turn to bid: bid blind nil, or look at your cards first."
        : "Your turn to bid.";
    }
    return `${seatName(view, hand.turn)} ${is(hand.turn)} bidding…`;
  }
  if (hand.phase === "passing") {
    return hand.you && hand.you.owes_pass
      ? "Choose two cards to pass to your partner."
      : "Waiting for the blind nil cards to be passed…";
  }
  if (hand.phase === "playing") {
    if (hand.turn === you) {
      return hand.current_trick.length ? "Your turn: play a card." : "Your lead: play a card.";
    }
    return `${seatName(view, hand.turn)} to play…`;
  }
  return "";
}

/** Who took a finished trick, in words: a seat, or a side when only the side is known. */
export function takerText(view, finished) {
  if (finished.winner) {
    const name = seatName(view, finished.winner);
    return name === "You" ? "you" : name;
  }
  if (!finished.winnerTeam) return null;
  if (!view.your_seat) return TEAM_NAMES[finished.winnerTeam];
  return finished.winnerTeam === TEAM_OF[view.your_seat] ? "your side" : "the opponents";
}

/** The caption of a finished trick in the middle of the table. */
export function trickCaption(view, finished) {
  if (finished.winner) {
    const you = finished.winner === view.your_seat;
    return `${seatName(view, finished.winner)} ${you ? "win" : "wins"} the trick`;
  }
  const taker = takerText(view, finished);
  return `Hand ${finished.hand} is over${taker ? `: last trick to ${taker}` : ""}`;
}

/**
 * The bid suggestion in words: the bid, the reason the server gave for it (the count and
 * what changed it; for a bid of 1 from a weak hand, why not nil), and what the stars mark:
 * the cards Normal counted towards the bid (sure tricks, cards worth part of a trick, long
 * spades, so their number need not equal the bid), or, when it counted none, the card most
 * likely to take a trick. A Nil suggestion marks no card.
 */
export function suggestionText(suggestion) {
  if (!suggestion) return "Working out a suggested bid…";
  if (suggestion.bid === null) return "No suggestion is available right now.";
  const reason = suggestion.reason ? ` ${suggestion.reason}` : "";
  if (isNil(suggestion.bid)) {
    const why = reason || " No card in your hand looks likely to take a trick.";
    return `Suggested bid: Nil.${why} None is marked.`;
  }
  const counted = suggestion.counted.size;
  let marks = "";
  if (suggestion.marks === "best_chance" && counted) {
    marks = " ★ marks your best chance of a trick.";
  } else if (counted) {
    const cards = counted === 1 ? "the card" : `the ${counted} cards`;
    marks =
      ` ★ marks ${cards} it counted: ` +
      "sure tricks, cards that may take a trick (each worth part of one), and long spades.";
  }
  return `Suggested bid: ${bidText(suggestion.bid)}.${reason}${marks}`;
}

/**
 * The warning before a double nil: the partner (`partnerBid`, "nil" or "blind_nil") has bid
 * nil and the player is about to bid `bid` ("nil" or "blind_nil") too. `rules` gives the
 * points at stake.
 */
export function doubleNilWarning(partnerBid, bid, rules) {
  const points = (b) => (b === "blind_nil" ? rules.blind_nil_points : rules.nil_points);
  const theirs = `${bidText(partnerBid).toLowerCase()} (±${points(partnerBid)})`;
  const yours = `${bidText(bid).toLowerCase()} (±${points(bid)})`;
  return (
    `Your partner has bid ${theirs}. If you bid ${yours} too, your team has no contract: ` +
    "nobody is left to win tricks for you or to cover your partner, each nil is scored on its " +
    "own, and a failed one loses its points. Most double nils fail."
  );
}

/**
 * What a spectator of a table with a spectator delay is told: it sees play that many
 * completed tricks late ("" for a seated player, a live table, or a game not in play).
 */
export function delayText(view) {
  const tricks = view.spectator_delay_tricks || 0;
  if (!tricks || view.your_seat || view.status !== "playing") return "";
  const late = tricks === 1 ? "1 trick" : `${tricks} tricks`;
  return `Shown ${late} behind play: this competition delays what spectators see.`;
}
