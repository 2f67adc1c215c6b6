// A knockout stage's bracket (GET /api/competitions/<id>/stages, a stage's `bracket`) as
// parts, rounds and matches in words: who plays whom, where each side comes from (a seed,
// or the winner or loser of an earlier match), byes, the grand final and its reset, and the
// champion. Pure: the page draws what this returns (./stages_view.js), as headings and
// lists, so a screen reader reads the same bracket a sighted organiser sees.

const PART_ORDER = ["winners", "losers", "final"];

/** A single-elimination round's name: Final, Semi-finals, Quarter-finals, else Round n. */
export function roundTitle(part, round, levels, double) {
  if (part === "final") return round === 1 ? "Grand final" : "Grand final reset";
  if (part === "losers") return `Losers' round ${round}`;
  const fromEnd = levels - round;
  const name = fromEnd === 0 ? "Final" : fromEnd === 1 ? "Semi-finals" : fromEnd === 2 ? "Quarter-finals" : `Round ${round}`;
  return double ? `Winners' ${name === "Final" ? "final" : name.toLowerCase()}` : name;
}

function matchTitle(roundName, index, count) {
  const finals = /-finals$/.test(roundName);
  const one = finals ? roundName.slice(0, -1) : roundName;
  if (count === 1) return one;
  return finals ? `${one} ${index}` : `${one}, match ${index}`;
}

/**
 * The bracket as `{parts: [{part, title, rounds: [{title, matches}]}], champion, drawn,
 * seeds}`. Each match: `{id, title, top, bottom, state, winner, note, played}`; a side is
 * `{entrant, name, seed, text, bye, won}` (`text` says who, or where it comes from).
 * `names`: entrant id -> name.
 */
export function bracketView(bracket, names = {}) {
  const levels = Math.log2(bracket.size);
  const nameOf = (id) => names[id] || id;
  const seedOf = {};
  bracket.seeds.forEach((id, index) => (seedOf[id] = index + 1));
  // Group by part and round, keeping the server's order within a round.
  const groups = new Map();
  for (const match of bracket.matches) {
    const key = `${match.part}:${match.round}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(match);
  }
  const titles = {};
  for (const [key, matches] of groups) {
    const [part, round] = key.split(":");
    const name = roundTitle(part, Number(round), levels, bracket.double);
    matches.forEach((m, i) => (titles[m.id] = matchTitle(name, i + 1, matches.length)));
  }

  function side(source, winner) {
    const entrant = source.entrant;
    const bye = entrant === "";
    const known = entrant !== null && entrant !== undefined && !bye;
    let text;
    if (bye) text = "Bye";
    else if (known) text = nameOf(entrant);
    else if (source.from === "seed") text = `Seed ${source.seed}`;
    else text = `${source.from === "winner" ? "Winner" : "Loser"} of ${titles[source.match] || source.match}`;
    const seed = known ? seedOf[entrant] || null : null;
    return { entrant: known ? entrant : null, name: known ? nameOf(entrant) : null, seed, text, bye, won: known && winner === entrant };
  }

  function view(match) {
    const top = side(match.top, match.winner);
    const bottom = side(match.bottom, match.winner);
    let state;
    let note;
    if (!match.needed) {
      state = "not_needed";
      note = "Not played: the winners' bracket champion won the grand final.";
    } else if (top.bye || bottom.bye) {
      const through = top.bye ? bottom : top;
      state = through.entrant ? "bye" : "waiting";
      note = through.entrant ? `${through.name} goes through on a bye.` : `${through.text} goes through on a bye.`;
    } else if (match.winner) {
      state = "won";
      const [winner, loser] = top.won ? [top, bottom] : [bottom, top];
      note = `${winner.name} beat ${loser.name}.`;
    } else if (top.entrant && bottom.entrant) {
      state = match.played ? "in_play" : "ready";
      note = match.played ? `Playing in round ${match.played.round}, board ${match.played.board}.` : "Ready to be paired.";
    } else {
      state = "waiting";
      note = "Waiting for earlier matches.";
    }
    if (match.id === "GF2" && match.needed && !match.winner) {
      note += " Played because the losers' bracket champion won the grand final: both have now lost once.";
    }
    return {
      id: match.id,
      title: titles[match.id],
      top,
      bottom,
      state,
      winner: match.winner && match.winner !== "" ? nameOf(match.winner) : null,
      note,
      played: match.played || null,
    };
  }

  const parts = [];
  for (const part of PART_ORDER) {
    const rounds = [];
    for (const [key, matches] of groups) {
      const [p, round] = key.split(":");
      if (p !== part) continue;
      rounds.push({ part, round: Number(round), title: roundTitle(part, Number(round), levels, bracket.double), matches: matches.map(view) });
    }
    if (!rounds.length) continue;
    rounds.sort((a, b) => a.round - b.round);
    const title = !bracket.double ? "Bracket" : part === "winners" ? "Winners' bracket" : part === "losers" ? "Losers' bracket" : bracket.reset ? "Grand final (with a reset)" : "Grand final";
    parts.push({ part, title, rounds });
  }
  return {
    drawn: Boolean(bracket.drawn),
    double: Boolean(bracket.double),
    reset: Boolean(bracket.reset),
    seeds: bracket.seeds.map((id, index) => ({ seed: index + 1, entrant: id, name: nameOf(id) })),
    parts,
    champion: bracket.champion ? nameOf(bracket.champion) : null,
  };
}

/** One line for a stage: "Stage 2 of 2: Knockout of the top 4 (double elimination) · in play". */
export function stageLine(stage, count, previous, labels) {
  const kind = labels[stage.kind] || stage.kind;
  const bits = [];
  if (stage.kind === "swiss") bits.push(`${stage.rounds} round${stage.rounds === 1 ? "" : "s"}`);
  if (stage.kind === "round_robin" && stage.double) bits.push("everyone twice");
  if (stage.kind === "knockout") bits.push(stage.double ? `double elimination${stage.reset ? ", grand final reset" : ""}` : "single elimination");
  const who = previous && previous.advance ? ` of the top ${previous.advance}` : "";
  const status = { complete: "complete", in_play: "in play", waiting: "not started" }[stage.status] || stage.status;
  const advance = stage.advance ? `; the top ${stage.advance} go on` : "";
  return `Stage ${stage.number} of ${count}: ${kind}${who} (${bits.join(", ")}${advance}) · ${status}`;
}
