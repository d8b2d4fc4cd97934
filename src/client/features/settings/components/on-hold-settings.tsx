import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { TextField } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { settingQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  holdBusinessDaysMax,
  holdBusinessDaysMin,
  type OnHoldSettings,
  onHoldSettingsSchema,
} from "#shared/service-levels/on-hold.schemas.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";

/**
 * Admin settings › On hold (decision 070): whether a ticket that has waited on its requester for so many
 * business days is resolved by itself. Off until an administrator turns it on.
 */
export function OnHoldSettingsPanel() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<OnHoldSettings>("on-hold"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading the on-hold settings`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={t`The on-hold settings could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <OnHoldForm saved={query.data.value} />;
}

function OnHoldForm({ saved }: { saved: OnHoldSettings }) {
  const { t } = useLingui();
  const switchLabelId = useId();
  const save = useSaveSetting<OnHoldSettings>("on-hold");
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OnHoldSettings>({ resolver: zodResolver(onHoldSettingsSchema), defaultValues: saved });

  const handleSave = handleSubmit(async (value) => {
    setServerError(null);
    try {
      await save.mutateAsync(value);
      toast.success(settingsSaved);
    } catch (error) {
      const message = error instanceof Error ? error.message : t`The settings could not be saved.`;
      // The server names the field it refused; show it there when it is the days.
      if (/days/i.test(message)) setError("businessDays", { message });
      else setServerError(message);
    }
  });

  return (
    <form noValidate onSubmit={handleSave} className="flex max-w-xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>On hold</Trans>
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          <Trans>
            Staff put a ticket on hold while they wait for its requester's answer; the resolution target
            pauses meanwhile. A ticket still waiting after this many business days can be resolved by itself,
            with a notice to its requester; auto-close then closes it as any Resolved ticket.
          </Trans>
        </p>
      </div>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex items-center justify-between gap-4">
        <p id={switchLabelId} className="text-sm font-medium text-slate-900">
          <Trans>Resolve tickets on hold automatically</Trans>
        </p>
        <Controller
          control={control}
          name="autoResolve"
          render={({ field }) => (
            <button
              type="button"
              role="switch"
              aria-checked={field.value}
              aria-labelledby={switchLabelId}
              onClick={() => field.onChange(!field.value)}
              className={cn(
                "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
                field.value ? "bg-indigo-600" : "bg-slate-300",
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "inline-block size-5 rounded-full bg-white shadow transition-transform",
                  field.value ? "translate-x-5.5" : "translate-x-0.5",
                )}
              />
            </button>
          )}
        />
      </div>
      <TextField
        label={t`Business days on hold`}
        type="number"
        inputMode="numeric"
        min={holdBusinessDaysMin}
        max={holdBusinessDaysMax}
        step={1}
        className="max-w-48"
        error={errors.businessDays?.message}
        {...register("businessDays", { valueAsNumber: true })}
      />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </form>
  );
}
