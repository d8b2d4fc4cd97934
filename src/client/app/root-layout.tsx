import { lazy, Suspense, useLayoutEffect } from "react";
import { Outlet, useLocation, useNavigationType } from "react-router";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { useThemeSync } from "../features/theme/theme.ts";
import { useActorQuery } from "../lib/use-actor.ts";
import { Header } from "./header.tsx";

// The live stream (and the alerts it raises) is for signed-in people: its own chunk (decision 031).
const LiveUpdates = lazy(() =>
  import("./live-updates.tsx").then((module) => ({ default: module.LiveUpdates })),
);

export function RootLayout() {
  useThemeSync();
  const { data: actor, isError } = useActorQuery();
  return (
    <div className="flex min-h-dvh flex-col">
      <ScrollToTopOnNavigation />
      <Header />
      {actor || isError ? (
        <Suspense fallback={null}>
          <LiveUpdates />
        </Suspense>
      ) : null}
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
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
