import "./styles.css";

// zod (loaded with the forms) compiles its object parsers with `new Function` unless it is jitless, and the
// CSP forbids eval: each try was a CSP violation in the console. zod reads its configuration
// from this global (what z.config writes), so it is set here without loading zod (decision 037).
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import {
  authProvidersQueryKey,
  type ServerConfig,
  serverConfigElementId,
} from "#shared/page-rendering/server-config.ts";
import { serverRenderedStateElementId } from "#shared/page-rendering/server-rendered.ts";
import { AppProviders } from "./app/providers.tsx";
import { AppRoutes } from "./app/routes.tsx";
import { startRoute } from "./app/start-route.ts";
import { setFormAnswer } from "./lib/form-answer.ts";
import { activateLocale, resolveLocale, storedLocale } from "./lib/i18n.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { BrowserRouter } from "./lib/router/router.tsx";
import { setTimeZone } from "./lib/time-zone.ts";
import { rememberTimeZoneWhenIdle } from "./lib/time-zone-cookie.ts";
import { actorQuery } from "./lib/use-actor.ts";
import type { ServerRenderedState } from "./server-rendering.tsx";

const queryClient = createQueryClient();
// How the server is configured (decision 061): the sign-in buttons are drawn from the first render.
const serverConfig = jsonOf<ServerConfig>(serverConfigElementId);
if (serverConfig) queryClient.setQueryData(authProvidersQueryKey, serverConfig.authProviders);
const drawn = document.getElementById("root")?.hasAttribute("data-drawn")
  ? jsonOf<ServerRenderedState>(serverRenderedStateElementId)
  : null;
// A page the server drew comes with the answers it was drawn from: nothing to ask again for a while.
for (const { queryKey, data, updatedAt } of drawn?.queries ?? []) {
  queryClient.setQueryData(queryKey, data, { updatedAt });
}
setFormAnswer(drawn?.formAnswer);
// Dates as the page was drawn (the browser's zone from its cookie; UTC before the browser had said it),
// so that hydration finds the same text; the next page load has the cookie.
if (drawn?.timeZone) setTimeZone(drawn.timeZone);
startRoute(window.location, queryClient);

const app = (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
);

/**
 * The page is on screen already when the build drew it (`data-prerendered`, decision 043): for a signed-out
 * visitor in English, React takes over that markup (hydration) instead of drawing anew, so what someone
 * focused or typed before the code arrived stays. The client's first render must be the markup, so it
 * waits for the session's answer (preloaded by the HTML) rather than showing the guards' spinner.
 * Anyone else (signed in, another language, the session not reachable) gets the app drawn afresh.
 */
async function start() {
  const root = document.getElementById("root")!;
  // Drawn by the server for this person (decision 052): hydrated in the language it was drawn in (the
  // person's; their catalogue first, if not English), whatever this browser stored.
  if (drawn) {
    await activateLocale(drawn.locale);
    // As a transition, React takes the page over in slices of a few milliseconds, yielding to the browser
    // between them, instead of in one long task: the page is on screen already, and a click meanwhile is
    // answered first (React hydrates what was clicked before the rest).
    startTransition(() => {
      hydrateRoot(root, app);
    });
    return;
  }
  const locale = resolveLocale(storedLocale());
  if (root.hasAttribute("data-prerendered") && locale === "en") {
    const actor = await queryClient.fetchQuery(actorQuery).catch(() => undefined);
    if (actor === null) {
      hydrateRoot(root, app);
      return;
    }
  }
  // The first paint is in this browser's last language (or its preferred one): German waits for its chunk,
  // English is already here (decision 038).
  await activateLocale(locale).catch(() => undefined);
  root.removeAttribute("data-prerendered");
  createRoot(root).render(app);
}

/**
 * What the server put in the page as <script type="application/json" id=…>: the state a server-rendered page
 * carries (src/client/server-rendering.tsx), the server's configuration; null when it is not there.
 */
function jsonOf<T>(id: string): T | null {
  const element = document.getElementById(id);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as T;
  } catch {
    return null;
  }
}

void start();
rememberTimeZoneWhenIdle();
