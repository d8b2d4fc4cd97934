import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiFetch } from "#client/lib/api-client.ts";
import { activateLocale, rememberLocale, resolveLocale, storedLocale } from "#client/lib/i18n.ts";
import { actorKeys, useActor } from "#client/lib/use-actor.ts";
import type { LocaleChoice, Me } from "#shared/users/user.schemas.ts";

/**
 * Keeps the interface in the signed-in person's language (their choice follows them to every browser), or
 * in this browser's last choice when signed out; "browser" follows the browser's languages (decision 038).
 * A copy stays in this browser, so the next page load starts in the right language.
 */
export function useLocaleSync() {
  const actor = useActor();
  const choice: LocaleChoice | null | undefined = actor === undefined ? undefined : (actor?.locale ?? null);
  useEffect(() => {
    if (choice === undefined) return;
    if (choice !== null) rememberLocale(choice);
    void activateLocale(resolveLocale(choice ?? storedLocale()));
  }, [choice]);
}

/** A signed-out person's switch (the sign-in page): kept in this browser only. */
export function chooseLocaleHere(choice: LocaleChoice) {
  rememberLocale(choice);
  return activateLocale(resolveLocale(choice));
}

/** PUT /api/me/locale: the person's own choice, applied at once. */
export function useSetLocale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (locale: LocaleChoice) => apiFetch<Me>("/api/me/locale", { method: "PUT", body: { locale } }),
    onMutate: (locale) => chooseLocaleHere(locale),
    onSuccess: (me) => queryClient.setQueryData(actorKeys.me, me),
    onError: () => {
      const actor = queryClient.getQueryData<Me | null>(actorKeys.me);
      void chooseLocaleHere(actor?.locale ?? "browser");
    },
  });
}
