// The replay page (/tables/<id>/replay/): a table's finished hands card by card, all four
// hands face up, for auditors. It reads only public endpoints: the replay (finished hands
// only, never the hand in play), the verification, the presets and the rescoring.

import { api, problemText } from "../api.js";
import { breakdownElement, points, signed } from "../breakdown.js";
import { cardText } from "../cards.js";
import { chartKey, scoreChart } from "../chart.js";
import { loadPresets, presetTitle } from "../rules.js";
import { TableRenderer } from "../table/renderer.js";
import { bidText, capital, SEATS, TEAM_NAMES } from "../table/words.js";
import { comparisonRows, flagsByHand, flagText } from "./comparison.js";
import { replaySteps, trickStepIndex } from "./stepper.js";

export const PLAY_STEP_MS = 700; // between two steps while playing

const $ = (id) => document.getElementById(id);
const section = $("replay-section");
const tableId = section.dataset.tableId;
// A duplicate board's par play (/competitions/<id>/rounds/<n>/boards/<b>/par/<i>/): the
// leagues API plays it again from the revealed seeds; no table, so nothing to verify,
// download or rescore here.
const parSource = section.dataset.parSource || null;

const app = {
  replay: null,
  par: null, // a par play (its board score and version), when the page shows one
  hand: 1,
  states: [],
  index: 0,
  timer: null,
  rescored: null, // {name, answer}
  renderer: new TableRenderer(section, { onTitle: () => {} }),
};

// ------------------------------------------------------------------ stepping

function showStep(index) {
  const states = app.states;
  if (!states.length) return;
  app.index = Math.max(0, Math.min(index, states.length - 1));
  const state = states[app.index];
  app.renderer.render(state, state.shown);
  let label = state.step.label;
  const forbidden = forbiddenHere(state);
  if (forbidden) {
    label += ` Forbidden under ${presetTitle(app.rescored.name)}: ${forbidden.reason}`;
    markForbiddenCard(forbidden);
  }
  $("step-label").textContent = label;
  section.dataset.step = String(app.index);
  section.dataset.stepKind = state.step.kind;
  const slider = $("step-slider");
  slider.value = String(app.index);
  slider.setAttribute("aria-valuetext", `Step ${app.index + 1} of ${states.length}: ${state.step.label}`);
  $("trick-picker").value = state.step.trick ? String(state.step.trick) : "";
  $("step-back").disabled = app.index === 0;
  $("step-first").disabled = app.index === 0;
  const atEnd = app.index === states.length - 1;
  $("step-forward").disabled = atEnd;
  $("step-last").disabled = atEnd;
  if (atEnd) stopPlaying();
}

/** The rescoring's flag when the step shown is the action the other rules forbid. */
function forbiddenHere(state) {
  if (!app.rescored) return null;
  const flag = flagsByHand(app.rescored.answer).get(app.hand);
  if (!flag) return null;
  const step = state.step;
  if (flag.action === "play" && step.kind === "play" && step.index === flag.index) return flag;
  if (flag.action === "bid" && step.kind === "bid" && step.index === flag.index) return flag;
  if (flag.action === "pass" && step.kind === "pass") return flag;
  return null;
}

function markForbiddenCard(flag) {
  if (flag.action !== "play") return;
  const face = section.querySelector(`.trick-slot .card[data-card="${flag.card}"]`);
  if (!face) return;
  face.classList.add("forbidden");
  face.setAttribute("aria-label", `${face.getAttribute("aria-label")} (forbidden under ${presetTitle(app.rescored.name)})`);
}

function startPlaying() {
  if (app.index >= app.states.length - 1) showStep(0);
  const button = $("play-pause");
  button.textContent = "Pause";
  button.setAttribute("aria-pressed", "true");
  clearInterval(app.timer);
  app.timer = setInterval(() => showStep(app.index + 1), PLAY_STEP_MS);
}

function stopPlaying() {
  clearInterval(app.timer);
  app.timer = null;
  const button = $("play-pause");
  button.textContent = "Play";
  button.setAttribute("aria-pressed", "false");
}

function chooseHand(number) {
  stopPlaying();
  app.hand = number;
  app.states = replaySteps(app.replay, number);
  $("hand-picker").value = String(number);
  $("step-slider").max = String(app.states.length - 1);
  showHandDetails();
  drawHistory();
  showStep(0);
}

// ------------------------------------------------------------------ panels

function showHandDetails() {
  const k = app.hand - 1;
  const recordHand = app.replay.record.hands[k];
  const result = app.replay.hands[k];
  $("hand-details-heading").textContent = `Hand ${app.hand}: bids and score`;
  const rows = SEATS.map((seat) => {
    const row = document.createElement("tr");
    row.dataset.seat = seat;
    const name = document.createElement("th");
    name.scope = "row";
    name.textContent = capital(seat);
    const bid = document.createElement("td");
    bid.className = "bid";
    bid.textContent = bidText(recordHand.bids[seat]);
    const tricks = document.createElement("td");
    tricks.className = "num tricks";
    tricks.textContent = String(result.tricks[seat]);
    row.append(name, bid, tricks);
    return row;
  });
  $("bids-rows").replaceChildren(...rows);
  const breakdown = $("hand-breakdown");
  breakdown.replaceChildren(
    ...["north_south", "east_west"].map((team) => {
      const block = breakdownElement(result[team], TEAM_NAMES[team]);
      block.dataset.team = team;
      return block;
    }),
  );
}

function drawHistory() {
  const rules = app.replay.record.rules;
  const marks = [{ value: rules.target_score, label: `Game ${rules.target_score}` }];
  const chart = scoreChart(app.replay.hands, {
    title: "Score history: each side's total after every hand",
    marks,
    current: app.hand,
  });
  $("history-chart").replaceChildren(chart, chartKey());
}

function showSummary() {
  const { record, hand_in_play: inPlay, totals, winner } = app.replay;
  const table = record.table;
  const preset = presetTitle(table.preset.name);
  const score = `${TEAM_NAMES.north_south} ${points(totals.north_south)}, ${TEAM_NAMES.east_west} ${points(totals.east_west)}`;
  let text;
  if (table.status === "finished") {
    text = `${preset}. Finished: ${winner ? `${TEAM_NAMES[winner]} won` : "no winner"}, ${score}.`;
  } else {
    text = `${preset}. In play: hand ${inPlay} is being played; the ${record.hands.length} finished hand${record.hands.length === 1 ? " is" : "s are"} shown (${score}).`;
  }
  $("replay-summary").textContent = text;
  $("replay-heading").textContent = `Replay of table ${table.id.slice(0, 8)}`;
  if (app.par) {
    $("replay-heading").textContent = `Par play ${app.par.play} of board ${app.par.board}`;
    $("replay-summary").textContent =
      `${preset}. Four computer players (${app.par.bot_version}) play the board, every move ` +
      `replayed from the board's revealed seed and the play's seed. Board score: ` +
      `${TEAM_NAMES.north_south} ${points(app.par.result.north_south.points)}, ` +
      `${TEAM_NAMES.east_west} ${points(app.par.result.east_west.points)}.`;
  }
  const note = $("in-play-note");
  note.hidden = inPlay === null;
  if (inPlay !== null) note.textContent = `Hand ${inPlay} is still being played: it appears here once it is over.`;
}

function fillPickers() {
  const hands = $("hand-picker");
  hands.replaceChildren(
    ...app.replay.hands.map((result, k) => {
      const option = document.createElement("option");
      option.value = String(k + 1);
      const ns = result.north_south.hand_score;
      const ew = result.east_west.hand_score;
      option.textContent = `Hand ${k + 1} (N-S ${signed(ns)}, E-W ${signed(ew)})`;
      return option;
    }),
  );
  const tricks = $("trick-picker");
  const none = document.createElement("option");
  none.value = "";
  none.textContent = "–";
  tricks.replaceChildren(
    none,
    ...Array.from({ length: 13 }, (_, k) => {
      const option = document.createElement("option");
      option.value = String(k + 1);
      option.textContent = `Trick ${k + 1}`;
      return option;
    }),
  );
}

// ------------------------------------------------------------------ audit

async function showVerification() {
  const badge = $("verification");
  try {
    const answer = await api(`/api/tables/${tableId}/verification`);
    const state = answer.verified ? "verified" : answer.checks.some((c) => c.status === "failed") ? "failed" : "pending";
    badge.dataset.state = state;
    badge.textContent =
      state === "verified"
        ? "✓ Verified: hash chain intact, every deal matches its commitment"
        : state === "failed"
          ? `✗ Not verified: ${answer.problem ? answer.problem.message : "a check failed"}`
          : "Not yet verifiable: the deals are checked once the game is over and its seed revealed";
    $("verification-checks").replaceChildren(
      ...answer.checks.map((check) => {
        const li = document.createElement("li");
        li.dataset.check = check.name;
        li.dataset.status = check.status;
        li.textContent = `${check.status === "passed" ? "✓" : check.status === "failed" ? "✗" : "…"} ${check.detail}`;
        return li;
      }),
    );
  } catch (problem) {
    badge.dataset.state = "error";
    badge.textContent = `The verification could not be read: ${problemText(problem)}`;
  }
}

function downloadRecord() {
  const text = JSON.stringify(app.replay.record, null, 2);
  const url = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `spades-table-${tableId}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ------------------------------------------------------------------ rescoring

async function fillRescorePresets() {
  const select = $("rescore-preset");
  const own = app.replay.record.table.preset.name;
  for (const preset of await loadPresets()) {
    if (preset.name === own) continue;
    const option = document.createElement("option");
    option.value = preset.name;
    option.textContent = presetTitle(preset.name);
    select.append(option);
  }
}

async function rescoreUnder(name) {
  const summary = $("rescore-summary");
  const table = $("rescore-table");
  if (!name) {
    app.rescored = null;
    table.hidden = true;
    summary.textContent = "";
    $("rescore-flags").replaceChildren();
    showStep(app.index);
    return;
  }
  summary.textContent = "Rescoring…";
  try {
    const answer = await api(`/api/tables/${tableId}/rescore?rules=${encodeURIComponent(name)}`);
    if ($("rescore-preset").value !== name) return; // another choice since
    app.rescored = { name, answer };
  } catch (problem) {
    summary.textContent = problemText(problem);
    return;
  }
  showRescoring();
  showStep(app.index);
}

function showRescoring() {
  const { name, answer } = app.rescored;
  const own = presetTitle(app.replay.record.table.preset.name);
  const other = presetTitle(name);
  $("rescore-own-heading").textContent = own;
  $("rescore-other-heading").textContent = other;
  const cell = (result, team) => {
    const td = document.createElement("td");
    td.className = "num";
    td.dataset.team = team;
    td.textContent = result ? `${signed(result[team].hand_score)} → ${points(result[team].total)}` : "–";
    return td;
  };
  const rows = comparisonRows(app.replay.hands, answer).map((row) => {
    const tr = document.createElement("tr");
    tr.dataset.hand = String(row.hand);
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row.flag ? `${row.hand} ⚠` : String(row.hand);
    if (row.flag) {
      tr.classList.add("flagged");
      th.setAttribute("aria-label", `Hand ${row.hand}: an action ${other} forbid`);
    }
    tr.append(th, cell(row.own, "north_south"), cell(row.own, "east_west"));
    const others = [cell(row.other, "north_south"), cell(row.other, "east_west")];
    others.forEach((td) => td.classList.add("rescored"));
    tr.append(...others);
    return tr;
  });
  $("rescore-rows").replaceChildren(...rows);
  $("rescore-table").hidden = false;
  const winner = answer.winner ? `${TEAM_NAMES[answer.winner]} would win` : "no side would have won yet";
  // The verdict is the server's (scoring.core.replay.comparability): the standings' what-if
  // says the same sentence of the same table and keeps its result as played.
  $("rescore-summary").dataset.comparable = String(answer.comparable);
  $("rescore-summary").textContent =
    `Under ${other}: ${TEAM_NAMES.north_south} ${points(answer.totals.north_south)}, ${TEAM_NAMES.east_west} ${points(answer.totals.east_west)}; ${winner}.` +
    (answer.hands_after_end ? ` The game would have ended ${answer.hands_after_end} hand(s) earlier.` : "") +
    (answer.comparable
      ? " Every move played is allowed under these rules."
      : ` ${answer.reason} (⚠: those hands are scored here as played.)`);
  $("rescore-flags").replaceChildren(
    ...answer.flags.map((flag) => {
      const li = document.createElement("li");
      li.dataset.hand = String(flag.hand);
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link-button";
      button.textContent = `Hand ${flag.hand}`;
      button.setAttribute("aria-label", `Show hand ${flag.hand} at the forbidden action`);
      button.addEventListener("click", () => showFlag(flag));
      li.append(button, ` ${flagText(flag, cardText)}`);
      return li;
    }),
  );
}

function showFlag(flag) {
  chooseHand(flag.hand);
  const at = app.states.findIndex((s) => forbiddenHere(s));
  if (at >= 0) showStep(at);
}

// ------------------------------------------------------------------ start

function wire() {
  $("hand-picker").addEventListener("change", (e) => chooseHand(Number(e.target.value)));
  $("trick-picker").addEventListener("change", (e) => {
    if (!e.target.value) return;
    stopPlaying();
    showStep(trickStepIndex(app.states, Number(e.target.value)));
  });
  $("step-first").addEventListener("click", () => (stopPlaying(), showStep(0)));
  $("step-back").addEventListener("click", () => (stopPlaying(), showStep(app.index - 1)));
  $("step-forward").addEventListener("click", () => (stopPlaying(), showStep(app.index + 1)));
  $("step-last").addEventListener("click", () => (stopPlaying(), showStep(app.states.length - 1)));
  $("play-pause").addEventListener("click", () => (app.timer ? stopPlaying() : startPlaying()));
  $("step-slider").addEventListener("input", (e) => (stopPlaying(), showStep(Number(e.target.value))));
  $("download-record").addEventListener("click", downloadRecord);
  $("rescore-preset").addEventListener("change", (e) => rescoreUnder(e.target.value));
  // The arrow keys step from anywhere on the page (the focus starts on the page itself),
  // except in a field that uses them (the hand and trick pickers, the slider).
  document.addEventListener("keydown", (e) => {
    if ($("replay-body").hidden || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest && e.target.closest("select, input, textarea, [contenteditable]")) return;
    const to = { ArrowRight: app.index + 1, ArrowLeft: app.index - 1 }[e.key];
    if (to === undefined || !app.states.length) return;
    e.preventDefault();
    stopPlaying();
    showStep(to);
  });
}

export async function start() {
  wire();
  if (parSource) {
    for (const part of [".replay-audit", "#verification-details", "#rescore-panel"]) {
      section.querySelector(part).hidden = true;
    }
  }
  const verification = parSource ? Promise.resolve() : showVerification();
  try {
    if (parSource) {
      app.par = await api(parSource);
      app.replay = app.par.replay;
    } else {
      app.replay = await api(`/api/tables/${tableId}/replay`);
    }
  } catch (problem) {
    $("replay-error").textContent = problemText(problem);
    await verification;
    document.body.dataset.ready = "true";
    return;
  }
  $("download-record").disabled = false;
  showSummary();
  if (app.replay.hands.length) {
    fillPickers();
    $("replay-body").hidden = false;
    chooseHand(1);
    if (!parSource) await fillRescorePresets();
  } else {
    $("replay-empty").hidden = false;
  }
  await verification;
  document.body.dataset.ready = "true";
}
