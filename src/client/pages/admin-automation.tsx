import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { AutomationRules } from "#client/features/automation/components/automation-rules.tsx";
import type { RuleChoices } from "#client/features/automation/rule-labels.ts";
import { cannedResponseListQuery } from "#client/features/canned-responses/canned-responses.api.ts";
import { staffDirectoryQuery } from "#client/features/mentions/mention.api.ts";
import { useDepartmentNames } from "#client/features/settings/settings.api.ts";
import { teamListQuery } from "#client/features/teams/teams.api.ts";
import { activeCustomFieldsQuery } from "#client/features/tickets/custom-fields.api.ts";
import { technicianListQuery } from "#client/features/tickets/ticket.api.ts";

const nothing: never[] = [];

/**
 * /admin/automation (administrators only; the server refuses everyone else): the automation rules
 * (decision 076). The page hands the automation feature what other features hold: the teams, the active
 * technicians and staff, the active custom fields, the shared canned responses and the departments.
 */
export default function AdminAutomationPage() {
  const { t } = useLingui();
  const teams = useQuery(teamListQuery());
  const technicians = useQuery(technicianListQuery());
  const staff = useQuery(staffDirectoryQuery());
  const customFields = useQuery(activeCustomFieldsQuery());
  const cannedResponses = useQuery(cannedResponseListQuery());
  const departments = useDepartmentNames();
  const choices: RuleChoices = {
    teams: teams.data ?? nothing,
    technicians: technicians.data ?? nothing,
    staff: staff.data ?? nothing,
    customFields: customFields.data?.items ?? nothing,
    // A rule speaks for the whole desk: it replies only with a shared response.
    cannedResponses: (cannedResponses.data ?? nothing).filter((response) => response.scope === "shared"),
    departments,
  };

  return (
    <>
      <PageHeader
        title={t`Automation rules`}
        description={t`Rules that change tickets by themselves when a ticket is created or changes: set its team, priority or tags, write a note, reply, tell people.`}
      />
      <AutomationRules choices={choices} />
    </>
  );
}
