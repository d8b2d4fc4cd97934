import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Search } from "lucide-react";
import { useId, useState } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { Field, Input } from "#client/components/ui/field.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import { CannedResponseList } from "#client/features/canned-responses/components/canned-response-list.tsx";
import { pickerShortcut } from "#client/features/canned-responses/components/canned-response-picker.tsx";
import { PlaceholderHelp } from "#client/features/canned-responses/components/placeholder-help.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import type { CannedResponseScope } from "#shared/canned-responses/canned-response.schemas.ts";

const tabs = [
  { value: "personal", label: msg`My responses` },
  { value: "shared", label: msg`Shared` },
] as const satisfies readonly { value: CannedResponseScope; label: MessageDescriptor }[];

/** /canned-responses (staff only): the reply templates a technician or admin inserts into comments. */
export default function CannedResponsesPage() {
  const { t, i18n } = useLingui();
  const id = useId();
  const actor = useActor();
  const [params, setParams] = useSearchParams();
  const scope: CannedResponseScope = params.get("tab") === "shared" ? "shared" : "personal";
  const [search, setSearch] = useState("");

  return (
    <>
      <PageHeader
        title={t`Canned Responses`}
        description={t`Reply templates you insert from a ticket's comment box with Insert response (${pickerShortcut.label} while typing).`}
      />
      <Card>
        <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <Tabs
              label={t`Which responses`}
              idPrefix="canned"
              tabs={tabs.map((tab) => ({ value: tab.value, label: i18n._(tab.label) }))}
              value={scope}
              onChange={(value) => setParams(value === "shared" ? { tab: "shared" } : {}, { replace: true })}
            />
          </div>
          <Field label={t`Search responses`} htmlFor={`${id}-search`} className="sm:w-72">
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
              />
              <Input
                id={`${id}-search`}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder={t`Title or text`}
                className="pl-9"
              />
            </div>
          </Field>
        </div>
        <div role="tabpanel" id={tabPanelIdFor("canned")} aria-labelledby={tabIdFor("canned", scope)}>
          {actor ? <CannedResponseList actor={actor} scope={scope} search={search} /> : null}
        </div>
      </Card>
      <Card className="mt-6 p-3">
        <PlaceholderHelp id={`${id}-placeholders`} />
      </Card>
    </>
  );
}
