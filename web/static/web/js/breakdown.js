// A team's hand score as the lines that add up to it (the server's breakdown, in words).

const SEAT_LABELS = { north: "North", east: "East", south: "South", west: "West" };

export function signed(points) {
  if (points > 0) return `+${points}`;
  if (points < 0) return `−${Math.abs(points)}`;
  return "0";
}

/** A score as printed: a true minus sign for negatives ("−70"). */
export function points(value) {
  return value < 0 ? `−${Math.abs(value)}` : String(value);
}

/** [[text, points], ...] for one team's {hand_score, breakdown}. */
export function breakdownLines(team) {
  const b = team.breakdown;
  const lines = [];
  for (const nil of b.nil) {
    const kind = nil.kind === "blind_nil" ? "Blind nil" : "Nil";
    const how = nil.made ? "made" : `failed (${nil.tricks} trick${nil.tricks === 1 ? "" : "s"})`;
    lines.push([`${SEAT_LABELS[nil.seat]}: ${kind} ${how}`, nil.points]);
  }
  if (b.contract > 0) {
    const took = `took ${b.tricks_toward_contract}`;
    const text = b.made ? `Contract ${b.contract} made (${took})` : `Contract ${b.contract} set (${took})`;
    lines.push([text, b.contract_points]);
  }
  if (b.bags > 0) {
    lines.push([`${b.bags} overtrick${b.bags === 1 ? "" : "s"} (bags)`, b.bag_points]);
  }
  if (b.bag_penalty !== 0) {
    lines.push(["10 bags reached", b.bag_penalty]);
  }
  return lines;
}

/** A list element: each line of the breakdown, then the hand score. */
export function breakdownElement(team, heading) {
  const wrap = document.createElement("div");
  wrap.className = "breakdown";
  if (heading) {
    const h = document.createElement("h3");
    h.textContent = heading;
    wrap.append(h);
  }
  const list = document.createElement("ul");
  for (const [text, points] of breakdownLines(team)) {
    const li = document.createElement("li");
    const label = document.createElement("span");
    label.textContent = text;
    const value = document.createElement("span");
    value.className = "points";
    value.textContent = signed(points);
    li.append(label, value);
    list.append(li);
  }
  const total = document.createElement("li");
  total.className = "hand-total";
  total.innerHTML = "<span>Hand score</span>";
  const value = document.createElement("span");
  value.className = "points";
  value.dataset.handScore = String(team.hand_score);
  value.textContent = signed(team.hand_score);
  total.append(value);
  list.append(total);
  wrap.append(list);
  const after = document.createElement("p");
  after.className = "after-hand";
  after.textContent = `Total ${points(team.total)} · bags ${team.bags}`;
  wrap.append(after);
  return wrap;
}
