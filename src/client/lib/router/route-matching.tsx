import { createContext, type ReactNode, useContext, useMemo } from "react";
import { useRouter } from "./router-context.ts";

/**
 * Routes matched the way React Router ranks them (decision 037): static segments before `:params` before
 * `*`, case-insensitive, a trailing slash ignored.
 */

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

export function Routes({ routes }: { routes: RouteObject[] }) {
  return <>{useRoutes(routes)}</>;
}
