// Cards as the server writes them: rank then suit, "AS", "TD", "2C".

export const SUITS = {
  S: { symbol: "♠", name: "spades", red: false },
  H: { symbol: "♥", name: "hearts", red: true },
  C: { symbol: "♣", name: "clubs", red: false },
  D: { symbol: "♦", name: "diamonds", red: true },
};
// Spades first, then alternating colours, so neighbouring suits are easy to tell apart.
export const HAND_SUIT_ORDER = ["S", "H", "C", "D"];
const RANKS = "23456789TJQKA";
const RANK_WORDS = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };

export const suitOf = (card) => card[1];
export const rankIndex = (card) => RANKS.indexOf(card[0]);
export const rankLabel = (card) => (card[0] === "T" ? "10" : card[0]);

/** "Q♥" */
export function cardText(card) {
  return rankLabel(card) + SUITS[suitOf(card)].symbol;
}

/** "queen of hearts" */
export function cardWords(card) {
  const rank = RANK_WORDS[card[0]] || card[0];
  return `${rank} of ${SUITS[suitOf(card)].name}`;
}

/** The hand grouped by suit (spades, hearts, clubs, diamonds), high cards first. */
export function sortHand(cards) {
  return [...cards].sort((a, b) => {
    const bySuit = HAND_SUIT_ORDER.indexOf(suitOf(a)) - HAND_SUIT_ORDER.indexOf(suitOf(b));
    return bySuit || rankIndex(b) - rankIndex(a);
  });
}

/** A card face: `tag` is "button" for the player's hand, "span" elsewhere. */
export function cardFace(card, tag = "span") {
  const el = document.createElement(tag);
  const suit = SUITS[suitOf(card)];
  el.className = `card suit-${suitOf(card)}${suit.red ? " red" : ""}`;
  el.dataset.card = card;
  if (tag === "button") el.type = "button";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankLabel(card);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = suit.symbol;
  rank.setAttribute("aria-hidden", "true");
  pip.setAttribute("aria-hidden", "true");
  // The name a screen reader says is hidden text, not aria-label: an aria-label "king of
  // spades" would not contain the visible "K" (axe: label-content-name-mismatch), and a
  // plain span may not carry aria-label at all.
  const words = document.createElement("span");
  words.className = "visually-hidden card-words";
  el.append(rank, pip, words);
  nameCard(el, cardWords(card));
  return el;
}

/** Set what a screen reader says for a card face made by `cardFace`. */
export function nameCard(el, words) {
  el.querySelector(".card-words").textContent = words;
}
