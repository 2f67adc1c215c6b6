// The organiser's invitation link (docs/leagues.md, "The invitation link"): create,
// copy, revoke and make a new one. The link is /competitions/ID/join/#link=SECRET: the
// secret is in the fragment, which the browser never sends, so no log holds it. Only
// the competition's organisers are given it (GET /api/competitions/ID/entry-link).

import { api, problemText } from "../api.js";
import { onClick } from "../forms.js";

const $ = (id) => document.getElementById(id);

/** Select ``input``'s text and put it on the clipboard (when the browser lets us). */
export function copyField(input) {
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
}

/** A sentence for the players in by the link who wait for a partner: named when
 * ``names`` (their usernames, from the overview's ``waiting``) holds them all. */
export function waitingText(count, names = []) {
  if (!count) return "";
  const verb = count === 1 ? "waits" : "wait";
  if (names.length === count) {
    const listed = count === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[count - 1]}`;
    return `${listed} came in by the link and ${verb} for a partner.`;
  }
  return count === 1
    ? "1 player came in by the link and waits for a partner."
    : `${count} players came in by the link and wait for a partner.`;
}

/** The usernames of the players waiting for a partner (the overview's ``waiting``). */
async function waitingNames(competitionId) {
  const overview = await api(`/api/competitions/${competitionId}`).catch(() => null);
  if (!overview || !Array.isArray(overview.waiting)) return [];
  return overview.waiting.map((w) => (overview.players || {})[w.player] || "a player");
}

/** Start the invitation link section for ``competitionId`` (``token``: the organiser's). */
export async function startInviteLink({ competitionId, token, changed }) {
  const base = `/api/competitions/${competitionId}/entry-link`;
  const show = async (answer) => {
    const link = answer.link;
    $("invite-link-none").hidden = Boolean(link);
    $("invite-link-live").hidden = !link;
    $("invite-link-url").value = link ? `${location.origin}${link.path}` : "";
    $("invite-link-revoke").hidden = !link;
    $("invite-link-issue").textContent = link ? "Make a new link" : "Create the invitation link";
    const names = answer.waiting ? await waitingNames(competitionId) : [];
    $("invite-link-waiting").textContent = waitingText(answer.waiting, names);
  };
  // Each button sends once through the form helper (disabled while out), and says what
  // changed; a refusal shows under the section.
  const action = (button, send, words) =>
    onClick(button, {
      error: $("invite-link-error"),
      send: () => {
        $("invite-link-message").textContent = "";
        return send();
      },
      done: async (answer) => {
        await show(answer);
        $("invite-link-message").textContent = words;
        if (changed) changed();
      },
    });
  $("invite-link-copy").addEventListener("click", () => copyField($("invite-link-url")));
  action(
    $("invite-link-issue"),
    () => api(base, { method: "POST", token, command: true, body: {} }),
    "A new invitation link is ready; an older one no longer works.",
  );
  action(
    $("invite-link-revoke"),
    () => api(`${base}/revoke`, { method: "POST", token, command: true, body: {} }).then(() => api(base, { token })),
    "The invitation link no longer works.",
  );
  if (!token) {
    $("invite-link-issue").disabled = true;
    return;
  }
  try {
    await show(await api(base, { token }));
  } catch (problem) {
    // Not an organiser: the section says why and offers nothing.
    $("invite-link-issue").disabled = true;
    $("invite-link-error").textContent = problemText(problem);
  }
}
