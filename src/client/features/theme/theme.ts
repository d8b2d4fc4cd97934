import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiFetch } from "#client/lib/api-client.ts";
import { actorKeys, useActor } from "#client/lib/use-actor.ts";
import { themeStorageKey } from "#shared/theme/theme-script.ts";
import type { Me, Theme } from "#shared/users/user.schemas.ts";

const darkQuery = "(prefers-color-scheme: dark)";

function systemIsDark() {
  return typeof window.matchMedia === "function" && window.matchMedia(darkQuery).matches;
}

/** Puts the theme on <html> and keeps a copy for the script that paints the next page load (decision 035). */
export function applyTheme(theme: Theme) {
  const dark = theme === "dark" || (theme === "system" && systemIsDark());
  document.documentElement.classList.toggle("dark", dark);
  try {
    if (theme === "system") localStorage.removeItem(themeStorageKey);
    else localStorage.setItem(themeStorageKey, theme);
  } catch {
    // Storage refused (private mode): the theme still applies; the next load starts from the device's setting.
  }
}

function storedTheme(): Theme {
  try {
    const stored = localStorage.getItem(themeStorageKey);
    return stored === "dark" || stored === "light" ? stored : "system";
  } catch {
    return "system";
  }
}

/**
 * Keeps <html> in the signed-in person's theme (their choice follows them to every browser), or in this
 * browser's last choice when signed out; "system" follows the device's setting as it changes.
 */
export function useThemeSync() {
  const actor = useActor();
  const theme: Theme = actor ? actor.theme : storedTheme();
  useEffect(() => {
    applyTheme(theme);
    if (theme !== "system" || typeof window.matchMedia !== "function") return;
    const media = window.matchMedia(darkQuery);
    const follow = () => applyTheme("system");
    media.addEventListener("change", follow);
    return () => media.removeEventListener("change", follow);
  }, [theme]);
}

/** PUT /api/me/theme: the person's own choice, applied at once. */
export function useSetTheme() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (theme: Theme) => apiFetch<Me>("/api/me/theme", { method: "PUT", body: { theme } }),
    onMutate: (theme) => applyTheme(theme),
    onSuccess: (me) => queryClient.setQueryData(actorKeys.me, me),
    onError: () => {
      const actor = queryClient.getQueryData<Me | null>(actorKeys.me);
      applyTheme(actor?.theme ?? "system");
    },
  });
}
