// Pure: the link a competition's landing page was opened by (docs/leagues.md, "The
// invitation link"). The secret is in the fragment, which the browser never sends.

/**
 * What link this page was opened by: ``{kind: "entry", secret}``,
 * ``{kind: "partner", partnership, secret}``, or null (no usable secret).
 */
export function linkFrom(search, hash) {
  const params = new URLSearchParams(search);
  const fragment = (name) => {
    const match = new RegExp(`(?:^#|&)${name}=([A-Za-z0-9_-]{1,128})(?:&|$)`).exec(hash);
    return match ? match[1] : null;
  };
  const partnership = params.get("partner");
  if (partnership !== null) {
    const secret = fragment("partner");
    return /^[A-Za-z0-9_-]{1,64}$/.test(partnership) && secret ? { kind: "partner", partnership, secret } : null;
  }
  const secret = fragment("link");
  return secret ? { kind: "entry", secret } : null;
}
