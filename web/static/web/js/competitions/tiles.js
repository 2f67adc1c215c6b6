// The live boards of a round: one tile per table, each drawn by its own TableRenderer into
// its own element and kept live by its own TableLive as a spectator (no token).
//
// A round's tables are recorded (RoundStarted) before they are created, so for a moment a
// started round names tables that do not exist yet. A tile reads its table only once the
// round's tables read (GET .../rounds/N/tables) says it is ready; until then it shows the
// table being set up, and the competition's socket says when the tables are open
// ({type: "tables"}: openReady again). Nothing reads a table that is not there.

import { api } from "../api.js";
import { TableLive } from "../live.js";
import { TablePresenter } from "../table/presenter.js";
import { TableRenderer } from "../table/renderer.js";
import { delayText, TEAM_NAMES } from "../table/words.js";

class BoardTile {
  constructor(element, tableId) {
    this.element = element;
    this.tableId = tableId;
    this.renderer = new TableRenderer(element);
    this.presenter = new TablePresenter(this.renderer, { tableId });
    this.live = null;
    this.opened = false;
  }

  settingUp() {
    this.element.dataset.setup = "true";
    this.renderer.setText("status-line", "Setting up the table…");
  }

  async open() {
    this.opened = true;
    delete this.element.dataset.setup;
    let view;
    try {
      view = await api(`/api/tables/${this.tableId}`);
    } catch (problem) {
      this.renderer.setText("status-line", problem.message);
      return;
    }
    if (this.presenter.closed) return;
    this.renderer.setText("delay-note", delayText(view));
    this.presenter.enqueue(view, []);
    this.live = new TableLive(this.tableId, "", {
      onMessage: (message) => {
        if (message.table) {
          this.renderer.setText("delay-note", delayText(message.table));
          this.presenter.enqueue(message.table, message.events || []);
        }
      },
      onStatus: (kind, text) => {
        this.element.dataset.connection = kind;
        if (kind !== "open") this.renderer.setText("status-line", text);
      },
    });
    this.live.version = view.version;
    this.live.connect();
  }

  close() {
    this.presenter.close();
    if (this.live) this.live.close();
  }
}

export class BoardTiles {
  /** `list` receives the tiles; `template` is the tile's <template>. */
  constructor(list, template, competitionId) {
    this.list = list;
    this.template = template;
    this.competitionId = competitionId;
    this.round = null;
    this.tiles = new Map(); // table id -> BoardTile
  }

  /** Open the tiles whose tables exist now; the others say their table is being set up. */
  async openReady() {
    const waiting = [...this.tiles.values()].filter((tile) => !tile.opened);
    if (!waiting.length || this.round === null) return;
    let answer;
    try {
      answer = await api(`/api/competitions/${this.competitionId}/rounds/${this.round}/tables`);
    } catch (problem) {
      for (const tile of waiting) tile.renderer.setText("status-line", problem.message);
      return;
    }
    const ready = new Set(answer.tables.filter((t) => t.ready).map((t) => t.table_id));
    for (const tile of waiting) {
      if (tile.opened || !this.tiles.has(tile.tableId)) continue;
      if (ready.has(tile.tableId)) tile.open();
      else tile.settingUp();
    }
  }

  /** Show the tables of `round`'s matches (titles from `names`); tiles of other tables close. */
  show(round, names) {
    this.round = round ? round.round : null;
    const wanted = new Map();
    for (const match of round ? round.matches : []) {
      if (match.table_id) wanted.set(match.table_id, match);
    }
    for (const [tableId, tile] of this.tiles) {
      if (!wanted.has(tableId)) {
        tile.close();
        tile.element.remove();
        this.tiles.delete(tableId);
      }
    }
    for (const [tableId, match] of wanted) {
      if (this.tiles.has(tableId)) continue;
      const element = this.template.content.firstElementChild.cloneNode(true);
      element.dataset.table = tableId;
      element.dataset.board = String(match.board);
      const ns = names[match.north_south] || match.north_south;
      const ew = names[match.east_west] || match.east_west;
      element.querySelector('[data-part="tile-heading"]').textContent = `Board ${match.board}: ${ns} (${TEAM_NAMES.north_south}) v ${ew} (${TEAM_NAMES.east_west})`;
      const link = element.querySelector('[data-part="tile-watch"]');
      link.href = `/tables/${tableId}/watch/`;
      link.textContent = `Watch board ${match.board}`;
      this.list.append(element);
      const tile = new BoardTile(element, tableId);
      this.tiles.set(tableId, tile);
    }
    this.openReady();
    return wanted.size;
  }
}
