// Shows a table's updates in version order, at a pace a person can follow: the cards of one
// update are laid one at a time, a finished trick stays in the middle for a moment. While it
// is still showing an older state than it knows, `catchingUp()` is true and the page takes
// no move, so a tap can never land in a trick the player has not seen.

import { finishedTrick, trickSteps } from "./steps.js";

export const TRICK_PAUSE_MS = 1400; // a finished trick stays in the middle this long
export const CARD_PAUSE_MS = 450; // between two cards played by the other seats
const CATCH_UP = 6; // with more updates than this waiting, show them without pauses

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class TablePresenter {
  /**
   * `renderer` draws; `options.tableId` is the table shown (other tables' views are
   * ignored); `options.onBusy(busy)` hears when it starts and stops catching up.
   */
  constructor(renderer, options = {}) {
    this.renderer = renderer;
    this.tableId = options.tableId || null;
    this.onBusy = options.onBusy || (() => {});
    this.queue = []; // {view, events} not shown yet, oldest first
    this.queuedVersion = 0;
    this.shownVersion = 0; // the version whose update has been shown in full, pauses included
    this.presenting = false;
    this.closed = false;
  }

  close() {
    this.closed = true;
    this.queue = [];
  }

  /** The last view drawn (it may still be being laid out: see `catchingUp`). */
  get view() {
    return this.renderer.view;
  }

  catchingUp() {
    const view = this.renderer.view;
    return this.presenting || this.queue.length > 0 || Boolean(view && view.version !== this.shownVersion);
  }

  enqueue(view, events = []) {
    if (this.closed || !view || (this.tableId && view.id !== this.tableId)) return;
    if (view.version <= this.queuedVersion) return;
    this.queuedVersion = view.version;
    this.queue.push({ view, events });
    this.pump();
  }

  async pump() {
    if (this.presenting) return;
    this.presenting = true;
    this.onBusy(true);
    try {
      while (this.queue.length && !this.closed) {
        const item = this.queue.shift();
        await this.present(item);
        if (this.renderer.view === item.view) this.shownVersion = item.view.version;
      }
    } finally {
      this.presenting = false;
      if (!this.closed) this.onBusy(false);
    }
  }

  async present(item) {
    const renderer = this.renderer;
    const previous = renderer.view;
    const view = item.view;
    const hurry = this.queue.length > CATCH_UP;
    const steps = previous ? trickSteps(previous, item) : [];
    const newHand = Boolean(previous && previous.hand && view.hand && previous.hand.number !== view.hand.number);
    const finished = newHand || !steps.length ? finishedTrick(previous, item) : null;
    renderer.render(view, finished);
    if (finished) {
      renderer.showLastTrick(finished);
      if (!hurry) await sleep(TRICK_PAUSE_MS);
    }
    for (const [k, step] of steps.entries()) {
      const last = k === steps.length - 1;
      if (!step.partial) {
        renderer.renderTrick(view, step);
        renderer.showLastTrick(step);
        if (!hurry) await sleep(TRICK_PAUSE_MS);
      } else if (!last) {
        renderer.renderTrick(view, step);
        if (!hurry) await sleep(CARD_PAUSE_MS);
      }
    }
    if (renderer.view === view) renderer.renderTrick(view, null);
    const you = view.your_seat;
    const otherCard = item.events.some((e) => e.type === "CardPlayed" && e.data.seat !== you);
    if (otherCard && this.queue.length && !hurry) await sleep(CARD_PAUSE_MS);
  }
}
