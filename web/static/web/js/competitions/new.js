// "Create a competition" (/competitions/new/): POST /api/competitions, then the organiser page.

import { api, problemText } from "../api.js";
import { fillPresetSelect, loadPresets } from "../rules.js";
import * as session from "../session.js";
import { settingsFromForm } from "./settings.js";
import { tiebreakSelects } from "./tables.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_ORDER = ["head_to_head", "buchholz", "sonneborn_berger", "point_differential", "wins"];

async function start() {
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
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("new-error").textContent = "";
    const settings = settingsFromForm(
      {
        name: $("new-name").value,
        format: $("new-format").value,
        rounds: $("new-rounds").value,
        double: $("new-double").checked,
        preset: $("new-preset").value,
        match: form.querySelector("input[name=match]:checked").value,
        hands: $("new-hands").value,
        win: $("new-win").value,
        draw: $("new-draw").value,
        loss: $("new-loss").value,
        bye: $("new-bye").value,
        bots: $("new-bots").value,
        delay: $("new-delay").value,
      },
      order.read(),
    );
    $("new-submit").disabled = true;
    try {
      const created = await api("/api/competitions", { method: "POST", body: settings, token: auth.token, command: true });
      location.assign(`/competitions/${created.id}/organise/`);
    } catch (problem) {
      $("new-error").textContent = problemText(problem);
      $("new-submit").disabled = false;
    }
  });
  document.body.dataset.ready = "true";
}

start();
