// A league's page (/leagues/<id>/?season=NAME): its seasons (the newest unless the address
// names one), each division of the season shown with its standings and a link to its
// tournament page, and moving between seasons. A league's organiser starts the next
// season here, its divisions filled from the last season's final standings (promotion and
// relegation, previewed before it is sent). Reads: GET /api/leagues/<id>, each division's
// GET /api/competitions/<id> and .../standings; the write: POST /api/leagues/<id>/seasons.

import { api, problemText } from "../api.js";
import { onSubmit, Refusal } from "../forms.js";
import { drawStandings } from "../competitions/tables.js";
import { entrantNames } from "../competitions/words.js";
import { fillPresetSelect, loadPresets } from "../rules.js";
import * as session from "../session.js";
import { neighbours, nextSeasonName, parseDivisions, promotionPreview, seasonRequest, seasonStatus } from "./season.js";

const $ = (id) => document.getElementById(id);
const leagueId = document.body.dataset.league;

const page = { auth: session.loadAuth(), me: null, league: null, season: null, divisions: {} };

const statusOf = (overview) => (overview.finished ? "finished" : overview.rounds > 0 ? "running" : "registration");
const STATUS_WORDS = { finished: "Finished", running: "In play", registration: "Registration open" };

/** Each division of `season` (top first): its overview and standings, read together. */
async function readSeason(season) {
  const entries = Object.entries(season.divisions);
  const read = await Promise.all(
    entries.map(async ([division, competitionId]) => {
      const base = `/api/competitions/${competitionId}`;
      const [overview, standings] = await Promise.all([api(base), api(`${base}/standings`)]);
      return { division, competitionId, overview, standings: standings.standings };
    }),
  );
  return read;
}

function seasonLink(name) {
  return `?${new URLSearchParams({ season: name })}`;
}

function drawDivision(division, moves) {
  const element = $("division-template").content.firstElementChild.cloneNode(true);
  const part = (name) => element.querySelector(`[data-part="${name}"]`);
  element.dataset.division = division.division;
  element.dataset.competition = division.competitionId;
  const headingId = `division-${division.competitionId}`;
  part("division-heading").id = headingId;
  part("division-heading").textContent = `Division: ${division.division}`;
  element.setAttribute("aria-labelledby", headingId);
  part("division-region").setAttribute("aria-labelledby", headingId);
  const status = statusOf(division.overview);
  const invited = division.overview.entrants.filter((e) => e.status === "invited").length;
  const entered = division.overview.entrants.length - invited;
  const waiting = invited ? ` · ${invited} partnership${invited === 1 ? "" : "s"} invited, waiting for the players to accept` : "";
  part("division-status").textContent = `${STATUS_WORDS[status]} · ${entered} partnership${entered === 1 ? "" : "s"} entered${waiting}`;
  part("division-link").href = `/competitions/${division.competitionId}/`;
  part("division-link").textContent = `Tournament page of division ${division.division}`;
  part("division-caption").textContent = `Standings of division ${division.division}, first place first`;
  const names = entrantNames(division.overview, division.overview.players);
  const table = part("division-table");
  const rows = division.standings.rows || [];
  if (rows.length) {
    drawStandings(table, division.standings, names);
    if (moves) {
      for (const tr of table.tBodies[0].rows) {
        const move = moves[tr.dataset.entrant];
        if (move && move !== "stays") {
          tr.dataset.move = move;
          const cell = tr.querySelector('th[data-column="entrant"]');
          const note = document.createElement("span");
          note.className = "visually-hidden";
          note.textContent = move === "up" ? " (promoted)" : " (relegated)";
          cell.append(note);
        }
      }
    }
  } else {
    part("division-region").hidden = true;
    part("division-empty").hidden = false;
  }
  return element;
}

/** Final orders of a finished season's divisions (withdrawn entrants do not carry over). */
function finalOrders(divisions) {
  return divisions.map((d) => (d.standings.rows || []).filter((r) => !r.withdrawn).map((r) => r.entrant));
}

async function showSeason(name, { push = false } = {}) {
  const league = page.league;
  const season = league.seasons.find((s) => s.season === name) || league.seasons[league.seasons.length - 1];
  page.season = season.season;
  if (push) history.pushState(null, "", seasonLink(season.season));
  $("season-select").value = season.season;
  $("season-heading").textContent = `Season ${season.season}`;
  const { previous, next } = neighbours(league.seasons, season.season);
  for (const [id, target] of [["previous-season", previous], ["next-season", next]]) {
    const link = $(id);
    link.hidden = target === null;
    if (target !== null) {
      link.href = seasonLink(target);
      link.dataset.season = target;
      link.textContent = id === "previous-season" ? `← Season ${target}` : `Season ${target} →`;
    }
  }
  $("season-status").textContent = "Reading the divisions…";
  const divisions = await readSeason(season);
  page.divisions[season.season] = divisions;
  const statuses = divisions.map((d) => statusOf(d.overview));
  const finished = statuses.every((s) => s === "finished");
  // A finished season of several divisions shows who goes up and down (one place a season).
  const moves = finished && divisions.length > 1 ? promotionPreview(finalOrders(divisions), 1, 1).moves : null;
  $("season-status").textContent = `${seasonStatus(statuses)} · ${divisions.length} division${divisions.length === 1 ? "" : "s"}${moves ? " · ▲ promoted, ▼ relegated (one place each)" : ""}`;
  $("divisions").replaceChildren(...divisions.map((d) => drawDivision(d, moves)));
  document.body.dataset.season = season.season;
}

// ---------------------------------------------------------------- the next season

function formValues() {
  return {
    season: $("season-name").value,
    divisions: $("season-divisions").value,
    promote: $("season-promote").checked,
    from: $("season-promote").dataset.from,
    up: $("season-up").value,
    down: $("season-down").value,
    format: $("season-format").value,
    rounds: $("season-rounds").value,
    double: $("season-double").checked,
    preset: $("season-preset").value,
    match: document.querySelector("input[name=season-match]:checked").value,
    hands: $("season-hands").value,
  };
}

/** Who would go where, from the last season's final standings, as a list per division. */
function drawPreview() {
  const box = $("promote-preview");
  box.replaceChildren();
  const from = $("season-promote").dataset.from;
  const divisions = page.divisions[from];
  if (!$("season-promote").checked || !divisions) return;
  const up = Number($("season-up").value);
  const down = Number($("season-down").value);
  if (!Number.isInteger(up) || !Number.isInteger(down) || up < 0 || down < 0) return;
  const { divisions: moved, moves } = promotionPreview(finalOrders(divisions), up, down);
  const names = Object.assign({}, ...divisions.map((d) => entrantNames(d.overview, d.overview.players)));
  const newNames = parseDivisions($("season-divisions").value);
  const heading = document.createElement("p");
  heading.textContent = "The partnerships each division invites:";
  const list = document.createElement("ul");
  list.className = "promote-preview-list";
  moved.forEach((entrants, index) => {
    const item = document.createElement("li");
    item.dataset.division = String(index);
    const words = entrants.map((e) => `${names[e] || e}${moves[e] === "up" ? " (up)" : moves[e] === "down" ? " (down)" : ""}`);
    item.textContent = `${newNames[index] || divisions[index].division}: ${words.join(", ") || "nobody"}`;
    list.append(item);
  });
  box.append(heading, list);
}

async function setUpNewSeason() {
  const league = page.league;
  const last = league.seasons[league.seasons.length - 1] || null;
  $("season-name").value = nextSeasonName(last && last.season, league.seasons.map((s) => s.season));
  $("season-divisions").value = last ? Object.keys(last.divisions).join("\n") : "main";
  fillPresetSelect($("season-preset"), await loadPresets(), "standard");
  const promote = $("season-promote");
  if (!last) {
    $("promote-fields").hidden = true;
  } else {
    promote.dataset.from = last.season;
    $("promote-from-name").textContent = last.season;
    if (!page.divisions[last.season]) page.divisions[last.season] = await readSeason(last);
    const finished = page.divisions[last.season].every((d) => d.overview.finished);
    promote.checked = finished;
    promote.disabled = !finished;
    $("promote-hint").textContent = finished
      ? `The first partnerships of each division but the top go up one division, the last of each but the bottom go down one; the others stay. Every player is invited again and accepts the new season as they did the last.`
      : `Season ${last.season} is not finished: once every one of its divisions has finished, its final standings can fill the next season's divisions.`;
  }
  for (const id of ["season-promote", "season-up", "season-down", "season-divisions"]) {
    $(id).addEventListener("input", drawPreview);
  }
  drawPreview();
  onSubmit($("new-season-form"), submitSeason);
  $("new-season-section").hidden = false;
}

const submitSeason = {
  error: $("new-season-error"),
  send: () => {
    const built = seasonRequest(formValues(), page.league);
    if (built.error) throw new Refusal(built.error);
    submitSeason.season = built.request.season;
    return api(`/api/leagues/${leagueId}/seasons`, {
      method: "POST",
      body: built.request,
      token: page.auth.token,
      command: true,
    });
  },
  done: (league) => {
    page.league = league;
    location.assign(`/leagues/${leagueId}/${seasonLink(submitSeason.season)}`);
  },
};

// ---------------------------------------------------------------- start

export async function start() {
  if (page.auth) page.me = await api("/api/auth/me", { token: page.auth.token }).catch(() => null);
  try {
    page.league = await api(`/api/leagues/${leagueId}`);
  } catch (problem) {
    $("league-error").textContent = problemText(problem);
    document.body.dataset.ready = "true";
    return;
  }
  const league = page.league;
  $("league-name").textContent = league.name;
  document.title = `${league.name} · Spades`;
  const count = league.seasons.length;
  $("league-summary").textContent = `${count} season${count === 1 ? "" : "s"} · ${league.organisers.length} organiser${league.organisers.length === 1 ? "" : "s"}`;
  $("league-ratings-link").href = `/ratings/?${new URLSearchParams({ pool: `league:${league.id}` })}`;
  const organiser = Boolean(page.me && league.organisers.includes(page.me.id));
  $("league-organiser-note").hidden = !organiser;
  try {
    if (count) {
      const select = $("season-select");
      select.replaceChildren(...league.seasons.map((s) => new Option(s.season, s.season)));
      select.addEventListener("change", () => showSeason(select.value, { push: true }));
      for (const id of ["previous-season", "next-season"]) {
        $(id).addEventListener("click", (event) => {
          event.preventDefault();
          showSeason(event.currentTarget.dataset.season, { push: true });
        });
      }
      window.addEventListener("popstate", () => showSeason(new URLSearchParams(location.search).get("season")));
      $("season-section").hidden = false;
      await showSeason(new URLSearchParams(location.search).get("season"));
    } else {
      $("no-seasons").hidden = false;
    }
    if (organiser) await setUpNewSeason();
  } catch (problem) {
    $("league-error").textContent = problemText(problem);
  }
  document.body.dataset.ready = "true";
}
