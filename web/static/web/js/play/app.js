// The play page's shared state and its three screens (signed out, the lobby, a table):
// the page's modules (account.js, lobby.js, table.js) read and change `app` and switch
// screens with `showOnly`; pages/play.js starts them.
//
// The parts import downwards only (account.js -> lobby.js -> table.js): the way back up
// (a 401 logs out, "Back to the lobby") goes through `app.screens`, which pages/play.js
// fills. An import cycle would also stop collectstatic, whose manifest rewrites imports.

import * as session from "../session.js";

export const $ = (id) => document.getElementById(id);

export const app = {
  auth: session.loadAuth(),
  presets: new Map(),
  tableId: null,
  live: null,
  renderer: null, // draws the table section
  presenter: null, // shows its updates in order
  suggestionFor: null, // "table:hand" whose suggestion was asked for
  sending: false,
  screens: { logOut: null, showSetup: null }, // account.js's and lobby.js's, for the parts below them
};

export function showOnly(sectionId) {
  for (const id of ["auth-section", "setup-section", "table-section"]) {
    $(id).hidden = id !== sectionId;
  }
  const account = $("account");
  account.hidden = !app.auth;
  if (app.auth) $("account-name").textContent = app.auth.username;
}
