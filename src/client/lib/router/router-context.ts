import { createContext, useContext } from "react";
import type { HistoryStore, RouterSnapshot } from "./history.ts";

/** What the router hooks, links and routes read: the current place, the way to move, a move under way. */
export interface RouterContextValue extends RouterSnapshot {
  navigate: HistoryStore["navigate"];
  /**
   * The address as it is now, which is ahead of `location` while a move is under way (a transition):
   * what a change computed from the current address must start from.
   */
  addressNow: () => RouterSnapshot["location"];
  /** A move is under way: the address is the next page's, the screen still the last one's. */
  isNavigating: boolean;
}

export const RouterContext = createContext<RouterContextValue | null>(null);

export function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error("a router hook or link is used outside a router");
  return router;
}
