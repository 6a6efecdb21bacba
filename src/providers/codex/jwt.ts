/** The claims of a JWT's payload, read without checking its signature (the server checks it); {} when unreadable. */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split(".")[1];
  if (!payload) return {};
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return claims && typeof claims === "object" ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** When the token stops working, in milliseconds since the epoch; undefined when it does not say. */
export function expiresAt(token: string): number | undefined {
  const { exp } = jwtClaims(token);
  return typeof exp === "number" ? exp * 1000 : undefined;
}

/** The ChatGPT account (workspace) a token was issued for, from OpenAI's `https://api.openai.com/auth` claim. */
export function chatGptAccountId(token: string): string | undefined {
  const auth = jwtClaims(token)["https://api.openai.com/auth"] as { chatgpt_account_id?: unknown } | undefined;
  return typeof auth?.chatgpt_account_id === "string" ? auth.chatgpt_account_id : undefined;
}
