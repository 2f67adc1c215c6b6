// The landing page of a competition's links (/competitions/ID/join/): the invitation link
// (#link=SECRET) and a player's partner link (?partner=P#partner=SECRET). A newcomer
// signs up here (the sign-up carries the link, so it counts on the invited sign-up limit)
// or logs in, and the page follows the link with their token: through the invitation
// link they are in and get their own partner link to send; through a partner link their
// partnership is entered. The secret is read from the fragment (never sent by the
// browser) and posted; docs/leagues.md, "The invitation link".

import { api, problemText } from "../api.js";
import { onClick, onSubmit, Refusal, sending } from "../forms.js";
import * as session from "../session.js";
import { copyField } from "./invite_link.js";
import { linkFrom } from "./links.js";

const $ = (id) => document.getElementById(id);
const competitionId = document.body.dataset.competition;
const base = `/api/competitions/${competitionId}`;

/** Every sentence of a refusal, nested field errors included (a sign-up's link). */
function refusalText(problem) {
  const fields = problem && problem.body && problem.body.fields;
  const found = [];
  const walk = (value) => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  if (fields && fields.competition_link) {
    walk(fields.competition_link);
    return found.join(" ");
  }
  return problemText(problem);
}

const page = { link: linkFrom(location.search, location.hash), auth: session.loadAuth(), overview: null };

function showOnly(...ids) {
  for (const id of ["join-account", "join-signed-in", "join-partner", "join-entered"]) $(id).hidden = !ids.includes(id);
}

function say(text) {
  $("join-message").textContent = text;
}

function showPartnerLink(place) {
  $("join-partner-url").value = `${location.origin}${place.partner_link.path}`;
  showOnly("join-partner");
  say("You are in the competition, waiting for your partner.");
}

async function showEntered(place) {
  const overview = await api(base).catch(() => page.overview);
  const entrant = overview && overview.entrants.find((e) => e.id === place.entrant_id);
  const names = entrant ? entrant.players.map((p) => overview.players[p] || "a player").join(" and ") : "";
  $("join-entered-text").textContent = entrant
    ? `${names} play together in ${overview.settings.name}${entrant.status === "invited" ? "; an answer is still awaited" : ""}. The competition's page shows your matches once rounds are paired.`
    : "You are in this competition. The competition's page shows your matches once rounds are paired.";
  showOnly("join-entered");
  $("join-public").hidden = false;
}

/** Where the signed-in player stands; true when there is nothing left to do here. */
async function showPlace() {
  const place = await api(`${base}/me`, { token: page.auth.token });
  if (place.partner_link) {
    showPartnerLink(place);
    return true;
  }
  if (place.entrant_id) {
    await showEntered(place);
    return true;
  }
  return false;
}

async function follow() {
  const link = page.link;
  const token = page.auth.token;
  const body = { secret: link.secret };
  if (link.kind === "entry") {
    const place = await api(`${base}/entry-link/join`, { method: "POST", token, command: true, body });
    showPartnerLink(place);
  } else {
    const place = await api(`${base}/partnerships/${encodeURIComponent(link.partnership)}/join`, { method: "POST", token, command: true, body });
    await showEntered(place);
    say("Your partnership is entered.");
  }
}

async function signedIn() {
  $("join-username").textContent = page.auth.username;
  if (await showPlace()) return;
  showOnly("join-signed-in");
}

/** Follow the link with the signed-in player's token (the "Come in" button's action, and after signing in). */
function enter() {
  return sending({ controls: [$("join-enter")], error: $("join-error"), send: follow });
}

/** Sign up (`path` /api/auth/register, carrying the link) or log in, then follow the link. */
function authenticate(form, path, errorId) {
  onSubmit(form, {
    error: $(errorId),
    words: refusalText,
    send: async () => {
      $("join-error").textContent = "";
      const username = form.elements.username.value.trim();
      const password = form.elements.password.value;
      if (!username || !password) throw new Refusal("Enter a username and a password.");
      const body = { username, password };
      if (path === "/api/auth/register") {
        const link = { competition: competitionId, secret: page.link.secret };
        if (page.link.kind === "partner") link.partnership = page.link.partnership;
        body.competition_link = link;
      }
      const answer = await api(path, { method: "POST", body });
      page.auth = { token: answer.token, username: answer.user.username };
      session.saveAuth(answer.token, answer.user.username);
      $("join-username").textContent = page.auth.username;
      return showPlace();
    },
    done: async (placed) => {
      form.reset();
      if (!placed) {
        showOnly("join-signed-in");
        await enter();
      }
    },
  });
}

export async function start() {
  authenticate($("join-register-form"), "/api/auth/register", "join-register-error");
  authenticate($("join-login-form"), "/api/auth/token", "join-login-error");
  $("join-enter").addEventListener("click", enter);
  $("join-partner-copy").addEventListener("click", () => copyField($("join-partner-url")));
  // A player waiting for a partner leaves: their partnership closes (POST .../leave).
  onClick($("join-leave"), {
    error: $("join-leave-error"),
    send: () => api(`${base}/leave`, { method: "POST", token: page.auth.token, command: true, body: {} }),
    done: () => {
      showOnly("join-signed-in");
      say("You left the competition; your partner link no longer works.");
    },
  });
  $("join-switch").addEventListener("click", () => {
    session.clearAuth();
    page.auth = null;
    showOnly("join-account");
  });
  try {
    page.overview = await api(base);
    const s = page.overview.settings;
    $("join-heading").textContent = `Join ${s.name || "the competition"}`;
    $("join-public").hidden = false;
  } catch (problem) {
    $("join-error").textContent = problemText(problem);
    document.body.dataset.ready = "true";
    return;
  }
  if (!page.link) {
    $("join-error").textContent = "This page opens from an invitation link or a partner link, and this address holds neither: copy the whole link you were sent, including the part after '#'.";
    document.body.dataset.ready = "true";
    return;
  }
  $("join-about").textContent =
    page.link.kind === "entry"
      ? "You were invited to play in this competition. Once you are in, you get a link to send to your partner."
      : "Your partner is in this competition and invited you to play with them. Once you are in, your partnership is entered.";
  if (page.auth) {
    const me = await api("/api/auth/me", { token: page.auth.token }).catch(() => null);
    if (!me) {
      session.clearAuth();
      page.auth = null;
    }
  }
  try {
    if (page.auth) await signedIn();
    else showOnly("join-account");
  } catch (problem) {
    $("join-error").textContent = problemText(problem);
  }
  document.body.dataset.ready = "true";
}
