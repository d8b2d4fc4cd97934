/**
 * The better-auth endpoints the product uses: the only ones the /api/auth/* bridge lets through
 * (auth.routes.ts), and the ones the OpenAPI document lists (http/openapi.ts), from this one list so that
 * the two cannot disagree. Everything else better-auth ships (update-user, change-email, delete-user, …)
 * answers 404: our own routes do those jobs with our own rules. Paths are below /api/auth; `{name}` is one
 * path segment of letters, digits, `_` and `-`.
 */
export const exposedAuthEndpoints: ReadonlyArray<{
  method: "GET" | "POST";
  path: string;
  summary: string;
}> = [
  {
    method: "POST",
    path: "/sign-up/email",
    summary: "Create an account with an e-mail address and a password",
  },
  {
    method: "POST",
    path: "/sign-in/email",
    summary: "Sign in with an e-mail address and a password (sets the session cookie)",
  },
  {
    method: "POST",
    path: "/sign-in/social",
    summary: "Start a sign-in with Google or the configured OIDC provider",
  },
  { method: "POST", path: "/sign-out", summary: "Sign out (ends the session)" },
  { method: "GET", path: "/get-session", summary: "The current session and its user, or null" },
  {
    method: "POST",
    path: "/request-password-reset",
    summary: "Send a password-reset link to an e-mail address",
  },
  { method: "GET", path: "/reset-password/{token}", summary: "Follow a password-reset link" },
  { method: "POST", path: "/reset-password", summary: "Set a new password with a reset token" },
  { method: "GET", path: "/callback/{provider}", summary: "Sign-in callback of an external provider" },
  {
    method: "POST",
    path: "/callback/{provider}",
    summary: "Sign-in callback of an external provider (posted as a form)",
  },
  { method: "GET", path: "/error", summary: "The page an external sign-in lands on when it failed" },
  // Two-factor sign-in (decision 046): set up, confirm, the second step of a sign-in, turn off.
  {
    method: "POST",
    path: "/two-factor/enable",
    summary:
      "Turn on two-factor sign-in (password required): the authenticator's otpauth URI and 10 recovery codes",
  },
  {
    method: "POST",
    path: "/two-factor/verify-totp",
    summary:
      "An authenticator code: confirms the setup when signed in, or completes a sign-in that answered twoFactorRedirect",
  },
  {
    method: "POST",
    path: "/two-factor/verify-backup-code",
    summary: "Complete a sign-in that answered twoFactorRedirect with a recovery code (each works once)",
  },
  { method: "POST", path: "/two-factor/disable", summary: "Turn off two-factor sign-in (password required)" },
];

const patterns = exposedAuthEndpoints.map(({ method, path }) => ({
  method,
  pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[\\w-]+")}$`),
}));

/** Whether the bridge lets `method` `endpoint` (a path below /api/auth) through to better-auth. */
export const isExposedAuthEndpoint = (method: string, endpoint: string) =>
  patterns.some((allowed) => allowed.method === method && allowed.pattern.test(endpoint));
