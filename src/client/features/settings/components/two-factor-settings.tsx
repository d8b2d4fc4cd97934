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
import type { TwoFactorSettings } from "#shared/users/two-factor.ts";

/** Admin settings › Sign-in security: whether technicians and admins must use two-factor sign-in (decision 046). */
export function TwoFactorSettingsPanel() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<TwoFactorSettings>("two-factor"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading sign-in security settings`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={t`The sign-in security settings could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <TwoFactorSettingsForm saved={query.data.value} />;
}

function TwoFactorSettingsForm({ saved }: { saved: TwoFactorSettings }) {
  const { t } = useLingui();
  const switchLabelId = useId();
  const save = useSaveSetting<TwoFactorSettings>("two-factor");
  const [requiredForStaff, setRequiredForStaff] = useState(saved.requiredForStaff);
  const [serverError, setServerError] = useState<string | null>(null);

  async function handleSave(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    try {
      await save.mutateAsync({ requiredForStaff });
      toast.success(settingsSaved);
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The settings could not be saved.`);
    }
  }

  return (
    <form noValidate onSubmit={handleSave} className="flex max-w-xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Sign-in security</Trans>
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          <Trans>
            When on, a technician or admin who signs in with a password and has no authenticator app is sent
            to set one up, and can do nothing else until then. People who sign in with Google or your
            organisation's account are checked by that provider instead.
          </Trans>
        </p>
      </div>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex items-center justify-between gap-4">
        <p id={switchLabelId} className="text-sm font-medium text-slate-900">
          <Trans>Require two-factor sign-in for technicians and admins</Trans>
        </p>
        <button
          type="button"
          role="switch"
          aria-checked={requiredForStaff}
          aria-labelledby={switchLabelId}
          onClick={() => setRequiredForStaff(!requiredForStaff)}
          className={cn(
            "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
            "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
            requiredForStaff ? "bg-indigo-600" : "bg-slate-300",
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              "inline-block size-5 rounded-full bg-white shadow transition-transform",
              requiredForStaff ? "translate-x-5.5" : "translate-x-0.5",
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
