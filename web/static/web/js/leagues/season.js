// A league's seasons in words and the "next season" form as POST /api/leagues/<id>/seasons
// takes it (docs/leagues.md, Leagues, seasons and divisions). Pure: no DOM, no fetch.

export const MAX_DIVISIONS = 16;
export const MAX_DIVISION_NAME = 64;
export const MAX_SEASON_NAME = 64;
export const MAX_MOVES = 64;

function bump(name) {
  const match = /^(.*?)(\d+)(\D*)$/.exec(name);
  return match ? `${match[1]}${Number(match[2]) + 1}${match[3]}` : `${name} 2`;
}

/** A name for the season after `previous` and not `taken`: its last number plus one ("2026" -> "2027"). */
export function nextSeasonName(previous, taken = []) {
  if (!previous) return String(new Date().getFullYear());
  let name = bump(previous);
  for (let k = 0; k < 100 && taken.includes(name); k += 1) name = bump(name);
  return name.slice(0, MAX_SEASON_NAME);
}

/** Division names typed one a line (or separated by commas), top division first. */
export function parseDivisions(text) {
  return String(text)
    .split(/[\n,]/)
    .map((d) => d.trim())
    .filter(Boolean);
}

/** The season (by name) before and after `name` in the league's order, or null. */
export function neighbours(seasons, name) {
  const index = seasons.findIndex((s) => s.season === name);
  return {
    previous: index > 0 ? seasons[index - 1].season : null,
    next: index >= 0 && index < seasons.length - 1 ? seasons[index + 1].season : null,
  };
}

/** A season's state from its divisions' competition statuses. */
export function seasonStatus(statuses) {
  if (!statuses.length) return "";
  if (statuses.every((s) => s === "finished")) return "Finished";
  if (statuses.some((s) => s === "running" || s === "finished")) return "In play";
  return "Registration open";
}

const whole = (value, low, high) => {
  const text = String(value).trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n >= low && n <= high ? n : null;
};

/**
 * The request for a new season from the form, or {error} in words. `form`: {season,
 * divisions (text), promote (bool), from (a season name), up, down, format, rounds,
 * double, preset, match, hands}; `league`: the league (its seasons, to check the name and
 * the promotion against).
 */
export function seasonRequest(form, league) {
  const season = String(form.season || "").trim();
  if (!season || season.length > MAX_SEASON_NAME) {
    return { error: `Give the season a name of 1 to ${MAX_SEASON_NAME} characters.` };
  }
  if (league.seasons.some((s) => s.season === season)) {
    return { error: `This league already has a season called “${season}”: choose another name.` };
  }
  const divisions = parseDivisions(form.divisions);
  if (!divisions.length || divisions.length > MAX_DIVISIONS) {
    return { error: `A season has 1 to ${MAX_DIVISIONS} divisions: name each one on its own line.` };
  }
  if (divisions.some((d) => d.length > MAX_DIVISION_NAME)) {
    return { error: `A division's name is at most ${MAX_DIVISION_NAME} characters.` };
  }
  if (new Set(divisions).size !== divisions.length) {
    return { error: "Each division is named once." };
  }
  const stage = { kind: form.format };
  if (form.format === "swiss") {
    const rounds = whole(form.rounds, 1, 64);
    if (rounds === null) return { error: "A Swiss season plays 1 to 64 rounds." };
    stage.rounds = rounds;
  }
  if (form.double) stage.double = true;
  const competition = { stages: [stage], rules: form.preset || "standard" };
  if (form.match === "fixed") {
    const hands = whole(form.hands, 1, 100);
    if (hands === null) return { error: "A match of a fixed number of hands plays 1 to 100 hands." };
    competition.fixed_hands = hands;
  }
  const request = { season, divisions, competition };
  if (form.promote) {
    const previous = league.seasons.find((s) => s.season === form.from);
    if (!previous) return { error: "Choose the season whose final standings fill the divisions." };
    const count = Object.keys(previous.divisions).length;
    if (count !== divisions.length) {
      return {
        error: `Season ${previous.season} had ${count} division${count === 1 ? "" : "s"}: the new season needs as many to be filled from its standings.`,
      };
    }
    const up = whole(form.up, 0, MAX_MOVES);
    const down = whole(form.down, 0, MAX_MOVES);
    if (up === null || down === null) {
      return { error: `Promoted and relegated: a whole number of partnerships from 0 to ${MAX_MOVES} each.` };
    }
    request.promote = { from: previous.season, up, down };
  }
  return { request };
}

/**
 * Next season's divisions from this season's final orders (top division first), as the
 * server decides them (leagues/domain/league.py `promote`): the first `up` of each
 * division but the top go up one, the last `down` of each but the bottom go down one.
 * Returns {divisions: [[entrant ids]], moves: {entrant: "up" | "down" | "stays"}}.
 */
export function promotionPreview(orders, up, down) {
  const count = orders.length;
  const divisions = orders.map(() => []);
  const moves = {};
  orders.forEach((order, index) => {
    order.forEach((entrant, place) => {
      let target = index;
      if (index > 0 && place < up) target = index - 1;
      else if (index < count - 1 && place >= order.length - down) target = index + 1;
      divisions[target].push(entrant);
      moves[entrant] = target < index ? "up" : target > index ? "down" : "stays";
    });
  });
  return { divisions, moves };
}
