// The organiser's scoresheet: bids and tricks per hand typed in, turned into the
// calculator's format ({"hands": [{"bids": {...}, "tricks": {...}}]}, docs/formats.md).
// Pure; the server scores it under the competition's rules and says what is wrong.

export const SEATS = ["north", "east", "south", "west"];

/** "nil" / "blind nil" / "4" as the scoresheet writes a bid; anything else is kept as typed. */
export function bidValue(text) {
  const t = String(text).trim().toLowerCase().replace(/[\s-]+/g, "_");
  if (t === "nil" || t === "n") return "nil";
  if (t === "blind_nil" || t === "bn") return "blind_nil";
  return /^\d+$/.test(t) ? Number(t) : String(text).trim();
}

/** A recorded bid as the scoresheet writes it (the inverse of `bidValue`): 0 is "nil". */
export function bidText(bid, blind = false) {
  if (blind) return "blind nil";
  return bid === 0 ? "nil" : String(bid);
}

/** A tricks count as a number when it is one (the server refuses anything else in words). */
export function tricksValue(text) {
  const t = String(text).trim();
  return /^\d+$/.test(t) ? Number(t) : t;
}

/** rows: [{bids: {seat: text}, tricks: {seat: text}}], blank rows left out. */
export function scoresheetFromRows(rows) {
  const hands = [];
  for (const row of rows) {
    const typed = SEATS.some((s) => String(row.bids[s] || "").trim() || String(row.tricks[s] || "").trim());
    if (!typed) continue;
    hands.push({
      bids: Object.fromEntries(SEATS.map((s) => [s, bidValue(row.bids[s] || "")])),
      tricks: Object.fromEntries(SEATS.map((s) => [s, tricksValue(row.tricks[s] || "")])),
    });
  }
  return { hands };
}
