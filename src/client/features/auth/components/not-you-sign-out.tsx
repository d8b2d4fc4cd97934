import { Trans } from "@lingui/react/macro";
import { LogOut } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import { useSignOutAndLeave } from "#client/features/auth/use-sign-out-and-leave.ts";

/** Under a step a signed-in person must take first (choose a role, set up two-factor): a way out. */
export function NotYouSignOut({ email }: { email: string }) {
  const { signOutAndLeave, isPending } = useSignOutAndLeave();
  return (
    <div className="mt-6 flex items-center justify-center gap-1 text-sm text-slate-500">
      <Trans>Not {email}?</Trans>
      <Button variant="ghost" size="sm" onClick={signOutAndLeave} disabled={isPending}>
        <LogOut aria-hidden="true" className="size-4" />
        <Trans>Sign out</Trans>
      </Button>
    </div>
  );
}
