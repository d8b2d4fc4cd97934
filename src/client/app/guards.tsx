import { RefreshCw } from "lucide-react";
import { Navigate, Outlet } from "react-router";
import { homePathFor, type Role } from "#shared/users/roles.ts";
import { Button } from "../components/ui/button.tsx";
import { PageSpinner } from "../components/ui/spinner.tsx";
import { useActorQuery } from "../lib/use-actor.ts";

interface RequireSignInProps {
  /** Which roles may open the pages below; anyone else goes to their own home. Omit for "any role". */
  roles?: readonly Role[];
  /** /role-selection itself must be reachable by a person who has no role yet. */
  allowNoRole?: boolean;
}

/** Pages below need a session: signed-out visitors go to /sign-in, people with no role to /role-selection. */
export function RequireSignIn({ roles, allowNoRole = false }: RequireSignInProps) {
  const { data: actor, isPending, isError, refetch } = useActorQuery();

  if (isPending) return <PageSpinner label="Loading your account" />;
  if (isError) return <ActorLoadFailed onRetry={() => void refetch()} />;
  if (actor === null) return <Navigate to="/sign-in" replace />;
  if (actor.role === null) {
    return allowNoRole ? <Outlet /> : <Navigate to="/role-selection" replace />;
  }
  if (roles && !roles.includes(actor.role)) return <Navigate to={homePathFor(actor.role)} replace />;
  return <Outlet />;
}

/** The sign-in screens: a person who is already signed in goes straight to their home. */
export function RedirectIfSignedIn() {
  const { data: actor, isPending } = useActorQuery();
  if (isPending) return <PageSpinner label="Loading your account" />;
  if (actor) return <Navigate to={homePathFor(actor.role)} replace />;
  return <Outlet />;
}

function ActorLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-center">
      <p className="text-sm text-slate-600">We could not reach the server. Please check your connection.</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RefreshCw aria-hidden="true" className="size-4" />
        Try again
      </Button>
    </div>
  );
}
