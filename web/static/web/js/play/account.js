// The play page signed out: sign up or log in (the token is kept by session.js), and log
// out. A refusal shows every reason the server gives.

import { api } from "../api.js";
import { onSubmit, Refusal } from "../forms.js";
import * as session from "../session.js";
import { $, app, showOnly } from "./app.js";
import { enterPlatform } from "./lobby.js";
import { closeTable } from "./table.js";

export function showAuth() {
  closeTable();
  showOnly("auth-section");
}

/** Sign up or log in (`path`), then enter the platform with the token it answers with. */
function authenticate(form, path) {
  onSubmit(form, {
    error: form.querySelector(".form-error"),
    send: () => {
      const username = form.elements.username.value.trim();
      const password = form.elements.password.value;
      if (!username || !password) throw new Refusal("Enter a username and a password.");
      return api(path, { method: "POST", body: { username, password } });
    },
    done: async (answer) => {
      app.auth = { token: answer.token, username: answer.user.username };
      session.saveAuth(answer.token, answer.user.username);
      form.reset();
      await enterPlatform();
    },
  });
}

export function logOut() {
  session.clearAuth();
  app.auth = null;
  showAuth();
}

export function wireAccount() {
  authenticate($("register-form"), "/api/auth/register");
  authenticate($("login-form"), "/api/auth/token");
  $("log-out").addEventListener("click", logOut);
}
