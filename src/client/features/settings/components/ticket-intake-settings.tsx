import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { settingQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { toast } from "#client/lib/toast.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";
import type { TicketIntakeSettings } from "#shared/tickets/ticket-intake.ts";

/**
 * Admin settings › Ticket intake (decision 079): whether staff who raise a ticket for an address no account
 * has (another system's requesterEmail) invite that person as a new user.
 */
export function TicketIntakeSettingsPanel() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<TicketIntakeSettings>("ticket-intake"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading ticket intake settings`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={t`The ticket intake settings could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <TicketIntakeSettingsForm saved={query.data.value} />;
}

function TicketIntakeSettingsForm({ saved }: { saved: TicketIntakeSettings }) {
  const { t } = useLingui();
  const switchLabelId = useId();
  const save = useSaveSetting<TicketIntakeSettings>("ticket-intake");
  const [inviteUnknownRequesters, setInviteUnknownRequesters] = useState(saved.inviteUnknownRequesters);
  const [serverError, setServerError] = useState<string | null>(null);

  async function handleSave(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    try {
      await save.mutateAsync({ inviteUnknownRequesters });
      toast.success(settingsSaved);
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The settings could not be saved.`);
    }
  }

  return (
    <form noValidate onSubmit={handleSave} className="flex max-w-xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Ticket intake</Trans>
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          <Trans>
            Technicians, admins and their API tokens can raise a ticket for someone else by their e-mail
            address. When on, an address that has no account yet gets one: the person is invited as a user by
            e-mail, as Add user does. When off, the person must already have an active account.
          </Trans>
        </p>
      </div>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex items-center justify-between gap-4">
        <p id={switchLabelId} className="text-sm font-medium text-slate-900">
          <Trans>Invite unknown requesters as new users</Trans>
        </p>
        <button
          type="button"
          role="switch"
          aria-checked={inviteUnknownRequesters}
          aria-labelledby={switchLabelId}
          onClick={() => setInviteUnknownRequesters(!inviteUnknownRequesters)}
          className={cn(
            "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
            inviteUnknownRequesters ? "bg-indigo-600" : "bg-slate-300",
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              "inline-block size-5 rounded-full bg-white shadow transition-transform",
              inviteUnknownRequesters ? "translate-x-5.5" : "translate-x-0.5",
            )}
          />
        </button>
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </form>
  );
}
