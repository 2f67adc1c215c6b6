// The spectator's page: a table in play as anyone may see it (no hand in play, ever: the
// server's one visibility filter decides), kept live over the table's WebSocket.

import { api } from "./api.js";
import { TableLive } from "./live.js";
import { TablePresenter } from "./table/presenter.js";
import { TableRenderer } from "./table/renderer.js";
import { delayText } from "./table/words.js";

const $ = (id) => document.getElementById(id);

export async function start() {
  const tableId = document.body.dataset.table;
  const section = $("table-section");
  const renderer = new TableRenderer(section, {
    onTitle: () => {},
  });
  const presenter = new TablePresenter(renderer, { tableId });
  let view;
  try {
    view = await api(`/api/tables/${tableId}`);
  } catch (problem) {
    $("watch-error").textContent = problem.message;
    document.body.dataset.ready = "true";
    return;
  }
  section.hidden = false;
  for (const id of ["leave-table"]) {
    const el = $(id);
    if (el) el.closest("p").hidden = true;
  }
  const showDelay = (table) => {
    const text = delayText(table);
    if ($("watch-delay").textContent !== text) $("watch-delay").textContent = text;
  };
  showDelay(view);
  presenter.enqueue(view, []);
  const live = new TableLive(tableId, "", {
    onMessage: (message) => {
      if (message.table) {
        showDelay(message.table);
        presenter.enqueue(message.table, message.events || []);
      }
    },
    onStatus: (kind, text) => {
      const banner = $("connection");
      banner.hidden = kind === "open";
      banner.textContent = kind === "open" ? "" : text;
    },
  });
  live.version = view.version;
  live.connect();
  document.body.dataset.ready = "true";
}
