import type { AuthProviders } from "#shared/users/user.schemas.ts";

// What the server tells each page it sends about how it is configured (decision 061), so that the page's
// first render already knows it: the sign-in methods, which /sign-in and /sign-up show as buttons. Sent as
// <script type="application/json" id="server-config"> (not executed: the CSP does not apply) and read by
// main.tsx before the first render.

export interface ServerConfig {
  authProviders: AuthProviders;
}

/** The id of the <script type="application/json"> element that carries the ServerConfig. */
export const serverConfigElementId = "server-config";

/** The client's query key for the sign-in methods (features/auth/auth.api.ts), filled from the page. */
export const authProvidersQueryKey = ["auth", "providers"] as const;

/**
 * The pages the build draws (decision 043) are drawn once for each set of sign-in methods a server may
 * offer; the server sends the one it offers. The organisation button's label is the operator's
 * (OIDC_LABEL): the build draws this in its place and the server writes the label in.
 */
export const oidcLabelPlaceholder = "%OIDC_LABEL%";

/** Every set of sign-in methods the build draws a page for. */
export const providerVariants: readonly AuthProviders[] = [
  { google: false, oidc: null },
  { google: true, oidc: null },
  { google: false, oidc: { label: oidcLabelPlaceholder } },
  { google: true, oidc: { label: oidcLabelPlaceholder } },
];

/** The built file drawn for these sign-in methods: "sign-in", "sign-in.google", "sign-in.google.oidc"… */
export const variantFileOf = (file: string, { google, oidc }: AuthProviders) =>
  [file, google ? "google" : null, oidc ? "oidc" : null].filter(Boolean).join(".");
