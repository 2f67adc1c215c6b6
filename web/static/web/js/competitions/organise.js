// The organiser's page (/competitions/<id>/organise/): register entrants (two players by
// username), pair and start rounds, enter a scoresheet result, correct a result with a
// reason. Every write is the organiser API's (token); a refusal shows the server's sentence.

import { api, problemText } from "../api.js";
import { presetTitle } from "../rules.js";
import * as session from "../session.js";
import { SEATS, scoresheetFromRows } from "./scoresheet.js";
import { entrantId } from "./settings.js";
import { entrantNames, FORMAT_LABELS, resultFlags, scoreText, winnerText } from "./words.js";

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
  $("entrant-list").replaceChildren(
    ...overview.entrants.map((entrant) => {
      const li = document.createElement("li");
      li.dataset.entrant = entrant.id;
      const players = entrant.players.map((p) => overview.players[p] || p).join(" & ");
      li.textContent = `${page.names[entrant.id]} (${players})`;
      return li;
    }),
  );
  $("entrant-form").hidden = overview.rounds > 0;
  const next = overview.rounds + 1;
  $("pair-round").textContent = `Pair round ${next}`;
  $("pair-round").hidden = overview.finished;
  drawRounds();
}

function button(text, onClick, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
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
          li.append(button(`Correct board ${match.board}`, () => openCorrection(round, match)));
        } else {
          li.append(button(`Enter the result of board ${match.board}`, () => openResult(round, match)));
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

// ------------------------------------------------------------------ rounds

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
  $("correct-panel").hidden = true;
  $("result-heading").textContent = `Scoresheet: round ${round.round}, board ${match.board} (${page.names[match.north_south]} v ${page.names[match.east_west]})`;
  const rows = $("scoresheet-rows");
  const hands = page.overview.settings.match_format.fixed_hands || 1;
  rows.replaceChildren(...Array.from({ length: Math.min(hands, 20) }, (_, i) => handRow(i + 1)));
  $("result-error").textContent = "";
  $("result-panel").hidden = false;
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

function openCorrection(round, match) {
  page.target = { round: round.round, board: match.board, result: match.result.id };
  $("result-panel").hidden = true;
  $("correct-heading").textContent = `Correct round ${round.round}, board ${match.board}`;
  $("correct-was").textContent = `Recorded: ${scoreText(match.result)}, ${winnerText(match, match.result, page.names)}.`;
  $("correct-ns").value = String(match.result.points.north_south);
  $("correct-ew").value = String(match.result.points.east_west);
  $("correct-winner").value = match.result.winner || "";
  $("correct-reason").value = "";
  $("correct-error").textContent = "";
  $("correct-panel").hidden = false;
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
  document.body.dataset.ready = "true";
}

start();
