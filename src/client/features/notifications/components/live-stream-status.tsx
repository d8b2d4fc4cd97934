import { Badge, type BadgeTone } from "../../../components/ui/badge.tsx";
import { type LiveStreamState, useLiveStream } from "../../../lib/live-stream-store.ts";

const states: Record<LiveStreamState, { label: string; tone: BadgeTone }> = {
  idle: { label: "Not connected", tone: "slate" },
  connecting: { label: "Connecting", tone: "amber" },
  open: { label: "Open", tone: "green" },
  polling: { label: "Polling every 2 s", tone: "red" },
};

/** What the app shell's live stream is doing right now. */
export function LiveStreamStatus() {
  const { state, lastEventId, reconnects } = useLiveStream();
  return (
    <dl aria-label="Live stream" className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3 text-sm">
      <dt className="font-medium text-slate-500">State</dt>
      <dd>
        <Badge tone={states[state].tone}>{states[state].label}</Badge>
      </dd>
      <dt className="font-medium text-slate-500">Last event id</dt>
      <dd className="font-mono text-slate-900">{lastEventId ?? "none yet"}</dd>
      <dt className="font-medium text-slate-500">Reconnects</dt>
      <dd className="text-slate-900">{reconnects}</dd>
    </dl>
  );
}
