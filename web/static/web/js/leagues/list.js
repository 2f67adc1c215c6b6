// The leagues list (/leagues/): GET /api/leagues, newest first, a page at a time; a
// signed-in player starts a league (POST /api/leagues) and lands on its page.

import { api, problemText } from "../api.js";
import { onSubmit, Refusal } from "../forms.js";
import * as session from "../session.js";

const $ = (id) => document.getElementById(id);
const PAGE_SIZE = 50;

function row(league) {
  const tr = document.createElement("tr");
  tr.dataset.league = league.id;
  const name = document.createElement("th");
  name.scope = "row";
  const link = document.createElement("a");
  link.href = `/leagues/${league.id}/`;
  link.textContent = league.name;
  name.append(link);
  const started = document.createElement("td");
  const time = document.createElement("time");
  time.dateTime = league.created_at;
  time.textContent = new Date(league.created_at).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric" });
  started.append(time);
  const ratings = document.createElement("td");
  const ratingsLink = document.createElement("a");
  ratingsLink.href = `/ratings/?${new URLSearchParams({ pool: league.pool })}`;
  ratingsLink.textContent = "Ratings";
  ratingsLink.setAttribute("aria-label", `Ratings of ${league.name}`);
  ratings.append(ratingsLink);
  tr.append(name, started, ratings);
  return tr;
}

async function show(offset) {
  $("leagues-error").textContent = "";
  let answer;
  try {
    answer = await api(`/api/leagues?${new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) })}`);
  } catch (problem) {
    $("leagues-error").textContent = problemText(problem);
    return;
  }
  const body = $("league-list").tBodies[0];
  const rows = answer.leagues.map(row);
  if (offset === 0) body.replaceChildren(...rows);
  else body.append(...rows);
  const empty = body.rows.length === 0;
  $("league-list").hidden = empty;
  $("no-leagues").hidden = !empty;
  const more = $("more-leagues");
  more.hidden = answer.next_offset === null;
  more.dataset.offset = String(answer.next_offset ?? "");
}

function setUpCreate(auth) {
  if (!auth) {
    $("new-league-signed-out").hidden = false;
    return;
  }
  const form = $("new-league-form");
  form.hidden = false;
  onSubmit(form, {
    error: $("new-league-error"),
    send: () => {
      const name = $("new-league-name").value.trim();
      if (!name) throw new Refusal("Give the league a name.");
      return api("/api/leagues", { method: "POST", body: { name }, token: auth.token, command: true });
    },
    done: (league) => location.assign(`/leagues/${league.id}/`),
  });
}

export async function start() {
  $("more-leagues").addEventListener("click", (event) => show(Number(event.currentTarget.dataset.offset)));
  setUpCreate(session.loadAuth());
  await show(0);
  document.body.dataset.ready = "true";
}
