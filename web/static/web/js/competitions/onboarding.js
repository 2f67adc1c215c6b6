// The organise page's onboarding tools (web/_organise_onboarding.html): the invitation
// link, the CSV import and the calendar links, each its own module. A change that adds
// entrants tells the rest of the page with a "competition:changed" event.

import * as session from "../session.js";
import { startCalendarLinks } from "./calendar_links.js";
import { startEntrantImport } from "./entrant_import.js";
import { startInviteLink } from "./invite_link.js";

export async function startOnboarding(competitionId) {
  const auth = session.loadAuth();
  const token = auth && auth.token;
  const changed = () => document.dispatchEvent(new CustomEvent("competition:changed"));
  startEntrantImport({ competitionId, token, changed });
  startCalendarLinks({ token });
  await startInviteLink({ competitionId, token, changed });
  document.getElementById("onboarding").dataset.ready = "true";
}
