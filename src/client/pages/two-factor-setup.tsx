import { useLingui } from "@lingui/react/macro";
import { homePathFor } from "#shared/users/roles.ts";
import { AuthCard } from "../features/auth/components/auth-card.tsx";
import { NotYouSignOut } from "../features/auth/components/not-you-sign-out.tsx";
import { TwoFactorSetup } from "../features/two-factor/components/two-factor-setup.tsx";
import { useNavigate } from "../lib/router.tsx";
import { useActor } from "../lib/use-actor.ts";

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
