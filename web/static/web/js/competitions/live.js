// The competition's WebSocket (ws/competitions/<id>/, docs/leagues.md "WebSocket"): the
// public page follows the competition through it instead of polling.
//
// The server sends {type: "standings", version, standings} on connect and after every
// competition event. Each message is the whole document at the competition's version, so
// versions the server folded into one message are not lost: the newest contains them.
// A message past the newest version we have means the competition moved on (a gap for the
// page, which catches up from the REST reads); one at or before it is a repeat (the first
// message after a reconnect, when nothing happened meanwhile) and is ignored.
//
// On the client's live-socket base (live_socket.js): after a drop it reconnects with backoff. While it cannot connect (FALLBACK_AFTER
// failures in a row) the status is "polling": the page then reads the REST version slowly
// until the socket is back.

import { LiveSocket } from "../live_socket.js";
import { backoffCeiling } from "../reconnect.js";

export const FALLBACK_AFTER = 2;
export const FALLBACK_POLL_MS = 30000;
const MAX_DELAY_MS = 15000;
// 4404: no such competition; 4400: a bad id. Reconnecting cannot help either.
const NO_RETRY = new Set([4404, 4400]);

/** The most milliseconds before reconnect attempt `failures` (0 for the first after a
 * drop); the loop waits a random part of it (reconnect.js). */
export function reconnectDelay(failures) {
  return backoffCeiling(failures, MAX_DELAY_MS);
}

/**
 * What a decoded server message means to a follower that has `known` (null: nothing yet):
 * "new" (a later version: catch up), "repeat" (not later: ignore), "error" or "other".
 */
export function classify(known, message) {
  if (!message || typeof message !== "object") return "other";
  if (message.type === "error") return "error";
  if (message.type !== "standings" || !Number.isInteger(message.version)) return "other";
  return known === null || message.version > known ? "new" : "repeat";
}

export class CompetitionLive extends LiveSocket {
  /**
   * onVersion(version, document): the competition reached `version` (the standings
   * document at that version); called once per version, in increasing order.
   * onStatus(kind, text): "live" | "reconnecting" | "polling" | "failed".
   * onTables(round): the tables of a started round are all created now.
   * openSocket(url): the WebSocket to use (tests pass a fake one).
   */
  constructor(competitionId, { onVersion, onStatus, onTables, openSocket } = {}) {
    super({
      path: `/ws/competitions/${encodeURIComponent(competitionId)}/`,
      noRetry: NO_RETRY,
      maxDelayMs: MAX_DELAY_MS,
      openSocket,
      onStatus,
    });
    this.competitionId = competitionId;
    this.onVersion = onVersion || (() => {});
    this.onTables = onTables || (() => {});
  }

  notice(message) {
    // {type: "tables", round}: outside the version order (no document, no version).
    if (!message || message.type !== "tables" || !Number.isInteger(message.round)) return false;
    this.onTables(message.round);
    return true;
  }

  classify(message) {
    const kind = classify(this.version, message);
    return kind === "error" ? "other" : kind;
  }

  seen(kind) {
    if (kind === "other") return;
    // A document arrived: the connection works (a socket that opens and drops at once
    // never gets here, so it keeps counting towards the fallback poll).
    if (this.loop.failures || this.version === null) this.onStatus("live", "");
    this.loop.reset();
  }

  deliver(message) {
    this.onVersion(message.version, message.standings || null);
  }

  retrying(failures) {
    if (failures >= FALLBACK_AFTER) {
      this.onStatus("polling", "No live connection: the page refreshes every 30 seconds until it is back.");
    } else {
      this.onStatus("reconnecting", "Live connection lost; reconnecting…");
    }
  }

  refused() {
    this.onStatus("failed", this.lastError || "The server refused the live connection.");
  }
}
