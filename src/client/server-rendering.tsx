import type { Query, QueryClient, QueryKey } from "@tanstack/react-query";
import { skipToken } from "@tanstack/react-query";
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import {
  type FormAnswer,
  jsonForScript,
  type RenderPage,
  type RenderPageInput,
  type ServerRenderedPage,
  type UndrawnPage,
} from "#shared/page-rendering/server-rendered.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import { AppProviders } from "./app/providers.tsx";
import { AppRoutes } from "./app/routes.tsx";
import { prefetchStartPage } from "./app/start-route.ts";
import { isApiError, setFetch } from "./lib/api-client.ts";
import { setFormAnswer } from "./lib/form-answer.ts";
import { activateLocale, browserLocale, type Locale } from "./lib/i18n.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { MemoryRouter } from "./lib/router/router.tsx";
import { setTimeZone } from "./lib/time-zone.ts";
import { actorQuery } from "./lib/use-actor.ts";

/**
 * The signed-in first screens, drawn on the server for one person (decision 052). Built by Vite for Node
 * into dist/ssr/ssr.js (vite.config.ts) and loaded by the server at run time (src/server/http/spa.ts); the
 * browser hydrates what this draws (main.tsx), so it is the same tree as main.tsx's over a router in memory,
 * in the person's language and the browser's time zone, from the same query cache the browser then starts
 * with. The API is asked through the server's own routes, as the person asking.
 */
export const renderPage: RenderPage = (input) => oneAtATime(() => draw(input));

/** What the browser starts from: the answers the page was drawn from, and its language. */
export interface ServerRenderedState {
  queries: { queryKey: QueryKey; data: unknown; updatedAt: number }[];
  locale: Locale;
  /** The answer to a form posted without the app's code, when the page was drawn with one (decision 065). */
  formAnswer?: FormAnswer;
  /** The time zone its dates are written in: the browser's, or UTC when it had not said yet. */
  timeZone: string;
}

// One page at a time: the active language, the time zone and the API client's transport belong to this
// process, not to a request. A page takes a few milliseconds to draw; people open homes at human rates.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work);
  queue = result.catch(() => undefined);
  return result;
}

/** A page not whole after this many passes is left to the browser. */
const maxPasses = 4;

async function draw({
  url,
  fetch,
  languages,
  timeZone,
  formAnswer,
}: RenderPageInput): Promise<ServerRenderedPage | UndrawnPage | null> {
  // Which pages are drawn, and for whom, the server has decided before asking (decision 065).
  const { pathname, search } = new URL(url, "http://localhost");
  setFetch(fetch);
  setTimeZone(timeZone);
  setFormAnswer(formAnswer);
  try {
    const queryClient = createQueryClient();
    // A failure is drawn by the browser, which retries (query-client.ts); the server does not wait for that.
    queryClient.setDefaultOptions({
      ...queryClient.getDefaultOptions(),
      queries: { ...queryClient.getDefaultOptions().queries, retry: false },
    });
    const actor: Me | null | undefined = await queryClient.fetchQuery(actorQuery).catch(() => undefined);
    const locale = !actor || actor.locale === "browser" ? browserLocale(languages) : actor.locale;
    await activateLocale(locale);

    await prefetchStartPage({ pathname, search }, queryClient);
    // Drawn again until complete: a part whose code had not loaded yet (a lazy page, the header's tools)
    // or whose data the first screen's prefetch did not ask for (the bell's count) is drawn as its
    // placeholder at first; its code and data are in by the next pass. The markup must be whole: React
    // would otherwise add inline scripts to fill the placeholders in, which the CSP refuses.
    let markup = "";
    for (let pass = 1; ; pass++) {
      markup = await render(url, queryClient);
      const waiting = queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.status === "pending" && query.state.fetchStatus === "idle")
        .filter(isEnabled);
      const isWhole = !/<template id="B:|<script/.test(markup);
      if (isWhole && waiting.length === 0) break;
      if (pass === maxPasses) return null;
      await Promise.all(waiting.map((query) => query.fetch().catch(() => undefined)));
    }
    // A failed query would be drawn as an error the browser's first render (loading, then retrying) does
    // not draw: hydration would not match. The browser draws such a page itself; when what failed does not
    // exist for this person (a ticket they may not see), the server says so with the API's 404.
    const failures = queryClient
      .getQueryCache()
      .getAll()
      .flatMap((query) => (query.state.status === "error" ? [query.state.error] : []));
    if (failures.length > 0)
      return failures.every((error) => isApiError(error, 404)) ? { status: 404 } : null;

    // React puts the page's <title> first; it belongs in <head>.
    const title = /^<title>.*?<\/title>/.exec(markup)?.[0] ?? null;
    const state: ServerRenderedState = {
      queries: queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.status === "success")
        .map(({ queryKey, state }) => ({ queryKey, data: state.data, updatedAt: state.dataUpdatedAt })),
      locale,
      timeZone,
      ...(formAnswer ? { formAnswer } : {}),
    };
    return {
      title,
      markup: title ? markup.slice(title.length) : markup,
      state: jsonForScript(state),
      locale,
    };
  } finally {
    setFetch(null);
    setTimeZone(undefined);
    setFormAnswer(null);
  }
}

/** A query the page would fetch now (not one waiting for a form to open, say). */
function isEnabled(query: Query): boolean {
  if (query.options.queryFn === skipToken) return false;
  const { enabled } = query.options as { enabled?: boolean | ((query: Query) => boolean) };
  return (typeof enabled === "function" ? enabled(query) : enabled) !== false;
}

async function render(url: string, queryClient: QueryClient): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[url]}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
    // React outlines a boundary bigger than this (12,800 bytes by default) into a later part with a script
    // to move it in place, for streaming; a page sent whole needs neither, and the CSP would refuse the script.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
