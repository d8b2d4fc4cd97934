import {
  type AnchorHTMLAttributes,
  createContext,
  type MouseEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
} from "react";

/**
 * The app's router (decision 037): the part of React Router 7's declarative API the app uses, with the
 * same names and meaning, over the History API, in about 2 KB gzip instead of ~12 KB. Routes are matched
 * the way React Router ranks them (static segments before `:params` before `*`, case-insensitive, a
 * trailing slash ignored); `Link` and `navigate` push (or replace) an entry with its `state`; Back and
 * Forward are a "POP". Only absolute paths (and `{ hash }`, `{ search }` on the current page) are supported:
 * the app uses no relative links.
 */

export interface Location<State = unknown> {
  pathname: string;
  search: string;
  hash: string;
  state: State;
  /** A unique key of this history entry ("default" for the first). */
  key: string;
}

export type NavigationType = "POP" | "PUSH" | "REPLACE";
export type To = string | Partial<Pick<Location, "pathname" | "search" | "hash">>;
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface RouterSnapshot {
  location: Location;
  action: NavigationType;
}

/** Where the router keeps its place: the browser's history or a list in memory (tests). */
interface HistoryStore {
  getSnapshot(): RouterSnapshot;
  subscribe(listener: () => void): () => void;
  navigate(to: To | number, options?: NavigateOptions): void;
}

export function createPath({ pathname = "/", search = "", hash = "" }: Partial<Location>): string {
  const query = search && search !== "?" ? (search.startsWith("?") ? search : `?${search}`) : "";
  const fragment = hash && hash !== "#" ? (hash.startsWith("#") ? hash : `#${hash}`) : "";
  return `${pathname}${query}${fragment}`;
}

function parsePath(path: string): Pick<Location, "pathname" | "search" | "hash"> {
  let rest = path;
  let hash = "";
  let search = "";
  const hashAt = rest.indexOf("#");
  if (hashAt >= 0) {
    hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf("?");
  if (searchAt >= 0) {
    search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  return { pathname: rest, search: search === "?" ? "" : search, hash: hash === "#" ? "" : hash };
}

/** An absolute `to` as it is; one without a path ("?a=1", "#x", `{ hash }`) stays on the current page. */
function resolveTo(to: To, from: Location): Pick<Location, "pathname" | "search" | "hash"> {
  const parsed = typeof to === "string" ? parsePath(to) : to;
  const path = {
    pathname: parsed.pathname || from.pathname,
    search: parsed.search ?? "",
    hash: parsed.hash ?? "",
  };
  return parsePath(createPath(path));
}

let keyCounter = 0;
const newKey = () => `${Date.now().toString(36)}${(keyCounter++).toString(36)}`;

function createBrowserStore(): HistoryStore {
  const read = (action: NavigationType): RouterSnapshot => {
    const state = window.history.state as { usr?: unknown; key?: string } | null;
    const { pathname, search, hash } = window.location;
    return {
      location: { pathname, search, hash, state: state?.usr ?? null, key: state?.key ?? "default" },
      action,
    };
  };
  let snapshot = read("POP");
  const listeners = new Set<() => void>();
  const emit = (next: RouterSnapshot) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const onPop = () => emit(read("POP"));
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      if (listeners.size === 0) window.addEventListener("popstate", onPop);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener("popstate", onPop);
      };
    },
    navigate(to, options = {}) {
      if (typeof to === "number") {
        window.history.go(to);
        return;
      }
      const target = resolveTo(to, snapshot.location);
      const key = newKey();
      const entry = { usr: options.state ?? null, key };
      const href = createPath(target);
      if (options.replace) window.history.replaceState(entry, "", href);
      else window.history.pushState(entry, "", href);
      emit({
        location: { ...target, state: entry.usr, key },
        action: options.replace ? "REPLACE" : "PUSH",
      });
    },
  };
}

function createMemoryStore(initialEntries: string[] = ["/"]): HistoryStore {
  const entries: Location[] = initialEntries.map((entry, index) => ({
    ...parsePath(entry),
    state: null,
    key: index === 0 ? "default" : newKey(),
  }));
  let index = entries.length - 1;
  let snapshot: RouterSnapshot = { location: entries[index]!, action: "POP" };
  const listeners = new Set<() => void>();
  const emit = (action: NavigationType) => {
    snapshot = { location: entries[index]!, action };
    for (const listener of listeners) listener();
  };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, options = {}) {
      if (typeof to === "number") {
        index = Math.min(Math.max(index + to, 0), entries.length - 1);
        emit("POP");
        return;
      }
      const location = { ...resolveTo(to, snapshot.location), state: options.state ?? null, key: newKey() };
      if (options.replace) entries[index] = location;
      else {
        entries.splice(index + 1, entries.length, location);
        index = entries.length - 1;
      }
      emit(options.replace ? "REPLACE" : "PUSH");
    },
  };
}

interface RouterContextValue extends RouterSnapshot {
  navigate: HistoryStore["navigate"];
  /** A move is under way: the address is the next page's, the screen still the last one's. */
  isNavigating: boolean;
}

const RouterContext = createContext<RouterContextValue | null>(null);

function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error("a router hook or link is used outside a router");
  return router;
}

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
  const value = useMemo(
    () => ({ ...snapshot, navigate: store.navigate, isNavigating }),
    [snapshot, store, isNavigating],
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
  const { location, navigate } = useRouter();
  const searchParams = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const current = useRef(searchParams);
  current.current = searchParams;
  const setSearchParams = useCallback(
    (
      next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
      options?: NavigateOptions,
    ) => {
      const params = searchParamsOf(
        typeof next === "function" ? next(new URLSearchParams(current.current)) : next,
      );
      const query = params.toString();
      navigate(query ? `?${query}` : "?", options);
    },
    [navigate],
  );
  return [searchParams, setSearchParams];
}

interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> {
  to: To;
  replace?: boolean;
  state?: unknown;
  ref?: Ref<HTMLAnchorElement>;
}

function useLinkClick(
  to: To,
  { replace, state, target, onClick }: Pick<LinkProps, "replace" | "state" | "target" | "onClick">,
) {
  const { location, navigate } = useRouter();
  const path = resolveTo(to, location);
  const href = createPath(path);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey ||
      (target && target !== "_self")
    ) {
      return;
    }
    event.preventDefault();
    // As React Router: a link to the page one is on replaces its entry instead of adding one.
    navigate(href, { replace: replace ?? createPath(location) === href, state });
  };
  return { href, path, handleClick };
}

/** A link within the app: an <a href> that moves without reloading on a plain click. */
export function Link({ to, replace, state, target, onClick, ...rest }: LinkProps) {
  const { href, handleClick } = useLinkClick(to, { replace, state, target, onClick });
  return <a {...rest} href={href} target={target} onClick={handleClick} />;
}

interface NavLinkProps extends Omit<LinkProps, "className"> {
  className?: string | ((state: { isActive: boolean }) => string | undefined);
  end?: boolean;
}

/** A Link that knows when it leads to the current page (or one below it): aria-current="page". */
export function NavLink({
  to,
  replace,
  state,
  target,
  onClick,
  className,
  end = false,
  ...rest
}: NavLinkProps) {
  const { location } = useRouter();
  const { href, path, handleClick } = useLinkClick(to, { replace, state, target, onClick });
  const current = normalise(location.pathname).toLowerCase();
  const destination = normalise(path.pathname).toLowerCase();
  const isActive =
    current === destination || (!end && destination !== "/" && current.startsWith(`${destination}/`));
  const classes = typeof className === "function" ? className({ isActive }) : className;
  return (
    <a
      aria-current={isActive ? "page" : undefined}
      {...rest}
      className={classes}
      href={href}
      target={target}
      onClick={handleClick}
    />
  );
}

export interface RouteObject {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: RouteObject[];
}

interface RouteContextValue {
  outlet: ReactNode;
  params: Record<string, string>;
}

const RouteContext = createContext<RouteContextValue>({ outlet: null, params: {} });

/** Where a layout route draws the matched route below it. */
export function Outlet() {
  return <>{useContext(RouteContext).outlet}</>;
}

/** The `:params` (and `*`) of the matched route. */
export function useParams<
  Params extends Record<string, string | undefined> = Record<string, string | undefined>,
>(): Params {
  return useContext(RouteContext).params as Params;
}

interface Branch {
  segments: string[];
  routes: RouteObject[];
  score: number;
  order: number;
}

const normalise = (pathname: string) => `/${pathname.split("/").filter(Boolean).join("/")}`;
const segmentsOf = (path: string) => path.split("/").filter(Boolean);

/** Every chain of routes that ends in a route someone can land on, scored as React Router ranks them. */
function flatten(
  routes: RouteObject[],
  parents: RouteObject[] = [],
  parentSegments: string[] = [],
  branches: Branch[] = [],
) {
  for (const route of routes) {
    const segments = route.path?.startsWith("/")
      ? segmentsOf(route.path)
      : [...parentSegments, ...segmentsOf(route.path ?? "")];
    const chain = [...parents, route];
    if (route.children?.length) flatten(route.children, chain, segments, branches);
    if (route.path !== undefined || route.index) {
      const score = segments.reduce(
        (sum, segment) => sum + (segment === "*" ? -2 : segment.startsWith(":") ? 3 : 10),
        segments.length + (route.index ? 2 : 0),
      );
      branches.push({ segments, routes: chain, score, order: branches.length });
    }
  }
  return branches;
}

function matchBranch(branch: Branch, pathname: string): Record<string, string> | null {
  const parts = segmentsOf(pathname);
  const params: Record<string, string> = {};
  for (const [position, segment] of branch.segments.entries()) {
    if (segment === "*") {
      params["*"] = parts.slice(position).map(safeDecode).join("/");
      return params;
    }
    const part = parts[position];
    if (part === undefined) return null;
    if (segment.startsWith(":")) params[segment.slice(1)] = safeDecode(part);
    else if (segment.toLowerCase() !== safeDecode(part).toLowerCase()) return null;
  }
  return parts.length === branch.segments.length ? params : null;
}

function safeDecode(part: string) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Draws the route of `routes` that matches the current path (nothing when none does). */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const { location } = useRouter();
  const branches = useMemo(
    () => flatten(routes).sort((a, b) => b.score - a.score || a.order - b.order),
    [routes],
  );
  for (const branch of branches) {
    const params = matchBranch(branch, location.pathname);
    if (!params) continue;
    let outlet: ReactNode = null;
    for (const route of [...branch.routes].reverse()) {
      outlet = (
        <RouteContext.Provider value={{ outlet, params }}>
          {route.element === undefined ? <Outlet /> : route.element}
        </RouteContext.Provider>
      );
    }
    return outlet;
  }
  return null;
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return <>{useRoutes(routes)}</>;
}
