// The client's live-socket base: the table's socket (live.js) and the competition's
// (competitions/live.js) both extend it. It connects, reconnects after a drop with the
// jittered backoff of reconnect.js (a close code in `noRetry` is a refusal and ends it),
// keeps the newest version it has and lets a message through only when it is new (the
// version gate: a repeat is dropped, a gap asks the server again from the version it has).
// The subclass says what its protocol's messages mean (`classify`), what a message
// brings (`deliver`) and what to tell the page (`onStatus`).

import { ReconnectLoop } from "./reconnect.js";

export class LiveSocket {
  /**
   * path: the socket's path ("/ws/tables/<id>/"); noRetry: close codes not retried;
   * maxDelayMs: the backoff's cap; openSocket(url): the WebSocket (tests pass a fake one);
   * onStatus(kind, text): for the page's connection line.
   */
  constructor({ path, noRetry, maxDelayMs, openSocket, onStatus }) {
    this.path = path;
    this.openSocket = openSocket || ((url) => new WebSocket(url));
    this.onStatus = onStatus || (() => {});
    this.version = null;
    this.socket = null;
    this.lastError = "";
    this.loop = new ReconnectLoop({
      open: () => this.open(),
      noRetry,
      maxDelayMs,
      onRetry: (failures) => this.retrying(failures),
      onRefused: (code) => this.refused(code),
    });
  }

  /** The query string's parameters (a subclass adds its token, ?after=...). */
  query() {
    return new URLSearchParams();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = this.query().toString();
    return `${scheme}://${location.host}${this.path}${query ? `?${query}` : ""}`;
  }

  connect() {
    this.loop.start();
  }

  open() {
    const socket = this.openSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.loop.current === socket) this.opened();
    });
    socket.addEventListener("message", (event) => {
      if (this.loop.current === socket) this.receive(event.data);
    });
    return socket;
  }

  /** One raw message: decoded, gated by version, then delivered (or a resync asked for). */
  receive(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (this.notice(message)) return;
    if (message && message.type === "error") {
      this.lastError = typeof message.message === "string" ? message.message : "";
      this.failed(message);
      return;
    }
    const kind = this.classify(message);
    if (kind === "gap") {
      this.resync(this.version);
      return;
    }
    this.seen(kind);
    if (kind !== "new" && kind !== "unversioned") return;
    if (kind === "new") this.version = message.version;
    this.deliver(message);
  }

  /** Ask the server for everything after `after` (protocols that can: the table's). */
  resync(after) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ after }));
    }
  }

  close() {
    this.loop.stop();
    this.socket = null;
  }

  // ---- what a subclass says

  /** A message outside the version order the subclass takes itself (true: taken). */
  notice(message) { // eslint-disable-line no-unused-vars
    return false;
  }

  /** "new" (past the version we have), "repeat", "gap" (one was missed), "unversioned"
   * (delivered, the version kept) or "other" (ignored). */
  classify(message) {
    if (!message || !Number.isInteger(message.version)) return "other";
    return this.version === null || message.version > this.version ? "new" : "repeat";
  }

  /** A message that got through the gate. */
  deliver(message) {} // eslint-disable-line no-unused-vars

  /** Every decoded message's kind but a gap's, before the gate lets it through or not
   * (a sign the connection works; `version` is still the one before it). */
  seen(kind) {} // eslint-disable-line no-unused-vars

  /** The socket's "open" event. */
  opened() {}

  /** The server's {"type": "error"} message (lastError holds its words). */
  failed(message) {} // eslint-disable-line no-unused-vars

  retrying(failures) {} // eslint-disable-line no-unused-vars

  refused(code) {} // eslint-disable-line no-unused-vars
}
