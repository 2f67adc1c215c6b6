// The account page: change the password, download one's data, delete the account.
// Signed in with the token the play page keeps (session.js); every change goes through
// the API (/api/auth/...), like the rest of the client.

import { api, ApiError, problemText } from "./api.js";
import { onSubmit, Refusal } from "./forms.js";
import * as session from "./session.js";

const $ = (id) => document.getElementById(id);

function showOnly(id) {
  for (const section of ["account-signed-out", "account-signed-in", "account-deleted"]) {
    $(section).hidden = section !== id;
  }
}

function signedOut() {
  session.clearAuth();
  showOnly("account-signed-out");
}

function changePassword(auth) {
  const form = $("password-form");
  onSubmit(form, {
    error: $("password-error"),
    send: () => {
      $("password-done").textContent = "";
      return api("/api/auth/password/change", {
        method: "POST",
        token: auth.token,
        body: { old_password: form.old_password.value, new_password: form.new_password.value },
      });
    },
    words: (problem) => (isSignedOut(problem) ? "" : problemText(problem)),
    done: (answer) => {
      auth.token = answer.token;
      session.saveAuth(answer.token, answer.user.username);
      form.reset();
      $("password-done").textContent = "Your password is changed. Other devices must log in again.";
    },
  });
}

/** A 401: the token is no longer good; the page says to log in again. */
function isSignedOut(problem) {
  if (!(problem instanceof ApiError && problem.status === 401)) return false;
  signedOut();
  return true;
}

async function downloadData(auth) {
  $("download-error").textContent = "";
  $("download-done").textContent = "";
  let response;
  try {
    response = await fetch("/api/auth/me/export", {
      headers: { Authorization: `Token ${auth.token}`, Accept: "application/json" },
      credentials: "omit",
    });
  } catch {
    $("download-error").textContent = "The server cannot be reached. Check your connection.";
    return;
  }
  if (response.status === 401) return signedOut();
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    $("download-error").textContent = (body && body.message) || `The server answered ${response.status}.`;
    return;
  }
  const blob = await response.blob();
  const match = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = match ? match[1] : "spades-data.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  $("download-done").textContent = `Downloaded ${link.download}.`;
}

function deleteAccount(auth) {
  const form = $("delete-form");
  onSubmit(form, {
    error: $("delete-error"),
    send: () => {
      if (!$("delete-confirm").checked) throw new Refusal("Tick the box to confirm that this cannot be undone.");
      return api("/api/auth/me/delete", { method: "POST", token: auth.token, body: { password: form.password.value } });
    },
    words: (problem) => (isSignedOut(problem) ? "" : problemText(problem)),
    done: () => {
      session.clearAuth();
      $("deleted-name").textContent = "deleted-" + auth.userId;
      showOnly("account-deleted");
    },
  });
}

async function show() {
  const auth = session.loadAuth();
  if (!auth) return signedOut();
  let me;
  try {
    me = await api("/api/auth/me", { token: auth.token });
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return signedOut();
    throw problem;
  }
  auth.userId = me.id;
  $("account-username").textContent = me.username;
  $("account-email").textContent = me.email;
  $("account-email-line").hidden = !me.email;
  changePassword(auth);
  $("download-data").addEventListener("click", () => downloadData(auth));
  deleteAccount(auth);
  showOnly("account-signed-in");
}

/** The account page: shown signed in, or sent to log in; `data-ready` once drawn. */
export function start() {
  return show().finally(() => document.body.setAttribute("data-ready", "true"));
}
