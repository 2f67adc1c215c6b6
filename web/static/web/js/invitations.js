// Seats kept for friends (docs/tables.md, "Seats kept for friends"): the lobby panel's seat
// list, and the secret an invite link carries.
//
// A kept seat's link is /?join=TABLE&seat=SEAT#invite=SECRET: the secret is in the
// fragment, which the browser never sends, so no server or proxy log holds it; the page
// reads it and posts it with the take. Only the table's creator is given the secrets
// (GET /api/tables/ID/invitations); everyone else sees that a seat is kept, nothing more.

import { api, problemText } from "./api.js";
import { capital, SEATS, seatRole } from "./table/words.js";

/** The secret in this page's ``#invite=`` fragment, or null. */
export function inviteFromFragment() {
  const match = /(?:^#|&)invite=([A-Za-z0-9_-]{1,100})(?:&|$)/.exec(location.hash);
  return match ? match[1] : null;
}

/** Whether the signed-in player (``username``) created the table ``view`` shows. */
export function isHost(view, username) {
  return view.seats.some((s) => s.user_id != null && s.user_id === view.created_by && s.username === username);
}

function linkField(seat, value) {
  const link = document.createElement("input");
  link.readOnly = true;
  link.className = "invite-link";
  link.value = value;
  link.setAttribute("aria-label", `Invite link for ${capital(seat)}`);
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = "Copy link";
  copy.setAttribute("aria-label", `Copy link for ${capital(seat)}`); // the visible words first (WCAG 2.5.3)
  copy.addEventListener("click", () => {
    link.select();
    if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => {});
  });
  return [link, " ", copy];
}

function actionButton(words, seat, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = words;
  button.setAttribute("aria-label", `${words} for ${capital(seat)}`);
  button.addEventListener("click", onClick);
  return button;
}

/**
 * Fill ``list`` with one item per seat of a table in the lobby. ``token``/``username``:
 * the signed-in player; ``onError(text)`` shows a refusal; ``changed()`` after the host
 * kept, reissued or revoked (the table's update re-renders the panel anyway).
 */
export async function renderSeatInvites(list, view, { token, username, onError, changed }) {
  const host = isHost(view, username);
  let secrets = {};
  if (host && view.seats.some((s) => s.reserved)) {
    try {
      const answer = await api(`/api/tables/${view.id}/invitations`, { token });
      secrets = Object.fromEntries(answer.invitations.map((row) => [row.seat, row]));
    } catch (problem) {
      onError(problemText(problem));
    }
  }
  const command = (seat, action) => async () => {
    try {
      await api(`/api/tables/${view.id}/seats/${seat}/${action}`, { method: "POST", token, command: true, body: {} });
      await changed();
    } catch (problem) {
      onError(problemText(problem));
    }
  };
  const items = SEATS.map((seat) => {
    const row = view.seats.find((s) => s.seat === seat) || { seat };
    const li = document.createElement("li");
    li.dataset.seat = seat;
    const name = document.createElement("strong");
    name.textContent = capital(seat);
    li.append(name, " ");
    if (row.kind !== "human" || row.username) {
      li.append(seat === view.your_seat ? "you" : seatRole(view, seat));
    } else if (row.reserved && host) {
      const kept = secrets[seat];
      if (kept && kept.path) {
        li.append("kept for a friend: ", ...linkField(seat, `${location.origin}${kept.path}`), " ");
        li.append(actionButton("New link", seat, command(seat, "reissue")), " ");
        li.append(actionButton("Revoke link", seat, command(seat, "revoke")));
      } else {
        li.append("kept for a friend, link revoked ");
        li.append(actionButton("New link", seat, command(seat, "reissue")));
      }
    } else if (row.reserved) {
      li.append("kept for an invited friend");
    } else {
      li.append("open to anyone: ", ...linkField(seat, `${location.origin}/?join=${view.id}&seat=${seat}`));
      if (host) li.append(" ", actionButton("Keep for a friend", seat, command(seat, "reserve")));
    }
    return li;
  });
  list.replaceChildren(...items);
}
