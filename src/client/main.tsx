import "./styles.css";

// zod (loaded with the forms) compiles its object parsers with `new Function` unless it is jitless, and the
// CSP forbids eval: each try was a CSP violation in the console (issue 13). zod reads its configuration
// from this global (what z.config writes), so it is set here without loading zod (decision 037).
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "./app/providers.tsx";
import { AppRoutes } from "./app/router.tsx";
import { startRoute } from "./app/start-route.ts";
import { activateLocale, resolveLocale, storedLocale } from "./lib/i18n.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { BrowserRouter } from "./lib/router.tsx";

const queryClient = createQueryClient();
startRoute(window.location.pathname, queryClient);

// The first paint is in this browser's last language (or its preferred one): German waits for its chunk,
// English is already here (decision 038).
void activateLocale(resolveLocale(storedLocale())).finally(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
