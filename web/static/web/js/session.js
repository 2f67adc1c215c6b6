// What the browser remembers between visits: the API token and the table being played.
// The game itself lives on the server; this is only the way back to it.

const AUTH_KEY = "spades.auth";
const TABLE_KEY = "spades.table";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

export function loadAuth() {
  const auth = read(AUTH_KEY);
  return auth && typeof auth.token === "string" ? auth : null;
}

export function saveAuth(token, username) {
  localStorage.setItem(AUTH_KEY, JSON.stringify({ token, username }));
}

export function clearAuth() {
  localStorage.removeItem(AUTH_KEY);
  localStorage.removeItem(TABLE_KEY);
}

export function loadTableId() {
  const table = read(TABLE_KEY);
  return table && typeof table.id === "string" ? table.id : null;
}

export function saveTableId(id) {
  localStorage.setItem(TABLE_KEY, JSON.stringify({ id }));
}

export function clearTableId() {
  localStorage.removeItem(TABLE_KEY);
}
