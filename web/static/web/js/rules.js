// Table rules in words, and the presets the server offers (GET /api/presets).

import { api } from "./api.js";

export const PRESET_LABELS = { standard: "Standard", easy: "Easy rules", bicycle: "Bicycle" };

export function presetLabel(name) {
  return PRESET_LABELS[name] || name.charAt(0).toUpperCase() + name.slice(1);
}

/** "Standard rules", "Easy rules", "Bicycle rules": a preset's name as a title, said once. */
export function presetTitle(name) {
  const label = presetLabel(name);
  return /\brules$/i.test(label) ? label : `${label} rules`;
}

/** One line: "Game to 500 · Nil ±100 · Blind nil off · Set −10 × bid · 10 bags −100". */
export function rulesSummary(rules) {
  const parts = [
    rules.hands
      ? `${rules.hands} hand${rules.hands === 1 ? "" : "s"}` +
        (rules.extra_hands ? `, up to ${rules.extra_hands} more to break a tie` : "")
      : `Game to ${rules.target_score}`,
  ];
  if (rules.lose_score !== null && rules.lose_score !== undefined) {
    parts.push(`lose at ${String(rules.lose_score).replace("-", "−")}`);
  }
  parts.push(rules.nil ? `Nil ±${rules.nil_points}` : "No nil");
  if (rules.blind_nil) parts.push(`Blind nil ±${rules.blind_nil_points}`);
  parts.push(rules.set_penalty === "zero" ? "Set scores 0" : "Set −10 × bid");
  parts.push(rules.bag_penalty ? "10 bags −100" : "No bag penalty");
  return parts.join(" · ");
}

/** The presets, newest version of each; a built-in Standard when the server has none. */
export async function loadPresets() {
  try {
    const presets = await api("/api/presets");
    if (Array.isArray(presets) && presets.length) return presets;
  } catch {
    // fall through: the calculator and the table still work with the default
  }
  return [{ name: "standard", description: "", rules: null }];
}

/** Fill a <select> with presets (Standard first), returning them by name. */
export function fillPresetSelect(select, presets, chosen) {
  const byName = new Map();
  const ordered = [...presets].sort((a, b) => (a.name === "standard" ? -1 : b.name === "standard" ? 1 : a.name.localeCompare(b.name)));
  select.replaceChildren();
  for (const preset of ordered) {
    byName.set(preset.name, preset);
    const option = document.createElement("option");
    option.value = preset.name;
    option.textContent = presetLabel(preset.name);
    select.append(option);
  }
  if (chosen && byName.has(chosen)) select.value = chosen;
  return byName;
}

// ------------------------------------------------------------------ the options form
// The same checkboxes on the play page (custom rules) and the calculator. A form holds
// inputs named after the options: target_score (select), lose_score, nil, blind_nil,
// bicycle, bag_penalty, nil_tricks_count_for_partner, and on the play page also
// two_of_clubs_leads and breaking_spades.

const CHECKBOXES = [
  "lose_score",
  "nil",
  "blind_nil",
  "bicycle",
  "bag_penalty",
  "nil_tricks_count_for_partner",
  "two_of_clubs_leads",
  "breaking_spades",
];
const DEFAULT_LOSE_SCORE = -200;

export const STANDARD_RULES = {
  target_score: 500,
  lose_score: null,
  nil: true,
  nil_points: 100,
  blind_nil: false,
  blind_nil_points: 200,
  blind_nil_min_deficit: 100,
  set_penalty: "minus_bid",
  bag_penalty: true,
  nil_tricks_count_for_partner: false,
  first_lead: "left_of_dealer",
  breaking_spades: true,
};

/** The form's options for a set of rules. */
export function optionsFromRules(rules) {
  return {
    target_score: rules.target_score,
    lose_score: rules.lose_score !== null && rules.lose_score !== undefined,
    nil: rules.nil,
    blind_nil: rules.blind_nil,
    bicycle: rules.set_penalty === "zero",
    bag_penalty: rules.bag_penalty,
    nil_tricks_count_for_partner: rules.nil_tricks_count_for_partner,
    two_of_clubs_leads: rules.first_lead === "two_of_clubs",
    breaking_spades: rules.breaking_spades,
  };
}

/** Rules: ``base`` (a preset's rules) changed by the options. */
export function rulesFromOptions(options, base = STANDARD_RULES) {
  const loseScore = base.lose_score ?? DEFAULT_LOSE_SCORE;
  return {
    ...base,
    target_score: Number(options.target_score),
    lose_score: options.lose_score ? loseScore : null,
    nil: options.nil,
    blind_nil: options.blind_nil,
    set_penalty: options.bicycle ? "zero" : "minus_bid",
    bag_penalty: options.bag_penalty,
    nil_tricks_count_for_partner: options.nil_tricks_count_for_partner,
    first_lead:
      options.two_of_clubs_leads === undefined
        ? base.first_lead
        : options.two_of_clubs_leads
          ? "two_of_clubs"
          : "left_of_dealer",
    breaking_spades: options.breaking_spades ?? base.breaking_spades,
  };
}

/** The fields of ``rules`` that differ from ``base``. */
export function ruleChanges(rules, base) {
  return Object.fromEntries(Object.entries(rules).filter(([key, value]) => base[key] !== value));
}

/** Put options into the form (a target score not in the list is added to it). */
export function showOptions(form, options) {
  const target = form.elements.target_score;
  const value = String(options.target_score);
  if (![...target.options].some((option) => option.value === value)) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = `${value} points`;
    target.append(option);
  }
  target.value = value;
  for (const name of CHECKBOXES) {
    if (form.elements[name]) form.elements[name].checked = Boolean(options[name]);
  }
}

/** The options ticked in the form (options the form lacks keep their value in ``base``). */
export function readOptions(form, base) {
  const options = { ...base, target_score: Number(form.elements.target_score.value) };
  for (const name of CHECKBOXES) {
    if (form.elements[name]) options[name] = form.elements[name].checked;
  }
  return options;
}
