// The ratings page (/ratings/?pool=POOL&player=ID): one pool's leaderboard (the site's,
// the duplicate skill's, or a league's, picked from GET /api/leagues), best first, players by username; choosing a
// player shows their rating after each rated match as a chart (the standings chart's
// drawing, ../competitions/standings_chart.js) and the matches that moved it
// (GET /api/ratings/<player>/history?pool=), a page of them at a time.

import { api, problemText } from "../api.js";
import { drawStandingsChart } from "../competitions/standings_chart.js";
import {
  changeText,
  competitionLabel,
  figure,
  historySeries,
  leaderboardSummary,
  matchLine,
  playerLabel,
  poolFromQuery,
  poolOptions,
  SITE_POOL,
  SKILL_POOL,
} from "./words.js";

const $ = (id) => document.getElementById(id);
const MAX_LEAGUES = 100;

const page = { pool: SITE_POOL, options: [], player: null, matches: [], names: {}, earlier: null };

function address() {
  const query = new URLSearchParams({ pool: page.pool });
  if (page.player) query.set("player", page.player);
  return `?${query}`;
}

function cell(text, className = "num") {
  const td = document.createElement("td");
  td.className = className;
  td.textContent = text;
  return td;
}

function leaderboardRow(rating, place) {
  const tr = document.createElement("tr");
  tr.dataset.player = rating.player;
  const name = document.createElement("th");
  name.scope = "row";
  const link = document.createElement("a");
  link.href = `?${new URLSearchParams({ pool: page.pool, player: rating.player })}`;
  link.textContent = rating.username || "a former player";
  link.addEventListener("click", (event) => {
    event.preventDefault();
    showPlayer(rating.player, { push: true, focus: true });
  });
  name.append(link);
  tr.append(cell(String(place)), name, cell(figure(rating.ordinal)), cell(figure(rating.mu)), cell(figure(rating.sigma)), cell(String(rating.matches)));
  return tr;
}

async function showPool() {
  $("ratings-error").textContent = "";
  let answer;
  try {
    answer = await api(`/api/ratings?${new URLSearchParams({ pool: page.pool })}`);
  } catch (problem) {
    $("ratings-error").textContent = problemText(problem);
    return;
  }
  // The duplicate skill counts boards, and ranks by μ − 2σ (docs/leagues.md).
  const skill = page.pool === SKILL_POOL;
  $("ratings-count-heading").textContent = skill ? "Boards" : "Matches";
  $("skill-note").hidden = !skill;
  const body = $("ratings-table").tBodies[0];
  body.replaceChildren(...answer.ratings.map((r, k) => leaderboardRow(r, k + 1)));
  $("ratings-region").hidden = answer.ratings.length === 0;
  $("ratings-summary").textContent = leaderboardSummary(answer.ratings.length);
  markCurrent();
}

function markCurrent() {
  for (const tr of $("ratings-table").tBodies[0].rows) {
    if (tr.dataset.player === page.player) tr.setAttribute("aria-current", "true");
    else tr.removeAttribute("aria-current");
  }
}

function historyRow(match, index) {
  const tr = document.createElement("tr");
  tr.dataset.result = match.result_id;
  tr.dataset.outcome = match.outcome || "";
  const where = document.createElement("td");
  const link = document.createElement("a");
  link.href = `/competitions/${match.competition_id}/`;
  link.textContent = competitionLabel(match);
  where.append(link);
  const change = cell(changeText(match.change));
  change.classList.add(match.change > 0 ? "rating-up" : match.change < 0 ? "rating-down" : "rating-same");
  tr.append(
    cell(String(index + 1)),
    cell(matchLine(match, page.names), ""),
    where,
    cell(figure(match.before.ordinal)),
    cell(figure(match.after.ordinal)),
    change,
  );
  return tr;
}

function drawHistory() {
  const name = playerLabel(page.player, page.names);
  $("history-heading").textContent = `Rating history: ${name}`;
  const count = page.matches.length;
  const last = count ? page.matches[count - 1].after.ordinal : null;
  $("history-summary").textContent = count
    ? `${count} rated match${count === 1 ? "" : "es"} shown; rating after the last: ${figure(last)}.`
    : `${name} has no rated match in these ratings.`;
  const series = { [page.player]: historySeries(page.matches) };
  drawStandingsChart($("history-chart"), $("history-legend"), series, count ? [page.player] : [], { [page.player]: name }, {
    start: false,
    roundLabel: (r) => String(r),
    valueText: figure,
    lineTitle: (who, value) => `${who}: rating ${figure(value)}`,
    label: (rounds) => `${name}'s rating (μ − 3σ) before the first match shown and after each of ${rounds} match${rounds === 1 ? "" : "es"}`,
  });
  $("history-chart").hidden = count === 0;
  $("history-table").tBodies[0].replaceChildren(...page.matches.map(historyRow));
  $("earlier-matches").hidden = page.earlier === null;
}

async function readHistory(before = null) {
  const query = new URLSearchParams({ pool: page.pool });
  if (before !== null) query.set("before", String(before));
  return api(`/api/ratings/${encodeURIComponent(page.player)}/history?${query}`);
}

async function showPlayer(player, { push = false, focus = false } = {}) {
  page.player = player;
  if (push) history.pushState(null, "", address());
  markCurrent();
  if (!player) {
    $("history-section").hidden = true;
    return;
  }
  let answer;
  try {
    answer = await readHistory();
  } catch (problem) {
    $("ratings-error").textContent = problemText(problem);
    $("history-section").hidden = true;
    return;
  }
  page.matches = answer.matches;
  page.names = answer.names;
  page.earlier = answer.earlier;
  drawHistory();
  $("history-section").hidden = false;
  if (focus) $("history-heading").focus();
}

async function showEarlier() {
  const answer = await readHistory(page.earlier).catch((problem) => {
    $("ratings-error").textContent = problemText(problem);
    return null;
  });
  if (!answer) return;
  page.matches = [...answer.matches, ...page.matches];
  page.names = { ...answer.names, ...page.names };
  page.earlier = answer.earlier;
  drawHistory();
}

async function fromAddress() {
  page.pool = poolFromQuery(location.search, page.options.map((o) => o.value));
  $("pool-select").value = page.pool;
  await showPool();
  await showPlayer(new URLSearchParams(location.search).get("player"));
}

export async function start() {
  let leagues = [];
  try {
    leagues = (await api(`/api/leagues?limit=${MAX_LEAGUES}`)).leagues;
  } catch (problem) {
    $("ratings-error").textContent = problemText(problem);
  }
  page.options = poolOptions(leagues);
  const select = $("pool-select");
  select.replaceChildren(...page.options.map((o) => new Option(o.label, o.value)));
  select.addEventListener("change", async () => {
    page.pool = select.value;
    page.player = null;
    history.pushState(null, "", address());
    $("history-section").hidden = true;
    await showPool();
  });
  $("earlier-matches").addEventListener("click", showEarlier);
  window.addEventListener("popstate", fromAddress);
  await fromAddress();
  document.body.dataset.ready = "true";
}
