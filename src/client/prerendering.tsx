import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { authProvidersQueryKey } from "#shared/page-rendering/server-config.ts";
import type { AuthProviders } from "#shared/users/user.schemas.ts";
import { AppProviders } from "./app/providers.tsx";
import { AppRoutes } from "./app/routes.tsx";
import { createQueryClient } from "./lib/query-client.ts";
import { MemoryRouter } from "./lib/router/router.tsx";
import { actorKeys } from "./lib/use-actor.ts";

/**
 * The markup of the page at `path` for a signed-out visitor, drawn at build time (vite.config.ts, decision
 * 043) so that the browser paints it before any JavaScript has run; main.tsx then hydrates it. The tree is
 * main.tsx's, over a router in memory, in English and light, with the session already known (nobody), so
 * the client's first render is the same markup once /api/me has answered null. Drawn once per set of
 * sign-in methods (`providers`): the server sends the one it offers, and says which in the page, so the
 * client's first render draws the same buttons (decision 061).
 */
export async function renderSignedOutPage(path: string, providers: AuthProviders): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(actorKeys.me, null);
  queryClient.setQueryData(authProvidersQueryKey, providers);
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes />
        </MemoryRouter>
      </AppProviders>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
