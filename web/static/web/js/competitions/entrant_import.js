// Importing entrants from a CSV (docs/leagues.md, "Importing entrants"): a file, sent as
// it is (text/csv), or pasted lines (JSON {"csv"}). The server checks every line first and
// writes nothing when one is refused: each refused line is listed with its reason.

import { ApiError, api, problemText } from "../api.js";
import { onSubmit, Refusal } from "../forms.js";

const $ = (id) => document.getElementById(id);
export const MAX_IMPORT_BYTES = 64 * 1024;

/** The refused lines of an ``invalid_lines`` answer, as sentences ("Line 3: ..."). */
export function refusalLines(problem) {
  const lines = problem && problem.body && Array.isArray(problem.body.lines) ? problem.body.lines : [];
  return lines
    .filter((row) => row && Number.isInteger(row.line) && typeof row.reason === "string")
    .map((row) => `Line ${row.line}: ${row.reason}`);
}

async function sendFile(path, file, token) {
  const headers = { Accept: "application/json", "Content-Type": "text/csv" };
  if (token) headers.Authorization = `Token ${token}`;
  let response;
  try {
    response = await fetch(path, { method: "POST", headers, body: file, credentials: "omit" });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.code) || `http_${response.status}`, (data && data.message) || `The server answered ${response.status}.`, data);
  }
  return data;
}

/** Start the import form; ``changed()`` after entrants were imported. */
export function startEntrantImport({ competitionId, token, changed }) {
  const path = `/api/competitions/${competitionId}/entrants/import`;
  onSubmit($("import-form"), {
    error: $("import-error"),
    send: () => {
      $("import-message").textContent = "";
      $("import-refusals").replaceChildren();
      const file = $("import-file").files[0];
      const text = $("import-text").value;
      if (!file && !text.trim()) throw new Refusal("Choose a CSV file or paste its lines first.");
      if (file && file.size > MAX_IMPORT_BYTES) {
        throw new Refusal(`That file is ${Math.ceil(file.size / 1024)} KiB; the most is 64 KiB. Split it in two.`);
      }
      return file
        ? sendFile(path, file, token)
        : api(path, { method: "POST", token, command: true, body: { csv: text } });
    },
    // The refused lines, each with its reason, under the form's sentence.
    words: (problem) => {
      const items = refusalLines(problem).map((sentence) => {
        const li = document.createElement("li");
        li.textContent = sentence;
        return li;
      });
      $("import-refusals").replaceChildren(...items);
      return problemText(problem);
    },
    done: (answer) => {
      const count = answer.imported;
      $("import-message").textContent = `${count} entrant${count === 1 ? "" : "s"} imported; their players are invited.`;
      $("import-file").value = "";
      $("import-text").value = "";
      if (changed) changed();
    },
  });
}
