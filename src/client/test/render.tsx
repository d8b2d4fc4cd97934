import type { QueryKey } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { AppProviders } from "#client/app/providers.tsx";
import { createQueryClient } from "#client/lib/query-client.ts";
import { createMemoryRouter, RouterProvider } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import type { Me } from "#shared/users/user.schemas.ts";

interface RenderOptions {
  /** Where the memory router starts. */
  path?: string;
  /** Other screens to land on, e.g. { "/user-home": <p>User home</p> } to see a redirect happen. */
  routes?: Record<string, ReactNode>;
  /** Also show who is signed in once /api/me has answered, for waitForActor. */
  showActor?: boolean;
  /** Answers in the query cache before the first render, as main.tsx puts what the page carries. */
  queryData?: readonly (readonly [QueryKey, unknown])[];
}

/**
 * Renders `ui` (at every path but those in `routes`) with the app's real providers (query client, toasts)
 * and a memory router starting at `path`.
 */
export function renderWithApp(
  ui: ReactNode,
  { path = "/", routes = {}, showActor = false, queryData = [] }: RenderOptions = {},
) {
  const queryClient = createQueryClient();
  // Tests answer at once; a retried failure would only slow them down.
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  for (const [queryKey, data] of queryData) queryClient.setQueryData(queryKey, data);
  const router = createMemoryRouter(
    [
      { path: "*", element: ui },
      ...Object.entries(routes).map(([routePath, element]) => ({ path: routePath, element })),
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
      {showActor ? <SignedInAs /> : null}
    </AppProviders>,
  );
  return { ...result, queryClient, router };
}

function SignedInAs() {
  const actor = useActor();
  return actor ? <p>Signed in as {actor.name}</p> : null;
}

/**
 * Waits until the screen rendered with `showActor` knows who is signed in. A test that checks a control is
 * hidden from someone waits for this first: until /api/me answers, every control that depends on the
 * person is hidden from everybody, so an absence seen earlier proves nothing. The components read the
 * same query and re-render in the same commit as this line.
 */
export const waitForActor = (me: Pick<Me, "name">) => screen.findByText(`Signed in as ${me.name}`);

type Route = { status?: number; body?: unknown };
type Handler = (request: { method: string; url: string; body: unknown }) => Route | undefined;

/**
 * Stubs the browser's fetch with a tiny in-test server: `routes` maps "METHOD /path" (no query string)
 * to an answer. Every call is recorded for assertions; an unknown route answers 404.
 */
export function stubFetch(routes: Record<string, Route | Handler>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchStub = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? "GET").toUpperCase();
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    const request = { method, url, body };
    calls.push(request);
    const pathname = new URL(url, "http://localhost").pathname;
    const route = routes[`${method} ${pathname}`];
    const answer = (typeof route === "function" ? route(request) : route) ?? {
      status: 404,
      body: { code: "not_found", message: `No route ${method} ${pathname}` },
    };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { calls, fetchStub };
}
