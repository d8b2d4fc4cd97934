import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import { InboundMailLog } from "#client/features/inbound-mail/components/inbound-mail-log.tsx";
import { ScimSettings } from "#client/features/scim/components/scim-settings.tsx";
import { AdminChangeHistory } from "#client/features/settings/components/admin-change-history.tsx";
import { AutoCloseSettingsPanel } from "#client/features/settings/components/auto-close-settings.tsx";
import { BusinessHoursSettings } from "#client/features/settings/components/business-hours-settings.tsx";
import { CustomFieldSettings } from "#client/features/settings/components/custom-field-settings.tsx";
import { DepartmentsSettings } from "#client/features/settings/components/departments-settings.tsx";
import { OnHoldSettingsPanel } from "#client/features/settings/components/on-hold-settings.tsx";
import { SlaPolicyForm } from "#client/features/settings/components/sla-policy-form.tsx";
import { SsoRoleSettingsPanel } from "#client/features/settings/components/sso-role-settings.tsx";
import { TagSettingsPanel } from "#client/features/settings/components/tag-settings.tsx";
import { TicketIntakeSettingsPanel } from "#client/features/settings/components/ticket-intake-settings.tsx";
import { TwoFactorSettingsPanel } from "#client/features/settings/components/two-factor-settings.tsx";
import { WebhookSettings } from "#client/features/webhooks/components/webhook-settings.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";

/**
 * The sections of Admin settings, in the order they are shown. Each is one tab (kept in ?tab= so a link
 * or a reload lands on it) whose panel is a component of its own feature.
 */
const sections = [
  { value: "service-levels", label: msg`Service levels`, panel: SlaPolicyForm },
  { value: "business-hours", label: msg`Business hours`, panel: BusinessHoursSettings },
  { value: "departments", label: msg`Departments`, panel: DepartmentsSettings },
  { value: "custom-fields", label: msg`Custom fields`, panel: CustomFieldSettings },
  { value: "auto-close", label: msg`Auto-close`, panel: AutoCloseSettingsPanel },
  { value: "on-hold", label: msg`On hold`, panel: OnHoldSettingsPanel },
  { value: "tags", label: msg`Tags`, panel: TagSettingsPanel },
  { value: "webhooks", label: msg`Webhooks`, panel: WebhookSettings },
  { value: "ticket-intake", label: msg`Ticket intake`, panel: TicketIntakeSettingsPanel },
  { value: "inbound-mail", label: msg`Received e-mail`, panel: InboundMailLog },
  { value: "sign-in", label: msg`Sign-in security`, panel: TwoFactorSettingsPanel },
  { value: "single-sign-on", label: msg`Single sign-on`, panel: SsoRoleSettingsPanel },
  { value: "provisioning", label: msg`Provisioning (SCIM)`, panel: ScimSettings },
  { value: "history", label: msg`Change history`, panel: AdminChangeHistory },
] as const;
type SectionName = (typeof sections)[number]["value"];

const isSection = (value: string | null): value is SectionName =>
  sections.some((section) => section.value === value);

/** /admin/settings (administrators only; the server refuses everyone else): how the help desk works. */
export default function AdminSettingsPage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const current =
    sections.find((section) => section.value === (isSection(requested) ? requested : null)) ?? sections[0];
  const Panel = current.panel;

  return (
    <>
      <PageHeader
        title={t`Admin Settings`}
        description={t`How the help desk works: service levels, ticket fields, e-mail, sign-in and integrations, and who changed them.`}
      />
      <div className="mb-4 overflow-x-auto">
        <Tabs
          label={t`Settings sections`}
          idPrefix="settings"
          tabs={sections.map((section) => ({ value: section.value, label: i18n._(section.label) }))}
          value={current.value}
          onChange={(value) => setParams({ tab: value }, { replace: true })}
        />
      </div>
      <Card
        id={tabPanelIdFor("settings")}
        role="tabpanel"
        aria-labelledby={tabIdFor("settings", current.value)}
        className="p-5"
      >
        <Panel />
      </Card>
    </>
  );
}
