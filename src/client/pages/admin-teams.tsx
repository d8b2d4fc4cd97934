import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { useDepartmentNames } from "#client/features/settings/settings.api.ts";
import { RoutingRules } from "#client/features/teams/components/routing-rules.tsx";
import { TeamList } from "#client/features/teams/components/team-list.tsx";
import { activeCustomFieldsQuery } from "#client/features/tickets/custom-fields.api.ts";
import { technicianListQuery } from "#client/features/tickets/ticket.api.ts";

const noFields: never[] = [];

/**
 * /admin/teams (administrators only; the server refuses everyone else): the teams of technicians and the
 * routing rules that put new tickets in them (decision 069). The page hands the teams feature what other
 * features hold: the active technicians, the departments and the custom fields.
 */
export default function AdminTeamsPage() {
  const { t } = useLingui();
  const technicians = useQuery(technicianListQuery());
  const departments = useDepartmentNames();
  const customFields = useQuery(activeCustomFieldsQuery());

  return (
    <>
      <PageHeader
        title={t`Teams`}
        description={t`Group technicians into teams and route new tickets to them.`}
      />
      <div className="flex flex-col gap-6">
        <Card className="p-5">
          <TeamList technicians={technicians.data} />
        </Card>
        <Card className="p-5">
          <RoutingRules departments={departments} customFields={customFields.data?.items ?? noFields} />
        </Card>
      </div>
    </>
  );
}
