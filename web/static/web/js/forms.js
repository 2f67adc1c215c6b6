// One way to send a form (or a button's action) to the API: its error line emptied, its
// controls disabled while the request is out (a second tap cannot send it twice), the
// server's refusal in words next to the form, the controls enabled again. Every page's
// forms go through it (docs/client.md, "Forms").
//
//   onSubmit(form, {error, send, done})   on submit: send(), then done(answer)
//   onClick(button, {error, send, done})  the same for a button outside a form
//
// `send` makes the request (or throws a `Refusal` of the page's own, before sending);
// `done(answer)` runs after the controls are enabled again (it may redraw them, reset
// the form, say what happened, or leave the page). A refusal shows `words(problem)`
// (`problemText`: every reason the server gives) in `error`, and `done` does not run.

import { problemText } from "./api.js";

/** A page's own refusal, before anything is sent ("Give the league a name."). */
export class Refusal extends Error {}

/** A control's value, trimmed (an <input>, <select> or <textarea>, by element or id). */
export function field(idOrElement) {
  const element = typeof idOrElement === "string" ? document.getElementById(idOrElement) : idOrElement;
  return element.value.trim();
}

/**
 * Send once: empty `error`, disable `controls`, await `send()`; a refusal shows its words
 * in `error` and resolves false; otherwise the controls come back and `done(answer)` runs.
 */
export async function sending({ controls = [], error, send, done, words = problemText }) {
  if (error) error.textContent = "";
  const disabled = controls.filter((control) => !control.disabled);
  for (const control of disabled) control.disabled = true;
  let answer;
  try {
    answer = await send();
  } catch (problem) {
    if (error) error.textContent = words(problem);
    return false;
  } finally {
    for (const control of disabled) control.disabled = false;
  }
  if (done) await done(answer);
  return true;
}

/** Send `form` on submit; its submit buttons are disabled while the request is out. */
export function onSubmit(form, options) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const controls = [...form.querySelectorAll("button[type=submit], button:not([type]), input[type=submit]")];
    return sending({ controls, ...options });
  });
}

/** Run a button's action through `sending` (disabled while its request is out). */
export function onClick(button, options) {
  button.addEventListener("click", (event) => sending({ controls: [event.currentTarget], ...options }));
}
