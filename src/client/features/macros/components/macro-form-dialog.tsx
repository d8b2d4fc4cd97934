import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Textarea, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { priorityLabel, statusLabel } from "#client/features/macros/macro-labels.ts";
import { useCreateMacro, useUpdateMacro } from "#client/features/macros/macros.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  createMacroInputSchema,
  type Macro,
  type MacroActions,
  type MacroScope,
  macroBodyMaxLength,
  macroTitleMaxLength,
} from "#shared/macros/macro.schemas.ts";
import { ticketPriorities } from "#shared/tickets/ticket-priority.ts";
import { changeableStatuses } from "#shared/tickets/ticket-status.ts";

/** The teams and technicians a macro may name, which the page reads (features do not read each other). */
export interface MacroChoices {
  teams: readonly { id: string; name: string }[];
  technicians: readonly { id: string; name: string }[];
}

/** The form's fields, all text: "" leaves the ticket's value as it is. */
interface Values {
  title: string;
  body: string;
  replyVisibility: "public" | "internal";
  status: string;
  priority: string;
  team: string;
  assignee: string;
  addTags: string;
  removeTags: string;
  hold: string;
}

const noTeam = "none";
const queue = "queue";
const splitTags = (text: string) =>
  text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);

function valuesOf(macro: Macro | undefined): Values {
  const actions = macro?.actions ?? {};
  return {
    title: macro?.title ?? "",
    body: macro?.body ?? "",
    replyVisibility: macro?.replyVisibility ?? "public",
    status: actions.status ?? "",
    priority: actions.priority ?? "",
    team: actions.teamId === undefined ? "" : (actions.teamId ?? noTeam),
    assignee: actions.assigneeId === undefined ? "" : (actions.assigneeId ?? queue),
    addTags: (actions.addTags ?? []).join(", "),
    removeTags: (actions.removeTags ?? []).join(", "),
    hold: actions.hold ?? "",
  };
}

function actionsOf(values: Values): MacroActions {
  const actions: Record<string, unknown> = {};
  if (values.status) actions.status = values.status;
  if (values.priority) actions.priority = values.priority;
  if (values.team) actions.teamId = values.team === noTeam ? null : values.team;
  if (values.assignee) actions.assigneeId = values.assignee === queue ? null : values.assignee;
  if (splitTags(values.addTags).length) actions.addTags = splitTags(values.addTags);
  if (splitTags(values.removeTags).length) actions.removeTags = splitTags(values.removeTags);
  if (values.hold) actions.hold = values.hold;
  return actions as MacroActions;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

/**
 * Create (`macro` absent, in `scope`) or edit a macro: its reply and what it changes. The shared schema
 * checks the fields before they are sent; the server has the last word (the team, the assignee, who may).
 */
export function MacroFormDialog({
  macro,
  scope,
  choices,
  onClose,
}: {
  macro?: Macro;
  scope: MacroScope;
  choices: MacroChoices;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const create = useCreateMacro();
  const update = useUpdateMacro(macro?.id ?? "");
  const [values, setValues] = useState<Values>(() => valuesOf(macro));
  const [error, setError] = useState<string | null>(null);
  const isShared = (macro?.scope ?? scope) === "shared";
  const set = (field: keyof Values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  const leave = { value: "", label: t`Leave as it is` };

  const handleSave = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const payload = {
      title: values.title,
      body: values.body,
      replyVisibility: values.replyVisibility,
      actions: actionsOf(values),
    };
    const checked = createMacroInputSchema.safeParse({ ...payload, scope });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? tc`Something went wrong.`);
      return;
    }
    try {
      if (macro) {
        await update.mutateAsync(payload);
        toast.success(t`Macro saved`);
      } else {
        await create.mutateAsync({ ...payload, scope });
        toast.success(t`Macro created`);
      }
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const title = macro
    ? isShared
      ? t`Edit shared macro`
      : t`Edit personal macro`
    : isShared
      ? t`New shared macro`
      : t`New personal macro`;
  const field = (name: keyof Values, label: string, options: { value: string; label: string }[]) => (
    <Field label={label} htmlFor={`${id}-${name}`}>
      <Select id={`${id}-${name}`} value={values[name]} onChange={set(name)} options={options} />
    </Field>
  );
  return (
    <Dialog
      title={title}
      description={
        isShared ? t`Every technician and administrator can apply it.` : t`Only you can see and apply it.`
      }
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => void handleSave(event)} className="flex flex-col gap-4">
        {error ? <Alert>{error}</Alert> : null}
        <TextField
          label={t`Title`}
          autoComplete="off"
          maxLength={macroTitleMaxLength}
          value={values.title}
          onChange={set("title")}
        />
        <Field label={t`Reply (optional)`} htmlFor={`${id}-body`}>
          <Textarea
            id={`${id}-body`}
            rows={5}
            maxLength={macroBodyMaxLength}
            value={values.body}
            onChange={set("body")}
          />
        </Field>
        {field("replyVisibility", t`The reply is`, [
          { value: "public", label: t`A public reply` },
          { value: "internal", label: t`An internal note` },
        ])}
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold text-slate-900">
            <Trans>What it changes</Trans>
          </legend>
          {field("status", t`Status`, [
            leave,
            ...changeableStatuses.map((status) => ({ value: status, label: statusLabel(status) })),
          ])}
          {field("priority", t`Priority`, [
            leave,
            ...ticketPriorities.map((priority) => ({ value: priority, label: priorityLabel(priority) })),
          ])}
          {field("team", t`Team`, [
            leave,
            { value: noTeam, label: t`No team` },
            ...choices.teams.map((team) => ({ value: team.id, label: team.name })),
          ])}
          {field("assignee", t`Assignee`, [
            leave,
            { value: "me", label: t`Me (whoever applies it)` },
            { value: queue, label: t`The queue (unassigned)` },
            ...choices.technicians.map((person) => ({ value: person.id, label: person.name })),
          ])}
          <TextField
            label={t`Add tags`}
            autoComplete="off"
            value={values.addTags}
            onChange={set("addTags")}
          />
          <TextField
            label={t`Remove tags`}
            autoComplete="off"
            value={values.removeTags}
            onChange={set("removeTags")}
          />
          {field("hold", t`On hold`, [
            leave,
            { value: "on", label: t`Put on hold (needs a public reply)` },
            { value: "off", label: t`Take off hold` },
          ])}
        </fieldset>
        <p className="text-xs text-slate-500">
          <Trans>Separate tags with commas.</Trans>
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {macro ? t`Save` : t`Create macro`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
