import { Trans } from "@lingui/react/macro";
import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from "react";
import { PageSpinner } from "#client/components/ui/spinner.tsx";
import { useThemeSync } from "#client/features/theme/theme.ts";
import { EarlyClickReplay } from "#client/lib/early-click.ts";
import { focusWhenRendered } from "#client/lib/focus.ts";
import { useLocaleSync } from "#client/lib/locale.ts";
import { Outlet } from "#client/lib/router/route-matching.tsx";
import { useIsNavigating, useLocation, useNavigationType } from "#client/lib/router/router.tsx";
import { useActorQuery } from "#client/lib/use-actor.ts";
import { Header } from "./header.tsx";

// The live stream (and the alerts it raises) is for signed-in people: its own chunk (decision 031).
const LiveUpdates = lazy(() =>
  import("./live-updates.tsx").then((module) => ({ default: module.LiveUpdates })),
);

export function RootLayout() {
  useThemeSync();
  useLocaleSync();
  const { data: actor, isError } = useActorQuery();
  // While the next page's code downloads, the last page stays on screen (a transition) but is left: it
  // takes no input (typing into a form about to go would be lost) and says it is busy; a bar shows the
  // move after a moment. The header stays usable, to go somewhere else instead.
  const isNavigating = useIsNavigating();
  return (
    <div className="flex min-h-dvh flex-col">
      {/* The first Tab stop of every page (decision 036): hidden until focused. */}
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-medium text-indigo-700 shadow-lg ring-2 ring-indigo-600 focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        <Trans>Skip to main content</Trans>
      </a>
      <div
        aria-hidden="true"
        data-testid="navigation-progress"
        className={`pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 bg-indigo-600 transition-opacity dark:bg-indigo-400 ${
          isNavigating ? "animate-pulse opacity-100 delay-200" : "opacity-0"
        }`}
      />
      <ScrollToTopOnNavigation />
      <FocusNewPage />
      <Header />
      {(actor && !actor.mustSetUpTwoFactor) || isError ? (
        <Suspense fallback={null}>
          <LiveUpdates />
        </Suspense>
      ) : null}
      <main
        id="main"
        tabIndex={-1}
        aria-busy={isNavigating || undefined}
        inert={isNavigating}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:px-6"
      >
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
          {/* A button pressed before the drawn page was React's, pressed again now that it is. */}
          <EarlyClickReplay />
        </Suspense>
      </main>
    </div>
  );
}

/**
 * A new page starts at its top; Back and Forward keep the browser's own scroll restoration (what the data
 * router's ScrollRestoration did, in declarative mode).
 */
function ScrollToTopOnNavigation() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new page (pathname), which it does not read
  useLayoutEffect(() => {
    if (navigationType !== "POP") window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}

/**
 * After a client-side navigation (not the first load, where the browser starts at the top of the page)
 * focus goes to the new page's h1, so a screen reader reads where it landed and the next Tab starts in the
 * page rather than in the header; until the page's chunk has drawn its h1, focus waits on <main>. Focus
 * the person moves meanwhile (a click while the page loads) is left alone. Decision 036.
 */
function FocusNewPage() {
  const { pathname } = useLocation();
  const isFirstPage = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new page (pathname), which it does not read
  useEffect(() => {
    if (isFirstPage.current) {
      isFirstPage.current = false;
      return;
    }
    const main = document.getElementById("main");
    if (!main) return;
    main.focus({ preventScroll: true });
    return focusWhenRendered(() => main.querySelector<HTMLElement>("h1"), {
      root: main,
      shouldFocus: () => document.activeElement === main || document.activeElement === document.body,
    });
  }, [pathname]);
  return null;
}
