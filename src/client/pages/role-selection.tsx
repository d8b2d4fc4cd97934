import { Trans, useLingui } from "@lingui/react/macro";
import { LogOut } from "lucide-react";
import { homePathFor } from "#shared/users/roles.ts";
import { Button } from "../components/ui/button.tsx";
import { useSignOut } from "../features/auth/auth.api.ts";
import { AuthCard } from "../features/auth/components/auth-card.tsx";
import { ChooseRoleForm } from "../features/auth/components/choose-role-form.tsx";
import { Navigate, useNavigate } from "../lib/router.tsx";
import { toast } from "../lib/toast.ts";
import { useActor } from "../lib/use-actor.ts";

/** /role-selection: after a first Google or organisation sign-in, or for a stored person with no role. */
export default function RoleSelectionPage() {
  const { t } = useLingui();
  const actor = useActor();
  const navigate = useNavigate();
  const signOut = useSignOut();
  if (!actor) return null;
  // The role is chosen once; after that only an administrator changes it.
  if (actor.role !== null) return <Navigate to={homePathFor(actor.role)} replace />;

  function handleSignOut() {
    signOut.mutate(undefined, {
      onSuccess: () => navigate("/", { replace: true }),
      onError: (error) => toast.error(error.message),
    });
  }

  return (
    <AuthCard
      title={t`Choose Your Role`}
      description={t`Welcome, ${actor.name}. Tell us how you will use the helpdesk.`}
    >
      <ChooseRoleForm />
      <div className="mt-6 flex items-center justify-center gap-1 text-sm text-slate-500">
        <Trans>Not {actor.email}?</Trans>
        <Button variant="ghost" size="sm" onClick={handleSignOut} disabled={signOut.isPending}>
          <LogOut aria-hidden="true" className="size-4" />
          <Trans>Sign out</Trans>
        </Button>
      </div>
    </AuthCard>
  );
}
