// Entry module of / (web/templates/web/play.html): sign up or log in (play/account.js),
// the lobby (play/lobby.js) and the table (play/table.js).
//
// The server owns the game. This page shows the viewer's table view (GET /api/tables/<id>
// and every WebSocket message carry it), sends one command per decision, and keeps only
// the token and the table id in localStorage so "Continue" finds the game again.

import { api, ApiError } from "../api.js";
import { logOut, showAuth, wireAccount } from "../play/account.js";
import { $, app } from "../play/app.js";
import { enterPlatform, pendingJoin, showSetup, wireLobby } from "../play/lobby.js";
import { wireTable } from "../play/table.js";
import { capital } from "../table/words.js";

async function start() {
  app.screens.logOut = logOut;
  app.screens.showSetup = showSetup;
  wireAccount();
  wireLobby();
  wireTable();
  const join = pendingJoin();
  if (join) $("auth-heading").textContent = `You are invited to sit ${capital(join.seat)}: sign up or log in`;
  if (!app.auth) {
    showAuth();
  } else {
    try {
      await api("/api/auth/me", { token: app.auth.token });
      await enterPlatform();
    } catch (problem) {
      if (problem instanceof ApiError && problem.status === 401) logOut();
      else await showSetup();
    }
  }
  document.body.dataset.ready = "true";
}

start();
