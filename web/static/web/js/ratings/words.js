// The ratings page's words and figures (docs/leagues.md, Ratings). Pure: no DOM, no fetch.

export const SITE_POOL = "site";
/** The duplicate skill rating (IMPs per board from par), read as another pool. */
export const SKILL_POOL = "skill";

/** The pool picker's choices: the site's pool, the duplicate skill, then each league's. */
export function poolOptions(leagues) {
  return [
    { value: SITE_POOL, label: "Everyone (site ratings)" },
    { value: SKILL_POOL, label: "Duplicate skill (IMPs per board from par)" },
    ...leagues.map((league) => ({ value: league.pool, label: `${league.name} (league)` })),
  ];
}

/** A pool from the address's `?pool=` (anything unknown: the site's). */
export function poolFromQuery(search, known) {
  const pool = new URLSearchParams(search).get("pool");
  return pool && known.includes(pool) ? pool : SITE_POOL;
}

const MINUS = "−";

/** A rating figure to one decimal, with a true minus sign. */
export function figure(value) {
  const text = (Math.round(value * 10) / 10).toFixed(1);
  return text.startsWith("-") ? (text === "-0.0" ? "0.0" : `${MINUS}${text.slice(1)}`) : text;
}

/** A change of rating: "+1.2", "−0.8", "±0.0". */
export function changeText(delta) {
  const rounded = Math.round(delta * 10) / 10;
  if (rounded === 0) return "±0.0";
  return rounded > 0 ? `+${rounded.toFixed(1)}` : `${MINUS}${Math.abs(rounded).toFixed(1)}`;
}

/** A player's name: their username, or "a former player" for an erased account. */
export function playerLabel(id, names) {
  return (names && names[id]) || "a former player";
}

const OUTCOME_WORDS = { won: "Won", lost: "Lost", draw: "Drew" };

/** "Won with ann against bob and cat"; a duplicate skill change: "Board 3 of round 1". */
export function matchLine(match, names) {
  if (match.board) return `Board ${match.board} of round ${match.round}`;
  const outcome = OUTCOME_WORDS[match.outcome] || "Played";
  const partner = match.partner ? ` with ${playerLabel(match.partner, names)}` : "";
  const opponents = match.opponents.map((p) => playerLabel(p, names));
  const against = opponents.length ? ` against ${opponents.join(" and ")}` : "";
  return `${outcome}${partner}${against}`;
}

/** Where a match was played: the competition's name, else its season and division. */
export function competitionLabel(match) {
  if (match.competition) return match.competition;
  const parts = [match.season && `season ${match.season}`, match.division].filter(Boolean);
  return parts.length ? parts.join(", ") : "a competition";
}

/**
 * The chart's series: the rating (μ − 3σ) before the first match shown, then after each
 * match, to one decimal.
 */
export function historySeries(matches) {
  if (!matches.length) return [];
  const round = (v) => Math.round(v * 10) / 10;
  return [round(matches[0].before.ordinal), ...matches.map((m) => round(m.after.ordinal))];
}

/** The leaderboard's summary line. */
export function leaderboardSummary(count) {
  if (!count) return "Nobody has a rating here yet: ratings come from played, rated matches.";
  return `${count} rated player${count === 1 ? "" : "s"}, best first.`;
}
