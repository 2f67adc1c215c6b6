// The reconnect loop both live sockets use (the table's, live.js, and the competition's,
// competitions/live.js): they speak different protocols, but lose and regain their
// connection the same way. After a drop the next socket is opened after a random delay
// below a ceiling that doubles with each failure in a row (capped): "full jitter", so the
// clients a restarted web process dropped all at once come back spread over the ceiling
// rather than at the same instants. A close code the owner names as a refusal ends the
// loop, since reconnecting cannot help. The owner says when a connection works (reset),
// which is what starts the count again.

/** The most milliseconds to wait after `failures` failures in a row (0: the first drop). */
export function backoffCeiling(failures, maxDelayMs, baseDelayMs = 500) {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failures));
}

/**
 * Milliseconds before the attempt after `failures` failures in a row: uniform between 0
 * and the ceiling (`random`: a source of [0, 1), Math.random unless a test gives one).
 */
export function backoffDelay(failures, maxDelayMs, baseDelayMs = 500, random = Math.random) {
  return Math.floor(random() * backoffCeiling(failures, maxDelayMs, baseDelayMs));
}

export class ReconnectLoop {
  /**
   * open(): a new socket, with the owner's own listeners on it (its URL may change
   *   between attempts); the loop adds only its "close" listener.
   * onRetry(failures): a drop that will be retried; `failures` in a row so far (1: the first).
   * onRefused(code): the socket closed with a code in `noRetry`; the loop has stopped.
   */
  constructor({ open, onRetry, onRefused, noRetry, maxDelayMs, baseDelayMs = 500, random = Math.random }) {
    this.open = open;
    this.onRetry = onRetry || (() => {});
    this.onRefused = onRefused || (() => {});
    this.noRetry = noRetry || new Set();
    this.maxDelayMs = maxDelayMs;
    this.baseDelayMs = baseDelayMs;
    this.random = random;
    this.current = null;
    this.closed = false;
    this.failures = 0;
    this.timer = null;
  }

  /** Open a socket now (and again after every drop until stop or a refusal). */
  start() {
    this.closed = false;
    const socket = this.open();
    this.current = socket;
    socket.addEventListener("close", (event) => {
      // A socket replaced since, or closed by stop(), is not a drop.
      if (this.current !== socket || this.closed) return;
      this.dropped(event.code);
    });
    return socket;
  }

  /** The socket closed (or never opened): retry with backoff, or give up on a refusal. */
  dropped(code) {
    this.current = null;
    if (this.noRetry.has(code)) {
      this.onRefused(code);
      return;
    }
    const delay = backoffDelay(this.failures, this.maxDelayMs, this.baseDelayMs, this.random);
    this.failures += 1;
    this.onRetry(this.failures);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), delay);
  }

  /** The connection works: the next drop is the first again. */
  reset() {
    this.failures = 0;
  }

  stop() {
    this.closed = true;
    clearTimeout(this.timer);
    const socket = this.current;
    this.current = null;
    if (socket) socket.close(1000);
  }
}
