import { t } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { spanText } from "#client/features/tickets/service-level-texts.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type { SlaState, SlaTargetView, TicketSla } from "#shared/service-levels/ticket-sla.ts";

/** How often the countdown is redrawn: minutes are what it shows. */
export const slaTickMs = 30_000;

/**
 * The server's now, moved on by the time that passed in this browser since the ticket was fetched: the
 * browser's own clock may be off (or the server's test clock may stand elsewhere), elapsed time is not.
 */
export function useServerNow(serverNow: string): number {
  const [base, setBase] = useState(() => ({ at: performance.now(), serverNow }));
  // A refetched ticket brings a new server time: count from it.
  if (base.serverNow !== serverNow) setBase({ at: performance.now(), serverNow });
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((tick) => tick + 1), slaTickMs);
    return () => clearInterval(timer);
  }, []);
  return new Date(serverNow).getTime() + (performance.now() - base.at);
}

const tones: Record<SlaState, BadgeTone> = {
  none: "slate",
  running: "blue",
  due_soon: "amber",
  overdue: "red",
  met: "green",
  met_late: "amber",
  paused: "indigo",
};

/** "2h 14m left", "Overdue by 35m", "Met", "Met late", "No target" at `now` (wall-clock time). */
export function slaTargetText(target: SlaTargetView, now: number): { text: string; state: SlaState } {
  if (target.state === "none" || !target.dueAt) return { text: t`No target`, state: "none" };
  if (target.state === "met") return { text: t`Met`, state: "met" };
  if (target.state === "met_late") return { text: t`Met late`, state: "met_late" };
  // On hold (decision 070): the clock stands still; the due time moves on when the hold ends.
  if (target.state === "paused") return { text: t`Paused while on hold`, state: "paused" };
  const left = new Date(target.dueAt).getTime() - now;
  if (left <= 0) {
    const span = spanText(-left);
    return { text: t`Overdue by ${span}`, state: "overdue" };
  }
  const span = spanText(left);
  return { text: t`${span} left`, state: target.state };
}

function SlaTarget({ label, target, now }: { label: string; target: SlaTargetView; now: number }) {
  const { text, state } = slaTargetText(target, now);
  return (
    <div className="flex items-start justify-between gap-3 py-2.5">
      <dt className="text-slate-500">{label}</dt>
      <dd className="flex flex-col items-end gap-1 text-right">
        <Badge tone={tones[state]}>{text}</Badge>
        {target.dueAt ? (
          <span className="text-xs text-slate-500">
            <Trans>
              Due <time dateTime={target.dueAt}>{formatDateTime(target.dueAt)}</time>
            </Trans>
          </span>
        ) : null}
      </dd>
    </div>
  );
}

/**
 * The ticket's two targets for staff: time left until each due time (wall-clock time; the targets
 * themselves were counted in business hours when the due times were set), or how long overdue.
 */
export function TicketSlaPanel({ sla }: { sla: TicketSla }) {
  const { t } = useLingui();
  const now = useServerNow(sla.serverNow);
  return (
    <Card className="p-5">
      <h2 className="text-sm font-semibold text-slate-900">
        <Trans>Service level</Trans>
      </h2>
      <dl className="mt-2 divide-y divide-slate-100 text-sm">
        <SlaTarget label={t`First response`} target={sla.firstResponse} now={now} />
        <SlaTarget label={t`Resolution`} target={sla.resolution} now={now} />
      </dl>
      <p className="mt-2 text-xs text-slate-500">
        <Trans>Time left is clock time until the due time.</Trans>
      </p>
    </Card>
  );
}

/** A list row's mark for staff: the more urgent of the running targets, when overdue or due soon. */
export function TicketDueBadge({ sla }: { sla: TicketSla | null }) {
  if (!sla) return null;
  const states = [sla.firstResponse.state, sla.resolution.state];
  if (states.includes("overdue"))
    return (
      <Badge tone="red">
        <Trans>Overdue</Trans>
      </Badge>
    );
  if (states.includes("due_soon"))
    return (
      <Badge tone="amber">
        <Trans>Due soon</Trans>
      </Badge>
    );
  return null;
}
