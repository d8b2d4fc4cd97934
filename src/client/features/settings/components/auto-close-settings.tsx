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
  type AutoCloseSettings,
  autoCloseDaysMax,
  autoCloseDaysMin,
  autoCloseSettingsSchema,
} from "#shared/service-levels/auto-close.schemas.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";

/** Admin settings › Auto-close: whether Resolved tickets close by themselves, and after how many idle days. */
export function AutoCloseSettingsPanel() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<AutoCloseSettings>("auto-close"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading auto-close settings`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={t`The auto-close settings could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return <AutoCloseForm saved={query.data.value} />;
}

function AutoCloseForm({ saved }: { saved: AutoCloseSettings }) {
  const { t } = useLingui();
  const switchLabelId = useId();
  const save = useSaveSetting<AutoCloseSettings>("auto-close");
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AutoCloseSettings>({ resolver: zodResolver(autoCloseSettingsSchema), defaultValues: saved });

  const handleSave = handleSubmit(async (value) => {
    setServerError(null);
    try {
      await save.mutateAsync(value);
      toast.success(settingsSaved);
    } catch (error) {
      const message = error instanceof Error ? error.message : t`The settings could not be saved.`;
      // The server names the field it refused; show it there when it is the days.
      if (/days/i.test(message)) setError("days", { message });
      else setServerError(message);
    }
  });

  return (
    <form noValidate onSubmit={handleSave} className="flex max-w-xl flex-col gap-5">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Auto-close</Trans>
        </h2>
        <p className="mt-0.5 text-sm text-slate-600">
          <Trans>
            A Resolved ticket that nobody replies to, rates or changes is closed after this many days. Its
            creator is told the date while it is Resolved, and notified when it closes.
          </Trans>
        </p>
      </div>
      {serverError ? <Alert>{serverError}</Alert> : null}
      <div className="flex items-center justify-between gap-4">
        <p id={switchLabelId} className="text-sm font-medium text-slate-900">
          <Trans>Close resolved tickets automatically</Trans>
        </p>
        <Controller
          control={control}
          name="enabled"
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
        label={t`Days without activity`}
        type="number"
        inputMode="numeric"
        min={autoCloseDaysMin}
        max={autoCloseDaysMax}
        step={1}
        className="max-w-48"
        error={errors.days?.message}
        {...register("days", { valueAsNumber: true })}
      />
      <div>
        <Button type="submit" disabled={isSubmitting}>
          <Trans>Save</Trans>
        </Button>
      </div>
    </form>
  );
}
