// The standings table's columns and the match points entrants had after each round.
// Pure: no DOM, no fetch.

import { tiebreakLabel } from "./words.js";

/** The fixed columns; then one per declared tie-break not already among them. */
const BASE = [
  { key: "rank", label: "Place", short: "#" },
  { key: "entrant", label: "Entrant", short: "Entrant" },
  { key: "match_points", label: "Match points", short: "MP" },
  { key: "played", label: "Played", short: "P" },
  { key: "wins", label: "Wins", short: "W" },
  { key: "draws", label: "Draws", short: "D" },
  { key: "losses", label: "Losses", short: "L" },
  { key: "byes", label: "Byes", short: "Bye" },
  { key: "game_points", label: "Game points", short: "GP" },
  { key: "game_points_against", label: "Game points against", short: "GA" },
  { key: "point_differential", label: "Point differential", short: "Diff" },
];

const SHORT = { head_to_head: "H2H", buchholz: "Buch", buchholz_cut1: "Buch−1", sonneborn_berger: "SB" };

/**
 * Every column the table shows: the fixed figures and each tie-break the standings
 * declare (but the draw of lots), in their order (a tie-break that is also a fixed figure, like wins, is shown
 * once, where it is, marked as a tie-break).
 */
export function standingsColumns(tiebreaks) {
  const columns = BASE.map((c) => ({ ...c, tiebreak: tiebreaks.indexOf(c.key) + 1 || null }));
  for (const [index, name] of tiebreaks.entries()) {
    // The draw of lots is an order, not a figure: the order line under the heading names it.
    if (name === "lots" || BASE.some((c) => c.key === name)) continue;
    columns.push({ key: `tiebreak:${name}`, label: tiebreakLabel(name), short: SHORT[name] || tiebreakLabel(name), tiebreak: index + 1 });
  }
  return columns;
}

/** A row's value for a column, as text ("–" for a tie-break not computed for it). */
export function cellText(row, column, names = {}) {
  if (column.key === "entrant") return names[row.entrant] || row.entrant;
  if (column.key.startsWith("tiebreak:")) {
    const value = row.tiebreaks[column.key.slice(9)];
    return value === null || value === undefined ? "–" : String(value);
  }
  const value = row[column.key];
  if (column.key === "point_differential" && value > 0) return `+${value}`;
  return String(value);
}

/** The match points `result` gives the entrant on `side` (docs/leagues.md, match points). */
function pointsOf(result, side, points) {
  if (result.forfeited_by === "both" || result.forfeited_by === side) return points.forfeit_loss;
  if (result.forfeited_by) return points.win;
  if (result.winner === side) return points.win;
  if (result.winner === null) return points.draw;
  return points.loss;
}

/**
 * entrant id -> the match points it had after each round [after 1, after 2, ...], from
 * the rounds (GET .../rounds), the match points settings and the entrants (late joiners'
 * missed rounds count `late_join`). A match still in play adds nothing yet.
 */
export function matchPointsByRound(rounds, points, entrants) {
  const totals = {};
  const series = {};
  for (const entrant of entrants) {
    totals[entrant.id] = 0;
    series[entrant.id] = [];
  }
  for (const round of rounds) {
    const earned = {};
    for (const entrant of entrants) {
      if (entrant.joined_round > round.round) earned[entrant.id] = points.late_join;
    }
    for (const id of round.byes) earned[id] = (earned[id] || 0) + points.bye;
    for (const match of round.matches) {
      if (!match.result) continue;
      for (const side of ["north_south", "east_west"]) {
        const id = match[side];
        earned[id] = (earned[id] || 0) + pointsOf(match.result, side, points);
      }
    }
    for (const id of Object.keys(totals)) {
      totals[id] += earned[id] || 0;
      series[id].push(totals[id]);
    }
  }
  return series;
}

/** The round whose boards are worth watching: the last started one (null before). */
export function liveRound(rounds) {
  const started = rounds.filter((r) => r.started);
  return started.length ? started[started.length - 1] : null;
}
