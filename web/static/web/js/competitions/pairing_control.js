// The organiser's control of the pairings, on the organise page: the pairs of entrants kept
// apart (listed, added, removed) and the last round's pairing replaced before it starts.
// Every write is the organiser API's (token); a refusal shows the server's sentence under
// the form that made it. organise.js calls startPairingControl once; a write that changes
// the rounds it draws (an override) says so with the page's "competition:changed" event.

import { api, problemText } from "../api.js";
import { onClick, onSubmit, sending } from "../forms.js";
import { TEAM_NAMES, TEAMS } from "../table/words.js";
import { entrantNames, pairingNotes } from "./words.js";

const $ = (id) => document.getElementById(id);

function changed() {
  document.dispatchEvent(new CustomEvent("competition:changed"));
}

const state = { base: "", token: null, onChange: changed, names: {}, entrants: [], round: null };

function call(path, body) {
  return api(`${state.base}${path}`, { method: "POST", body, token: state.token, command: true });
}

function say(text) {
  $("pairing-control-message").textContent = text;
}

function nameOf(id) {
  return state.names[id] || id;
}

function option(value, text, selected = false) {
  const item = document.createElement("option");
  item.value = value;
  item.textContent = text;
  item.selected = selected;
  return item;
}

function fillSelect(select, ids, chosen) {
  select.replaceChildren(...ids.map((id) => option(id, nameOf(id), id === chosen)));
}

async function load() {
  const [overview, forbidden, rounds] = await Promise.all([
    api(state.base),
    api(`${state.base}/forbidden-pairs`, { token: state.token }),
    api(`${state.base}/rounds`),
  ]);
  state.names = entrantNames(overview, overview.players);
  drawNotes(rounds.rounds);
  state.entrants = overview.entrants.filter((e) => e.withdrawn_after_round === null).map((e) => e.id);
  drawForbidden(forbidden.forbidden_pairs);
  fillSelect($("forbidden-first"), state.entrants, state.entrants[0]);
  fillSelect($("forbidden-second"), state.entrants, state.entrants[1]);
  $("forbidden-form").hidden = overview.finished || state.entrants.length < 2;
}

/** A round's `pairingNotes` as a list (`ul.round-notes`) for the rounds the public page
 * and the organise page draw, or null when the round has none. */
export function roundNotes(round, names) {
  const notes = pairingNotes(round, names);
  if (!notes.length) return null;
  const list = document.createElement("ul");
  list.className = "round-notes";
  list.replaceChildren(...notes.map(item));
  return list;
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

/** The section's summary of every round's notes ("Round 2: Paired by hand by ..."). */
function drawNotes(rounds) {
  const notes = rounds.flatMap((round) => pairingNotes(round, state.names).map((text) => `Round ${round.round}: ${text}`));
  $("pairing-notes").replaceChildren(...notes.map(item));
}

function drawForbidden(pairs) {
  $("forbidden-empty").hidden = pairs.length > 0;
  $("forbidden-list").replaceChildren(
    ...pairs.map((pair) => {
      const [a, b] = pair.entrants;
      const li = document.createElement("li");
      li.dataset.pair = `${a}|${b}`;
      const text = document.createElement("span");
      const words = `${nameOf(a)} and ${nameOf(b)}`;
      text.textContent = pair.reason ? `${words}: ${pair.reason}` : words;
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "link-button";
      remove.textContent = "Let them meet";
      remove.setAttribute("aria-label", `Let them meet: ${words}`);
      remove.addEventListener("click", (event) => allow(event, pair.entrants, words));
      li.append(text, " ", remove);
      return li;
    }),
  );
}

const forbid = {
  error: $("forbidden-error"),
  send: () => {
    const pair = [$("forbidden-first").value, $("forbidden-second").value];
    return call("/forbidden-pairs", { entrants: pair, reason: $("forbidden-reason").value.trim() }).then(
      (answer) => ({ answer, pair }),
    );
  },
  done: ({ answer, pair: [first, second] }) => {
    drawForbidden(answer.forbidden_pairs);
    $("forbidden-reason").value = "";
    say(`${nameOf(first)} and ${nameOf(second)} are kept apart from the next round paired.`);
  },
};

function allow(event, entrants, words) {
  return sending({
    controls: [event.currentTarget],
    error: $("forbidden-error"),
    send: () => call("/forbidden-pairs/remove", { entrants }).then(load),
    done: () => say(`${words} may meet again.`),
  });
}

function boardRow(match, index, ids) {
  const li = document.createElement("li");
  li.dataset.board = String(index + 1);
  for (const [side, label] of TEAMS.map((team) => [team, TEAM_NAMES[team]])) {
    const id = `override-${index + 1}-${side}`;
    const tag = document.createElement("label");
    tag.htmlFor = id;
    tag.textContent = `Board ${index + 1} ${label}`;
    const select = document.createElement("select");
    select.id = id;
    select.dataset.side = side;
    fillSelect(select, ids, match[side]);
    li.append(tag, select);
  }
  return li;
}

const openOverride = {
  error: $("override-error"),
  send: () => api(`${state.base}/rounds`),
  done: ({ rounds }) => {
    const round = rounds[rounds.length - 1];
    if (!round || round.started || round.closed) {
      $("override-form").hidden = true;
      say(round ? `Round ${round.round} has started: its pairing stays as it is.` : "No round is paired yet.");
      return;
    }
    state.round = round;
    const ids = [...round.matches.flatMap((m) => [m.north_south, m.east_west]), ...round.byes];
    $("override-round").textContent = `Round ${round.round}: choose who meets on each board.`;
    $("override-boards").replaceChildren(...round.matches.map((match, index) => boardRow(match, index, ids)));
    $("override-bye-row").hidden = round.byes.length === 0;
    fillSelect($("override-bye"), ids, round.byes[0]);
    $("override-form").hidden = false;
    $("override-boards").querySelector("select")?.focus();
  },
};

const override = {
  error: $("override-error"),
  send: () => {
    const round = state.round;
    const matches = [...$("override-boards").children].map((li) => ({
      north_south: li.querySelector("[data-side=north_south]").value,
      east_west: li.querySelector("[data-side=east_west]").value,
    }));
    const byes = $("override-bye-row").hidden ? [] : [$("override-bye").value];
    return call(`/rounds/${round.round}/override`, { matches, byes, reason: $("override-reason").value.trim() })
      .then(load)
      .then(() => round);
  },
  done: (round) => {
    $("override-form").hidden = true;
    $("override-reason").value = "";
    say(`Round ${round.round} is paired as you wrote it.`);
    state.onChange();
  },
};

/** Wire the section and draw it (`base`: the competition's API path). */
export async function startPairingControl({ base, token, onChange }) {
  state.base = base;
  state.token = token || null;
  if (onChange) state.onChange = onChange;
  onSubmit($("forbidden-form"), forbid);
  onClick($("override-open"), openOverride);
  onSubmit($("override-form"), override);
  $("override-cancel").addEventListener("click", () => ($("override-form").hidden = true));
  try {
    await load();
  } catch (problem) {
    $("forbidden-error").textContent = problemText(problem);
  }
}
