// The table's WebSocket (ws/tables/<id>/?token=...), kept open and gap-free.
//
// Every server message carries the stream version it brings the client to; "events"
// messages also carry `after`, the version before them. A message whose `after` is past
// what we have means we missed one: ask for the events after our version. On a drop,
// reconnect with ?after=VERSION so nothing is lost or repeated.

import { ReconnectLoop } from "./reconnect.js";

const NO_RETRY = new Set([4401, 4404, 4400]);

export class TableLive {
  /**
   * onMessage(message): a "state" or "events" message, in order.
   * onStatus(kind, text): "open" | "reconnecting" | "failed", for the connection banner.
   */
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.version = null;
    this.socket = null;
    this.loop = new ReconnectLoop({
      open: () => this.open(),
      noRetry: NO_RETRY,
      maxDelayMs: 10000,
      onRetry: () => this.onStatus("reconnecting", "Connection lost; reconnecting…"),
      onRefused: () =>
        this.onStatus("failed", this.lastError || "The server closed the connection."),
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // A spectator has no token: it connects without one (an empty token is a bad token).
    const query = new URLSearchParams(this.token ? { token: this.token } : {});
    if (this.version !== null) query.set("after", String(this.version));
    return `${scheme}://${location.host}/ws/tables/${this.tableId}/?${query}`;
  }

  connect() {
    this.loop.start();
  }

  open() {
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.loop.reset();
      this.onStatus("open", "");
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    return socket;
  }

  receive(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (message.type === "error") {
      this.lastError = message.message;
      if (typeof message.version === "number") this.resync(message.version);
      return;
    }
    if (message.type === "events") {
      if (this.version !== null && message.after > this.version) {
        this.resync(this.version); // a gap: we missed a message
        return;
      }
      if (this.version !== null && message.version <= this.version) return; // already have it
    }
    if (typeof message.version === "number") this.version = message.version;
    this.onMessage(message);
  }

  resync(after) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ after }));
    }
  }

  close() {
    this.loop.stop();
    this.socket = null;
  }
}
