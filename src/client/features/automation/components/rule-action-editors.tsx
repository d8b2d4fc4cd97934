import { Trans, useLingui } from "@lingui/react/macro";
import { type ComponentType, useId, useState } from "react";
import { Field, Textarea, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { none } from "#client/features/automation/rule-form-model.ts";
import { priorityLabel, type RuleChoices, statusLabel } from "#client/features/automation/rule-labels.ts";
import type { RuleActions } from "#shared/automation/rule-actions.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { ticketPriorities } from "#shared/tickets/ticket.schemas.ts";
import { changeableStatuses } from "#shared/tickets/ticket-status.ts";

/**
 * What every action's editor is given: the rule's actions as the server reads them, a way to change its
 * own part (a part set to undefined is left out), the names it may offer, and the errors by place
 * ("actions.teamId").
 */
export interface ActionEditorProps {
  actions: RuleActions;
  onChange: (patch: Partial<RuleActions>) => void;
  choices: RuleChoices;
  errors: Record<string, string>;
}

const leave = "";

/** A select whose "" leaves the ticket's value as it is. */
function ActionSelect({
  label,
  value,
  options,
  error,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  error?: string;
  onChange: (value: string) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  return (
    <Field label={label} htmlFor={id} error={error}>
      <Select
        id={id}
        invalid={error !== undefined}
        options={[{ value: leave, label: t`Leave as it is` }, ...options]}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** Status, priority, team and assignee, as a macro changes them (decision 075). */
function TicketFieldActions({ actions, onChange, choices, errors }: ActionEditorProps) {
  const { t } = useLingui();
  const nullable = (value: string | null | undefined) => (value === undefined ? leave : (value ?? none));
  const fromNullable = (value: string) => (value === leave ? undefined : value === none ? null : value);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ActionSelect
        label={t`Set status`}
        value={actions.status ?? leave}
        options={changeableStatuses.map((status) => ({ value: status, label: statusLabel(status) }))}
        error={errors["actions.status"]}
        onChange={(value) => onChange({ status: (value || undefined) as RuleActions["status"] })}
      />
      <ActionSelect
        label={t`Set priority`}
        value={actions.priority ?? leave}
        options={ticketPriorities.map((priority) => ({ value: priority, label: priorityLabel(priority) }))}
        error={errors["actions.priority"]}
        onChange={(value) => onChange({ priority: (value || undefined) as RuleActions["priority"] })}
      />
      <ActionSelect
        label={t`Move to team`}
        value={nullable(actions.teamId)}
        options={[
          { value: none, label: t`No team` },
          ...choices.teams.map((team) => ({ value: team.id, label: team.name })),
        ]}
        error={errors["actions.teamId"]}
        onChange={(value) => onChange({ teamId: fromNullable(value) })}
      />
      <ActionSelect
        label={t`Assign to`}
        value={nullable(actions.assigneeId)}
        options={[
          { value: none, label: t`Back to the queue (unassigned)` },
          ...choices.technicians.map((person) => ({ value: person.id, label: person.name })),
        ]}
        error={errors["actions.assigneeId"]}
        onChange={(value) => onChange({ assigneeId: fromNullable(value) })}
      />
    </div>
  );
}

const tagsOf = (text: string) => {
  const tags = text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
  return tags.length > 0 ? tags : undefined;
};

/** Tags to add and to remove, typed with commas between (kept as typed while the person types). */
function TagActions({ actions, onChange, errors }: ActionEditorProps) {
  const { t } = useLingui();
  const [added, setAdded] = useState(() => (actions.addTags ?? []).join(", "));
  const [removed, setRemoved] = useState(() => (actions.removeTags ?? []).join(", "));
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label={t`Add tags`}
        autoComplete="off"
        placeholder={t`vpn, remote`}
        value={added}
        error={errors["actions.addTags"]}
        onChange={(event) => {
          setAdded(event.target.value);
          onChange({ addTags: tagsOf(event.target.value) });
        }}
      />
      <TextField
        label={t`Remove tags`}
        autoComplete="off"
        value={removed}
        error={errors["actions.removeTags"]}
        onChange={(event) => {
          setRemoved(event.target.value);
          onChange({ removeTags: tagsOf(event.target.value) });
        }}
      />
      <p className="-mt-2 text-xs text-slate-500 sm:col-span-2">
        <Trans>Separate tags with commas.</Trans>
      </p>
    </div>
  );
}

/** An internal note the rule writes on the ticket (staff only see it). */
function NoteAction({ actions, onChange, errors }: ActionEditorProps) {
  const { t } = useLingui();
  const id = useId();
  return (
    <Field label={t`Internal note (optional)`} htmlFor={id} error={errors["actions.note"]}>
      <Textarea
        id={id}
        rows={3}
        className="min-h-20"
        maxLength={commentMaxLength}
        invalid={errors["actions.note"] !== undefined}
        value={actions.note ?? ""}
        onChange={(event) => onChange({ note: event.target.value === "" ? undefined : event.target.value })}
      />
    </Field>
  );
}

/** A shared canned response posted to the requester, its placeholders filled. */
function ReplyAction({ actions, onChange, choices, errors }: ActionEditorProps) {
  const { t } = useLingui();
  const id = useId();
  const error = errors["actions.replyCannedResponseId"];
  return (
    <Field label={t`Reply to the requester with`} htmlFor={id} error={error}>
      <Select
        id={id}
        invalid={error !== undefined}
        options={[
          { value: "", label: t`No reply` },
          ...choices.cannedResponses.map((response) => ({ value: response.id, label: response.title })),
        ]}
        value={actions.replyCannedResponseId ?? ""}
        onChange={(event) => onChange({ replyCannedResponseId: event.target.value || undefined })}
      />
      {choices.cannedResponses.length === 0 ? (
        <p className="text-xs text-slate-500">
          <Trans>A rule replies with a shared canned response; there are none yet.</Trans>
        </p>
      ) : null}
    </Field>
  );
}

/** A fieldset of checkboxes: the ids chosen among `options`. */
function ChoiceList({
  legend,
  options,
  chosen,
  onChange,
}: {
  legend: string;
  options: readonly { id: string; name: string }[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-1 flex max-h-40 flex-col gap-1 overflow-y-auto rounded-md border border-slate-200 p-2">
        {options.map((option) => (
          <label key={option.id} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={chosen.includes(option.id)}
              onChange={(event) =>
                onChange(
                  event.target.checked ? [...chosen, option.id] : chosen.filter((id) => id !== option.id),
                )
              }
            />
            {option.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Staff members and teams the rule tells (a notification, and e-mail if they chose it). */
function NotifyAction({ actions, onChange, choices, errors }: ActionEditorProps) {
  const { t } = useLingui();
  const notify = actions.notify ?? { userIds: [], teamIds: [] };
  const change = (next: { userIds: string[]; teamIds: string[] }) =>
    onChange({ notify: next.userIds.length + next.teamIds.length > 0 ? next : undefined });
  const error = Object.entries(errors).find(([place]) => place.startsWith("actions.notify"))?.[1];
  return (
    <div className="flex flex-col gap-2">
      <div className="grid gap-4 sm:grid-cols-2">
        {choices.teams.length > 0 ? (
          <ChoiceList
            legend={t`Notify teams`}
            options={choices.teams}
            chosen={notify.teamIds}
            onChange={(teamIds) => change({ ...notify, teamIds })}
          />
        ) : null}
        <ChoiceList
          legend={t`Notify people`}
          options={choices.staff}
          chosen={notify.userIds}
          onChange={(userIds) => change({ ...notify, userIds })}
        />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The actions section, editor by editor in the order the form shows them, each with the actions' fields it
 * edits (and shows the errors of). Another kind of action is one more editor in this list.
 */
export const ruleActionEditors: readonly {
  key: string;
  fields: readonly (keyof RuleActions)[];
  Editor: ComponentType<ActionEditorProps>;
}[] = [
  { key: "ticket", fields: ["status", "priority", "teamId", "assigneeId"], Editor: TicketFieldActions },
  { key: "tags", fields: ["addTags", "removeTags"], Editor: TagActions },
  { key: "note", fields: ["note"], Editor: NoteAction },
  { key: "reply", fields: ["replyCannedResponseId"], Editor: ReplyAction },
  { key: "notify", fields: ["notify"], Editor: NotifyAction },
];
