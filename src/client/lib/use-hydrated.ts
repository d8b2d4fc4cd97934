import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the page is drawn on the server and while the browser takes that page over (hydration);
 * true from then on, and at once for a page the browser draws itself. For what only the app's code can
 * do: a drawn page works without it first (decision 065), e.g. a button that the code would keep disabled
 * until there is something to send stays usable for a plain form post.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
