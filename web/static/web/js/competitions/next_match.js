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
        li.append(" ", tableLink(item.match));
      }
      return li;
    }),
  );
  box.hidden = matches.length === 0;
}

/** The table of a match: the play page continues it (the player's own seat). */
export function tableLink(match) {
  const link = document.createElement("a");
  link.className = "button-link";
  link.href = `/?table=${match.table_id}`;
  link.textContent = `Go to my table (board ${match.board})`;
  return link;
}
