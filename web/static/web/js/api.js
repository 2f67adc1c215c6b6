// The REST API client: JSON in, JSON out, errors as ApiError {status, code, message}.

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/** A fresh idempotency key for one decision (the server drops a repeated one). */
export function newKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") {
    return crypto.randomUUID();
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Call the API. `token` authenticates (DRF token); `command` adds an Idempotency-Key.
 * Resolves to the decoded body; rejects with ApiError carrying the server's message.
 */
export async function api(path, { method = "GET", body, token, command = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Token ${token}`;
  if (command) headers["Idempotency-Key"] = newKey();
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
    });
  } catch (error) {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const code = (data && data.code) || "http_" + response.status;
    const message = (data && data.message) || `The server answered ${response.status}.`;
    throw new ApiError(response.status, code, message, data);
  }
  return data;
}

const FIELD_WORDS = { username: "Username", password: "Password", email: "Email" };

/**
 * Every reason a refusal gives, in one text: a validation error may name several (a
 * password both too short and too common), and the person needs to see them all at once.
 */
export function problemText(problem) {
  const fields = problem && problem.body && problem.body.fields;
  if (!fields || typeof fields !== "object") return problem ? problem.message : "";
  const sentences = [];
  for (const [field, reasons] of Object.entries(fields)) {
    const list = Array.isArray(reasons) ? reasons.filter((r) => typeof r === "string") : [];
    if (!list.length) continue;
    const label = FIELD_WORDS[field];
    sentences.push(label && field !== "non_field_errors" ? `${label}: ${list.join(" ")}` : list.join(" "));
  }
  return sentences.length ? sentences.join(" ") : problem.message;
}
