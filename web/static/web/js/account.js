// The account page: change the password, download one's data, delete the account.
// Signed in with the token the play page keeps (session.js); every change goes through
// the API (/api/auth/...), like the rest of the client.

import { api, ApiError, problemText } from "./api.js";
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

async function changePassword(event, auth) {
  event.preventDefault();
  const form = event.target;
  $("password-error").textContent = "";
  $("password-done").textContent = "";
  try {
    const answer = await api("/api/auth/password/change", {
      method: "POST",
      token: auth.token,
      body: { old_password: form.old_password.value, new_password: form.new_password.value },
    });
    auth.token = answer.token;
    session.saveAuth(answer.token, answer.user.username);
    form.reset();
    $("password-done").textContent = "Your password is changed. Other devices must log in again.";
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return signedOut();
    $("password-error").textContent = problemText(problem);
  }
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

async function deleteAccount(event, auth) {
  event.preventDefault();
  const form = event.target;
  $("delete-error").textContent = "";
  if (!$("delete-confirm").checked) {
    $("delete-error").textContent = "Tick the box to confirm that this cannot be undone.";
    return;
  }
  try {
    await api("/api/auth/me/delete", {
      method: "POST",
      token: auth.token,
      body: { password: form.password.value },
    });
  } catch (problem) {
    if (problem instanceof ApiError && problem.status === 401) return signedOut();
    $("delete-error").textContent = problemText(problem);
    return;
  }
  session.clearAuth();
  $("deleted-name").textContent = "deleted-" + auth.userId;
  showOnly("account-deleted");
}

async function start() {
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
  $("password-form").addEventListener("submit", (e) => changePassword(e, auth));
  $("download-data").addEventListener("click", () => downloadData(auth));
  $("delete-form").addEventListener("submit", (e) => deleteAccount(e, auth));
  showOnly("account-signed-in");
}

start().finally(() => document.body.setAttribute("data-ready", "true"));
