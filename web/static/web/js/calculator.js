// The score calculator for paper games. The server scores (POST /api/scoresheet); this
// page collects bids and tricks, checks the tricks add up to 13, shows each team's
// breakdown, and keeps the sheet in localStorage.

import { api } from "./api.js";
import { breakdownElement, points, signed } from "./breakdown.js";
import {
  fillPresetSelect,
  loadPresets,
  optionsFromRules,
  readOptions,
  rulesFromOptions,
  showOptions,
  STANDARD_RULES,
} from "./rules.js";
import { TEAM_NAMES, TEAMS } from "./table/words.js";

const $ = (id) => document.getElementById(id);
const STORE_KEY = "spades.calculator";
const SEATS = ["north", "east", "south", "west"];
const SEAT_LABELS = { north: "North", east: "East", south: "South", west: "West" };

let presets = new Map();
let state = load();
let previewTimer = null;
let previewSerial = 0;

function emptyDraft() {
  return {
    bids: Object.fromEntries(SEATS.map((s) => [s, ""])),
    tricks: Object.fromEntries(SEATS.map((s) => [s, ""])),
  };
}

function load() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
  } catch {
    saved = null;
  }
  if (!saved || !Array.isArray(saved.hands)) {
    return { preset: "standard", options: null, hands: [], draft: emptyDraft() };
  }
  saved.draft = saved.draft && saved.draft.bids ? saved.draft : emptyDraft();
  return saved;
}

function save() {
  localStorage.setItem(STORE_KEY, JSON.stringify(state));
}

// ------------------------------------------------------------------ rules

/** The scoresheet's rules: the chosen preset's rules with the options ticked here. */
function rulesSpec() {
  const preset = presets.get(state.preset);
  const base = preset && preset.rules ? preset.rules : STANDARD_RULES;
  return { ...rulesFromOptions(state.options, base), preset: "standard" };
}

function presetOptions() {
  const preset = presets.get(state.preset);
  return optionsFromRules(preset && preset.rules ? preset.rules : STANDARD_RULES);
}

// ------------------------------------------------------------------ entry

function bidSelect(seat) {
  const select = document.createElement("select");
  select.id = `bid-${seat}`;
  select.name = `bid-${seat}`;
  select.dataset.seat = seat;
  // Before the presets have loaded every bid is offered; the rules then narrow the list.
  fillBidChoices(select, state.options ? rulesSpec() : { nil: true, blind_nil: true });
  return select;
}

/** The bids the rules allow: Nil and Blind nil only when the rules have them. */
function bidChoices(rules) {
  const choices = [["", "–"]];
  if (rules.nil) choices.push(["nil", "Nil (0)"]);
  if (rules.blind_nil) choices.push(["blind_nil", "Blind nil"]);
  for (let n = 1; n <= 13; n += 1) choices.push([String(n), String(n)]);
  return choices;
}

function fillBidChoices(select, rules) {
  const kept = select.value;
  const choices = bidChoices(rules);
  select.replaceChildren(
    ...choices.map(([value, text]) => {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = text;
      return option;
    }),
  );
  // A bid the new rules forbid is cleared from the draft rather than kept out of sight.
  select.value = choices.some(([value]) => value === kept) ? kept : "";
}

/** After a rule change: offer only the bids the rules allow, in the entry rows. */
function refreshBidChoices() {
  const rules = rulesSpec();
  for (const seat of SEATS) {
    const select = $(`bid-${seat}`);
    if (!select) continue;
    fillBidChoices(select, rules);
    state.draft.bids[seat] = select.value;
  }
}

function buildEntryRows() {
  const body = $("entry-rows");
  body.replaceChildren();
  for (const seat of SEATS) {
    const row = document.createElement("tr");
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = `${SEAT_LABELS[seat]} (${seat === "north" || seat === "south" ? "N-S" : "E-W"})`;
    const bidCell = document.createElement("td");
    const select = bidSelect(seat);
    select.setAttribute("aria-label", `${SEAT_LABELS[seat]}'s bid`);
    bidCell.append(select);
    const tricksCell = document.createElement("td");
    const input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.max = "13";
    input.step = "1";
    input.inputMode = "numeric";
    input.id = `tricks-${seat}`;
    input.dataset.seat = seat;
    input.setAttribute("aria-label", `${SEAT_LABELS[seat]}'s tricks`);
    tricksCell.append(input);
    row.append(name, bidCell, tricksCell);
    body.append(row);
  }
}

function showDraft() {
  for (const seat of SEATS) {
    $(`bid-${seat}`).value = state.draft.bids[seat];
    $(`tricks-${seat}`).value = state.draft.tricks[seat];
  }
  $("entry-number").textContent = String(state.hands.length + 1);
}

function readDraft() {
  for (const seat of SEATS) {
    state.draft.bids[seat] = $(`bid-${seat}`).value;
    state.draft.tricks[seat] = $(`tricks-${seat}`).value.trim();
  }
}

/** The draft as a scoresheet hand, or a sentence saying what is missing. */
function draftHand() {
  const bids = {};
  const tricks = {};
  for (const seat of SEATS) {
    const bid = state.draft.bids[seat];
    if (bid === "") return { problem: `Choose ${SEAT_LABELS[seat]}'s bid.` };
    bids[seat] = bid === "nil" || bid === "blind_nil" ? bid : Number(bid);
  }
  for (const seat of SEATS) {
    const raw = state.draft.tricks[seat];
    if (raw === "") return { problem: `Enter ${SEAT_LABELS[seat]}'s tricks.`, bids };
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 13) {
      return { problem: `${SEAT_LABELS[seat]}'s tricks must be a whole number from 0 to 13.`, bids };
    }
    tricks[seat] = value;
  }
  const total = SEATS.reduce((sum, seat) => sum + tricks[seat], 0);
  if (total !== 13) {
    return { problem: `The tricks add up to ${total}, not 13: check the count before scoring.`, bids, tricks };
  }
  return { hand: { bids, tricks } };
}

function showTrickCount() {
  const entered = SEATS.filter((s) => state.draft.tricks[s] !== "");
  const total = entered.reduce((sum, s) => sum + (Number(state.draft.tricks[s]) || 0), 0);
  const line = $("trick-count");
  line.classList.remove("wrong", "right");
  if (!entered.length) {
    line.textContent = "Tricks: enter them when the hand ends (they must add up to 13).";
    return;
  }
  if (entered.length === 4 && total === 13) {
    line.textContent = "Tricks add up to 13.";
    line.classList.add("right");
  } else {
    line.textContent = `Tricks so far: ${total} of 13.`;
    if (entered.length === 4 || total > 13) line.classList.add("wrong");
  }
}

function onEntryInput() {
  readDraft();
  save();
  showTrickCount();
  $("entry-error").textContent = "";
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 250);
}

async function preview() {
  const box = $("previews");
  const { hand } = draftHand();
  const serial = ++previewSerial;
  if (!hand) {
    box.replaceChildren();
    return;
  }
  try {
    const result = await api("/api/scoresheet", {
      method: "POST",
      body: { rules: rulesSpec(), hands: [...state.hands, hand] },
    });
    if (serial !== previewSerial) return;
    const last = result.hands[result.hands.length - 1];
    box.replaceChildren(
      ...TEAMS.map((team) => {
        const block = breakdownElement(last[team], `Preview: ${TEAM_NAMES[team]}`);
        block.classList.add("preview");
        block.dataset.team = team;
        return block;
      }),
    );
  } catch (problem) {
    if (serial !== previewSerial) return;
    box.replaceChildren();
    $("entry-error").textContent = problem.message;
  }
}

async function scoreHand(event) {
  event.preventDefault();
  readDraft();
  const error = $("entry-error");
  const { hand, problem } = draftHand();
  if (!hand) {
    error.textContent = problem;
    return;
  }
  try {
    const result = await api("/api/scoresheet", {
      method: "POST",
      body: { rules: rulesSpec(), hands: [...state.hands, hand] },
    });
    state.hands.push(hand);
    state.draft = emptyDraft();
    save();
    showDraft();
    showTrickCount();
    $("previews").replaceChildren();
    error.textContent = "";
    showSheet(result);
    $(`bid-north`).focus();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

// ------------------------------------------------------------------ the sheet

/** Rows for the hands after the last one scored: the invalid one with its reason, then the rest. */
function appendUnscored(rows, scoredCount, invalid) {
  state.hands.slice(scoredCount).forEach((hand, k) => {
    const number = scoredCount + k + 1;
    const row = document.createElement("tr");
    row.dataset.hand = String(number);
    row.className = number === invalid.hand ? "invalid" : "unscored";
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = String(number);
    const bids = document.createElement("td");
    bids.textContent = SEATS.map((s) => bidLabel(hand.bids[s])).join(" ");
    const tricks = document.createElement("td");
    tricks.textContent = SEATS.map((s) => hand.tricks[s]).join(" ");
    const why = document.createElement("td");
    why.colSpan = 2;
    why.className = "why";
    why.textContent = number === invalid.hand ? `Not valid: ${invalid.message}` : "Not scored (after an invalid hand)";
    row.append(head, bids, tricks, why);
    rows.append(row);
  });
}

function bidLabel(bid) {
  if (bid === "nil") return "Nil";
  if (bid === "blind_nil") return "BN";
  return String(bid);
}

function showSheet(result, invalid = null) {
  const rows = $("sheet-rows");
  rows.replaceChildren();
  const details = $("sheet-details");
  details.replaceChildren();
  const scored = result ? result.hands : [];
  scored.forEach((teams, i) => {
    const hand = state.hands[i];
    const row = document.createElement("tr");
    row.dataset.hand = String(i + 1);
    const cells = [
      String(i + 1),
      SEATS.map((s) => bidLabel(hand.bids[s])).join(" "),
      SEATS.map((s) => hand.tricks[s]).join(" "),
      ...TEAMS.map((team) => `${signed(teams[team].hand_score)} → ${points(teams[team].total)}`),
    ];
    cells.forEach((text, c) => {
      const cell = document.createElement(c === 0 ? "th" : "td");
      if (c === 0) cell.scope = "row";
      if (c >= 3) {
        cell.className = "num";
        cell.dataset.team = TEAMS[c - 3];
      }
      cell.textContent = text;
      row.append(cell);
    });
    rows.append(row);
    if (invalid && i + 1 === scored.length) appendUnscored(rows, scored.length, invalid);
    const more = document.createElement("details");
    more.className = "hand-details";
    const summary = document.createElement("summary");
    summary.textContent = `How hand ${i + 1} was scored`;
    more.append(summary);
    const grid = document.createElement("div");
    grid.className = "previews";
    for (const team of TEAMS) grid.append(breakdownElement(teams[team], TEAM_NAMES[team]));
    more.append(grid);
    more.open = i === scored.length - 1; // the newest hand's arithmetic, ready to check
    details.append(more);
  });
  if (invalid && !scored.length) appendUnscored(rows, 0, invalid);
  const totals = result ? result.totals : { north_south: 0, east_west: 0 };
  const lastHand = scored.length ? scored[scored.length - 1] : null;
  for (const team of TEAMS) {
    $(`total-${team}`).textContent = points(totals[team]);
    $(`bags-${team}`).textContent = lastHand ? String(lastHand[team].bags) : "0";
  }
  const banner = $("winner");
  if (result && result.winner) {
    const loser = result.winner === "north_south" ? "east_west" : "north_south";
    banner.textContent = `${TEAM_NAMES[result.winner]} wins, ${points(totals[result.winner])} to ${points(totals[loser])} (after hand ${result.finished_after_hand}).`;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  $("score-hand").disabled = Boolean(invalid) || Boolean(result && result.winner);
  $("undo-hand").disabled = state.hands.length === 0;
  $("sheet").classList.toggle("has-invalid", Boolean(invalid));
  $("totals-note").textContent = invalid
    ? scored.length
      ? `Totals after hand ${scored.length}: hand ${invalid.hand} is not valid under these rules.`
      : `No totals: hand ${invalid.hand} is not valid under these rules.`
    : "";
  $("entry-number").textContent = String(state.hands.length + 1);
}

/**
 * Score every hand again under the rules now chosen. A hand those rules forbid (a nil when
 * nil is off) is marked with the reason; the totals are those of the hands before it, and
 * the hands after it are not scored, so no total from the old rules stays on screen.
 */
async function rescore() {
  const note = $("rules-note");
  note.classList.remove("form-error");
  note.textContent = "Changing the rules re-scores every hand.";
  if (!state.hands.length) {
    showSheet(null);
    return;
  }
  const score = (hands) =>
    api("/api/scoresheet", { method: "POST", body: { rules: rulesSpec(), hands } });
  try {
    showSheet(await score(state.hands));
  } catch (problem) {
    const bad = problem && problem.body && Number.isInteger(problem.body.hand) ? problem.body.hand : null;
    let before = null;
    if (bad && bad > 1) {
      try {
        before = await score(state.hands.slice(0, bad - 1));
      } catch {
        before = null;
      }
    }
    showSheet(before, { hand: bad || 1, message: problem.message });
    note.textContent = bad
      ? `Under these rules hand ${bad} cannot be scored: ${problem.message} Change the rules back, or remove hands from ${bad} on.`
      : problem.message;
    note.classList.add("form-error");
  }
}

// ------------------------------------------------------------------ start

export async function start() {
  // The entry rows first, before anything is awaited, so typing never races the setup.
  buildEntryRows();
  showDraft();
  showTrickCount();
  presets = fillPresetSelect($("calc-preset"), await loadPresets(), state.preset);
  if (!presets.has(state.preset)) state.preset = "standard";
  if (!state.options) state.options = presetOptions();
  $("calc-preset").value = state.preset;
  showOptions($("rules-form"), state.options);
  refreshBidChoices();
  showDraft();

  $("calc-preset").addEventListener("change", () => {
    state.preset = $("calc-preset").value;
    state.options = presetOptions();
    showOptions($("rules-form"), state.options);
    refreshBidChoices();
    save();
    rescore();
    preview();
  });
  $("rules-form").addEventListener("change", (event) => {
    if (event.target.id === "calc-preset") return;
    state.options = readOptions($("rules-form"), state.options);
    refreshBidChoices();
    save();
    rescore();
    preview();
  });
  $("entry-form").addEventListener("input", onEntryInput);
  $("entry-form").addEventListener("change", onEntryInput);
  $("entry-form").addEventListener("submit", scoreHand);
  $("clear-entry").addEventListener("click", () => {
    state.draft = emptyDraft();
    save();
    showDraft();
    showTrickCount();
    $("previews").replaceChildren();
    $("entry-error").textContent = "";
  });
  $("undo-hand").addEventListener("click", () => {
    state.hands.pop();
    save();
    rescore();
    preview();
  });
  $("new-sheet").addEventListener("click", () => {
    if (state.hands.length && !window.confirm("Start a new game? The scored hands are cleared.")) return;
    state.hands = [];
    state.draft = emptyDraft();
    save();
    showDraft();
    showTrickCount();
    $("previews").replaceChildren();
    rescore();
  });
  await rescore();
  preview();
  document.body.dataset.ready = "true";
}
