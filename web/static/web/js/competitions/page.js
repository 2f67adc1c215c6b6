// The public page of one competition (/competitions/<id>/): standings with every tie-break
// column, rounds and pairings, the current round's live boards, the standings chart, the
// what-if panel and, for a signed-in entrant, "my next match".
//
// Kept live by the competition's WebSocket (./live.js): each new version it announces makes
// the page read again what the standings document does not carry (rounds, pairings,
// results, boards, my next match). Only while the socket cannot connect does the page poll
// the version, slowly, and it says so. The boards are live through each table's own socket.

import { api, problemText } from "../api.js";
import { onSubmit } from "../forms.js";
import { fillPresetSelect, loadPresets, presetTitle } from "../rules.js";
import * as session from "../session.js";
import { TEAM_NAMES } from "../table/words.js";
import { CompetitionLive, FALLBACK_POLL_MS } from "./live.js";
import { tableLink } from "./next_match.js";
import { roundNotes } from "./pairing_control.js";
import { liveRound, matchPointsByRound } from "./standings.js";
import { drawStandingsChart } from "./standings_chart.js";
import { drawStandings, tiebreakSelects } from "./tables.js";
import { duplicateLine, roundBoardsLink } from "./duplicate_view.js";
import { drawStages } from "./stages_view.js";
import { BoardTiles } from "./tiles.js";
import {
  entrantNames,
  FORMAT_LABELS,
  moveText,
  nextMatchText,
  resultFlags,
  scoreText,
  tiebreakLabel,
  winnerText,
} from "./words.js";

const $ = (id) => document.getElementById(id);
const competitionId = document.body.dataset.competition;
const base = `/api/competitions/${competitionId}`;

const page = {
  version: null,
  overview: null,
  names: {},
  rounds: [],
  standings: null,
  tiles: null,
  whatif: null,
  me: null,
  token: null,
  // The newest version the socket announced, and its standings document.
  wanted: null,
  pushed: null,
  catchingUp: null,
};

function summary(overview) {
  const s = overview.settings;
  const stages = s.stages
    .map((stage) => `${FORMAT_LABELS[stage.kind] || stage.kind}${stage.rounds ? `, ${stage.rounds} rounds` : ""}${stage.double ? " (double)" : ""}`)
    .join(", then ");
  const hands = s.match_format.fixed_hands;
  const format = hands ? `${hands} hand${hands === 1 ? "" : "s"} a match` : "games to the target score";
  const mp = s.match_points;
  const bots = s.bot_level ? ` · bots (${s.bot_level}) play every seat` : "";
  return `${stages} · ${presetTitle(s.rules.preset)} · ${format} · win ${mp.win}, draw ${mp.draw}, loss ${mp.loss}, bye ${mp.bye}${bots}`;
}

function drawRounds() {
  const box = $("rounds");
  if (!page.rounds.length) return;
  box.replaceChildren(
    ...[...page.rounds].reverse().map((round) => {
      const section = document.createElement("section");
      section.className = "round";
      section.dataset.round = String(round.round);
      const h3 = document.createElement("h3");
      const state = round.closed ? "complete" : round.started ? "in play" : "paired, not started";
      h3.textContent = `Round ${round.round} (${state})`;
      section.append(h3);
      const notes = roundNotes(round, page.names);
      if (notes) section.append(notes);
      const boards = roundBoardsLink(page.overview.settings, competitionId, round);
      if (boards) section.append(boards);
      const table = document.createElement("table");
      table.className = "pairings-table";
      table.innerHTML = `<caption class="visually-hidden">Round ${round.round} pairings</caption><thead><tr><th scope="col">Board</th><th scope="col">${TEAM_NAMES.north_south}</th><th scope="col">${TEAM_NAMES.east_west}</th><th scope="col">Score</th><th scope="col">Result</th><th scope="col">Table</th></tr></thead><tbody></tbody>`;
      for (const match of round.matches) {
        const tr = document.createElement("tr");
        tr.dataset.board = String(match.board);
        const flags = resultFlags(match.result);
        const cells = [
          String(match.board),
          page.names[match.north_south] || match.north_south,
          page.names[match.east_west] || match.east_west,
          scoreText(match.result),
        ];
        for (const text of cells) {
          const td = document.createElement("td");
          td.textContent = text;
          tr.append(td);
        }
        const result = document.createElement("td");
        result.textContent = winnerText(match, match.result, page.names);
        for (const flag of flags) {
          const badge = document.createElement("span");
          badge.className = `flag flag-${flag.kind}`;
          badge.dataset.flag = flag.kind;
          badge.textContent = flag.text;
          result.append(" ", badge);
        }
        tr.append(result);
        const where = document.createElement("td");
        if (match.table_id) {
          const link = document.createElement("a");
          link.href = `/tables/${match.table_id}/watch/`;
          link.textContent = `Watch board ${match.board}`;
          where.append(link);
        } else {
          where.textContent = "–";
        }
        tr.append(where);
        table.tBodies[0].append(tr);
      }
      const wrap = document.createElement("div");
      wrap.className = "table-scroll";
      wrap.append(table);
      section.append(wrap);
      if (round.byes.length) {
        const p = document.createElement("p");
        p.className = "byes";
        p.textContent = `Bye: ${round.byes.map((id) => page.names[id] || id).join(", ")}`;
        section.append(p);
      }
      return section;
    }),
  );
}

/** Each stage, a knockout as its bracket; shown when there is more than one stage or a
 * knockout. A competition that is only a knockout has no standings table: its bracket
 * says who is in and who won, and Swiss tie-breaks would mean nothing there. */
function drawStagesSection(answer) {
  const stages = answer.stages;
  const knockout = stages.some((s) => s.kind === "knockout");
  $("stages-section").hidden = stages.length < 2 && !knockout;
  const champion = drawStages($("stages"), answer, page.names, FORMAT_LABELS);
  const line = $("competition-champion");
  line.hidden = !champion;
  line.replaceChildren();
  if (champion) {
    line.append("Champion: ", Object.assign(document.createElement("strong"), { textContent: champion }));
  }
  page.knockoutOnly = stages.every((s) => s.kind === "knockout");
  $("standings-section").hidden = page.knockoutOnly;
}

function drawStandingsSection() {
  const document_ = page.standings;
  const standings = document_.standings;
  $("standings-order").textContent = `Order: match points, then ${standings.tiebreaks.map(tiebreakLabel).join(", ")}.`;
  drawStandings($("standings-table"), standings, page.names);
  $("standings-table").dataset.version = String(document_.version);
  const stale = document_.stale_pairings || [];
  const note = $("stale-pairings");
  note.hidden = !stale.length;
  note.textContent = stale.length
    ? `Paired before a correction: ${[...new Set(stale.map((s) => `round ${s.round}`))].join(", ")} (the pairing used the old result).`
    : "";
}

function drawChart() {
  const overview = page.overview;
  // Invitations not accepted yet play no round: they are not in the standings either.
  const entered = overview.entrants.filter((e) => e.status !== "invited");
  const series = matchPointsByRound(page.rounds, overview.settings.match_points, entered);
  const order = page.standings.standings.rows.map((row) => row.entrant);
  $("chart-section").hidden = page.rounds.length === 0 || page.knockoutOnly;
  drawStandingsChart($("standings-chart"), $("chart-legend"), series, order, page.names);
}

async function drawNextMatch() {
  if (!page.me) return;
  const box = $("next-match");
  let answer;
  try {
    answer = await api(`${base}/players/${page.me.id}/next-match`);
  } catch {
    box.hidden = true;
    return;
  }
  if (!answer.entrant) {
    box.hidden = true; // not an entrant of this competition (its organiser, a spectator)
    return;
  }
  $("next-match-text").textContent = nextMatchText(answer, page.names);
  const old = $("next-match-link");
  if (answer.match && answer.match.table_id) {
    const link = tableLink(answer.match, competitionId, page.token);
    link.id = "next-match-link";
    old.replaceWith(link);
  } else {
    old.hidden = true;
  }
  box.hidden = false;
}

/** Read everything again (the version moved); draw what changed. */
async function refresh() {
  const overview = await api(base);
  if (overview.version === page.version) return;
  // The socket's document when it is at the overview's version; else read it.
  const pushed = page.pushed && page.pushed.version === overview.version ? page.pushed : null;
  const [rounds, standings, stages] = await Promise.all([
    api(`${base}/rounds`),
    pushed || api(`${base}/standings`),
    api(`${base}/stages`),
  ]);
  page.overview = overview;
  page.names = entrantNames(overview, overview.players);
  page.rounds = rounds.rounds;
  page.standings = standings;
  page.version = overview.version;
  const name = overview.settings.name || "Unnamed competition";
  $("competition-name").textContent = name;
  document.title = `${name} · Spades`;
  $("competition-summary").textContent = summary(overview);
  const duplicate = duplicateLine(overview.settings);
  $("competition-duplicate").textContent = duplicate ? `${duplicate}: every table of a round plays the same boards.` : "";
  $("competition-duplicate").hidden = !duplicate;
  $("competition-boards-link").hidden = !duplicate;
  drawStagesSection(stages);
  drawStandingsSection();
  drawRounds();
  drawChart();
  const round = liveRound(page.rounds);
  // The last started round's boards: live while it is played, its final positions after.
  $("boards-section").hidden = page.tiles.show(round, page.names) === 0;
  if (round) $("boards-heading").textContent = `Round ${round.round}: ${round.closed ? "final boards" : "live boards"}`;
  if (!page.whatif) setUpWhatIf(standings.standings.tiebreaks);
  await drawNextMatch();
  document.body.dataset.version = String(overview.version);
}

// ------------------------------------------------------------------ what-if

async function setUpWhatIf(declared) {
  page.whatif = tiebreakSelects($("whatif-tiebreaks"), declared.filter((t) => t !== "lots"), { prefix: "whatif-tiebreak" });
  const presets = await loadPresets();
  const select = $("whatif-preset");
  const own = select.options[0];
  fillPresetSelect(select, presets, null);
  select.prepend(own);
  select.value = "";
  onSubmit($("whatif-form"), { error: $("whatif-error"), send: askWhatIf, done: showWhatIf });
}

/** The standings under another tiebreak order or preset (a read: nothing changes). */
function askWhatIf() {
  const query = new URLSearchParams({ tiebreaks: page.whatif.read().join(",") });
  const preset = $("whatif-preset").value;
  if (preset) query.set("preset", preset);
  return api(`${base}/standings?${query}`).then((answer) => ({ answer, preset }));
}

function showWhatIf({ answer, preset }) {
  const box = $("whatif-result");
  box.hidden = false;
  box.dataset.comparable = String(answer.comparable);
  const moves = $("whatif-moves");
  const table = $("whatif-table");
  table.hidden = false;
  const changes = {};
  for (const move of answer.moves.moves) changes[move.entrant] = move.change;
  const rules = preset ? ` under ${presetTitle(preset)}` : "";
  const order = answer.tiebreaks.map(tiebreakLabel).join(", ");
  const count = answer.moves.moves.length;
  $("whatif-summary").textContent =
    (count
      ? `With ${order}${rules}: ${count} entrant${count === 1 ? "" : "s"} change place, ${answer.moves.unchanged} do not.`
      : `With ${order}${rules}: nobody changes place.`) + (answer.comparable ? "" : ` ${answer.reason}`);
  // Each result that is not comparable, with the sentence its table's replay shows.
  $("whatif-incomparable").replaceChildren(
    ...(answer.not_comparable || []).map((item) => {
      const li = document.createElement("li");
      li.dataset.round = String(item.round);
      li.dataset.board = String(item.board);
      const where = `Round ${item.round}, board ${item.board}`;
      if (item.table_id) {
        const link = document.createElement("a");
        link.href = `/tables/${item.table_id}/replay/`;
        link.textContent = where;
        li.append(link, `: ${item.reason}`);
      } else {
        li.textContent = `${where}: ${item.reason}`;
      }
      return li;
    }),
  );
  moves.replaceChildren(
    ...answer.moves.moves.map((move) => {
      const li = document.createElement("li");
      li.dataset.entrant = move.entrant;
      li.textContent = moveText(move, page.names);
      return li;
    }),
  );
  drawStandings(table, answer.standings, page.names, changes);
}

// ------------------------------------------------------------------ live

function liveNote(text) {
  $("live-note").textContent = text;
}

/** The socket says the competition is at `version`: read again until the page is there. */
function catchUp(version, document_) {
  if (document_ && Number.isInteger(document_.version)) page.pushed = document_;
  page.wanted = Math.max(page.wanted ?? version, version);
  // One catch-up at a time; a version announced meanwhile is read by the running one.
  // (`.finally` runs after the assignment, even when there is nothing to read.)
  if (!page.catchingUp) page.catchingUp = readUntilCaughtUp().finally(() => (page.catchingUp = null));
  return page.catchingUp;
}

async function readUntilCaughtUp() {
  try {
    while (page.version === null || page.wanted > page.version) {
      const before = page.version;
      await refresh();
      // The reads answer at the version the socket announced or later (it announces
      // after the commit); if not, the next message or the resync brings the page on.
      if (page.version === before) break;
    }
  } catch (problem) {
    liveNote(`Not refreshed: ${problem.message}`);
  }
}

function follow() {
  let poll = null;
  const stopPolling = () => {
    clearInterval(poll);
    poll = null;
  };
  const live = new CompetitionLive(competitionId, {
    onVersion: (version, document_) => catchUp(version, document_),
    onTables: () => page.tiles.openReady(),
    onStatus: (kind, text) => {
      document.body.dataset.live = kind;
      if (kind === "live") {
        stopPolling();
        liveNote("Live: the page updates as the competition moves on.");
        return;
      }
      liveNote(text);
      if (kind === "polling" && !poll) {
        poll = setInterval(() => {
          if (!page.catchingUp) refresh().catch((problem) => liveNote(`Not refreshed: ${problem.message}`));
        }, FALLBACK_POLL_MS);
      }
    },
  });
  document.body.dataset.live = "connecting";
  live.connect();
}

// ------------------------------------------------------------------ start

export async function start() {
  page.tiles = new BoardTiles($("board-tiles"), $("board-tile-template"), competitionId);
  const auth = session.loadAuth();
  if (auth) {
    page.token = auth.token;
    page.me = await api("/api/auth/me", { token: auth.token }).catch(() => null);
  }
  try {
    await refresh();
  } catch (problem) {
    $("competition-error").textContent = problemText(problem);
    document.body.dataset.ready = "true";
    return;
  }
  document.body.dataset.ready = "true";
  follow();
}
