import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Input } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { settingQuery, useSaveSetting } from "#client/features/settings/settings.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { toast } from "#client/lib/toast.ts";
import {
  type SlaPolicy,
  type SlaTargetKind,
  slaPolicySchema,
  slaTargetKinds,
} from "#shared/service-levels/sla-policy.schemas.ts";
import { settingsSaved } from "#shared/settings/settings.schemas.ts";
import { ticketPriorities } from "#shared/tickets/ticket.schemas.ts";

type Priority = (typeof ticketPriorities)[number];
/** What the inputs hold: hours and minutes as typed, empty for no target. */
type Draft = {
  targets: Record<Priority, Record<SlaTargetKind, { hours: string; minutes: string }>>;
  dueSoonMinutes: string;
};

const fieldOf = { firstResponse: "firstResponseMinutes", resolution: "resolutionMinutes" } as const;
const kindLabels: Record<SlaTargetKind, MessageDescriptor> = {
  firstResponse: msg`First response`,
  resolution: msg`Resolution`,
};
const priorityLabels: Record<Priority, MessageDescriptor> = {
  Low: msg`Low`,
  Medium: msg`Medium`,
  High: msg`High`,
};
const errorKey = (priority: Priority, kind: SlaTargetKind) => `targets.${priority}.${fieldOf[kind]}`;

function draftOf(policy: SlaPolicy): Draft {
  const split = (total: number | null) =>
    total === null
      ? { hours: "", minutes: "" }
      : { hours: String(Math.floor(total / 60)), minutes: String(total % 60) };
  const targets = Object.fromEntries(
    ticketPriorities.map((priority) => [
      priority,
      Object.fromEntries(
        slaTargetKinds.map((kind) => [kind, split(policy.targets[priority][fieldOf[kind]])]),
      ),
    ]),
  ) as Draft["targets"];
  return { targets, dueSoonMinutes: String(policy.dueSoonMinutes) };
}

/** Both boxes empty: no target. Otherwise hours × 60 + minutes (the schema says what is wrong with it). */
function minutesOf({ hours, minutes }: { hours: string; minutes: string }): number | null {
  if (hours.trim() === "" && minutes.trim() === "") return null;
  return Number(hours.trim() || "0") * 60 + Number(minutes.trim() || "0");
}

function policyOf(draft: Draft): unknown {
  const targets = Object.fromEntries(
    ticketPriorities.map((priority) => [
      priority,
      Object.fromEntries(
        slaTargetKinds.map((kind) => [fieldOf[kind], minutesOf(draft.targets[priority][kind])]),
      ),
    ]),
  );
  const dueSoon = draft.dueSoonMinutes.trim();
  return { targets, dueSoonMinutes: dueSoon === "" ? null : Number(dueSoon) };
}

/**
 * "body targets.High.firstResponseMinutes: High: first response target must …; dueSoonMinutes: …" → the
 * message of each field, so a refusal from the server shows where the admin can fix it.
 */
export function fieldErrorsOf(message: string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const part of message.split("; ")) {
    const match = /^(?:body )?((?:targets\.\w+\.\w+)|dueSoonMinutes): (.*)$/.exec(part);
    if (match) errors[match[1]!] ??= match[2]!;
  }
  return errors;
}

/** Admin settings → Service levels: per priority a first-response and a resolution target, and "due soon". */
export function SlaPolicyForm() {
  const { t } = useLingui();
  const query = useQuery(settingQuery<SlaPolicy>("sla-policies"));
  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading service levels`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed message={t`The service levels could not be loaded.`} onRetry={() => void query.refetch()} />
    );
  }
  return <SlaPolicyEditor key={query.data.updatedAt ?? "default"} policy={query.data.value} />;
}

function SlaPolicyEditor({ policy }: { policy: SlaPolicy }) {
  const { t, i18n } = useLingui();
  const id = useId();
  const save = useSaveSetting<SlaPolicy>("sla-policies");
  const [draft, setDraft] = useState(() => draftOf(policy));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const setTarget = (priority: Priority, kind: SlaTargetKind, part: "hours" | "minutes", value: string) =>
    setDraft((current) => ({
      ...current,
      targets: {
        ...current.targets,
        [priority]: {
          ...current.targets[priority],
          [kind]: { ...current.targets[priority][kind], [part]: value },
        },
      },
    }));

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = slaPolicySchema.safeParse(policyOf(draft));
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(
          parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]).reverse(),
        ),
      );
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
      toast.success(settingsSaved);
    } catch (error) {
      const fieldErrors = isApiError(error) ? fieldErrorsOf(error.message) : {};
      if (Object.keys(fieldErrors).length > 0) setErrors(fieldErrors);
      else setFormError(isApiError(error) ? error.message : t`The service levels could not be saved.`);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-6">
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Trans>Service levels</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <Trans>
            Targets count business hours of the business calendar from when a ticket is raised. Leave both
            boxes empty for no target. Changes apply to new tickets and to tickets whose priority changes.
          </Trans>
        </p>
      </div>
      {formError ? <Alert>{formError}</Alert> : null}
      {ticketPriorities
        .slice()
        .reverse()
        .map((priority) => (
          <fieldset key={priority} className="flex flex-col gap-3">
            <legend className="text-sm font-semibold text-slate-900">
              {i18n._(priorityLabels[priority])}
            </legend>
            <div className="grid gap-4 sm:grid-cols-2">
              {slaTargetKinds.map((kind) => {
                const key = errorKey(priority, kind);
                const base = `${id}-${priority}-${kind}`;
                const error = errors[key];
                const priorityName = i18n._(priorityLabels[priority]);
                return (
                  <div key={kind} className="flex flex-col gap-1.5">
                    <span className="text-sm font-medium text-slate-700" id={`${base}-label`}>
                      {i18n._(kindLabels[kind])}
                    </span>
                    <div className="grid grid-cols-[5rem_auto_5rem_auto] items-center gap-2 justify-start">
                      <Input
                        id={`${base}-hours`}
                        inputMode="numeric"
                        aria-label={
                          kind === "firstResponse"
                            ? t`${priorityName} first response hours`
                            : t`${priorityName} resolution hours`
                        }
                        value={draft.targets[priority][kind].hours}
                        onChange={(event) => setTarget(priority, kind, "hours", event.target.value)}
                        invalid={Boolean(error)}
                        aria-describedby={error ? `${base}-error` : undefined}
                      />
                      <span className="text-sm text-slate-500">
                        <Trans>h</Trans>
                      </span>
                      <Input
                        id={`${base}-minutes`}
                        inputMode="numeric"
                        aria-label={
                          kind === "firstResponse"
                            ? t`${priorityName} first response minutes`
                            : t`${priorityName} resolution minutes`
                        }
                        value={draft.targets[priority][kind].minutes}
                        onChange={(event) => setTarget(priority, kind, "minutes", event.target.value)}
                        invalid={Boolean(error)}
                        aria-describedby={error ? `${base}-error` : undefined}
                      />
                      <span className="text-sm text-slate-500">
                        <Trans>min</Trans>
                      </span>
                    </div>
                    {error ? (
                      <p id={`${base}-error`} className="text-sm text-red-600">
                        {error}
                      </p>
                    ) : null}
                  </div>
                );
              })}
            </div>
          </fieldset>
        ))}
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-due-soon`} className="text-sm font-medium text-slate-700">
          <Trans>Due soon window (minutes)</Trans>
        </label>
        <div className="w-28">
          <Input
            id={`${id}-due-soon`}
            inputMode="numeric"
            value={draft.dueSoonMinutes}
            onChange={(event) => setDraft((current) => ({ ...current, dueSoonMinutes: event.target.value }))}
            invalid={Boolean(errors.dueSoonMinutes)}
          />
        </div>
        {errors.dueSoonMinutes ? (
          <p id={`${id}-due-soon-error`} className="text-sm text-red-600">
            {errors.dueSoonMinutes}
          </p>
        ) : (
          <p className="text-xs text-slate-500">
            <Trans>Lists and dashboards flag targets due within this time.</Trans>
          </p>
        )}
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t`Saving…` : t`Save`}
        </Button>
      </div>
    </form>
  );
}
