import "react-toastify/ReactToastify.css";
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppProviders } from "./app/providers.tsx";
import { AppRoutes } from "./app/router.tsx";
import { startRoute } from "./app/start-route.ts";
import { createQueryClient } from "./lib/query-client.ts";

const queryClient = createQueryClient();
startRoute(window.location.pathname, queryClient);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
