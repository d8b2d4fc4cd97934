import {
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
} from "react";
import {
  createBrowserStore,
  createMemoryStore,
  createPath,
  type HistoryStore,
  type Location,
  type NavigateOptions,
  type NavigationType,
  type To,
} from "./history.ts";
import { type RouteObject, Routes } from "./route-matching.tsx";
import { RouterContext, useRouter } from "./router-context.ts";

/**
 * The app's router (decision 037): the part of React Router 7's declarative API the app uses, with the
 * same names and meaning, over the History API, in about 2 KB gzip instead of ~12 KB. Routes are matched
 * the way React Router ranks them (static segments before `:params` before `*`, case-insensitive, a
 * trailing slash ignored); `Link` and `navigate` push (or replace) an entry with its `state`; Back and
 * Forward are a "POP". Only absolute paths (and `{ hash }`, `{ search }` on the current page) are supported:
 * the app uses no relative links.
 *
 * This file holds the router components and hooks; `history.ts` the paths and history stores,
 * `route-matching.tsx` the routes and their ranking, `links.tsx` `Link` and `NavLink`.
 */

function Router({ store, children }: { store: HistoryStore; children: ReactNode }) {
  // As React Router: a move is a transition, so the page on screen stays until the next one's code is
  // there (no spinner in between), and the new page's heading is in place when focus moves to it.
  const [snapshot, setSnapshot] = useState(store.getSnapshot);
  const [isNavigating, startNavigation] = useTransition();
  const shown = useRef(snapshot);
  useLayoutEffect(() => {
    // Only a real move starts a transition: one with nothing to do would still mark the page busy.
    const update = () => {
      const next = store.getSnapshot();
      if (next === shown.current) return;
      shown.current = next;
      startNavigation(() => setSnapshot(next));
    };
    const unsubscribe = store.subscribe(update);
    update();
    return unsubscribe;
  }, [store]);
  const addressNow = useCallback(() => store.getSnapshot().location, [store]);
  const value = useMemo(
    () => ({ ...snapshot, navigate: store.navigate, addressNow, isNavigating }),
    [snapshot, store, addressNow, isNavigating],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** The app's router, over the browser's history. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const store = useRef<HistoryStore>(null);
  store.current ??= createBrowserStore();
  return <Router store={store.current}>{children}</Router>;
}

/** A router over a list in memory (tests). */
export function MemoryRouter({
  initialEntries,
  children,
}: {
  initialEntries?: string[];
  children: ReactNode;
}) {
  const store = useRef<HistoryStore>(null);
  store.current ??= createMemoryStore(initialEntries);
  return <Router store={store.current}>{children}</Router>;
}

export interface MemoryRouterHandle {
  readonly routes: RouteObject[];
  readonly state: { location: Location; historyAction: NavigationType };
  navigate(to: To | number, options?: NavigateOptions): void;
  readonly store: HistoryStore;
}

/** A route table over a list in memory, whose place a test can read (`router.state.location`) and move. */
export function createMemoryRouter(
  routes: RouteObject[],
  { initialEntries }: { initialEntries?: string[] } = {},
): MemoryRouterHandle {
  const store = createMemoryStore(initialEntries);
  return {
    routes,
    store,
    get state() {
      const { location, action } = store.getSnapshot();
      return { location, historyAction: action };
    },
    navigate: store.navigate,
  };
}

export function RouterProvider({ router }: { router: MemoryRouterHandle }) {
  return (
    <Router store={router.store}>
      <Routes routes={router.routes} />
    </Router>
  );
}

export function useLocation<State = unknown>(): Location<State> {
  return useRouter().location as Location<State>;
}

export function useNavigationType(): NavigationType {
  return useRouter().action;
}

/**
 * True from a move until the next page has drawn (its code downloaded): React Router's
 * `useNavigation().state !== "idle"`, for screens that show the move and keep people from typing into a
 * page they have already left.
 */
export function useIsNavigating(): boolean {
  return useRouter().isNavigating;
}

/** `navigate(to, { replace, state })`, or `navigate(-1)` to go back. */
export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  return useRouter().navigate;
}

/** Goes to `to` once drawn (a redirect). */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const { navigate } = useRouter();
  const target = typeof to === "string" ? to : createPath(to);
  useEffect(() => {
    navigate(target, { replace, state });
  }, [navigate, target, replace, state]);
  return null;
}

type SearchParamsInit = URLSearchParams | string | Record<string, string | string[]> | [string, string][];

function searchParamsOf(init: SearchParamsInit): URLSearchParams {
  if (init instanceof URLSearchParams || typeof init === "string" || Array.isArray(init)) {
    return new URLSearchParams(init);
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(init)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, one);
  }
  return params;
}

/** The query string, and a setter that replaces it (keeping the path, dropping the hash). */
export function useSearchParams(): [
  URLSearchParams,
  (
    next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
    options?: NavigateOptions,
  ) => void,
] {
  const { location, navigate, addressNow } = useRouter();
  const searchParams = useMemo(() => new URLSearchParams(location.search), [location.search]);
  // An update computed from the parameters starts from the address as it is now, not as this page last
  // drew it: a move is a transition, so two changes in one moment (a choice in the sort, then the search
  // box's) would otherwise each start from the same old address, and the second undo the first.
  const setSearchParams = useCallback(
    (
      next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
      options?: NavigateOptions,
    ) => {
      const params = searchParamsOf(
        typeof next === "function" ? next(new URLSearchParams(addressNow().search)) : next,
      );
      const query = params.toString();
      navigate(query ? `?${query}` : "?", options);
    },
    [navigate, addressNow],
  );
  return [searchParams, setSearchParams];
}
