// A competition's settings from the "create a competition" form, as POST /api/competitions
// takes them (docs/leagues.md). Pure.

/** `form`: the fields as typed; `tiebreaks`: the order chosen (the draw of lots is added last). */
export function settingsFromForm(form, tiebreaks) {
  const kind = form.format;
  const stage = { kind };
  if (kind === "swiss") stage.rounds = Number(form.rounds);
  if (form.double) stage.double = true;
  const settings = {
    name: form.name.trim(),
    stages: [stage],
    rules: form.preset || "standard",
    match_points: { win: Number(form.win), draw: Number(form.draw), loss: Number(form.loss), bye: Number(form.bye) },
    tiebreaks: [...tiebreaks.filter((t) => t !== "lots"), "lots"],
  };
  if (form.match === "fixed") settings.fixed_hands = Number(form.hands);
  if (form.bots) settings.bot_level = form.bots;
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
