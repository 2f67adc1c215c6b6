// The score history: both teams' totals hand by hand as an inline SVG line chart (no chart
// library). `chartData` is pure; `scoreChart` builds the SVG element from it, with a
// <title> and a <desc> that give every number, for screen readers.

import { TEAM_NAMES, TEAMS } from "./table/words.js";

const SVG = "http://www.w3.org/2000/svg";

const WIDTH = 320;
const HEIGHT = 170;
const PAD = { left: 38, right: 10, top: 10, bottom: 24 };

const minus = (value) => (value < 0 ? `−${Math.abs(value)}` : String(value));

/**
 * From hand results ({north_south: {total}, east_west: {total}}, as view.scores.hands or a
 * replay's hands): {series: [{team, points: [{hand, total}]}], min, max, hands}. The range
 * always holds 0 and any `marks` (e.g. the target score) so the lines sit on a true scale.
 */
export function chartData(hands, marks = []) {
  const series = TEAMS.map((team) => ({
    team,
    points: hands.map((result, k) => ({ hand: k + 1, total: result[team].total })),
  }));
  const values = [0, ...marks, ...series.flatMap((s) => s.points.map((p) => p.total))];
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (min === max) max = min + 100;
  return { series, min, max, hands: hands.length };
}

/** "Hand 1: North-South 62, East-West −40. Hand 2: …" */
export function chartDescription(data) {
  const lines = [];
  for (let k = 0; k < data.hands; k += 1) {
    const parts = data.series.map((s) => `${TEAM_NAMES[s.team]} ${minus(s.points[k].total)}`);
    lines.push(`Hand ${k + 1}: ${parts.join(", ")}.`);
  }
  return lines.length ? lines.join(" ") : "No hand has been scored yet.";
}

function node(name, attributes = {}, text = null) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  if (text !== null) el.textContent = text;
  return el;
}

/**
 * The chart as an <svg> element. `options`: {title, marks: [{value, label}], current}
 * (`current` highlights one hand, e.g. the hand a replay shows). Each point is a <circle>
 * with data-team, data-hand and data-total.
 */
export function scoreChart(hands, options = {}) {
  const marks = options.marks || [];
  const data = chartData(hands, marks.map((m) => m.value));
  const id = `chart-${Math.random().toString(36).slice(2, 9)}`;
  const svg = node("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "score-chart",
    role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`,
    "data-hands": data.hands,
  });
  const title = options.title || "Score history";
  svg.append(node("title", { id: `${id}-title` }, title));
  svg.append(node("desc", { id: `${id}-desc` }, chartDescription(data)));

  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const steps = Math.max(data.hands, 1);
  const x = (hand) => PAD.left + (innerW * hand) / steps;
  const y = (total) => PAD.top + (innerH * (data.max - total)) / (data.max - data.min);

  const axes = node("g", { class: "axes", "aria-hidden": "true" });
  axes.append(node("line", { x1: PAD.left, y1: y(0), x2: WIDTH - PAD.right, y2: y(0), class: "zero" }));
  axes.append(node("text", { x: PAD.left - 4, y: y(data.max) + 4, "text-anchor": "end" }, minus(data.max)));
  axes.append(node("text", { x: PAD.left - 4, y: y(data.min) + 4, "text-anchor": "end" }, minus(data.min)));
  if (data.min !== 0 && data.max !== 0) {
    axes.append(node("text", { x: PAD.left - 4, y: y(0) + 4, "text-anchor": "end" }, "0"));
  }
  for (const mark of marks) {
    axes.append(node("line", { x1: PAD.left, y1: y(mark.value), x2: WIDTH - PAD.right, y2: y(mark.value), class: "mark" }));
    axes.append(node("text", { x: WIDTH - PAD.right, y: y(mark.value) - 3, "text-anchor": "end", class: "mark-label" }, mark.label));
  }
  const every = Math.max(1, Math.ceil(data.hands / 10));
  for (let hand = 1; hand <= data.hands; hand += every) {
    axes.append(node("text", { x: x(hand), y: HEIGHT - 6, "text-anchor": "middle" }, String(hand)));
  }
  svg.append(axes);

  for (const s of data.series) {
    const group = node("g", { class: `series ${s.team}`, "data-team": s.team });
    const path = [`M ${x(0)} ${y(0)}`, ...s.points.map((p) => `L ${x(p.hand)} ${y(p.total)}`)].join(" ");
    group.append(node("path", { d: path, "aria-hidden": "true" }));
    for (const p of s.points) {
      const point = node("circle", {
        cx: x(p.hand),
        cy: y(p.total),
        r: p.hand === options.current ? 5 : 3,
        "data-team": s.team,
        "data-hand": p.hand,
        "data-total": p.total,
        class: p.hand === options.current ? "current" : "",
      });
      point.append(node("title", {}, `Hand ${p.hand}: ${TEAM_NAMES[s.team]} ${minus(p.total)}`));
      group.append(point);
    }
    svg.append(group);
  }
  return svg;
}

/** The chart's key (which colour is which team), as an HTML list. */
export function chartKey() {
  const list = document.createElement("ul");
  list.className = "chart-key";
  for (const team of TEAMS) {
    const li = document.createElement("li");
    li.dataset.team = team;
    li.textContent = TEAM_NAMES[team];
    list.append(li);
  }
  return list;
}
