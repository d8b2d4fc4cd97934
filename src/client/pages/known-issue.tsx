import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Siren } from "lucide-react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  knownIssueQuery,
  knownIssueStatusNames,
  useFollowKnownIssue,
} from "#client/features/known-issues/known-issues.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { i18n } from "#client/lib/i18n.ts";
import { useParams } from "#client/lib/router/route-matching.tsx";
import { toast } from "#client/lib/toast.ts";
import type { KnownIssue } from "#shared/major-incidents/major-incident.schemas.ts";

const tones = { Open: "blue", "In Progress": "amber", Resolved: "green", Closed: "slate" } as const;

/**
 * /known-issues/:ticketId (decision 077): a major incident's public face (headline, status, declared time
 * and its updates, newest first), with Follow / Stop following. Never the ticket behind it.
 */
export default function KnownIssuePage() {
  const { t } = useLingui();
  const { ticketId = "" } = useParams();
  const issue = useQuery(knownIssueQuery(ticketId));

  if (issue.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label={t`Loading the known issue`} />
      </div>
    );
  }
  if (issue.isError) {
    return (
      <>
        <PageHeader title={t`Known issue`} />
        <Card className="p-5">
          {isApiError(issue.error, 404) ? (
            <p className="text-sm text-slate-600">
              <Trans>This known issue does not exist, or it is resolved and no longer shown to you.</Trans>
            </p>
          ) : (
            <LoadFailed
              message={t`The known issue could not be loaded.`}
              onRetry={() => void issue.refetch()}
            />
          )}
        </Card>
      </>
    );
  }
  return <KnownIssueView issue={issue.data} />;
}

function KnownIssueView({ issue }: { issue: KnownIssue }) {
  const { t } = useLingui();
  const follow = useFollowKnownIssue(issue.ticketId);
  const isOpen = issue.status === "Open" || issue.status === "In Progress";

  async function handleFollow(next: boolean) {
    try {
      await follow.mutateAsync(next);
      toast.success(next ? t`You are following this known issue` : t`You no longer follow this known issue`);
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : t`That did not work; try again.`);
    }
  }

  return (
    <>
      <PageHeader
        title={issue.headline}
        description={
          <Trans>
            Known issue, declared <time dateTime={issue.declaredAt}>{formatDateTime(issue.declaredAt)}</time>
          </Trans>
        }
        actions={
          issue.following ? (
            <Button variant="secondary" disabled={follow.isPending} onClick={() => void handleFollow(false)}>
              <Trans>Stop following</Trans>
            </Button>
          ) : isOpen ? (
            <Button disabled={follow.isPending} onClick={() => void handleFollow(true)}>
              <Trans>Follow</Trans>
            </Button>
          ) : null
        }
      />
      <Card className="p-5">
        <div className="flex flex-wrap items-center gap-2">
          <Siren aria-hidden="true" className="size-4 text-red-700" />
          <Badge tone={tones[issue.status]}>{i18n._(knownIssueStatusNames[issue.status])}</Badge>
          {issue.following ? (
            <span className="text-sm text-slate-600">
              <Trans>You are following this known issue; you will be told of updates.</Trans>
            </span>
          ) : null}
        </div>
        <h2 className="mt-5 text-sm font-semibold text-slate-900">
          <Trans>Updates</Trans>
        </h2>
        {issue.updates.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">
            <Trans>No updates yet.</Trans>
          </p>
        ) : (
          <ol className="mt-2 flex flex-col divide-y divide-slate-100">
            {issue.updates.map((update) => (
              <li key={update.id} className="py-3 first:pt-0 last:pb-0">
                <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{update.body}</p>
                <p className="mt-1 text-xs text-slate-500">
                  {update.authorName ? `${update.authorName} · ` : null}
                  <time dateTime={update.createdAt}>{formatDateTime(update.createdAt)}</time>
                </p>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </>
  );
}
