// A roving tabindex (WAI-ARIA Authoring Practices, "Keyboard navigation inside components"):
// a group of buttons is one tab stop. The one item with tabindex=0 is where Tab lands; the
// arrow keys move among the group's enabled items, Home and End go to the first and last.
// Disabled items (a card that cannot be played now, aria-disabled) are skipped; when no
// item is enabled (the hand while another seat plays) every item may be visited, so the
// hand can still be read card by card.

/** The keys the group handles, and the direction each goes. */
const MOVES = {
  ArrowRight: "next",
  ArrowDown: "next",
  ArrowLeft: "previous",
  ArrowUp: "previous",
  Home: "first",
  End: "last",
};

/**
 * Where `key` moves from item `from` among items whose enabled flags are `enabled`: the
 * index of the item to focus, or null when the key is not one of the group's (or there is
 * nowhere to go). Next and previous wrap round; a disabled `from` (the focus left on a card
 * that became unplayable) moves to the nearest enabled item in the key's direction.
 */
export function rovingTarget(enabled, from, key) {
  const move = MOVES[key];
  const count = enabled.length;
  if (!move || count === 0) return null;
  const open = enabled.some(Boolean) ? enabled : enabled.map(() => true);
  const indices = open.map((ok, i) => (ok ? i : -1)).filter((i) => i >= 0);
  if (move === "first") return indices[0];
  if (move === "last") return indices[indices.length - 1];
  const step = move === "next" ? 1 : -1;
  for (let k = 1; k <= count; k += 1) {
    const i = (((from + step * k) % count) + count) % count;
    if (open[i]) return i;
  }
  return null;
}

/**
 * Which item holds the tab stop: `preferred` when it is enabled, else the first enabled
 * item (every item counts as enabled when none is); null for an empty group.
 */
export function rovingStop(enabled, preferred) {
  if (!enabled.length) return null;
  const open = enabled.some(Boolean) ? enabled : enabled.map(() => true);
  if (preferred !== null && preferred !== undefined && preferred >= 0 && open[preferred]) return preferred;
  return open.indexOf(true);
}

/** An item is enabled unless it says it is not (disabled, or aria-disabled="true"). */
export function isEnabled(item) {
  return !item.disabled && item.getAttribute("aria-disabled") !== "true";
}

/** Give the tab stop to `items[index]`; every other item is reached with the arrows only. */
export function setTabStop(items, index) {
  items.forEach((item, i) => {
    item.tabIndex = i === index ? 0 : -1;
  });
}

/**
 * Make `container`'s items (found by `selector` each time: the items are redrawn) one tab
 * stop with arrow keys inside. Returns `refresh(preferred)`, to call after each redraw:
 * it keeps the stop on the focused item, else on `preferred` (an element), else on the
 * first enabled item.
 */
export function roving(container, selector) {
  const items = () => [...container.querySelectorAll(selector)];
  container.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const list = items();
    const from = list.indexOf(event.target);
    if (from < 0) return;
    const to = rovingTarget(list.map(isEnabled), from, event.key);
    if (to === null) return;
    event.preventDefault();
    setTabStop(list, to);
    list[to].focus();
  });
  return (preferred = null) => {
    const list = items();
    const focused = list.indexOf(document.activeElement);
    const stop = focused >= 0 ? focused : rovingStop(list.map(isEnabled), list.indexOf(preferred));
    setTabStop(list, stop);
    return stop === null ? null : list[stop];
  };
}
