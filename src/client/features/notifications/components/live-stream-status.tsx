import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { type LiveStreamState, useLiveStream } from "#client/lib/live-stream-store.ts";

const states: Record<LiveStreamState, { label: MessageDescriptor; tone: BadgeTone }> = {
  idle: { label: msg`Not connected`, tone: "slate" },
  connecting: { label: msg`Connecting`, tone: "amber" },
  // The connection is open, not a ticket: its own entry in the catalogue.
  open: { label: msg({ message: "Open", context: "live stream connection" }), tone: "green" },
  polling: { label: msg`Polling every 2 s`, tone: "red" },
};

/** What the app shell's live stream is doing right now. */
export function LiveStreamStatus() {
  const { t, i18n } = useLingui();
  const { state, lastEventId, reconnects } = useLiveStream();
  return (
    <dl aria-label={t`Live stream`} className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
      <dt className="font-medium text-slate-500">
        <Trans>State</Trans>
      </dt>
      <dd>
        <Badge tone={states[state].tone}>{i18n._(states[state].label)}</Badge>
      </dd>
      <dt className="font-medium text-slate-500">
        <Trans>Last event id</Trans>
      </dt>
      <dd className="font-mono text-slate-900">{lastEventId ?? t`none yet`}</dd>
      <dt className="font-medium text-slate-500">
        <Trans>Reconnects</Trans>
      </dt>
      <dd className="text-slate-900">{reconnects}</dd>
    </dl>
  );
}
