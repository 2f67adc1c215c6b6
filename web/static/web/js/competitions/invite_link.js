// The organiser's invitation link (docs/leagues.md, "The invitation link"): create,
// copy, revoke and make a new one. The link is /competitions/ID/join/#link=SECRET: the
// secret is in the fragment, which the browser never sends, so no log holds it. Only
// the competition's organisers are given it (GET /api/competitions/ID/entry-link).

import { api, problemText } from "../api.js";

const $ = (id) => document.getElementById(id);

/** Select ``input``'s text and put it on the clipboard (when the browser lets us). */
export function copyField(input) {
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
}

/** A sentence for the number of players in by the link who wait for a partner. */
export function waitingText(count) {
  if (!count) return "";
  return count === 1
    ? "1 player came in by the link and waits for a partner."
    : `${count} players came in by the link and wait for a partner.`;
}

/** Start the invitation link section for ``competitionId`` (``token``: the organiser's). */
export async function startInviteLink({ competitionId, token, changed }) {
  const base = `/api/competitions/${competitionId}/entry-link`;
  const show = (answer) => {
    const link = answer.link;
    $("invite-link-none").hidden = Boolean(link);
    $("invite-link-live").hidden = !link;
    $("invite-link-url").value = link ? `${location.origin}${link.path}` : "";
    $("invite-link-revoke").hidden = !link;
    $("invite-link-issue").textContent = link ? "Make a new link" : "Create the invitation link";
    $("invite-link-waiting").textContent = waitingText(answer.waiting);
  };
  const run = async (action, words) => {
    $("invite-link-error").textContent = "";
    $("invite-link-message").textContent = "";
    try {
      const answer = await action();
      show(answer);
      $("invite-link-message").textContent = words;
      if (changed) changed();
    } catch (problem) {
      $("invite-link-error").textContent = problemText(problem);
    }
  };
  $("invite-link-copy").addEventListener("click", () => copyField($("invite-link-url")));
  $("invite-link-issue").addEventListener("click", () =>
    run(
      () => api(base, { method: "POST", token, command: true, body: {} }),
      "A new invitation link is ready; an older one no longer works.",
    ),
  );
  $("invite-link-revoke").addEventListener("click", () =>
    run(
      () =>
        api(`${base}/revoke`, { method: "POST", token, command: true, body: {} }).then(() =>
          api(base, { token }),
        ),
      "The invitation link no longer works.",
    ),
  );
  if (!token) {
    $("invite-link-issue").disabled = true;
    return;
  }
  try {
    show(await api(base, { token }));
  } catch (problem) {
    // Not an organiser: the section says why and offers nothing.
    $("invite-link-issue").disabled = true;
    $("invite-link-error").textContent = problemText(problem);
  }
}
