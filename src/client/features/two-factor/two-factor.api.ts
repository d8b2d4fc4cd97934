import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import { actorKeys } from "#client/lib/use-actor.ts";

// better-auth's two-factor plugin at /api/auth/two-factor/* (decision 046). Turning it on or off replaces the
// session (and its cookie), so /api/me is asked again afterwards.

export interface NewTwoFactor {
  /** otpauth://totp/Helpdesk:<email>?secret=…: what an authenticator app scans or is given. */
  totpURI: string;
  /** Ten single-use codes for when the app is not at hand; shown once. */
  backupCodes: string[];
}

/** The base32 secret of the URI, for typing into an app by hand. */
export const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get("secret") ?? "";

export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: (password: string) =>
      apiFetch<NewTwoFactor>("/api/auth/two-factor/enable", { method: "POST", body: { password } }),
  });
}

function useRefreshActorAfter<Input>(mutationFn: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: actorKeys.me }),
  });
}

/** The first code from the app proves it holds the secret; only then does sign-in ask for codes. */
export const useConfirmTwoFactor = () =>
  useRefreshActorAfter((code: string) =>
    apiFetch("/api/auth/two-factor/verify-totp", { method: "POST", body: { code } }),
  );

export const useTurnOffTwoFactor = () =>
  useRefreshActorAfter((password: string) =>
    apiFetch("/api/auth/two-factor/disable", { method: "POST", body: { password } }),
  );
