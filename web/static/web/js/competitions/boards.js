// A duplicate competition's boards page (/competitions/<id>/boards/): the standings by
// matchpoints or IMPs (a what-if on the other scale), each round's boards and, once a board
// is finished at every table, its traveller. Everything comes from the leagues API
// (docs/leagues.md, "Duplicate competitions"); an open board shows its commitment only.

import { api, problemText } from "../api.js";

const $ = (id) => document.getElementById(id);
const competitionId = document.body.dataset.competition;
const base = `/api/competitions/${competitionId}`;

function cell(row, text, header = false) {
  const element = document.createElement(header ? "th" : "td");
  element.textContent = text === null || text === undefined ? "" : String(text);
  row.append(element);
  return element;
}

async function drawStandings() {
  const scale = $("boards-scale").value;
  const answer = await api(base + "/duplicate" + (scale ? `?scale=${scale}` : ""));
  const body = $("boards-standings").querySelector("tbody");
  body.replaceChildren();
  for (const line of answer.rows) {
    const row = document.createElement("tr");
    cell(row, line.place);
    cell(row, line.name || line.entrant);
    cell(row, line.matchpoints);
    cell(row, line.imps);
    cell(row, line.boards);
    body.append(row);
  }
}

function travellerTable(traveller) {
  const table = document.createElement("table");
  table.className = "standings-table";
  const head = document.createElement("tr");
  for (const title of ["Table", "N-S", "E-W", "Bids", "Tricks", "Score", "Net", "MP N-S", "IMPs N-S", "IMPs v par"]) {
    cell(head, title, true).scope = "col";
  }
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  for (const line of traveller.tables) {
    const row = document.createElement("tr");
    cell(row, line.table);
    cell(row, line.north_south);
    cell(row, line.east_west);
    cell(row, line.bids.join(" "));
    cell(row, line.tricks.join(" "));
    cell(row, `${line.score.north_south} / ${line.score.east_west}`);
    cell(row, line.net);
    cell(row, line.matchpoints.north_south);
    cell(row, line.imps.north_south);
    cell(row, line.imps_against_par);
    tbody.append(row);
  }
  table.append(thead, tbody);
  return table;
}

async function drawRound(number, into) {
  const round = await api(`${base}/rounds/${number}/boards`);
  const section = document.createElement("section");
  const title = document.createElement("h3");
  title.textContent = `Round ${number} (${round.movement.replaceAll("_", " ")})`;
  section.append(title);
  for (const board of round.boards) {
    const item = document.createElement("div");
    const label = document.createElement("h4");
    label.textContent = `Board ${board.board}, dealer ${board.dealer}`;
    item.append(label);
    if (!board.revealed) {
      const note = document.createElement("p");
      note.className = "hint";
      note.textContent = `Still being played. Commitment ${board.commitment}.`;
      item.append(note);
    } else {
      const traveller = await api(`${base}/rounds/${number}/boards/${board.board}/traveller`);
      if (traveller.par) {
        const par = document.createElement("p");
        par.textContent = `Par (${traveller.par.bot_version}): N-S ${traveller.par.north_south}, E-W ${traveller.par.east_west}`;
        item.append(par);
      }
      item.append(travellerTable(traveller));
    }
    section.append(item);
  }
  into.append(section);
}

async function draw() {
  $("boards-error").textContent = "";
  try {
    await drawStandings();
    const rounds = await api(base + "/rounds");
    const into = $("boards-rounds");
    into.replaceChildren();
    for (const round of rounds.rounds) {
      if (round.started) await drawRound(round.round, into);
    }
  } catch (error) {
    $("boards-error").textContent = problemText(error);
  }
}

/** The boards page: drawn now and again when the scale changes. */
export function start() {
  $("boards-scale").addEventListener("change", draw);
  draw();
}
