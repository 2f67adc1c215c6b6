// The competitions list (/competitions/): GET /api/competitions, newest first, a page at a
// time, filtered by status.

import { api, problemText } from "../api.js";

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 50;
const STATUS_WORDS = { registration: "Registration open", running: "In play", finished: "Finished" };

const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function row(c) {
  const tr = document.createElement("tr");
  tr.dataset.competition = c.id;
  const name = document.createElement("th");
  name.scope = "row";
  const link = document.createElement("a");
  link.href = `/competitions/${c.id}/`;
  link.textContent = c.name || "Unnamed competition";
  name.append(link);
  const kind = document.createElement("td");
  kind.textContent = `${capitalised(c.kind)}${c.season ? ` · season ${c.season}` : ""}${c.division ? ` · ${c.division}` : ""}`;
  const status = document.createElement("td");
  status.textContent = STATUS_WORDS[c.status] || c.status;
  const created = document.createElement("td");
  const time = document.createElement("time");
  time.dateTime = c.created_at;
  time.textContent = new Date(c.created_at).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
  created.append(time);
  tr.append(name, kind, status, created);
  return tr;
}

/** Show the first page (replace) or the next one (append). */
async function show(offset) {
  $("competitions-error").textContent = "";
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
  const status = $("competition-status").value;
  if (status) query.set("status", status);
  let answer;
  try {
    answer = await api(`/api/competitions?${query}`);
  } catch (problem) {
    $("competitions-error").textContent = problemText(problem);
    return;
  }
  const body = $("competition-list").tBodies[0];
  const rows = answer.competitions.map(row);
  if (offset === 0) body.replaceChildren(...rows);
  else body.append(...rows);
  const empty = body.rows.length === 0;
  $("competition-list").hidden = empty;
  $("no-competitions").hidden = !empty;
  const more = $("more-competitions");
  more.hidden = answer.next_offset === null;
  more.dataset.offset = String(answer.next_offset ?? "");
}

export async function start() {
  $("competition-status").addEventListener("change", () => show(0));
  $("more-competitions").addEventListener("click", (event) => show(Number(event.currentTarget.dataset.offset)));
  await show(0);
  document.body.dataset.ready = "true";
}
