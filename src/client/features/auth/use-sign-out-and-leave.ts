import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { useSignOut } from "./auth.api.ts";

/** Sign Out as every page does it: end the session, then go to the landing page; a failure is a toast. */
export function useSignOutAndLeave() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  return {
    signOutAndLeave: () =>
      signOut.mutate(undefined, {
        onSuccess: () => navigate("/", { replace: true }),
        onError: (error) => toast.error(error.message),
      }),
    isPending: signOut.isPending,
  };
}
