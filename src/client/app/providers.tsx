import { I18nProvider, useLingui } from "@lingui/react";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Fragment, type ReactNode } from "react";
import { Toaster } from "#client/components/ui/toaster.tsx";
import { i18n } from "#client/lib/i18n.ts";

/**
 * One toast area, bottom centre, dark, closing after 5 s. Its polite live region is drawn
 * before any toast; lib/toast.ts makes errors alerts (decision 036).
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider i18n={i18n}>
        <RenderedInActiveLocale>{children}</RenderedInActiveLocale>
      </I18nProvider>
      <Toaster />
    </QueryClientProvider>
  );
}

/**
 * A language switch draws the app again in the new language (decision 038): texts read outside React's
 * context (dates, helpers' messages) change too. The query cache is above, so nothing is fetched anew
 * that was fresh.
 */
function RenderedInActiveLocale({ children }: { children: ReactNode }) {
  const { i18n } = useLingui();
  return <Fragment key={i18n.locale}>{children}</Fragment>;
}
