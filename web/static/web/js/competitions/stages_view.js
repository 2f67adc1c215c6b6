// The public page's "Stages" section: one part per stage (its format, who goes on, its
// rounds) and a knockout as its bracket, drawn from ./bracket.js's words as headings and
// lists: each round a list of its matches, each match its two sides (the winner marked in
// words, not only by colour), so the bracket reads the same to a screen reader.

import { bracketView, stageLine } from "./bracket.js";

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function sideItem(side, winner) {
  const li = el("li", `bracket-side${side.won ? " won" : ""}${side.bye ? " bye" : ""}`);
  li.dataset.entrant = side.entrant || "";
  if (side.seed) li.append(el("span", "bracket-seed", `${side.seed}`), " ");
  li.append(el("span", "bracket-name", side.text));
  if (side.won) li.append(" ", el("span", "bracket-mark", "(won)"));
  else if (winner && side.entrant) li.append(" ", el("span", "bracket-mark visually-hidden", "(lost)"));
  return li;
}

function matchItem(match, level, alone) {
  const li = el("li", `bracket-match state-${match.state}`);
  li.dataset.match = match.id;
  li.dataset.state = match.state;
  // A round of one match (a final) is named by its round's heading already.
  if (!alone) li.append(el(`h${level}`, "bracket-match-title", match.title));
  const sides = el("ul", "bracket-sides");
  sides.append(sideItem(match.top, match.winner), sideItem(match.bottom, match.winner));
  li.append(sides, el("p", "hint bracket-note", match.note));
  return li;
}

/** The bracket into `box`: parts (h4), rounds and their matches (headings below); the champion. */
export function drawBracket(box, bracket, names) {
  const view = bracketView(bracket, names);
  const nodes = [];
  if (view.champion) {
    const p = el("p", "bracket-champion");
    p.append("Champion: ", el("strong", "", view.champion));
    nodes.push(p);
  } else if (!view.drawn) {
    nodes.push(el("p", "hint", "The bracket as it will be drawn when its first round is paired."));
  }
  const seeds = el("p", "hint bracket-seeds", `Seeds: ${view.seeds.map((s) => `${s.seed}. ${s.name}`).join(", ")}.`);
  nodes.push(seeds);
  for (const part of view.parts) {
    const section = el("section", `bracket-part part-${part.part}`);
    section.dataset.part = part.part;
    if (view.double) section.append(el("h4", "", part.title));
    const rounds = el("div", "bracket-rounds");
    // Headings nest without a gap: a part heading only when there are several parts.
    const level = view.double ? 5 : 4;
    for (const round of part.rounds) {
      const column = el("section", "bracket-round");
      column.dataset.round = String(round.round);
      column.append(el(`h${level}`, "", round.title));
      const list = el("ol", "bracket-matches");
      list.append(...round.matches.map((match) => matchItem(match, level + 1, round.matches.length === 1)));
      column.append(list);
      rounds.append(column);
    }
    // The rounds side by side scroll sideways on a phone; a keyboard reaches them too.
    const scroll = el("div", "table-scroll");
    scroll.tabIndex = 0;
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", view.double ? part.title : "Bracket rounds");
    scroll.append(rounds);
    section.append(scroll);
    nodes.push(section);
  }
  box.replaceChildren(...nodes);
  return view;
}

/**
 * Every stage into `box` (GET .../stages): a heading and one line each, its rounds, and a
 * knockout's bracket. Returns the champion's name when a knockout has one.
 */
export function drawStages(box, answer, names, labels) {
  let champion = null;
  const stages = answer.stages;
  box.replaceChildren(
    ...stages.map((stage, index) => {
      const section = el("section", `stage stage-${stage.status}`);
      section.dataset.stage = String(stage.number);
      section.dataset.status = stage.status;
      const kind = labels[stage.kind] || stage.kind;
      section.append(el("h3", "", `Stage ${stage.number}: ${kind}`));
      section.append(el("p", "hint stage-line", stageLine(stage, stages.length, stages[index - 1], labels)));
      if (stage.round_numbers.length) {
        const [first, last] = [stage.round_numbers[0], stage.round_numbers.at(-1)];
        section.append(el("p", "hint", first === last ? `Round ${first}.` : `Rounds ${first} to ${last}.`));
      }
      if (stage.bracket) {
        const box_ = el("div", "bracket");
        const view = drawBracket(box_, stage.bracket, names);
        champion = view.champion || champion;
        section.append(box_);
      } else if (stage.kind === "knockout") {
        section.append(el("p", "hint", "The bracket is drawn when the stage before it is complete."));
      }
      return section;
    }),
  );
  return champion;
}
