// The organiser's page (/competitions/<id>/organise/): register entrants (two players by
// username), late-join, withdraw (with a reason), substitute a player and check entrants
// in, pair and start rounds, advance a stage, enter a scoresheet result, record a forfeit
// or no-show, correct a result with a reason. Every write is the organiser API's (token);
// a refusal shows the server's sentence next to the form that made it.

import { api, problemText } from "../api.js";
import { presetTitle } from "../rules.js";
import * as session from "../session.js";
import { TEAM_NAMES } from "../table/words.js";
import { startPairingControl } from "./pairing_control.js";
import { startOnboarding } from "./onboarding.js";
import { SEATS, scoresheetFromRows } from "./scoresheet.js";
import { entrantId } from "./settings.js";
import {
  entrantNames,
  entrantStatus,
  FORMAT_LABELS,
  lateJoinOpen,
  lateJoinRule,
  playerName,
  resultFlags,
  scoreText,
  winnerText,
} from "./words.js";

const $ = (id) => document.getElementById(id);
const competitionId = document.body.dataset.competition;
const base = `/api/competitions/${competitionId}`;

const page = { auth: session.loadAuth(), overview: null, rounds: [], names: {}, target: null };

function call(path, body) {
  return api(`${base}${path}`, { method: "POST", body, token: page.auth && page.auth.token, command: true });
}

function say(text) {
  $("organise-message").textContent = text;
}

const PANELS = ["result-panel", "correct-panel", "forfeit-panel", "withdraw-panel", "substitute-panel"];

/** Show one of the forms (hiding the others); its error line starts empty. */
function openPanel(id, errorId) {
  for (const other of PANELS) $(other).hidden = other !== id;
  $(errorId).textContent = "";
}

async function reload() {
  const [overview, rounds] = await Promise.all([api(base), api(`${base}/rounds`)]);
  page.overview = overview;
  page.rounds = rounds.rounds;
  page.names = entrantNames(overview, overview.players);
  draw();
}

function draw() {
  const overview = page.overview;
  const s = overview.settings;
  $("organise-heading").textContent = `Organise: ${s.name || "Unnamed competition"}`;
  const stages = s.stages.map((stage) => FORMAT_LABELS[stage.kind] || stage.kind).join(", then ");
  $("organise-summary").textContent = `${stages} · ${presetTitle(s.rules.preset)} · ${overview.entrants.length} entrants · ${overview.rounds} rounds paired${overview.finished ? " · finished" : ""}`;
  $("entrant-list").replaceChildren(...overview.entrants.map(entrantItem));
  $("entrant-form").hidden = overview.rounds > 0;
  const next = overview.rounds + 1;
  $("pair-round").textContent = `Pair round ${next}`;
  $("pair-round").hidden = overview.finished;
  drawLateJoin(next);
  drawStages();
  drawRounds();
}

function entrantItem(entrant) {
  const overview = page.overview;
  const next = overview.rounds + 1;
  const name = page.names[entrant.id];
  const li = document.createElement("li");
  li.dataset.entrant = entrant.id;
  const players = entrant.players.map((p) => page.overview.players[p] || p).join(" & ");
  const text = document.createElement("span");
  text.textContent = `${name} (${players})`;
  li.append(text);
  const status = entrantStatus(entrant, next, page.overview.players);
  if (status) {
    const note = document.createElement("span");
    note.className = "hint entrant-status";
    note.dataset.part = "status";
    note.textContent = ` · ${status}`;
    li.append(note);
  }
  const withdrawn = entrant.withdrawn_after_round !== null && entrant.withdrawn_after_round !== undefined;
  if (withdrawn || overview.finished) return li;
  const actions = document.createElement("span");
  actions.className = "button-row entrant-actions";
  if (overview.settings.check_in && !entrant.checked_in && entrant.joined_round <= next) {
    actions.append(button(`Check in ${name} for round ${next}`, () => checkIn(entrant), "", "check-in"));
  }
  actions.append(button(`Substitute a player of ${name}`, () => openSubstitute(entrant), "", "substitute"));
  actions.append(button(`Withdraw ${name}`, () => openWithdraw(entrant), "", "withdraw"));
  li.append(" ", actions);
  return li;
}

function drawLateJoin(next) {
  const overview = page.overview;
  const s = overview.settings;
  // Before round 1 the organiser registers entrants; late entry is for after it.
  $("late-join").hidden = overview.rounds === 0 || overview.finished;
  $("late-join-rule").textContent = lateJoinRule(s, next, overview.stage);
  $("late-join-form").hidden = !lateJoinOpen(s, next, overview.stage);
}

function drawStages() {
  const overview = page.overview;
  const stages = overview.settings.stages;
  const button_ = $("advance-stage");
  const last = overview.stage + 1 >= stages.length;
  button_.hidden = last || overview.finished;
  $("stage-note").textContent =
    stages.length > 1
      ? `Stage ${overview.stage + 1} of ${stages.length}: ${FORMAT_LABELS[stages[overview.stage].kind] || stages[overview.stage].kind}.`
      : "";
  if (!last) {
    const kind = stages[overview.stage + 1].kind;
    button_.textContent = `Advance to stage ${overview.stage + 2} (${FORMAT_LABELS[kind] || kind})`;
    // The API says when it would accept (the stage complete, its last round closed).
    button_.disabled = !overview.can_advance;
    const advance = stages[overview.stage].advance;
    $("stage-advance-note").textContent = overview.can_advance
      ? `Stage ${overview.stage + 1} is complete: its top ${advance} go on to stage ${overview.stage + 2}.`
      : `Stage ${overview.stage + 1} is not complete yet: the top ${advance} go on once its last round is closed.`;
  } else {
    $("stage-advance-note").textContent = "";
  }
}

function button(text, onClick, className = "", action = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  if (action) b.dataset.action = action;
  b.addEventListener("click", onClick);
  return b;
}

function drawRounds() {
  $("organise-rounds").replaceChildren(
    ...[...page.rounds].reverse().map((round) => {
      const section = document.createElement("section");
      section.className = "round";
      section.dataset.round = String(round.round);
      const h3 = document.createElement("h3");
      h3.textContent = `Round ${round.round}${round.closed ? " (complete)" : round.started ? " (in play)" : ""}`;
      section.append(h3);
      if (!round.started && !round.closed) {
        section.append(button(`Start round ${round.round}`, () => startRound(round.round), "primary"));
      }
      const list = document.createElement("ul");
      list.className = "organise-matches";
      for (const match of round.matches) {
        const li = document.createElement("li");
        li.dataset.board = String(match.board);
        const ns = page.names[match.north_south] || match.north_south;
        const ew = page.names[match.east_west] || match.east_west;
        const text = document.createElement("span");
        const score = match.result ? ` · ${scoreText(match.result)} · ${winnerText(match, match.result, page.names)}` : "";
        text.textContent = `Board ${match.board}: ${ns} (N-S) v ${ew} (E-W)${score}`;
        li.append(text);
        for (const flag of resultFlags(match.result)) {
          const badge = document.createElement("span");
          badge.className = `flag flag-${flag.kind}`;
          badge.dataset.flag = flag.kind;
          badge.textContent = flag.text;
          li.append(" ", badge);
        }
        li.append(" ");
        if (match.result) {
          li.append(button(`Correct board ${match.board}`, () => openCorrection(round, match), "", "correct"));
        } else {
          li.append(button(`Enter the result of board ${match.board}`, () => openResult(round, match), "", "result"));
          li.append(" ", button(`Forfeit or no-show on board ${match.board}`, () => openForfeit(round, match), "", "forfeit"));
        }
        list.append(li);
      }
      section.append(list);
      if (round.byes.length) {
        const p = document.createElement("p");
        p.textContent = `Bye: ${round.byes.map((id) => page.names[id] || id).join(", ")}`;
        section.append(p);
      }
      return section;
    }),
  );
}

// ------------------------------------------------------------------ entrants

async function registerEntrant(event) {
  event.preventDefault();
  const error = $("entrant-error");
  error.textContent = "";
  const name = $("entrant-name").value.trim();
  const usernames = [$("entrant-player-1").value.trim(), $("entrant-player-2").value.trim()];
  const taken = page.overview.entrants.map((e) => e.id);
  try {
    // The server resolves the usernames (an unknown one is refused in its words).
    await call("/entrants", { entrant_id: entrantId(name, taken), name, usernames });
  } catch (problem) {
    error.textContent = problemText(problem);
    return;
  }
  $("entrant-form").reset();
  say(`${name || usernames.join(" & ")} registered.`);
  await reload();
}

async function lateJoin(event) {
  event.preventDefault();
  const error = $("late-error");
  error.textContent = "";
  const name = $("late-name").value.trim();
  const usernames = [$("late-player-1").value.trim(), $("late-player-2").value.trim()];
  try {
    const taken = page.overview.entrants.map((e) => e.id);
    // The server resolves the usernames (an unknown one is refused in its words).
    await call("/late-entrants", { entrant_id: entrantId(name, taken), name, usernames });
  } catch (problem) {
    error.textContent = problemText(problem);
    return;
  }
  $("late-join-form").reset();
  say(`${name || usernames.join(" & ")} joins from round ${page.overview.rounds + 1}.`);
  await reload();
}

async function checkIn(entrant) {
  $("entrants-error").textContent = "";
  const number = page.overview.rounds + 1;
  try {
    await call(`/entrants/${encodeURIComponent(entrant.id)}/check-in`, {});
  } catch (problem) {
    $("entrants-error").textContent = problemText(problem);
    return;
  }
  say(`${page.names[entrant.id]} checked in for round ${number}.`);
  await reload();
}

function openWithdraw(entrant) {
  page.target = { entrant: entrant.id };
  openPanel("withdraw-panel", "withdraw-error");
  $("withdraw-heading").textContent = `Withdraw ${page.names[entrant.id]}`;
  $("withdraw-reason").value = "";
  $("withdraw-reason").focus();
}

async function submitWithdraw(event) {
  event.preventDefault();
  const { entrant } = page.target;
  $("withdraw-error").textContent = "";
  try {
    await call(`/entrants/${encodeURIComponent(entrant)}/withdraw`, { reason: $("withdraw-reason").value.trim() });
  } catch (problem) {
    $("withdraw-error").textContent = problemText(problem);
    return;
  }
  $("withdraw-panel").hidden = true;
  say(`${page.names[entrant]} withdrawn: not paired from round ${page.overview.rounds + 1} on.`);
  await reload();
}

function openSubstitute(entrant) {
  page.target = { entrant: entrant.id };
  openPanel("substitute-panel", "substitute-error");
  $("substitute-heading").textContent = `Substitute a player of ${page.names[entrant.id]}`;
  const playing = entrant.playing || entrant.players;
  $("substitute-out").replaceChildren(
    ...playing.map((id) => {
      const option = document.createElement("option");
      option.value = id;
      option.textContent = playerName(id, page.overview.players);
      return option;
    }),
  );
  const reserve = entrant.reserve ? page.overview.players[entrant.reserve] : "";
  $("substitute-in").value = reserve || "";
  $("substitute-out").focus();
}

async function submitSubstitute(event) {
  event.preventDefault();
  const { entrant } = page.target;
  const error = $("substitute-error");
  error.textContent = "";
  const username = $("substitute-in").value.trim();
  try {
    await call(`/entrants/${encodeURIComponent(entrant)}/substitute`, {
      player_out: $("substitute-out").value,
      username_in: username,
    });
  } catch (problem) {
    error.textContent = problemText(problem);
    return;
  }
  $("substitute-panel").hidden = true;
  say(`${username} plays for ${page.names[entrant]} from round ${page.overview.rounds + 1}.`);
  await reload();
}

// ------------------------------------------------------------------ rounds

async function advanceStage() {
  $("rounds-error").textContent = "";
  try {
    await call("/stages/advance", {});
  } catch (problem) {
    $("rounds-error").textContent = problemText(problem);
    return;
  }
  say(`Stage ${page.overview.stage + 2} begins: pair its first round.`);
  await reload();
}

async function pairRound() {
  $("rounds-error").textContent = "";
  const number = page.overview.rounds + 1;
  try {
    await call("/rounds", { round: number });
  } catch (problem) {
    $("rounds-error").textContent = problemText(problem);
    return;
  }
  say(`Round ${number} paired.`);
  await reload();
}

async function startRound(number) {
  $("rounds-error").textContent = "";
  try {
    await call(`/rounds/${number}/start`, {});
  } catch (problem) {
    $("rounds-error").textContent = problemText(problem);
    return;
  }
  say(`Round ${number} started: its tables are open.`);
  await reload();
}

// ------------------------------------------------------------------ results

function handRow(number) {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = String(number);
  tr.append(th);
  for (const kind of ["bid", "tricks"]) {
    for (const seat of SEATS) {
      const td = document.createElement("td");
      const input = document.createElement("input");
      input.dataset.kind = kind;
      input.dataset.seat = seat;
      input.size = 3;
      input.inputMode = kind === "tricks" ? "numeric" : "text";
      input.setAttribute("aria-label", `Hand ${number}: ${seat}'s ${kind === "bid" ? "bid" : "tricks"}`);
      td.append(input);
      tr.append(td);
    }
  }
  return tr;
}

function openResult(round, match) {
  page.target = { round: round.round, board: match.board };
  openPanel("result-panel", "result-error");
  $("result-heading").textContent = `Scoresheet: round ${round.round}, board ${match.board} (${page.names[match.north_south]} v ${page.names[match.east_west]})`;
  const rows = $("scoresheet-rows");
  const hands = page.overview.settings.match_format.fixed_hands || 1;
  rows.replaceChildren(...Array.from({ length: Math.min(hands, 20) }, (_, i) => handRow(i + 1)));
  rows.querySelector("input").focus();
}

function readSheet() {
  const rows = [...$("scoresheet-rows").rows].map((tr) => {
    const row = { bids: {}, tricks: {} };
    for (const input of tr.querySelectorAll("input")) {
      row[input.dataset.kind === "bid" ? "bids" : "tricks"][input.dataset.seat] = input.value;
    }
    return row;
  });
  return scoresheetFromRows(rows);
}

async function submitResult(event) {
  event.preventDefault();
  const { round, board } = page.target;
  $("result-error").textContent = "";
  try {
    await call(`/rounds/${round}/results`, { board, scoresheet: readSheet() });
  } catch (problem) {
    $("result-error").textContent = problemText(problem);
    return;
  }
  $("result-panel").hidden = true;
  say(`Result of round ${round}, board ${board} recorded.`);
  await reload();
}

function openForfeit(round, match) {
  page.target = { round: round.round, board: match.board };
  openPanel("forfeit-panel", "forfeit-error");
  const ns = page.names[match.north_south] || match.north_south;
  const ew = page.names[match.east_west] || match.east_west;
  $("forfeit-heading").textContent = `Forfeit: round ${round.round}, board ${match.board} (${ns} v ${ew})`;
  $("forfeit-ns-name").textContent = `${ns} (${TEAM_NAMES.north_south})`;
  $("forfeit-ew-name").textContent = `${ew} (${TEAM_NAMES.east_west})`;
  $("forfeit-ns").checked = true;
  $("forfeit-no-show").checked = false;
  $("forfeit-reason").value = "";
  $("forfeit-ns").focus();
}

async function submitForfeit(event) {
  event.preventDefault();
  const { round, board } = page.target;
  $("forfeit-error").textContent = "";
  const side = document.querySelector('#forfeit-form input[name="forfeited_by"]:checked');
  try {
    await call(`/rounds/${round}/results`, {
      board,
      forfeited_by: side ? side.value : "",
      no_show: $("forfeit-no-show").checked,
      reason: $("forfeit-reason").value.trim(),
    });
  } catch (problem) {
    $("forfeit-error").textContent = problemText(problem);
    return;
  }
  $("forfeit-panel").hidden = true;
  say(`Forfeit on round ${round}, board ${board} recorded.`);
  await reload();
}

function openCorrection(round, match) {
  page.target = { round: round.round, board: match.board, result: match.result.id };
  openPanel("correct-panel", "correct-error");
  $("correct-heading").textContent = `Correct round ${round.round}, board ${match.board}`;
  $("correct-was").textContent = `Recorded: ${scoreText(match.result)}, ${winnerText(match, match.result, page.names)}.`;
  $("correct-ns").value = String(match.result.points.north_south);
  $("correct-ew").value = String(match.result.points.east_west);
  $("correct-winner").value = match.result.winner || "";
  $("correct-reason").value = "";
  $("correct-ns").focus();
}

async function submitCorrection(event) {
  event.preventDefault();
  const { round, board, result } = page.target;
  $("correct-error").textContent = "";
  const number = (id) => (/^-?\d+$/.test($(id).value.trim()) ? Number($(id).value) : $(id).value);
  try {
    await call(`/results/${result}/correct`, {
      points: { north_south: number("correct-ns"), east_west: number("correct-ew") },
      winner: $("correct-winner").value || null,
      reason: $("correct-reason").value.trim(),
    });
  } catch (problem) {
    $("correct-error").textContent = problemText(problem);
    return;
  }
  $("correct-panel").hidden = true;
  say(`Round ${round}, board ${board} corrected.`);
  await reload();
}

// ------------------------------------------------------------------ start

async function start() {
  $("entrant-form").addEventListener("submit", registerEntrant);
  $("pair-round").addEventListener("click", pairRound);
  $("result-form").addEventListener("submit", submitResult);
  $("add-hand").addEventListener("click", () => {
    const rows = $("scoresheet-rows");
    rows.append(handRow(rows.rows.length + 1));
  });
  $("result-cancel").addEventListener("click", () => ($("result-panel").hidden = true));
  $("correct-form").addEventListener("submit", submitCorrection);
  $("correct-cancel").addEventListener("click", () => ($("correct-panel").hidden = true));
  $("forfeit-form").addEventListener("submit", submitForfeit);
  $("forfeit-cancel").addEventListener("click", () => ($("forfeit-panel").hidden = true));
  $("withdraw-form").addEventListener("submit", submitWithdraw);
  $("withdraw-cancel").addEventListener("click", () => ($("withdraw-panel").hidden = true));
  $("substitute-form").addEventListener("submit", submitSubstitute);
  $("substitute-cancel").addEventListener("click", () => ($("substitute-panel").hidden = true));
  $("late-join-form").addEventListener("submit", lateJoin);
  $("advance-stage").addEventListener("click", advanceStage);
  document.addEventListener("competition:changed", () => reload().catch(() => {}));
  startOnboarding(competitionId);
  if (!page.auth) {
    $("organise-signed-out").hidden = false;
  } else {
    const me = await api("/api/auth/me", { token: page.auth.token }).catch(() => null);
    page.me = me;
  }
  try {
    await reload();
  } catch (problem) {
    $("organise-error").textContent = problemText(problem);
  }
  if (page.me && page.overview) {
    $("organise-not-organiser").hidden = page.overview.settings.organisers.includes(page.me.id);
  }
  await startPairingControl({ base, token: page.auth && page.auth.token });
  document.body.dataset.ready = "true";
}

start();
