import { useLingui } from "@lingui/react/macro";
import { AuthCard } from "#client/features/auth/components/auth-card.tsx";
import { NotYouSignOut } from "#client/features/auth/components/not-you-sign-out.tsx";
import { TwoFactorSetup } from "#client/features/two-factor/components/two-factor-setup.tsx";
import { useNavigate } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { homePathFor } from "#shared/users/roles.ts";

/**
 * /two-factor-setup: a technician or admin whose administrator requires two-factor sign-in sets it up here
 * before anything else opens (decision 046); the server refuses their other requests until then.
 */
export default function TwoFactorSetupPage() {
  const { t } = useLingui();
  const actor = useActor();
  const navigate = useNavigate();
  if (!actor) return null;

  return (
    <AuthCard
      title={t`Set up two-factor sign-in`}
      description={t`Your administrator requires it for technicians and admins.`}
    >
      <TwoFactorSetup
        onDone={() => navigate(actor.role ? homePathFor(actor.role) : "/", { replace: true })}
      />
      <NotYouSignOut email={actor.email} />
    </AuthCard>
  );
}
