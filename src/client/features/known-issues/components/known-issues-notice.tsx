import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Siren } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import {
  knownIssueStatusNames,
  knownIssuesQuery,
  useFollowKnownIssue,
} from "#client/features/known-issues/known-issues.api.ts";
import { i18n } from "#client/lib/i18n.ts";
import { Link } from "#client/lib/router/links.tsx";
import { toast } from "#client/lib/toast.ts";
import type { KnownIssueSummary } from "#shared/major-incidents/major-incident.schemas.ts";

/**
 * On the create form (decision 077), beside the knowledge base's suggestions: each open major incident as a
 * known issue, "Known issue: <headline> — <status>", with "Follow instead"; the person may still raise their
 * ticket.
 */
export function KnownIssuesNotice() {
  const { t } = useLingui();
  const issues = useQuery(knownIssuesQuery());
  const items = issues.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section
      aria-label={t`Known issues`}
      className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900 sm:col-span-6"
    >
      <ul className="flex flex-col gap-3">
        {items.map((issue) => (
          <KnownIssueItem key={issue.ticketId} issue={issue} />
        ))}
      </ul>
      <p className="mt-2 text-xs text-red-800">
        <Trans>Is it yours? Follow it instead of raising a ticket, or raise your ticket anyway.</Trans>
      </p>
    </section>
  );
}

function KnownIssueItem({ issue }: { issue: KnownIssueSummary }) {
  const { t } = useLingui();
  const follow = useFollowKnownIssue(issue.ticketId);
  const headline = issue.headline;
  const status = i18n._(knownIssueStatusNames[issue.status]);

  async function handleFollow() {
    try {
      await follow.mutateAsync(true);
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : t`The known issue could not be followed.`);
    }
  }

  return (
    <li className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
      <p className="flex min-w-0 items-start gap-2 text-sm">
        <Siren aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 break-words">
          <Trans>
            Known issue: <span className="font-medium">{headline}</span> — {status}
          </Trans>
        </span>
      </p>
      {issue.following ? (
        <p role="status" className="text-sm sm:max-w-64">
          <Trans>
            You are following this known issue; you will be told of updates.{" "}
            <Link to={`/known-issues/${issue.ticketId}`} className="font-medium underline hover:no-underline">
              See the known issue
            </Link>
          </Trans>
        </p>
      ) : (
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0"
          disabled={follow.isPending}
          aria-label={t`Follow instead: ${headline}`}
          onClick={() => void handleFollow()}
        >
          <Trans>Follow instead</Trans>
        </Button>
      )}
    </li>
  );
}
