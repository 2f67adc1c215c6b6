// "My next match": the signed-in player's next match and a link to its table, on the
// competition page (one competition) and in the play page's lobby (every competition).

import { api } from "../api.js";
import { nextMatchText } from "./words.js";

/** The lobby's list: GET /api/players/me/next-matches; hidden when the player plays in none. */
export async function showNextMatches(box, list, token) {
  let answer;
  try {
    answer = await api("/api/players/me/next-matches", { token });
  } catch {
    box.hidden = true;
    return;
  }
  const matches = answer.matches || [];
  list.replaceChildren(
    ...matches.map((item) => {
      const li = document.createElement("li");
      const title = document.createElement("a");
      title.href = `/competitions/${item.competition_id}/`;
      title.textContent = item.name || "A competition";
      const text = document.createElement("span");
      text.textContent = ` ${nextMatchText(item, item.names || {})}`;
      li.append(title, text);
      if (item.match && item.match.table_id) {
        li.append(" ", tableLink(item.match, item.competition_id, token));
      }
      return li;
    }),
  );
  box.hidden = matches.length === 0;
}

/**
 * The table of a match: the play page continues it (the player's own seat). Going to the
 * table is arriving at it (POST .../rounds/<n>/arrive, docs/leagues.md "Presence at the
 * table"): the fourth player to arrive starts the game, and a player who never comes is a
 * no-show after the grace time. A refused arrival (already there, the grace time over)
 * still goes to the table.
 */
export function tableLink(match, competitionId, token) {
  const link = document.createElement("a");
  link.className = "button-link";
  link.href = `/?table=${match.table_id}`;
  link.textContent = `Go to my table (board ${match.board})`;
  if (competitionId && token) {
    link.addEventListener("click", async (event) => {
      event.preventDefault();
      const path = `/api/competitions/${competitionId}/rounds/${match.round}/arrive`;
      await api(path, { method: "POST", body: {}, token }).catch(() => null);
      window.location.assign(link.href);
    });
  }
  return link;
}
