import { useSyncExternalStore } from "react";

/**
 * Whether a CSS media query matches now, re-rendering when that changes. Read synchronously on the first
 * render (no flash of the other layout). Where matchMedia does not exist (jsdom), it answers `fallback`.
 */
export function useMediaQuery(query: string, fallback = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== "function") return () => {};
      const media = window.matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    () => (typeof window.matchMedia === "function" ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}
