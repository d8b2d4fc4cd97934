import { LogOut } from "lucide-react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { Badge } from "../components/ui/badge.tsx";
import { Button } from "../components/ui/button.tsx";
import { Card } from "../components/ui/card.tsx";
import { PageHeader } from "../components/ui/page-header.tsx";
import { ApiTokensCard } from "../features/api-tokens/components/api-tokens-card.tsx";
import { useSignOut } from "../features/auth/auth.api.ts";
import { ProfileName } from "../features/auth/components/profile-name.tsx";
import { NotificationSettingsCard } from "../features/notifications/components/notification-settings-card.tsx";
import { ThemeChoice } from "../features/theme/theme-choice.tsx";
import { toast } from "../lib/toast.ts";
import { useActor } from "../lib/use-actor.ts";

const roleLabels = { user: "User", technician: "Technician", admin: "Admin" } as const;

/** /profile: who is signed in, the name they may change, the theme, Sign Out, notifications and API tokens. */
export default function ProfilePage() {
  const actor = useActor();
  const navigate = useNavigate();
  const signOut = useSignOut();
  if (!actor) return null;

  function handleSignOut() {
    signOut.mutate(undefined, {
      onSuccess: () => navigate("/", { replace: true }),
      onError: (error) => toast.error(error.message),
    });
  }

  const initials = actor.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join("");

  return (
    <>
      <PageHeader title="My Profile" />
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
          <ProfileRow label="Name">
            <ProfileName name={actor.name} />
          </ProfileRow>
          <ProfileRow label="Email">
            {actor.email}
            <span className="mt-0.5 block text-xs text-slate-500">
              Your sign-in address; it cannot be changed here.
            </span>
          </ProfileRow>
          <ProfileRow label="Role">
            {actor.role ? <Badge tone="indigo">{roleLabels[actor.role]}</Badge> : "Not chosen yet"}
          </ProfileRow>
          <ProfileRow label="Department">{actor.department}</ProfileRow>
          <ProfileRow label="Theme">
            <ThemeChoice theme={actor.theme} />
          </ProfileRow>
        </dl>
        <div className="flex justify-end border-t border-slate-100 p-6">
          <Button variant="secondary" onClick={handleSignOut} disabled={signOut.isPending}>
            <LogOut aria-hidden="true" className="size-4" />
            Sign Out
          </Button>
        </div>
      </Card>
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
