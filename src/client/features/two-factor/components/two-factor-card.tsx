import { Trans, useLingui } from "@lingui/react/macro";
import { ShieldCheck } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { PasswordField } from "#client/components/ui/password-input.tsx";
import { useTurnOffTwoFactor } from "#client/features/two-factor/two-factor.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { toast } from "#client/lib/toast.ts";
import { TwoFactorSetup } from "./two-factor-setup.tsx";

/** /profile's "Two-factor sign-in": turn it on (authenticator app + recovery codes) or off (decision 046). */
export function TwoFactorCard({ isEnabled }: { isEnabled: boolean }) {
  const { t } = useLingui();
  const headingId = useId();
  const [dialog, setDialog] = useState<"set-up" | "turn-off" | null>(null);
  const close = () => setDialog(null);

  return (
    <Card className="mt-6 max-w-2xl" aria-labelledby={headingId} role="region">
      <div className="flex flex-wrap items-start justify-between gap-4 px-6 py-4">
        <div>
          <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <ShieldCheck aria-hidden="true" className="size-4 text-slate-400" />
            <Trans>Two-factor sign-in</Trans>
            {isEnabled ? (
              <Badge tone="green">
                <Trans>On</Trans>
              </Badge>
            ) : (
              <Badge tone="slate">
                <Trans>Off</Trans>
              </Badge>
            )}
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">
            <Trans>
              After your password, sign-in asks for a code from an authenticator app on your phone. Signing in
              with Google or your organisation's account is not affected: that provider checks you.
            </Trans>
          </p>
        </div>
        {isEnabled ? (
          <Button size="sm" variant="secondary" onClick={() => setDialog("turn-off")}>
            <Trans>Turn off</Trans>
          </Button>
        ) : (
          <Button size="sm" onClick={() => setDialog("set-up")}>
            <Trans>Set up</Trans>
          </Button>
        )}
      </div>
      {dialog === "set-up" ? (
        <Dialog title={t`Set up two-factor sign-in`} description={t`Takes about a minute.`} onClose={close}>
          <TwoFactorSetup onDone={close} />
        </Dialog>
      ) : null}
      {dialog === "turn-off" ? <TurnOffDialog onClose={close} /> : null}
    </Card>
  );
}

function TurnOffDialog({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const turnOff = useTurnOffTwoFactor();
  const [error, setError] = useState<string | undefined>();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (!password) {
      setError(t`Password is required`);
      return;
    }
    try {
      await turnOff.mutateAsync(password);
      toast.success(t`Two-factor sign-in is off`);
      onClose();
    } catch (failure) {
      setError(
        isApiError(failure, 400) && /password/i.test(failure.message)
          ? t`That password is not right.`
          : failure instanceof Error
            ? failure.message
            : t`Something went wrong. Please try again.`,
      );
    }
  }

  return (
    <Dialog
      title={t`Turn off two-factor sign-in?`}
      description={t`Your password alone will sign you in again. Your recovery codes stop working.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        <PasswordField label={t`Password`} error={error} autoComplete="current-password" name="password" />
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" variant="danger" disabled={turnOff.isPending}>
            <Trans>Turn off</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
