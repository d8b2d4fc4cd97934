import { Suspense } from "react";
import { Outlet, ScrollRestoration } from "react-router";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { useThemeSync } from "../features/theme/theme.ts";
import { Header } from "./header.tsx";
import { LiveUpdates } from "./live-updates.tsx";

export function RootLayout() {
  useThemeSync();
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <LiveUpdates />
      <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <ScrollRestoration />
    </div>
  );
}
