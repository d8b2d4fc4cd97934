import { Trans, useLingui } from "@lingui/react/macro";
import { LogOut } from "lucide-react";
import { homePathFor } from "#shared/users/roles.ts";
import { Button } from "../components/ui/button.tsx";
import { useSignOut } from "../features/auth/auth.api.ts";
import { AuthCard } from "../features/auth/components/auth-card.tsx";
import { TwoFactorSetup } from "../features/two-factor/components/two-factor-setup.tsx";
import { useNavigate } from "../lib/router.tsx";
import { toast } from "../lib/toast.ts";
import { useActor } from "../lib/use-actor.ts";

/**
 * /two-factor-setup: a technician or admin whose administrator requires two-factor sign-in sets it up here
 * before anything else opens (decision 046); the server refuses their other requests until then.
 */
export default function TwoFactorSetupPage() {
  const { t } = useLingui();
  const actor = useActor();
  const navigate = useNavigate();
  const signOut = useSignOut();
  if (!actor) return null;

  function handleSignOut() {
    signOut.mutate(undefined, {
      onSuccess: () => navigate("/", { replace: true }),
      onError: (error) => toast.error(error.message),
    });
  }

  return (
    <AuthCard
      title={t`Set up two-factor sign-in`}
      description={t`Your administrator requires it for technicians and admins.`}
    >
      <TwoFactorSetup
        onDone={() => navigate(actor.role ? homePathFor(actor.role) : "/", { replace: true })}
      />
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
