// A duplicate competition on its public and organise pages: what kind of duplicate it is,
// and each started round's link to its boards (docs/leagues.md, "Duplicate competitions").

import { duplicateSummary } from "./settings.js";

/** The boards page's address, at round `number` (its section id on that page). */
export function boardsHref(competitionId, number) {
  return `/competitions/${competitionId}/boards/#boards-round-${number}`;
}

/** "Duplicate: Mitchell, 4 boards a round, matchpoints" for the settings, or null. */
export function duplicateLine(settings) {
  return duplicateSummary(settings && settings.duplicate);
}

/**
 * A paragraph linking round `round`'s boards, for a duplicate competition's started round
 * (null otherwise): `note` (optional) is said after the link.
 */
export function roundBoardsLink(settings, competitionId, round, note = "") {
  if (!settings || !settings.duplicate || !(round.started || round.closed)) return null;
  const p = document.createElement("p");
  p.className = "round-boards";
  const link = document.createElement("a");
  link.href = boardsHref(competitionId, round.round);
  link.textContent = `Boards of round ${round.round}`;
  p.append(link);
  if (note) p.append(` · ${note}`);
  return p;
}

/**
 * Par on a round's boards, as the API shows it (GET .../rounds/<n>/boards): once the round
 * is revealed, "par computed for 3 of 4 boards"; while it is played the API keeps par back
 * with the boards (nothing derived from their cards leaves before the reveal).
 */
export function parNote(boards) {
  if (!boards || !boards.boards) return "";
  const all = boards.boards.length;
  const revealed = boards.boards.filter((b) => b.revealed);
  if (revealed.length < all) return `${all} board${all === 1 ? "" : "s"}, still being played: par is shown once they are revealed`;
  const withPar = revealed.filter((b) => b.par).length;
  return `par computed for ${withPar} of ${all} board${all === 1 ? "" : "s"}`;
}

/**
 * Before a teams-of-four round starts: its tables must pair into matches (tables 1 and 2,
 * 3 and 4 …), so an odd number is said before the server refuses the start ("" otherwise).
 */
export function teamsOfFourNote(settings, round) {
  const duplicate = settings && settings.duplicate;
  if (!duplicate || duplicate.movement !== "teams_of_four" || round.started || round.closed) return "";
  const tables = round.matches.length;
  if (tables % 2 === 0) return "";
  return `Teams of four needs an even number of tables: this round has ${tables}, so the server will refuse to start it.`;
}
