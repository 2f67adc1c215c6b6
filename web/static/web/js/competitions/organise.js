// The organiser's page (/competitions/<id>/organise/): register entrants (two players by
// username), late-join, withdraw (with a reason), substitute a player and check entrants
// in, pair and start rounds, advance a stage, enter a scoresheet result, record a forfeit
// or no-show, correct a result with a reason. Every write is the organiser API's (token);
// a refusal shows the server's sentence next to the form that made it.

import { api, problemText } from "../api.js";
import { field, onClick, onSubmit, sending } from "../forms.js";
import { presetTitle } from "../rules.js";
import * as session from "../session.js";
import { TEAM_NAMES } from "../table/words.js";
import { duplicateLine, parNote, roundBoardsLink, teamsOfFourNote } from "./duplicate_view.js";
import { roundNotes, startPairingControl } from "./pairing_control.js";
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

const page = { auth: session.loadAuth(), overview: null, rounds: [], names: {}, target: null, boards: {} };

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
  // A duplicate competition: each started round's boards, for what the API says of par.
  const started = overview.settings.duplicate ? rounds.rounds.filter((r) => r.started || r.closed) : [];
  const boards = await Promise.all(started.map((r) => api(`${base}/rounds/${r.round}/boards`).catch(() => null)));
  page.boards = Object.fromEntries(started.map((r, i) => [r.round, boards[i]]));
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
  const duplicate = duplicateLine(s);
  $("organise-summary").textContent = `${stages} · ${presetTitle(s.rules.preset)}${duplicate ? ` · ${duplicate}` : ""} · ${overview.entrants.length} entrants · ${overview.rounds} rounds paired${overview.finished ? " · finished" : ""}`;
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
    actions.append(button(`Check in ${name} for round ${next}`, (event) => checkIn(event, entrant), "", "check-in"));
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
      const notes = roundNotes(round, page.names);
      if (notes) section.append(notes);
      const boards = roundBoardsLink(page.overview.settings, competitionId, round, parNote(page.boards[round.round]));
      if (boards) section.append(boards);
      const teams = teamsOfFourNote(page.overview.settings, round);
      if (teams) {
        const p = document.createElement("p");
        p.className = "hint teams-of-four-note";
        p.textContent = teams;
        section.append(p);
      }
      if (!round.started && !round.closed) {
        section.append(button(`Start round ${round.round}`, (event) => startRound(event, round.round), "primary"));
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

function entrantRequest(prefix) {
  const name = field(`${prefix}-name`);
  const usernames = [field(`${prefix}-player-1`), field(`${prefix}-player-2`)];
  const taken = page.overview.entrants.map((e) => e.id);
  // The server resolves the usernames (an unknown one is refused in its words).
  return { entrant_id: entrantId(name, taken), name, usernames };
}

const registerEntrant = {
  error: $("entrant-error"),
  send: () => {
    const request = entrantRequest("entrant");
    return call("/entrants", request).then(() => request);
  },
  done: async ({ name, usernames }) => {
    $("entrant-form").reset();
    say(`${name || usernames.join(" & ")} registered.`);
    await reload();
  },
};

const lateJoin = {
  error: $("late-error"),
  send: () => {
    const request = entrantRequest("late");
    return call("/late-entrants", request).then(() => request);
  },
  done: async ({ name, usernames }) => {
    $("late-join-form").reset();
    say(`${name || usernames.join(" & ")} joins from round ${page.overview.rounds + 1}.`);
    await reload();
  },
};

function checkIn(event, entrant) {
  const number = page.overview.rounds + 1;
  return sending({
    controls: [event.currentTarget],
    error: $("entrants-error"),
    send: () => call(`/entrants/${encodeURIComponent(entrant.id)}/check-in`, {}),
    done: async () => {
      say(`${page.names[entrant.id]} checked in for round ${number}.`);
      await reload();
    },
  });
}

function openWithdraw(entrant) {
  page.target = { entrant: entrant.id };
  openPanel("withdraw-panel", "withdraw-error");
  $("withdraw-heading").textContent = `Withdraw ${page.names[entrant.id]}`;
  $("withdraw-reason").value = "";
  $("withdraw-reason").focus();
}

const submitWithdraw = {
  error: $("withdraw-error"),
  send: () =>
    call(`/entrants/${encodeURIComponent(page.target.entrant)}/withdraw`, { reason: field("withdraw-reason") }),
  done: async () => {
    $("withdraw-panel").hidden = true;
    say(`${page.names[page.target.entrant]} withdrawn: not paired from round ${page.overview.rounds + 1} on.`);
    await reload();
  },
};

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

const submitSubstitute = {
  error: $("substitute-error"),
  send: () =>
    call(`/entrants/${encodeURIComponent(page.target.entrant)}/substitute`, {
      player_out: $("substitute-out").value,
      username_in: field("substitute-in"),
    }),
  done: async () => {
    $("substitute-panel").hidden = true;
    say(`${field("substitute-in")} plays for ${page.names[page.target.entrant]} from round ${page.overview.rounds + 1}.`);
    await reload();
  },
};

// ------------------------------------------------------------------ rounds

const advanceStage = {
  error: $("rounds-error"),
  send: () => call("/stages/advance", {}),
  done: async () => {
    say(`Stage ${page.overview.stage + 2} begins: pair its first round.`);
    await reload();
  },
};

const pairRound = {
  error: $("rounds-error"),
  send: () => call("/rounds", { round: page.overview.rounds + 1 }),
  done: async () => {
    say(`Round ${page.overview.rounds + 1} paired.`);
    await reload();
  },
};

function startRound(event, number) {
  return sending({
    controls: [event.currentTarget],
    error: $("rounds-error"),
    send: () => call(`/rounds/${number}/start`, {}),
    done: async () => {
      say(`Round ${number} started: its tables are open.`);
      await reload();
    },
  });
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

const submitResult = {
  error: $("result-error"),
  send: () => call(`/rounds/${page.target.round}/results`, { board: page.target.board, scoresheet: readSheet() }),
  done: async () => {
    $("result-panel").hidden = true;
    say(`Result of round ${page.target.round}, board ${page.target.board} recorded.`);
    await reload();
  },
};

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

const submitForfeit = {
  error: $("forfeit-error"),
  send: () => {
    const side = document.querySelector('#forfeit-form input[name="forfeited_by"]:checked');
    return call(`/rounds/${page.target.round}/results`, {
      board: page.target.board,
      forfeited_by: side ? side.value : "",
      no_show: $("forfeit-no-show").checked,
      reason: field("forfeit-reason"),
    });
  },
  done: async () => {
    $("forfeit-panel").hidden = true;
    say(`Forfeit on round ${page.target.round}, board ${page.target.board} recorded.`);
    await reload();
  },
};

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

const submitCorrection = {
  error: $("correct-error"),
  send: () => {
    const number = (id) => (/^-?\d+$/.test(field(id)) ? Number($(id).value) : $(id).value);
    return call(`/results/${page.target.result}/correct`, {
      points: { north_south: number("correct-ns"), east_west: number("correct-ew") },
      winner: $("correct-winner").value || null,
      reason: field("correct-reason"),
    });
  },
  done: async () => {
    $("correct-panel").hidden = true;
    say(`Round ${page.target.round}, board ${page.target.board} corrected.`);
    await reload();
  },
};

// ------------------------------------------------------------------ start

/** The organise page: its forms' handlers, then the competition as the API has it. */
export async function start() {
  onSubmit($("entrant-form"), registerEntrant);
  onClick($("pair-round"), pairRound);
  onSubmit($("result-form"), submitResult);
  $("add-hand").addEventListener("click", () => {
    const rows = $("scoresheet-rows");
    rows.append(handRow(rows.rows.length + 1));
  });
  $("result-cancel").addEventListener("click", () => ($("result-panel").hidden = true));
  onSubmit($("correct-form"), submitCorrection);
  $("correct-cancel").addEventListener("click", () => ($("correct-panel").hidden = true));
  onSubmit($("forfeit-form"), submitForfeit);
  $("forfeit-cancel").addEventListener("click", () => ($("forfeit-panel").hidden = true));
  onSubmit($("withdraw-form"), submitWithdraw);
  $("withdraw-cancel").addEventListener("click", () => ($("withdraw-panel").hidden = true));
  onSubmit($("substitute-form"), submitSubstitute);
  $("substitute-cancel").addEventListener("click", () => ($("substitute-panel").hidden = true));
  onSubmit($("late-join-form"), lateJoin);
  onClick($("advance-stage"), advanceStage);
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
