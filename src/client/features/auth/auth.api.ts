import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, apiFetch } from "#client/lib/api-client.ts";
import { actorKeys, fetchActor, forgetActor, replaceActor } from "#client/lib/use-actor.ts";
import { authProvidersQueryKey } from "#shared/page-rendering/server-config.ts";
import { safeReturnPath } from "#shared/users/return-path.ts";
import type { SignUpRole } from "#shared/users/roles.ts";
import type {
  AdminSignUpInput,
  AuthProviders,
  Me,
  SignInInput,
  SignUpInput,
  UpdateProfileInput,
} from "#shared/users/user.schemas.ts";

// better-auth's endpoints (mounted at /api/auth/*) set or clear the session cookie; /api/me then says who we are.

export const authKeys = {
  providers: authProvidersQueryKey,
};

/**
 * Which sign-in methods the server offers (Google, the organisation's OpenID Connect provider). The server
 * says so in every page it sends (main.tsx fills this from it, decision 061); asked for only where it did
 * not (the development server).
 */
export const authProvidersQuery = queryOptions({
  queryKey: authKeys.providers,
  queryFn: ({ signal }) => apiFetch<AuthProviders>("/api/auth/providers", { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

export async function fetchSignedInActor(): Promise<Me> {
  const actor = await fetchActor();
  if (!actor)
    throw new ApiError(401, "unauthenticated", "The session could not be started. Please try again.");
  return actor;
}

/** Signed in, or the password was right and the authenticator code comes next (decision 046). */
export type SignInOutcome = { actor: Me; needsCode?: never } | { actor?: never; needsCode: true };

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignInInput): Promise<SignInOutcome> => {
      const answer = await apiFetch<{ twoFactorRedirect?: boolean } | null>("/api/auth/sign-in/email", {
        method: "POST",
        body: input,
      });
      if (answer?.twoFactorRedirect) return { needsCode: true };
      return { actor: await fetchSignedInActor() };
    },
    onSuccess: (outcome) => {
      if (outcome.actor) replaceActor(queryClient, outcome.actor);
    },
  });
}

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignUpInput) => {
      await apiFetch("/api/auth/sign-up/email", { method: "POST", body: input });
      return fetchSignedInActor();
    },
    onSuccess: (actor) => replaceActor(queryClient, actor),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/auth/sign-out", { method: "POST", body: {} }),
    onSuccess: () => forgetActor(queryClient),
  });
}

export type SocialProvider = "google" | "oidc";

/** Where the provider sends a failed sign-in back to; `provider` lets /sign-in name it in the toast. */
export const socialErrorPath = (provider: SocialProvider) =>
  provider === "google" ? "/sign-in?error=oauth" : `/sign-in?error=oauth&provider=${provider}`;

/**
 * Starts a Google or organisation sign-in: the server answers with the provider's authorization URL,
 * which the caller opens. A first sign-in creates a person with no role, who lands on /role-selection;
 * anyone else comes back to `returnTo` (its own guard still applies role rules) or "/", which leads home.
 */
export function useSocialSignIn(returnTo?: string | null) {
  return useMutation({
    mutationFn: (provider: SocialProvider) =>
      apiFetch<{ url: string }>("/api/auth/sign-in/social", {
        method: "POST",
        body: {
          provider,
          callbackURL: safeReturnPath(returnTo) ?? "/",
          errorCallbackURL: socialErrorPath(provider),
          newUserCallbackURL: "/role-selection",
        },
      }),
  });
}

/** Always succeeds for a well-formed address: the server never tells whether it has an account. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      apiFetch("/api/auth/request-password-reset", {
        method: "POST",
        body: { email, redirectTo: "/reset-password" },
      }),
  });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; newPassword: string }) =>
      apiFetch("/api/auth/reset-password", { method: "POST", body: input }),
    // The server ends every session of the account on reset, so this browser is signed out too.
    onSuccess: () => forgetActor(queryClient),
  });
}

/** /api/admin-signup creates the administrator but starts no session: sign in with the same credentials. */
export function useAdminSignUp() {
  return useMutation({
    mutationFn: (input: AdminSignUpInput) =>
      apiFetch<Me>("/api/admin-signup", { method: "POST", body: input }),
  });
}

export function useChooseRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: SignUpRole) => apiFetch<Me>("/api/me/role", { method: "POST", body: { role } }),
    onSuccess: (actor) => queryClient.setQueryData(actorKeys.me, actor),
  });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateProfileInput) => apiFetch<Me>("/api/me", { method: "PATCH", body: input }),
    onSuccess: (actor) => queryClient.setQueryData(actorKeys.me, actor),
  });
}
