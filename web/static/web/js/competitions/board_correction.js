// An organiser's correction of one traveller line on the boards page (docs/leagues.md,
// "Correcting a board"): a "Correct" button on each line opens one form per board,
// prefilled with that line's bids and tricks as the scoresheet writes them ("nil",
// "blind nil", a number) and a reason to give; it is sent through the forms helper
// (forms.js) to POST .../rounds/<n>/boards/<b>/correct, the server's refusal said in
// words beside it. The answer is the board's traveller, which the caller redraws.
// The page shows the buttons to the competition's organisers only; the server refuses
// anyone else (403 not_organiser) whatever a page shows.

import { api } from "../api.js";
import { Refusal, field, onSubmit } from "../forms.js";
import { SEATS, bidText, bidValue, tricksValue } from "./scoresheet.js";

const SEAT_WORDS = { north: "North", east: "East", south: "South", west: "West" };

function element(tag, properties = {}) {
  return Object.assign(document.createElement(tag), properties);
}

/** A labelled text input in `into`; returns the input. */
function input(into, id, label, value = "") {
  const wrap = element("span", { className: "board-correct-field" });
  const control = element("input", { id, value, size: 9, autocomplete: "off" });
  wrap.append(element("label", { htmlFor: id, textContent: label }), control);
  into.append(wrap);
  return control;
}

/**
 * The correction form of board `board` of round `round`, hidden until a line's button
 * opens it. `token`: the organiser's; `url`: the correct endpoint; `redraw(traveller)`:
 * draws the answer (traveller and standings) and resolves once the line's button is back.
 * Returns {form, open(line, button)}.
 */
export function correctionForm({ round, board, token, url, redraw }) {
  const prefix = `correct-${round}-${board}`;
  const form = element("form", { className: "board-correct", id: prefix, hidden: true, noValidate: true });
  form.setAttribute("aria-labelledby", `${prefix}-title`);
  const title = element("h5", { id: `${prefix}-title` });
  const hint = element("p", {
    className: "hint",
    id: `${prefix}-hint`,
    textContent: 'A bid is a number, "nil" or "blind nil"; the tricks add up to 13.',
  });
  const bids = element("fieldset");
  bids.append(element("legend", { textContent: "Bids" }));
  const tricks = element("fieldset");
  tricks.append(element("legend", { textContent: "Tricks" }));
  const bidInputs = {};
  const trickInputs = {};
  for (const seat of SEATS) {
    bidInputs[seat] = input(bids, `${prefix}-bid-${seat}`, SEAT_WORDS[seat]);
    bidInputs[seat].setAttribute("aria-describedby", hint.id);
    trickInputs[seat] = input(tricks, `${prefix}-tricks-${seat}`, SEAT_WORDS[seat]);
    trickInputs[seat].inputMode = "numeric";
  }
  const reasonId = `${prefix}-reason`;
  const reason = element("textarea", { id: reasonId, rows: 2, maxLength: 500, required: true });
  const reasonLabel = element("label", { htmlFor: reasonId, textContent: "Reason (required)" });
  const submit = element("button", { type: "submit", textContent: "Save the correction" });
  const cancel = element("button", { type: "button", textContent: "Cancel" });
  const error = element("p", { className: "form-error", id: `${prefix}-error` });
  error.setAttribute("role", "alert");
  const buttons = element("p", { className: "board-correct-buttons" });
  buttons.append(submit, cancel);
  form.append(title, hint, bids, tricks, reasonLabel, reason, buttons, error);

  let target = null; // {table, button}: the line being corrected and its button

  function close() {
    form.hidden = true;
    error.textContent = "";
    if (target && target.button && target.button.isConnected) target.button.focus();
  }

  function open(line, button) {
    target = { table: line.table, button };
    title.textContent = `Correct table ${line.table}'s result on board ${board}`;
    SEATS.forEach((seat, i) => {
      bidInputs[seat].value = bidText(line.bids[i], Boolean(line.blind && line.blind[i]));
      trickInputs[seat].value = String(line.tricks[i]);
    });
    reason.value = "";
    error.textContent = "";
    form.hidden = false;
    bidInputs.north.focus();
  }

  cancel.addEventListener("click", close);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  onSubmit(form, {
    error,
    send: () => {
      if (!field(reason)) throw new Refusal("Give a reason for the correction.");
      const read = (inputs, value) => Object.fromEntries(SEATS.map((s) => [s, value(inputs[s].value)]));
      return api(url, {
        method: "POST",
        token,
        command: true,
        body: {
          table: target.table,
          bids: read(bidInputs, bidValue),
          tricks: read(trickInputs, tricksValue),
          reason: field(reason),
        },
      });
    },
    done: async (traveller) => {
      const table = target.table;
      form.hidden = true;
      // The redraw replaces the line's button: focus goes back to the new one.
      target.button = await redraw(traveller, table);
      close();
    },
  });
  return { form, open };
}
