// DOM pieces the competition pages share: the standings table and the tie-break choosers.

import { cellText, standingsColumns } from "./standings.js";
import { changeMark, TIEBREAKS, tiebreakLabel } from "./words.js";

/**
 * Fill `table` (thead + tbody) with `standings` ({tiebreaks, rows}); `changes` (entrant ->
 * places moved, what-if only) adds a "Moved" column.
 */
export function drawStandings(table, standings, names, changes = null) {
  const columns = standingsColumns(standings.tiebreaks);
  const head = document.createElement("tr");
  for (const column of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    const abbr = document.createElement("abbr");
    abbr.title = column.tiebreak ? `${column.label} (tie-break ${column.tiebreak})` : column.label;
    abbr.textContent = column.short;
    th.append(abbr);
    if (column.tiebreak) th.classList.add("tiebreak-column");
    if (!["entrant"].includes(column.key)) th.classList.add("num");
    th.dataset.column = column.key;
    head.append(th);
  }
  if (changes) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = "Moved";
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren(
    ...standings.rows.map((row) => {
      const tr = document.createElement("tr");
      tr.dataset.entrant = row.entrant;
      if (row.withdrawn) tr.classList.add("withdrawn");
      for (const column of columns) {
        const cell = document.createElement(column.key === "entrant" ? "th" : "td");
        if (column.key === "entrant") cell.scope = "row";
        else cell.className = "num";
        cell.dataset.column = column.key;
        cell.textContent = cellText(row, column, names);
        if (column.key === "entrant" && row.withdrawn) cell.textContent += " (withdrawn)";
        tr.append(cell);
      }
      if (changes) {
        const cell = document.createElement("td");
        const change = changes[row.entrant] || 0;
        cell.textContent = changeMark(change);
        cell.dataset.column = "change";
        cell.className = change > 0 ? "moved-up" : change < 0 ? "moved-down" : "";
        if (change) cell.setAttribute("aria-label", change > 0 ? `up ${change}` : `down ${-change}`);
        tr.append(cell);
      }
      return tr;
    }),
  );
}

/**
 * `count` selects in `box`, "1st tie-break" to "Nth", each offering every tie-break (and
 * "none"), preset to `chosen`; `read()` gives the order picked, repeats and gaps left out.
 */
export function tiebreakSelects(box, chosen, { count = 6, prefix = "tiebreak" } = {}) {
  box.replaceChildren();
  const selects = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}-${i + 1}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = `Tie-break ${i + 1}`;
    const select = document.createElement("select");
    select.id = id;
    const none = document.createElement("option");
    none.value = "";
    none.textContent = "(none)";
    select.append(none);
    for (const name of TIEBREAKS) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = tiebreakLabel(name);
      select.append(option);
    }
    select.value = chosen[i] || "";
    const cell = document.createElement("div");
    cell.append(label, select);
    box.append(cell);
    selects.push(select);
  }
  return {
    read() {
      const order = [];
      for (const select of selects) {
        if (select.value && (select.value === "head_to_head" || !order.includes(select.value))) order.push(select.value);
      }
      return order;
    },
  };
}
