import { useLingui } from "@lingui/react/macro";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";
import { ChooseRoleForm } from "#client/features/auth/components/choose-role-form.tsx";
import { NotYouSignOut } from "#client/features/auth/components/not-you-sign-out.tsx";
import { Navigate } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { homePathFor } from "#shared/users/roles.ts";

/** /role-selection: after a first Google or organisation sign-in, or for a stored person with no role. */
export default function RoleSelectionPage() {
  const { t } = useLingui();
  const actor = useActor();
  if (!actor) return null;
  // The role is chosen once; after that only an administrator changes it.
  if (actor.role !== null) return <Navigate to={homePathFor(actor.role)} replace />;

  return (
    <AuthCard
      title={t`Choose Your Role`}
      description={t`Welcome, ${actor.name}. Tell us how you will use the helpdesk.`}
    >
      <ChooseRoleForm />
      <NotYouSignOut email={actor.email} />
    </AuthCard>
  );
}
