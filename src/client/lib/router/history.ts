/**
 * Where the router keeps its place (decision 037): paths, history entries and the two stores of them, the
 * browser's history and a list in memory (tests).
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

export interface RouterSnapshot {
  location: Location;
  action: NavigationType;
}

/** Where the router keeps its place: the browser's history or a list in memory (tests). */
export interface HistoryStore {
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
export function resolveTo(to: To, from: Location): Pick<Location, "pathname" | "search" | "hash"> {
  const parsed = typeof to === "string" ? parsePath(to) : to;
  const path = {
    pathname: parsed.pathname || from.pathname,
    search: parsed.search ?? "",
    hash: parsed.hash ?? "",
  };
  return parsePath(createPath(path));
}

/** A path without its trailing or doubled slashes ("/" for the root). */
export const normalise = (pathname: string) => `/${pathname.split("/").filter(Boolean).join("/")}`;

let keyCounter = 0;
const newKey = () => `${Date.now().toString(36)}${(keyCounter++).toString(36)}`;

export function createBrowserStore(): HistoryStore {
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

export function createMemoryStore(initialEntries: string[] = ["/"]): HistoryStore {
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
