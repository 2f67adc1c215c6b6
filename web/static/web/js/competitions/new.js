// "Create a competition" (/competitions/new/): POST /api/competitions, then the organiser page.
// The stages are a list the organiser adds to, removes from and reorders (e.g. a Swiss whose
// top 4 go on to a knockout); what the server would refuse is said before sending, by stage
// and field, and so is a refusal the server gives for a stage. "Duplicate" reveals the
// boards a round, movement, scale and par plays (docs/leagues.md, "Duplicate competitions").

import { api, problemText } from "../api.js";
import { onSubmit, Refusal } from "../forms.js";
import { fillPresetSelect, loadPresets } from "../rules.js";
import * as session from "../session.js";
import {
  MAX_STAGES,
  duplicateFromForm,
  duplicateProblems,
  duplicateRefusalField,
  settingsFromForm,
  stageFromForm,
  stageProblems,
  stageRefusal,
} from "./settings.js";
import { tiebreakSelects } from "./tables.js";

const $ = (id) => document.getElementById(id);
const DOUBLE_WORDS = {
  round_robin: "Double round robin (everyone plays everyone twice)",
  knockout: "Double elimination (out after a second loss)",
};

/** The stage list: one <li> per stage, from the template; ids numbered by position. */
class StageList {
  constructor(list, template) {
    this.list = list;
    this.template = template;
  }

  items() {
    return [...this.list.children];
  }

  add(typed = { kind: "swiss", rounds: 3 }) {
    const li = this.template.content.firstElementChild.cloneNode(true);
    const field = (name) => li.querySelector(`[data-field=${name}]`);
    field("kind").value = typed.kind;
    if (typed.rounds !== undefined) field("rounds").value = String(typed.rounds);
    if (typed.advance !== undefined) field("advance").value = String(typed.advance);
    li.addEventListener("change", () => this.draw());
    li.addEventListener("click", (event) => {
      const action = event.target.closest("button")?.dataset.action;
      if (!action) return;
      const items = this.items();
      const at = items.indexOf(li);
      if (action === "remove") li.remove();
      if (action === "up" && at > 0) this.list.insertBefore(li, items[at - 1]);
      if (action === "down" && at < items.length - 1) this.list.insertBefore(items[at + 1], li);
      this.draw();
      // Keep the keyboard where it was: on the same button of the moved stage, or the list.
      const again = li.isConnected ? li.querySelector(`[data-action=${action}]`) : null;
      (again && !again.disabled ? again : $("new-add-stage")).focus();
    });
    this.list.append(li);
    this.draw();
    return li;
  }

  /** Number each stage's fields, show those its kind has, and say what is wrong. */
  draw() {
    const items = this.items();
    items.forEach((li, index) => {
      const number = index + 1;
      const last = number === items.length;
      const kind = li.querySelector("[data-field=kind]").value;
      const double = li.querySelector("[data-field=double]").checked;
      li.dataset.stage = String(number);
      li.dataset.kind = kind;
      li.querySelector("[data-part=legend]").textContent = `Stage ${number}`;
      for (const input of li.querySelectorAll("[data-field]")) {
        input.id = `new-stage-${number}-${input.dataset.field}`;
        input.name = input.id;
      }
      for (const label of li.querySelectorAll("[data-for]")) label.htmlFor = `new-stage-${number}-${label.dataset.for}`;
      const show = { rounds: kind === "swiss", double: kind !== "swiss", reset: kind === "knockout" && double, advance: !last };
      for (const [part, shown] of Object.entries(show)) li.querySelector(`[data-show=${part}]`).hidden = !shown;
      li.querySelector("[data-part=double-label]").textContent = DOUBLE_WORDS[kind] || "Double";
      const advanceLabel = li.querySelector("[data-for=advance]");
      advanceLabel.textContent = `How many go on to stage ${number + 1} (the top N of the standings)`;
      const buttons = { up: [index === 0, "up"], down: [last, "down"], remove: [items.length === 1, ""] };
      for (const [action, [disabled, where]] of Object.entries(buttons)) {
        const b = li.querySelector(`[data-action=${action}]`);
        b.disabled = disabled;
        // Each button says which stage it moves: several stages' buttons are on the page.
        b.textContent = action === "remove" ? `Remove stage ${number}` : `Move stage ${number} ${where}`;
      }
    });
    $("new-add-stage").disabled = items.length >= MAX_STAGES;
    const kinds = this.typed().map((t) => t.kind);
    $("new-seeding-row").hidden = kinds[0] !== "knockout";
    $("new-stage-count").textContent = `${items.length} stage${items.length === 1 ? "" : "s"}: ${items
      .map((li) => li.querySelector("[data-field=kind]").selectedOptions[0].textContent)
      .join(", then ")}.`;
    // A change answers the last refusal: its notes go until the next submit.
    this.showProblems([]);
    $("new-error").textContent = "";
  }

  typed() {
    return this.items().map((li) => {
      const value = (name) => li.querySelector(`[data-field=${name}]`);
      return {
        kind: value("kind").value,
        rounds: value("rounds").value,
        double: value("double").checked,
        reset: value("reset").checked,
        advance: value("advance").value,
      };
    });
  }

  /** Each problem under its stage, its field marked invalid; the first one focused. */
  showProblems(problems, focus = false) {
    const items = this.items();
    for (const li of items) {
      li.querySelector("[data-part=error]").textContent = "";
      for (const input of li.querySelectorAll("[data-field]")) input.removeAttribute("aria-invalid");
    }
    let first = null;
    for (const problem of problems) {
      const li = items[problem.stage - 1] || items[0];
      const error = li.querySelector("[data-part=error]");
      error.textContent = `${error.textContent} ${problem.message}`.trim();
      const input = li.querySelector(`[data-field=${problem.field}]`);
      if (input) {
        input.setAttribute("aria-invalid", "true");
        first = first || input;
      }
    }
    if (focus && first) first.focus();
  }
}

// The duplicate choice: its fields shown only when chosen; its problems under them.
const DUPLICATE_INPUTS = { boards: "new-boards", par_plays: "new-par-plays" };

function duplicateTyped() {
  if (!$("new-duplicate").checked) return null;
  return {
    boards: $("new-boards").value,
    movement: $("new-movement").value,
    scale: $("new-scale").value,
    par_plays: $("new-par-plays").value,
  };
}

/** Say the duplicate fields' problems (`[{field, message}]`), their inputs marked invalid. */
function showDuplicateProblems(problems, focus = false) {
  for (const id of Object.values(DUPLICATE_INPUTS)) $(id).removeAttribute("aria-invalid");
  $("new-duplicate-error").textContent = problems.map((p) => p.message).join(" ");
  const inputs = problems.map((p) => $(DUPLICATE_INPUTS[p.field])).filter(Boolean);
  for (const input of inputs) input.setAttribute("aria-invalid", "true");
  if (focus && inputs.length) inputs[0].focus();
}

function drawDuplicate() {
  const chosen = $("new-duplicate").checked;
  $("new-duplicate-fields").hidden = !chosen;
  // A duplicate table's match is its boards, one hand each: the match format is set by them.
  $("new-match-format").disabled = chosen;
  showDuplicateProblems([]);
}

const DEFAULT_ORDER = ["head_to_head", "buchholz", "sonneborn_berger", "point_differential", "wins"];

export async function start() {
  const auth = session.loadAuth();
  if (!auth) {
    $("new-signed-out").hidden = false;
    document.body.dataset.ready = "true";
    return;
  }
  const form = $("new-form");
  form.hidden = false;
  fillPresetSelect($("new-preset"), await loadPresets(), "standard");
  const order = tiebreakSelects($("new-tiebreaks"), DEFAULT_ORDER, { prefix: "new-tiebreak" });
  const stages = new StageList($("new-stages"), $("new-stage-template"));
  stages.add({ kind: "swiss", rounds: 3, advance: 4 });
  $("new-duplicate").addEventListener("change", drawDuplicate);
  $("new-duplicate-fields").addEventListener("change", () => showDuplicateProblems([]));
  drawDuplicate();
  $("new-add-stage").addEventListener("click", () => {
    // A knockout of the last stage's qualifiers is the usual next step; a duplicate
    // competition has none, so a Swiss there.
    const li = stages.add({ kind: $("new-duplicate").checked ? "swiss" : "knockout", rounds: 3 });
    li.querySelector("[data-field=kind]").focus();
  });
  onSubmit(form, {
    error: $("new-error"),
    send: () => {
      const settings = settingsFromForm(
        {
          name: $("new-name").value,
          stages: stages.typed(),
          seeding: $("new-seeding").value,
          preset: $("new-preset").value,
          match: form.querySelector("input[name=match]:checked").value,
          hands: $("new-hands").value,
          win: $("new-win").value,
          draw: $("new-draw").value,
          loss: $("new-loss").value,
          bye: $("new-bye").value,
          bots: $("new-bots").value,
          delay: $("new-delay").value,
          duplicate: duplicateTyped(),
        },
        order.read(),
      );
      const typed = stages.typed();
      const typedStages = typed.map((t, i) => stageFromForm(t, i === typed.length - 1));
      const problems = stageProblems(typedStages);
      const duplicate = duplicateTyped();
      const dupProblems = duplicate ? duplicateProblems(duplicateFromForm(duplicate), typedStages) : [];
      const stageNotes = [...problems, ...dupProblems.filter((p) => p.stage)];
      const fieldNotes = dupProblems.filter((p) => !p.stage);
      stages.showProblems(stageNotes, true);
      showDuplicateProblems(fieldNotes, !stageNotes.length);
      if (stageNotes.length) throw new Refusal("Some stages need a change: see the notes under them.");
      if (fieldNotes.length) throw new Refusal("The duplicate settings need a change: see the notes under them.");
      return api("/api/competitions", { method: "POST", body: settings, token: auth.token, command: true });
    },
    words: (problem) => {
      const refusal = stageRefusal(problem && problem.message);
      const dupField = duplicateRefusalField(problem && problem.message);
      if (dupField) showDuplicateProblems([{ field: dupField, message: problemText(problem) }], true);
      // The server names the rule's field; the form says what it means.
      if (!refusal) return problemText(problem).replace("blind_nil_min_deficit 0", "blind nil allowed at any score");
      stages.showProblems([{ stage: refusal.stage, field: refusal.field, message: refusal.text }], true);
      return refusal.text;
    },
    done: (created) => location.assign(`/competitions/${created.id}/organise/`),
  });
  document.body.dataset.ready = "true";
}
