// A competition in words: entrants' names, tie-break names, result flags, who moved.
// Pure: no DOM, no fetch (unit-tested in the browser, tests/e2e/web/test_competition_modules.py).

import { TEAM_NAMES } from "../table/words.js";

export const TIEBREAK_LABELS = {
  head_to_head: "Head-to-head",
  buchholz: "Buchholz",
  buchholz_cut1: "Buchholz cut 1",
  sonneborn_berger: "Sonneborn-Berger",
  point_differential: "Point differential",
  game_points: "Game points",
  wins: "Wins",
  lots: "Draw of lots",
};

/** Every tie-break the leagues app knows, in its default order first (docs/leagues.md). */
export const TIEBREAKS = [
  "head_to_head",
  "buchholz",
  "sonneborn_berger",
  "point_differential",
  "wins",
  "buchholz_cut1",
  "game_points",
  "lots",
];

export const FORMAT_LABELS = { swiss: "Swiss", round_robin: "Round robin", knockout: "Knockout" };

export function tiebreakLabel(name) {
  return TIEBREAK_LABELS[name] || name.replaceAll("_", " ");
}

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** A player's name: the username the server gave for the id, else the id itself. */
export function playerName(id, players = {}) {
  return players[id] || `player ${id}`;
}

/** An entrant's name: its own, else its two players' ("ann & bob"). */
export function entrantName(entrant, players = {}) {
  if (!entrant) return "";
  if (entrant.name) return entrant.name;
  return entrant.players.map((p) => playerName(p, players)).join(" & ");
}

/** entrant id -> display name, for a competition overview and the usernames. */
export function entrantNames(overview, players = {}) {
  const names = {};
  for (const entrant of overview.entrants || []) names[entrant.id] = entrantName(entrant, players);
  return names;
}

const SIDE_WORDS = { ...TEAM_NAMES, both: "both sides" };

/**
 * What is special about a match's result, each as a short phrase: a forfeit or no-show, a
 * bot in a seat, a correction (each with its reason, when the server gave one).
 * `info` holds `source` and `reason`; the leagues API's rounds put them on the result itself.
 */
export function resultFlags(result, info = result) {
  if (!result) return [];
  const flags = [];
  if (result.forfeited_by) {
    const what = result.no_show ? "No-show" : "Forfeit";
    const reason = info && info.source === "forfeit" && info.reason ? `: ${info.reason}` : "";
    flags.push({ kind: "forfeit", text: `${what} by ${SIDE_WORDS[result.forfeited_by] || result.forfeited_by}${reason}` });
  }
  if (result.bot_substitute) flags.push({ kind: "bot", text: "Bots played" });
  if (result.corrects) {
    const reason = info && info.reason ? `: ${info.reason}` : "";
    flags.push({ kind: "corrected", text: `Corrected${reason}` });
  }
  if (info && info.source === "scoresheet") flags.push({ kind: "scoresheet", text: "From a scoresheet" });
  return flags;
}

/** "312 – 280" (north-south first) or "Forfeit" for a match's result; "" while it is played. */
export function scoreText(result) {
  if (!result) return "";
  if (result.forfeited_by) return "Forfeit";
  const figure = (n) => String(n).replace("-", "−");
  return `${figure(result.points.north_south)} – ${figure(result.points.east_west)}`;
}

/** Who won, in words: "ann & bob won", "Draw". */
export function winnerText(match, result, names) {
  if (!result) return "In play";
  if (!result.winner) return result.forfeited_by === "both" ? "Both forfeited" : "Draw";
  return `${names[match[result.winner]] || match[result.winner]} won`;
}

/** One move of the what-if panel: "ann & bob: 3rd → 1st (up 2)". */
export function moveText(move, names) {
  const way = move.change > 0 ? `up ${move.change}` : `down ${-move.change}`;
  return `${names[move.entrant] || move.entrant}: ${ordinal(move.before)} → ${ordinal(move.after)} (${way})`;
}

/** "▲ 2", "▼ 1" or "–": the change column of the what-if table. */
export function changeMark(change) {
  if (!change) return "–";
  return change > 0 ? `▲ ${change}` : `▼ ${-change}`;
}

/** A player's next match in one sentence, from GET .../players/<id>/next-match. */
export function nextMatchText(answer, names) {
  if (answer.match) {
    const m = answer.match;
    const mine = answer.entrant;
    const side = m.north_south === mine ? "north_south" : "east_west";
    const other = side === "north_south" ? m.east_west : m.north_south;
    const where = m.table_id ? "its table is open" : "its table opens when the round starts";
    return `Round ${m.round}, board ${m.board}: you play ${SIDE_WORDS[side]} against ${names[other] || other}; ${where}.`;
  }
  if (answer.bye) return `You have the bye in round ${answer.bye}.`;
  return "No match to play right now: the next round is not paired yet.";
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The late-join rule in one sentence, for a competition whose next round is `nextRound`.
 * Mirrors the server's rule (leagues.domain.decisions.decide_late_join), which has the last
 * word: until round `late_join_until_round`, during the first stage only.
 */
export function lateJoinRule(settings, nextRound, stage = 0) {
  const until = Number(settings.late_join_until_round || 0);
  if (!until) return "This competition takes no late entrants.";
  const points = Number((settings.match_points || {}).late_join || 0);
  const missed = `each round missed counts ${plural(points, "match point")}`;
  if (stage > 0) return `Late entrants join during the first stage only (until round ${until}).`;
  if (nextRound > until) return `Late entrants could join until round ${until}; the next round is ${nextRound}.`;
  return `Late entrants can join until round ${until} and play from round ${nextRound}; ${missed}.`;
}

/** Whether the late-join rule lets an entrant join before `nextRound` (the server decides). */
export function lateJoinOpen(settings, nextRound, stage = 0) {
  return stage === 0 && nextRound > 1 && nextRound <= Number(settings.late_join_until_round || 0);
}

/** An entrant's state in the organiser's list: withdrawn, late, reserve, substitutes, check-in. */
export function entrantStatus(entrant, nextRound, players = {}) {
  const parts = [];
  // Registered by an organiser: entered only once both its players have accepted.
  if (entrant.status === "invited") {
    const waiting = (entrant.awaiting || []).filter((p) => entrant.players.includes(p));
    parts.push(`invited: waiting for ${waiting.map((p) => playerName(p, players)).join(" & ")} to accept`);
  }
  if (entrant.withdrawn_after_round !== null && entrant.withdrawn_after_round !== undefined) {
    parts.push(
      entrant.withdrawn_after_round ? `withdrawn after round ${entrant.withdrawn_after_round}` : "withdrawn before round 1",
    );
  }
  if (entrant.joined_round > 1) parts.push(`joined in round ${entrant.joined_round}`);
  const playing = entrant.playing || entrant.players;
  if (playing.some((p, i) => p !== entrant.players[i])) {
    parts.push(`plays as ${playing.map((p) => playerName(p, players)).join(" & ")} from now on`);
  }
  if (entrant.reserve) parts.push(`reserve ${playerName(entrant.reserve, players)}`);
  if (entrant.checked_in) parts.push(`checked in for round ${nextRound}`);
  return parts.join(" · ");
}

/**
 * What a round of the rounds read says about the organiser's control, as sentences: a
 * pairing written by hand (by whom, and why when the API gives the reason), and each pair
 * kept apart that meets (the engine found no pairing without it, or the organiser wrote it).
 */
export function pairingNotes(round, names = {}) {
  const notes = [];
  const manual = round.manual;
  if (manual) {
    const by = manual.by ? ` by ${manual.by}` : "";
    notes.push(manual.reason ? `Paired by hand${by}: ${manual.reason}` : `Paired by hand${by}.`);
  }
  for (const [a, b] of round.forbidden_meetings || []) {
    const why = manual ? "the pairing written by hand puts them together" : "no pairing without this meeting existed";
    notes.push(`${names[a] || a} and ${names[b] || b} meet although kept apart: ${why}.`);
  }
  return notes;
}
