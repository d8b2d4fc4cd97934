import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Bounce, ToastContainer } from "react-toastify/unstyled";

/**
 * Spec §2/§8: one toast area, bottom centre, dark, closing after 5 s. Its polite live region is drawn
 * before any toast; lib/toast.ts makes errors alerts (decision 036).
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToastContainer
        role="status"
        position="bottom-center"
        theme="dark"
        autoClose={5000}
        transition={Bounce}
        newestOnTop
      />
    </QueryClientProvider>
  );
}
