import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Textarea, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useSaveTeam, useSetTeamAssignment } from "#client/features/teams/teams.api.ts";
import { toast } from "#client/lib/toast.ts";
import { validationText } from "#client/lib/validation-text.ts";
import {
  type Team,
  teamDescriptionMaxLength,
  teamInputSchema,
  teamNameMaxLength,
} from "#shared/teams/team.schemas.ts";
import { type TeamAssignmentMode, teamAssignmentModes } from "#shared/teams/team-assignment.ts";

/** How the team gives out its new tickets (decision 073). */
export const assignmentLabels: Record<TeamAssignmentMode, MessageDescriptor> = {
  off: msg`Off`,
  round_robin: msg`Round robin`,
  least_open: msg`Fewest open tickets`,
};

/** Someone who may be chosen as a member: the active technicians (the page reads them). */
export interface TechnicianChoice {
  id: string;
  name: string;
}

interface TeamDialogProps {
  /** null: a new team. */
  team: Team | null;
  technicians: readonly TechnicianChoice[];
  onClose: () => void;
}

type Errors = { name?: string; description?: string; leadId?: string };

/**
 * Adding or changing a team: its name, description, members (active technicians; one no longer active
 * stays listed, marked, until taken out) and, among the members, its lead.
 */
export function TeamDialog({ team, technicians, onClose }: TeamDialogProps) {
  const { t, i18n } = useLingui();
  const id = useId();
  const save = useSaveTeam();
  const setAssignment = useSetTeamAssignment();
  const [assignment, setAssignmentMode] = useState<TeamAssignmentMode>(team?.assignment ?? "off");
  const [name, setName] = useState(team?.name ?? "");
  const [description, setDescription] = useState(team?.description ?? "");
  const [memberIds, setMemberIds] = useState<string[]>(team?.members.map((member) => member.id) ?? []);
  const [leadId, setLeadId] = useState(team?.leadId ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);

  // The active technicians, and the members who are not (any more): they stay until unticked.
  const inactive = (team?.members ?? [])
    .filter((member) => !member.isActiveTechnician || !technicians.some((tech) => tech.id === member.id))
    .map((member) => ({ id: member.id, name: member.name, isInactive: true }));
  const people = [...technicians.map((tech) => ({ ...tech, isInactive: false })), ...inactive];
  const nameOf = (personId: string) => people.find((person) => person.id === personId)?.name ?? personId;
  const lead = memberIds.includes(leadId) ? leadId : "";

  const toggle = (personId: string, isOn: boolean) =>
    setMemberIds((current) => (isOn ? [...current, personId] : current.filter((m) => m !== personId)));

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const input = { name, description, memberIds, leadId: lead || null };
    const parsed = teamInputSchema.safeParse(input);
    if (!parsed.success) {
      const about = (field: string) =>
        validationText(parsed.error.issues.find((issue) => issue.path[0] === field)?.message);
      setErrors({ name: about("name"), description: about("description") });
      return;
    }
    setErrors({});
    setServerError(null);
    try {
      const saved = await save.mutateAsync({ id: team?.id ?? null, input });
      // Its own route (administrators, decision 073): sent only when it changed, after the team exists.
      if (assignment !== (team?.assignment ?? "off")) {
        await setAssignment.mutateAsync({ teamId: saved.id, assignment });
      }
      toast.success(team ? t`Team saved` : t`Team added`);
      onClose();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The team could not be saved.`);
    }
  }

  return (
    <Dialog
      title={team ? t`Edit team` : t`New team`}
      description={t`Technicians share a team's tickets: new ones routed to it alert its members only.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={(event) => void handleSubmit(event)} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`Name`}
          error={errors.name}
          autoComplete="off"
          maxLength={teamNameMaxLength}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <Field label={t`Description`} htmlFor={`${id}-description`} error={errors.description}>
          <Textarea
            id={`${id}-description`}
            className="min-h-16"
            maxLength={teamDescriptionMaxLength}
            invalid={errors.description !== undefined}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </Field>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">
            <Trans>Members</Trans>
          </legend>
          {people.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">
              <Trans>There are no active technicians yet.</Trans>
            </p>
          ) : (
            <div className="mt-2 grid max-h-56 gap-2 overflow-y-auto sm:grid-cols-2">
              {people.map((person) => (
                <label key={person.id} className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300 accent-indigo-600"
                    checked={memberIds.includes(person.id)}
                    onChange={(change) => toggle(person.id, change.target.checked)}
                  />
                  <span className="min-w-0 break-words">{person.name}</span>
                  {person.isInactive ? (
                    <Badge tone="amber">
                      <Trans>inactive</Trans>
                    </Badge>
                  ) : null}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <Field label={t`Lead`} htmlFor={`${id}-lead`} error={errors.leadId}>
          <Select
            id={`${id}-lead`}
            options={[
              { value: "", label: t`No lead` },
              ...memberIds.map((memberId) => ({ value: memberId, label: nameOf(memberId) })),
            ]}
            value={lead}
            onChange={(event) => setLeadId(event.target.value)}
          />
        </Field>
        <Field label={t`Automatic assignment`} htmlFor={`${id}-assignment`}>
          <Select
            id={`${id}-assignment`}
            aria-describedby={`${id}-assignment-hint`}
            options={teamAssignmentModes.map((mode) => ({
              value: mode,
              label: i18n._(assignmentLabels[mode]),
            }))}
            value={assignment}
            onChange={(event) =>
              setAssignmentMode(teamAssignmentModes.find((mode) => mode === event.target.value) ?? "off")
            }
          />
          <p id={`${id}-assignment-hint`} className="text-xs text-slate-500">
            <Trans>
              New tickets of the team go to its active members who are not away: in turn (round robin), or to
              whoever has the fewest open tickets.
            </Trans>
          </p>
        </Field>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={save.isPending || setAssignment.isPending}>
            {team ? t`Save team` : t`Add team`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
