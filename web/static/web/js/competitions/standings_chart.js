// The standings chart: each entrant's match points after each round, as inline SVG; the
// ratings page draws a player's rating after each match with it too (its options).
// `chartGeometry` is pure (tested); `drawStandingsChart` turns it into SVG elements.

const SVG = "http://www.w3.org/2000/svg";
export const CHART_COLOURS = ["#1f5f8b", "#b3122a", "#1d6b2f", "#8a5a00", "#6a3d9a", "#0f7b7b", "#a1261a", "#4d4d4d"];

/**
 * Polylines in a `width` x `height` box with `pad` around the plot: x from round 0 (no
 * points) to the last round, y from 0 (or the lowest value, when below 0) to the highest
 * total. Entrants in `order`. `start: false`: a series holds its own first point (a
 * rating before its first match) instead of starting from 0 at round 0.
 */
export function chartGeometry(series, order, { width = 640, height = 240, pad = 32, start = true } = {}) {
  const valuesOf = (id) => (start ? [0, ...(series[id] || [])] : series[id] || []);
  const rounds = Math.max(0, ...order.map((id) => valuesOf(id).length - 1));
  const top = Math.max(1, ...order.flatMap(valuesOf));
  const bottom = Math.min(0, ...order.flatMap(valuesOf));
  const x = (r) => pad + (rounds ? (r * (width - 2 * pad)) / rounds : 0);
  const y = (v) => height - pad - ((v - bottom) * (height - 2 * pad)) / (top - bottom);
  const lines = order.map((id, k) => {
    const values = valuesOf(id);
    return {
      entrant: id,
      colour: CHART_COLOURS[k % CHART_COLOURS.length],
      points: values.map((v, r) => [Math.round(x(r) * 10) / 10, Math.round(y(v) * 10) / 10]),
      last: values[values.length - 1],
    };
  });
  // At most about ten labelled ticks, however many rounds (a rating history is long).
  const every = Math.max(1, Math.ceil(rounds / 10));
  const xTicks = Array.from({ length: rounds + 1 }, (_, r) => ({ round: r, x: x(r) })).filter(
    (tick) => tick.round % every === 0 || tick.round === rounds,
  );
  const yTicks = [...(bottom < 0 ? [bottom] : []), 0, top].map((v) => ({ value: v, y: y(v) }));
  return { width, height, pad, rounds, top, bottom, lines, xTicks, yTicks };
}

const MATCH_POINTS = {
  start: true,
  roundLabel: (r) => (r ? `R${r}` : "0"),
  valueText: (v) => String(v),
  lineTitle: (name, last) => `${name}: ${last} match points`,
  label: (rounds) => `Match points after each of ${rounds} round${rounds === 1 ? "" : "s"}`,
};

function el(name, attributes = {}, text = "") {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

/**
 * Draw into `svg` (an <svg> element) and fill `legend` (a list) with the entrants' names.
 * `options` (the ratings page's): {start, roundLabel(r), valueText(v), lineTitle(name,
 * last), label(rounds)}; the match points' by default.
 */
export function drawStandingsChart(svg, legend, series, order, names, options = {}) {
  const o = { ...MATCH_POINTS, ...options };
  const g = chartGeometry(series, order, { start: o.start });
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  svg.replaceChildren();
  const axis = { stroke: "#8a8477", "stroke-width": 1 };
  svg.append(el("line", { x1: g.pad, y1: g.height - g.pad, x2: g.width - g.pad, y2: g.height - g.pad, ...axis }));
  svg.append(el("line", { x1: g.pad, y1: g.pad, x2: g.pad, y2: g.height - g.pad, ...axis }));
  for (const tick of g.xTicks) {
    svg.append(el("text", { x: tick.x, y: g.height - g.pad + 16, "text-anchor": "middle", class: "chart-label" }, o.roundLabel(tick.round)));
  }
  for (const tick of g.yTicks) {
    svg.append(el("text", { x: g.pad - 6, y: tick.y + 4, "text-anchor": "end", class: "chart-label" }, o.valueText(tick.value)));
  }
  legend.replaceChildren();
  for (const [k, line] of g.lines.entries()) {
    const name = names[line.entrant] || line.entrant;
    // Entrants on the same points would hide each other: each line sits a pixel or two
    // apart from the next (the legend and the titles carry the exact figures).
    const path = el("polyline", {
      points: line.points.map((p) => p.join(",")).join(" "),
      fill: "none",
      stroke: line.colour,
      "stroke-width": 2.5,
      "data-entrant": line.entrant,
      transform: `translate(0 ${(k - (g.lines.length - 1) / 2) * 2})`,
    });
    path.append(el("title", {}, o.lineTitle(name, line.last)));
    svg.append(path);
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = line.colour;
    swatch.setAttribute("aria-hidden", "true");
    item.append(swatch, `${name}: ${o.valueText(line.last)}`);
    legend.append(item);
  }
  svg.setAttribute("aria-label", o.label(g.rounds));
}
