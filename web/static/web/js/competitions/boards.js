// A duplicate competition's boards page (/competitions/<id>/boards/): the standings by
// matchpoints or IMPs (a what-if on the other scale), each round's boards and, once a board
// is finished at every table, its traveller. Everything comes from the leagues API
// (docs/leagues.md, "Duplicate competitions"); an open board shows its commitment only.
// A revealed board shows its four hands face up and offers "Play this board again": a new
// table dealing that board, the player at the seat they choose and computer players at
// the others; the page remembers the table (this browser only) and, once its hand is
// over, shows where the result would have ranked among the round's tables.
// A signed-in organiser of the competition (its settings' organisers, as the organise
// page reads them) has a "Correct" button on each traveller line (board_correction.js).

import { api, problemText } from "../api.js";
import { cardFace, sortHand } from "../cards.js";
import { Refusal, onSubmit } from "../forms.js";
import { correctionForm } from "./board_correction.js";
import * as session from "../session.js";
import { TEAM_NAMES } from "../table/words.js";

const $ = (id) => document.getElementById(id);
const competitionId = document.body.dataset.competition;
const base = `/api/competitions/${competitionId}`;
// The viewer: their token, and whether they organise this competition (set by start()).
const viewer = { token: null, organiser: false };

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
  const teams = Array.isArray(answer.team_matches);
  const names = new Map(answer.rows.map((line) => [line.entrant, line.name || line.entrant]));
  $("boards-team-heading").hidden = !teams;
  for (const line of answer.rows) {
    const row = document.createElement("tr");
    cell(row, line.place);
    cell(row, line.name || line.entrant);
    if (teams) {
      const team = line.team;
      cell(row, `${team.won}-${team.drawn}-${team.lost} (${team.points})`);
    }
    cell(row, line.matchpoints);
    cell(row, line.imps);
    cell(row, line.boards);
    body.append(row);
  }
  drawTeamMatches(teams ? answer.team_matches : [], names);
}

// Teams of four: each round's matches (tables 2m-1 and 2m), their teams and IMPs.
function drawTeamMatches(matches, names) {
  $("boards-matches-region").hidden = matches.length === 0;
  const body = $("boards-matches").querySelector("tbody");
  body.replaceChildren();
  const team = (side) => side.entrants.map((entrant) => names.get(entrant) || entrant).join(" & ");
  for (const match of matches) {
    const row = document.createElement("tr");
    cell(row, match.round);
    cell(row, match.tables.join(" and "));
    cell(row, team(match.team_a));
    cell(row, `${match.team_a.imps} - ${match.team_b.imps}`);
    cell(row, team(match.team_b));
    cell(row, match.winner === null ? "draw" : `team ${match.winner.toUpperCase()} wins`);
    body.append(row);
  }
}

// `correct(line, button)`: an organiser's; each line then has a "Correct" button.
function travellerTable(traveller, correct = null) {
  const table = document.createElement("table");
  table.className = "standings-table";
  const head = document.createElement("tr");
  const titles = ["Table", "Match", "N-S", "E-W", "Bids", "Tricks", "Score", "Net", "MP N-S", "IMPs N-S", "IMPs v par"];
  for (const title of correct ? [...titles, "Correction"] : titles) {
    cell(head, title, true).scope = "col";
  }
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  const corrections = [];
  for (const line of traveller.tables) {
    const row = document.createElement("tr");
    // An organiser's correction (BoardResultCorrected): marked here, said below the table.
    cell(row, line.corrected ? `${line.table} (corrected)` : line.table);
    if (line.corrected) {
      corrections.push(`Table ${line.table}'s result was corrected by ${line.corrected.by}: ${line.corrected.reason}`);
    }
    // Teams of four: the team match a line is compared within (0: the whole round).
    cell(row, line.group || "");
    cell(row, line.north_south);
    cell(row, line.east_west);
    cell(row, line.bids.join(" "));
    cell(row, line.tricks.join(" "));
    cell(row, `${line.score.north_south} / ${line.score.east_west}`);
    cell(row, line.net);
    cell(row, line.matchpoints.north_south);
    cell(row, line.imps.north_south);
    cell(row, line.imps_against_par);
    if (correct) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "board-correct-open";
      button.dataset.table = String(line.table);
      button.textContent = "Correct";
      button.setAttribute("aria-label", `Correct table ${line.table}'s result on board ${traveller.board}`);
      button.addEventListener("click", () => correct(line, button));
      cell(row, "").append(button);
    }
    tbody.append(row);
  }
  table.append(thead, tbody);
  // A phone scrolls the traveller sideways inside its own region, not the whole page.
  const region = document.createElement("div");
  region.className = "table-scroll";
  region.tabIndex = 0;
  region.setAttribute("role", "region");
  region.setAttribute("aria-label", `Traveller of board ${traveller.board}`);
  region.append(table);
  for (const text of corrections) {
    const note = document.createElement("p");
    note.className = "traveller-correction";
    note.textContent = text;
    region.append(note);
  }
  return region;
}

const SEATS = ["north", "east", "south", "west"];
const SEAT_WORDS = { north: "North", east: "East", south: "South", west: "West" };

function handsFaceUp(hands) {
  const list = document.createElement("dl");
  list.className = "board-hands";
  for (const seat of SEATS) {
    const name = document.createElement("dt");
    name.textContent = SEAT_WORDS[seat];
    const cards = document.createElement("dd");
    cards.className = "board-hand";
    cards.dataset.seat = seat;
    for (const card of sortHand(hands[seat])) cards.append(cardFace(card));
    list.append(name, cards);
  }
  return list;
}

const againKey = (number, board) => `spades.again.${competitionId}.${number}.${board}`;

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

async function drawAgainResult(number, board, tableId, into) {
  const note = document.createElement("p");
  note.className = "board-again-result";
  into.append(note);
  let answer;
  try {
    answer = await api(`${base}/rounds/${number}/boards/${board}/again/${tableId}`);
  } catch (error) {
    note.textContent = problemText(error);
    return;
  }
  if (!answer.finished) {
    note.textContent = `Your table for this board (${SEAT_WORDS[answer.seat]}) is still being played. `;
    const link = document.createElement("a");
    link.href = `/?table=${tableId}`;
    link.textContent = "Go to your table";
    note.append(link);
    return;
  }
  const rank = answer.rank;
  const par = rank.imps_against_par === null ? "" : `, ${signed(rank.imps_against_par)} IMPs against par`;
  note.textContent =
    `Your play from ${TEAM_NAMES[rank.direction]} (net ${signed(rank.net)}) would have ranked ` +
    `${rank.place} of ${rank.tables + 1}: ${rank.matchpoints} of ${rank.top} matchpoints, ` +
    `${signed(rank.imps)} IMPs against the field${par}.`;
}

function againForm(number, board, into) {
  const form = document.createElement("form");
  form.className = "board-again";
  const id = `again-${number}-${board}`;
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = "Your seat";
  const select = document.createElement("select");
  select.id = id;
  for (const seat of SEATS) {
    const option = document.createElement("option");
    option.value = seat;
    option.textContent = SEAT_WORDS[seat];
    select.append(option);
  }
  select.value = "south";
  const button = document.createElement("button");
  button.type = "submit";
  button.textContent = "Play this board again";
  const message = document.createElement("p");
  message.className = "form-error";
  message.setAttribute("role", "alert");
  form.append(label, select, button, message);
  onSubmit(form, {
    error: message,
    send: () => {
      const auth = session.loadAuth();
      if (!auth) throw new Refusal("Sign in to play this board again.");
      return api(`${base}/rounds/${number}/boards/${board}/again`, {
        method: "POST",
        body: { seat: select.value },
        token: auth.token,
        command: true,
      });
    },
    done: (table) => {
      localStorage.setItem(againKey(number, board), table.table_id);
      location.assign(`/?table=${table.table_id}`);
    },
  });
  into.append(form);
}

// An organiser's traveller: each line's "Correct" button opens the board's correction
// form; a correction's answer (the board's traveller) is drawn in place of the old one,
// with the standings, and focus goes back to the corrected line's button.
function correctable(number, board, traveller, into) {
  const status = document.createElement("p");
  status.className = "board-correct-status";
  status.setAttribute("role", "status");
  let region;
  const open = (line, button) => {
    status.textContent = "";
    correction.open(line, button);
  };
  const correction = correctionForm({
    round: number,
    board,
    token: viewer.token,
    url: `${base}/rounds/${number}/boards/${board}/correct`,
    redraw: async (answer, table) => {
      const fresh = travellerTable(answer, open);
      region.replaceWith(fresh);
      region = fresh;
      status.textContent = `Table ${table}'s result on board ${board} corrected.`;
      await drawStandings().catch((error) => ($("boards-error").textContent = problemText(error)));
      return fresh.querySelector(`.board-correct-open[data-table="${table}"]`);
    },
  });
  region = travellerTable(traveller, open);
  into.append(region, correction.form, status);
}

async function drawRound(number, into) {
  const round = await api(`${base}/rounds/${number}/boards`);
  const section = document.createElement("section");
  // The public and organise pages link each round here (#boards-round-<n>).
  section.id = `boards-round-${number}`;
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
        par.textContent = `Par (${traveller.par.bot_version}): N-S ${traveller.par.north_south}, E-W ${traveller.par.east_west}. `;
        const step = document.createElement("a");
        step.className = "par-play-link";
        step.href = `/competitions/${competitionId}/rounds/${number}/boards/${board.board}/par/1/`;
        step.textContent = `Step through par play 1 of board ${board.board}`;
        par.append(step);
        item.append(par);
      }
      if (viewer.organiser) {
        correctable(number, board.board, traveller, item);
      } else {
        item.append(travellerTable(traveller));
      }
      if (board.hands) item.append(handsFaceUp(board.hands));
      againForm(number, board.board, item);
      const remembered = localStorage.getItem(againKey(number, board.board));
      if (remembered) await drawAgainResult(number, board.board, remembered, item);
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

// Whether the signed-in viewer organises this competition: the overview's organisers
// and /api/auth/me, as the organise page decides it. Anyone else sees no control.
async function findViewer() {
  const auth = session.loadAuth();
  if (!auth) return;
  const [me, overview] = await Promise.all([
    api("/api/auth/me", { token: auth.token }).catch(() => null),
    api(base).catch(() => null),
  ]);
  viewer.token = auth.token;
  viewer.organiser = Boolean(me && overview && overview.settings.organisers.includes(me.id));
}

/** The boards page: drawn now and again when the scale changes. */
export function start() {
  $("boards-scale").addEventListener("change", draw);
  findViewer().then(draw).then(() => {
    // Drawn after the page loaded: go to the round the link named, now that it is there.
    if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
    document.body.dataset.ready = "true";
  });
}
