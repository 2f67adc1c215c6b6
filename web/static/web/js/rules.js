// Table rules in words, and the presets the server offers (GET /api/presets).

import { api } from "./api.js";

export const PRESET_LABELS = { standard: "Standard", easy: "Easy rules", bicycle: "Bicycle" };

export function presetLabel(name) {
  return PRESET_LABELS[name] || name.charAt(0).toUpperCase() + name.slice(1);
}

/** One line: "Game to 500 · Nil ±100 · Blind nil off · Set −10 × bid · 10 bags −100". */
export function rulesSummary(rules) {
  const parts = [`Game to ${rules.target_score}`];
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
