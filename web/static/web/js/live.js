// The table's WebSocket (ws/tables/<id>/?token=...), kept open and gap-free, on the
// client's live-socket base (live_socket.js).
//
// Every server message carries the stream version it brings the client to; "events"
// messages also carry `after`, the version before them. A message whose `after` is past
// what we have means we missed one: ask for the events after our version. On a drop,
// reconnect with ?after=VERSION so nothing is lost or repeated.

import { LiveSocket } from "./live_socket.js";

const NO_RETRY = new Set([4401, 4404, 4400]);

export class TableLive extends LiveSocket {
  /**
   * onMessage(message): a "state" or "events" message, in order.
   * onStatus(kind, text): "open" | "reconnecting" | "failed", for the connection banner.
   */
  constructor(tableId, token, { onMessage, onStatus, openSocket }) {
    super({ path: `/ws/tables/${tableId}/`, noRetry: NO_RETRY, maxDelayMs: 10000, openSocket, onStatus });
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
  }

  query() {
    // A spectator has no token: it connects without one (an empty token is a bad token).
    const query = new URLSearchParams(this.token ? { token: this.token } : {});
    if (this.version !== null) query.set("after", String(this.version));
    return query;
  }

  classify(message) {
    if (message.type === "events" && this.version !== null) {
      if (message.after > this.version) return "gap"; // we missed a message
      if (message.version <= this.version) return "repeat"; // already have it
    }
    return typeof message.version === "number" ? "new" : "unversioned";
  }

  deliver(message) {
    this.onMessage(message);
  }

  opened() {
    this.loop.reset();
    this.onStatus("open", "");
  }

  failed(message) {
    if (typeof message.version === "number") this.resync(message.version);
  }

  retrying() {
    this.onStatus("reconnecting", "Connection lost; reconnecting…");
  }

  refused() {
    this.onStatus("failed", this.lastError || "The server closed the connection.");
  }
}
