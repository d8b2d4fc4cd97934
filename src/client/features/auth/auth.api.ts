import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Me, SignInInput, SignUpInput } from "#shared/users/user.schemas.ts";
import { ApiError, apiFetch } from "../../lib/api-client.ts";
import { fetchActor, forgetActor, replaceActor } from "../../lib/use-actor.ts";

// better-auth's endpoints (mounted at /api/auth/*) set or clear the session cookie; /api/me then says who we are.

async function fetchSignedInActor(): Promise<Me> {
  const actor = await fetchActor();
  if (!actor)
    throw new ApiError(401, "unauthenticated", "The session could not be started. Please try again.");
  return actor;
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignInInput) => {
      await apiFetch("/api/auth/sign-in/email", { method: "POST", body: input });
      return fetchSignedInActor();
    },
    onSuccess: (actor) => replaceActor(queryClient, actor),
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
