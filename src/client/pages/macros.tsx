import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import { MacroList } from "#client/features/macros/components/macro-list.tsx";
import { teamListQuery } from "#client/features/teams/teams.api.ts";
import { technicianListQuery } from "#client/features/tickets/ticket.api.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import type { MacroScope } from "#shared/macros/macro.schemas.ts";

const tabs = [
  { value: "personal", label: msg`My macros` },
  { value: "shared", label: msg`Shared` },
] as const satisfies readonly { value: MacroScope; label: MessageDescriptor }[];

/** /macros (staff only, decision 075): replies with the changes that go with them, applied from a ticket. */
export default function MacrosPage() {
  const { t, i18n } = useLingui();
  const actor = useActor();
  const [params, setParams] = useSearchParams();
  const scope: MacroScope = params.get("tab") === "shared" ? "shared" : "personal";
  // The form's choices: the teams and the technicians a macro may name.
  const teams = useQuery(teamListQuery());
  const technicians = useQuery(technicianListQuery());
  const choices = { teams: teams.data ?? [], technicians: technicians.data ?? [] };

  return (
    <>
      <PageHeader
        title={t`Macros`}
        description={t`A reply and the changes that go with it (status, priority, team, assignee, tags, hold), applied to a ticket or to many in one step with Apply macro.`}
      />
      <Card>
        <div className="border-b border-slate-100 px-5 py-4">
          <Tabs
            label={t`Which macros`}
            idPrefix="macros"
            tabs={tabs.map((tab) => ({ value: tab.value, label: i18n._(tab.label) }))}
            value={scope}
            onChange={(value) => setParams(value === "shared" ? { tab: "shared" } : {}, { replace: true })}
          />
        </div>
        <div role="tabpanel" id={tabPanelIdFor("macros")} aria-labelledby={tabIdFor("macros", scope)}>
          {actor ? <MacroList actor={actor} scope={scope} choices={choices} /> : null}
        </div>
      </Card>
    </>
  );
}
