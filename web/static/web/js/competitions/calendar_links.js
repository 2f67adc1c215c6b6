// Calendars of round starts (docs/api.md, "Calendars of round starts"): the competition's
// .ics is a plain link; the signed-in player's own secret address is made on request and
// shown once (making another stops the old one working).

import { api } from "../api.js";
import { onClick } from "../forms.js";
import { copyField } from "./invite_link.js";

const $ = (id) => document.getElementById(id);

export function startCalendarLinks({ token }) {
  const issue = $("calendar-feed-issue");
  if (!token) {
    issue.disabled = true;
    return;
  }
  $("calendar-feed-copy").addEventListener("click", () => copyField($("calendar-feed-url")));
  onClick(issue, {
    error: $("calendar-error"),
    send: () => api("/api/players/me/calendar-feed", { method: "POST", token, command: true, body: {} }),
    done: (answer) => {
      $("calendar-feed-url").value = answer.url;
      $("calendar-feed-live").hidden = false;
      issue.textContent = "Get a new calendar address";
    },
  });
}
