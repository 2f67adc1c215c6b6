// A competition's settings from the "create a competition" form, as POST /api/competitions
// takes them (docs/leagues.md). Pure.

// What the server accepts for stages (leagues/core/stages.py, knockout.py).
export const MAX_STAGES = 8;
export const MAX_SWISS_ROUNDS = 64;
export const MAX_ADVANCE = 1024;
export const STAGE_FIELD_WORDS = {
  kind: "Format",
  rounds: "Rounds",
  advance: "How many go on",
  double: "Double",
  reset: "Grand final reset",
};

// What the server accepts for a duplicate competition (leagues/domain/settings.py,
// docs/leagues.md "Duplicate competitions").
export const MAX_BOARDS_PER_ROUND = 36;
export const MAX_PAR_PLAYS = 8;
export const DUPLICATE_MOVEMENTS = ["mitchell", "mitchell_arrow_switch", "teams_of_four"];
export const MOVEMENT_WORDS = {
  mitchell: "Mitchell",
  mitchell_arrow_switch: "Mitchell with arrow switch",
  teams_of_four: "teams of four",
};
export const SCALE_WORDS = { matchpoints: "matchpoints", imps: "IMPs" };

/** The `duplicate` setting from its fields as typed (`{boards, movement, scale, par_plays}`). */
export function duplicateFromForm(typed) {
  return {
    boards_per_round: Number(typed.boards),
    movement: typed.movement || "mitchell",
    scale: typed.scale || "matchpoints",
    par_plays: Number(typed.par_plays),
  };
}

/**
 * What the server would refuse in a duplicate setting (as `duplicateFromForm` makes it)
 * with these stages, in words, before sending: `[{field, stage?, message}]`; `field` is
 * `boards`, `par_plays` or a stage's `kind` (then `stage` is its number, from 1).
 */
export function duplicateProblems(duplicate, stages) {
  const problems = [];
  if (!whole(duplicate.boards_per_round, 1, MAX_BOARDS_PER_ROUND)) {
    problems.push({ field: "boards", message: `Boards a round: a whole number from 1 to ${MAX_BOARDS_PER_ROUND}.` });
  }
  if (!whole(duplicate.par_plays, 1, MAX_PAR_PLAYS)) {
    problems.push({ field: "par_plays", message: `Par plays a board: a whole number from 1 to ${MAX_PAR_PLAYS}.` });
  }
  stages.forEach((stage, index) => {
    if (stage.kind === "knockout") {
      problems.push({
        field: "kind",
        stage: index + 1,
        message: `Stage ${index + 1}: a duplicate competition has no knockout stage (a level match would need a hand beyond the round's boards): choose Swiss or round robin.`,
      });
    }
  });
  return problems;
}

/** The duplicate field a server refusal names (`boards`, `par_plays`), or null. */
export function duplicateRefusalField(message) {
  if (/boards[ _]per[ _]round/i.test(message || "")) return "boards";
  if (/par[ _]plays/i.test(message || "")) return "par_plays";
  return null;
}

/** "Duplicate: Mitchell, 4 boards a round, matchpoints" (null: not duplicate). */
export function duplicateSummary(duplicate) {
  if (!duplicate) return null;
  const boards = duplicate.boards_per_round;
  const movement = MOVEMENT_WORDS[duplicate.movement] || duplicate.movement;
  const scale = SCALE_WORDS[duplicate.scale] || duplicate.scale;
  return `Duplicate: ${movement}, ${boards} board${boards === 1 ? "" : "s"} a round, ${scale}`;
}

/** A stage as the API takes it, from its fields as typed (`last`: no `advance`). */
export function stageFromForm(typed, last) {
  const stage = { kind: typed.kind };
  if (typed.kind === "swiss") stage.rounds = Number(typed.rounds);
  if (typed.double && typed.kind !== "swiss") stage.double = true;
  if (typed.kind === "knockout" && typed.double && typed.reset) stage.reset = true;
  if (!last) stage.advance = Number(typed.advance);
  return stage;
}

const whole = (value, low, high) => Number.isInteger(value) && value >= low && value <= high;

/**
 * What the server would refuse in these stages (as `stageFromForm` makes them), in
 * words, before sending: `[{stage, field, message}]` (`stage` 1-based; none: fine).
 */
export function stageProblems(stages) {
  const problems = [];
  if (!stages.length || stages.length > MAX_STAGES) {
    problems.push({ stage: 0, field: "kind", message: `A competition has 1 to ${MAX_STAGES} stages.` });
    return problems;
  }
  let previous = null;
  stages.forEach((stage, index) => {
    const number = index + 1;
    const last = number === stages.length;
    const say = (field, message) => problems.push({ stage: number, field, message: `Stage ${number}: ${message}` });
    if (stage.kind === "swiss" && !whole(stage.rounds, 1, MAX_SWISS_ROUNDS)) {
      say("rounds", `a Swiss stage has 1 to ${MAX_SWISS_ROUNDS} rounds.`);
    }
    if (stage.kind === "knockout" && !last) say("kind", "a knockout can only be the last stage.");
    if (!last) {
      if (!whole(stage.advance, 2, MAX_ADVANCE)) {
        say("advance", `say how many go on to stage ${number + 1} (2 to ${MAX_ADVANCE}).`);
      } else if (previous !== null && stage.advance >= previous) {
        say("advance", `each stage sends on fewer entrants than the one before (stage ${number - 1}: ${previous}).`);
      }
      if (whole(stage.advance, 2, MAX_ADVANCE)) previous = stage.advance;
    }
  });
  return problems;
}

/**
 * The server's refusal of a stage (``Stage 2 rounds is a whole number from 0 to 64.``,
 * ``Stage 2: a knockout can only be the last stage.``; the API capitalises its sentences,
 * games/engine/rule_words.in_words) with the field's label in place of its name:
 * `{stage, field, text}`, or null for any other refusal.
 */
export function stageRefusal(message) {
  const match = /^[Ss]tage (\d+)(?: (kind|rounds|advance|double|reset))?:? (.*)$/.exec(message || "");
  if (!match) return null;
  const [, number, field, rest] = match;
  const label = field ? `${STAGE_FIELD_WORDS[field]} ` : "";
  const text = `Stage ${number}: ${label}${rest}`.replace(/ is a whole number/, " must be a whole number");
  return { stage: Number(number), field: field || "kind", text };
}

/** `form`: the fields as typed; `tiebreaks`: the order chosen (the draw of lots is added last). */
export function settingsFromForm(form, tiebreaks) {
  const typed = form.stages || [{ kind: form.format, rounds: form.rounds, double: form.double }];
  const stages = typed.map((stage, index) => stageFromForm(stage, index === typed.length - 1));
  const settings = {
    name: form.name.trim(),
    stages,
    rules: form.preset || "standard",
    match_points: { win: Number(form.win), draw: Number(form.draw), loss: Number(form.loss), bye: Number(form.bye) },
    tiebreaks: [...tiebreaks.filter((t) => t !== "lots"), "lots"],
  };
  // A duplicate table plays one hand a board: the server sets fixed_hands to the boards.
  if (form.duplicate) settings.duplicate = duplicateFromForm(form.duplicate);
  else if (form.match === "fixed") settings.fixed_hands = Number(form.hands);
  if (form.bots) settings.bot_level = form.bots;
  // Only a first-stage knockout is seeded this way; a later one by the standings before it.
  if (stages[0].kind === "knockout" && form.seeding) settings.knockout_seeding = form.seeding;
  // Sent as typed (a whole number 0-13): the server refuses anything else, with its reason.
  if (form.delay !== undefined && String(form.delay).trim() !== "" && Number(form.delay) !== 0) {
    settings.spectator_delay_tricks = Number(form.delay);
  }
  return settings;
}

/** An entrant id from its name ("The Aces" -> "the-aces"), unique among `taken`. */
export function entrantId(name, taken) {
  const slug = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  const stem = slug || "entrant";
  let id = stem;
  for (let n = 2; taken.includes(id); n += 1) id = `${stem}-${n}`;
  return id;
}
