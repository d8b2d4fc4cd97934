import type { MessageDescriptor } from "@lingui/core";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { PageSpinner } from "#client/components/ui/spinner.tsx";
import { i18n } from "#client/lib/i18n.ts";
import { Outlet } from "#client/lib/router/route-matching.tsx";
import { Navigate, useLocation, useSearchParams } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { useActorQuery } from "#client/lib/use-actor.ts";
import { pathAfterSignIn, returnParam, signInPathFrom } from "#shared/users/return-path.ts";
import { homePathFor, type Role } from "#shared/users/roles.ts";

interface RequireSignInProps {
  /** Which roles may open the pages below; anyone else goes to their own home. Omit for "any role". */
  roles?: readonly Role[];
  /** /role-selection itself must be reachable by a person who has no role yet. */
  allowNoRole?: boolean;
  /** /two-factor-setup itself must be reachable by a person who must set up two-factor sign-in first. */
  isTwoFactorSetup?: boolean;
  /** Said (as a toast) to a signed-out visitor sent to /sign-in, e.g. "Please sign in first". */
  signInMessage?: MessageDescriptor;
  /** Replaces the generic text when the account cannot be loaded (e.g. "Error loading profile data"). */
  loadErrorMessage?: MessageDescriptor;
}

/**
 * Pages below need a session: signed-out visitors go to /sign-in (which remembers the page, so a deep link
 * to a ticket opens it after sign-in), people with no role to /role-selection.
 */
export function RequireSignIn({
  roles,
  allowNoRole = false,
  isTwoFactorSetup = false,
  signInMessage,
  loadErrorMessage,
}: RequireSignInProps) {
  const { data: actor, isPending, isError, refetch } = useActorQuery();

  if (isPending) return <PageSpinner label={t`Loading your account`} />;
  if (isError)
    return (
      <ActorLoadFailed
        message={loadErrorMessage && i18n._(loadErrorMessage)}
        onRetry={() => void refetch()}
      />
    );
  if (actor === null) return <SignInRedirect message={signInMessage && i18n._(signInMessage)} />;
  // The server refuses everything else until then (decision 046). The setup page stays open once it is done,
  // so that the recovery codes can be read; it leads home itself.
  if (isTwoFactorSetup) return <Outlet />;
  if (actor.mustSetUpTwoFactor) return <Navigate to="/two-factor-setup" replace />;
  if (actor.role === null) {
    return allowNoRole ? <Outlet /> : <Navigate to="/role-selection" replace />;
  }
  if (roles && !roles.includes(actor.role)) return <Navigate to={homePathFor(actor.role)} replace />;
  return <Outlet />;
}

/**
 * The sign-in screens: a person who is signed in (already, or just now) goes back to the page they were
 * sent away from, or to their home.
 */
export function RedirectIfSignedIn() {
  const { data: actor, isPending } = useActorQuery();
  const [searchParams] = useSearchParams();
  if (isPending) return <PageSpinner label={t`Loading your account`} />;
  if (actor) return <Navigate to={pathAfterSignIn(actor.role, searchParams.get(returnParam))} replace />;
  return <Outlet />;
}

function SignInRedirect({ message }: { message: string | undefined }) {
  const location = useLocation();
  useEffect(() => {
    // The id keeps React's development double effects from showing it twice.
    if (message) toast.error(message, { toastId: message });
  }, [message]);
  return <Navigate to={signInPathFrom(`${location.pathname}${location.search}${location.hash}`)} replace />;
}

function ActorLoadFailed({ message, onRetry }: { message: string | undefined; onRetry: () => void }) {
  useEffect(() => {
    if (message) toast.error(message, { toastId: message });
  }, [message]);
  return (
    <div className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-center">
      <p className="text-sm text-slate-600">
        {message ?? t`We could not reach the server. Please check your connection.`}
      </p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        <RefreshCw aria-hidden="true" className="size-4" />
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}
