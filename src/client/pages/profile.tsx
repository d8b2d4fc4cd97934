import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { LogOut } from "lucide-react";
import type { ReactNode } from "react";
import { LanguageChoice } from "#client/components/language-select.tsx";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { ApiTokensCard } from "#client/features/api-tokens/components/api-tokens-card.tsx";
import { ProfileName } from "#client/features/auth/components/profile-name.tsx";
import { useSignOutAndLeave } from "#client/features/auth/use-sign-out-and-leave.ts";
import { NotificationSettingsCard } from "#client/features/notifications/components/notification-settings-card.tsx";
import { SessionsCard } from "#client/features/sessions/components/sessions-card.tsx";
import { AwayToggle } from "#client/features/teams/components/away-toggle.tsx";
import { ThemeChoice } from "#client/features/theme/theme-choice.tsx";
import { TwoFactorCard } from "#client/features/two-factor/components/two-factor-card.tsx";
import { useActor } from "#client/lib/use-actor.ts";
import { can } from "#shared/permissions.ts";

const roleLabels = { user: msg`User`, technician: msg`Technician`, admin: msg`Admin` } as const;

/** /profile: who is signed in, the name they may change, the theme, Sign Out, notifications and API tokens. */
export default function ProfilePage() {
  const { t, i18n } = useLingui();
  const actor = useActor();
  const { signOutAndLeave, isPending: isSigningOut } = useSignOutAndLeave();
  if (!actor) return null;

  const initials = actor.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join("");

  return (
    <>
      <PageHeader title={t`My Profile`} />
      <Card className="max-w-2xl">
        <div className="flex items-center gap-4 border-b border-slate-100 p-6">
          <span
            aria-hidden="true"
            className="flex size-14 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-lg font-semibold text-indigo-700"
          >
            {initials || "?"}
          </span>
          <div className="min-w-0">
            <p className="break-words text-lg font-semibold text-slate-900">{actor.name}</p>
            <p className="break-all text-sm text-slate-500">{actor.email}</p>
          </div>
        </div>
        <dl className="divide-y divide-slate-100 px-6 text-sm">
          <ProfileRow label={t`Name`}>
            <ProfileName name={actor.name} />
          </ProfileRow>
          <ProfileRow label={t`Email`}>
            {actor.email}
            <span className="mt-0.5 block text-xs text-slate-500">
              <Trans>Your sign-in address; it cannot be changed here.</Trans>
            </span>
          </ProfileRow>
          <ProfileRow label={t`Role`}>
            {actor.role ? <Badge tone="indigo">{i18n._(roleLabels[actor.role])}</Badge> : t`Not chosen yet`}
          </ProfileRow>
          <ProfileRow label={t`Department`}>{actor.department}</ProfileRow>
          {can.markAway(actor) ? (
            <ProfileRow label={t`Availability`}>
              <AwayToggle awaySince={actor.awaySince} />
            </ProfileRow>
          ) : null}
          <ProfileRow label={t`Theme`}>
            <ThemeChoice theme={actor.theme} />
          </ProfileRow>
          <ProfileRow label={t`Language`}>
            <LanguageChoice locale={actor.locale} />
          </ProfileRow>
        </dl>
        <div className="flex justify-end border-t border-slate-100 p-6">
          <Button variant="secondary" onClick={signOutAndLeave} disabled={isSigningOut}>
            <LogOut aria-hidden="true" className="size-4" />
            <Trans>Sign Out</Trans>
          </Button>
        </div>
      </Card>
      <TwoFactorCard isEnabled={actor.twoFactorEnabled} />
      <SessionsCard />
      <NotificationSettingsCard userId={actor.id} role={actor.role} />
      <ApiTokensCard />
    </>
  );
}

function ProfileRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 items-baseline gap-4 py-4">
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="col-span-2 break-words text-slate-900">{children}</dd>
    </div>
  );
}
