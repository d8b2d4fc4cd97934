import type { MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Bell, BellRing, LoaderCircle } from "lucide-react";
import { useId } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { followStateQuery, useSetFollowing } from "#client/features/followers/follower.api.ts";
import { toast } from "#client/lib/toast.ts";

const implicitText: Record<"creator" | "assignee", MessageDescriptor> = {
  creator: msg`You are notified of every update as the person who raised this ticket.`,
  assignee: msg`You are notified of every update as this ticket's assignee.`,
};

/**
 * Follow / Following. The creator and assignee hear about the ticket anyway, so they see
 * why instead of a toggle (decision 014). Staff see who follows; a requester sees only how many.
 */
export function FollowPanel({ ticketId }: { ticketId: string }) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const state = useQuery(followStateQuery(ticketId));
  const setFollowing = useSetFollowing(ticketId);
  if (!state.data) return null;
  const { following, implicit, followerCount, followers } = state.data;

  const handleToggle = () =>
    setFollowing.mutate(!following, {
      onSuccess: (next) =>
        toast.success(
          next.following ? t`You are following this ticket` : t`You no longer follow this ticket`,
        ),
      onError: (error) => toast.error(error.message || t`Could not change following`),
    });

  const count = plural(followerCount, { one: "# follower", other: "# followers" });
  return (
    <Card role="region" aria-labelledby={headingId} className="flex flex-col gap-3 px-6 py-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          <Trans>Followers</Trans>
        </h2>
        <span className="text-sm text-slate-500">{count}</span>
      </div>
      {implicit && !following ? (
        <p className="flex items-start gap-2 text-sm text-slate-600">
          <BellRing aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-indigo-600" />
          {i18n._(implicitText[implicit])}
        </p>
      ) : (
        <Button
          variant={following ? "secondary" : "primary"}
          size="sm"
          aria-pressed={following}
          disabled={setFollowing.isPending}
          onClick={handleToggle}
          className="self-start"
        >
          {setFollowing.isPending ? (
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          ) : following ? (
            <BellRing aria-hidden="true" className="size-4" />
          ) : (
            <Bell aria-hidden="true" className="size-4" />
          )}
          {following ? t`Following` : t`Follow`}
        </Button>
      )}
      {followers && followers.length > 0 ? (
        <p className="text-sm break-words text-slate-600">
          <span className="sr-only">{t`Followed by`} </span>
          {followers.map((person) => person.name).join(", ")}
        </p>
      ) : null}
    </Card>
  );
}
