import type { QueryClient } from "@tanstack/react-query";
import { technicianTabFrom } from "#client/features/tickets/technician-tabs.ts";
import { actorQuery } from "#client/lib/use-actor.ts";

/** Starts a first screen; `search` is its address's query string (a tab, say). */
type Start = (queryClient: QueryClient, search: URLSearchParams) => Promise<unknown>;

const signIn: Start = () => import("#client/pages/sign-in.tsx");

// The tickets' queries come with the homes' code, not in the entry every first screen (/sign-in) downloads.
const ticketQueries = () => import("#client/features/tickets/ticket.api.ts");

/**
 * The first screens people land on, each starting its own code and, once the session says who is
 * signed in, its data. Without this, each waited for the one before: the entry, then /api/me (behind the
 * route guard), then the page's chunk, then its imports, then /api/tickets (decision 031).
 */
const startPages: Record<string, Start> = {
  "/": signIn,
  "/sign-in": signIn,
  "/user-home": async (queryClient) => {
    const [, actor, { ticketListQuery, ticketSummaryQuery }] = await Promise.all([
      import("#client/pages/user-home.tsx"),
      queryClient.fetchQuery(actorQuery),
      ticketQueries(),
    ]);
    // Only for the person the page is for: a signed-out visitor's requests would be refused (and logged).
    if (actor?.role !== "user" && actor?.role !== "admin") return;
    await Promise.all([
      queryClient.prefetchInfiniteQuery(ticketListQuery({ scope: "created" })),
      queryClient.prefetchQuery(ticketSummaryQuery("created")),
    ]);
  },
  "/technician-home": async (queryClient, search) => {
    const [, actor, { ticketListQuery, ticketSummaryQuery, teamQueuesQuery }] = await Promise.all([
      import("#client/pages/technician-home.tsx"),
      queryClient.fetchQuery(actorQuery),
      ticketQueries(),
    ]);
    if (actor?.role !== "technician") return;
    await Promise.all([
      queryClient.prefetchInfiniteQuery(ticketListQuery({ scope: technicianTabFrom(search) })),
      queryClient.prefetchQuery(ticketSummaryQuery("visible")),
      // Whether the team tabs are shown, and their counts (decision 073): drawn with the page, not after it.
      queryClient.prefetchQuery(teamQueuesQuery()),
    ]);
  },
};

/**
 * Called once before the first render: asks who is signed in (the answer is usually on its way already,
 * preloaded by index.html) and starts the landing page's chunk and data in parallel. Failures are left to
 * the screens, which ask again and show them.
 */
export function startRoute(
  { pathname, search }: { pathname: string; search: string },
  queryClient: QueryClient,
) {
  void queryClient.prefetchQuery(actorQuery);
  void prefetchStartPage({ pathname, search }, queryClient);
}

/**
 * The landing page's code and data, settled (never rejected): what the browser starts at once, and what the
 * server awaits before drawing a signed-in first screen (src/client/server-rendering.tsx).
 */
export async function prefetchStartPage(
  { pathname, search }: { pathname: string; search: string },
  queryClient: QueryClient,
): Promise<void> {
  const start = startPages[pathname.replace(/\/+$/, "") || "/"];
  await start?.(queryClient, new URLSearchParams(search)).catch(() => undefined);
}
