import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { Field } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMore } from "#client/components/ui/load-more.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { inboundMessagesQuery } from "#client/features/inbound-mail/inbound-mail.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { Link } from "#client/lib/router/links.tsx";
import type { InboundMessage, InboundOutcomeFilter } from "#shared/inbound-mail/inbound-message.schemas.ts";

const outcomeLabels: Record<InboundMessage["outcome"], MessageDescriptor> = {
  ticket_created: msg`Ticket raised`,
  comment_added: msg`Reply added`,
  ignored_auto_reply: msg`Ignored`,
  refused: msg`Refused`,
  processing: msg`Being handled`,
};
const outcomeTones: Record<InboundMessage["outcome"], BadgeTone> = {
  ticket_created: "green",
  comment_added: "green",
  ignored_auto_reply: "slate",
  refused: "red",
  processing: "amber",
};
const filterLabels: Record<InboundOutcomeFilter | "", MessageDescriptor> = {
  "": msg`All messages`,
  accepted: msg`Accepted`,
  refused: msg`Refused`,
  ignored: msg`Ignored (auto-replies)`,
};

/**
 * Admin settings, "Received e-mail" (decision 083): each message the inbound mail listener took, newest
 * first, with what became of it (a ticket, a reply, ignored, refused) and why, filtered by outcome.
 */
export function InboundMailLog() {
  const { t, i18n } = useLingui();
  const id = useId();
  const [filter, setFilter] = useState<InboundOutcomeFilter | "">("");
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        <Trans>
          E-mail sent to the helpdesk's address, and what became of it. Messages refused before they were sent
          (an address that is not the helpdesk's, a forged reply address) are only in the server's log.
        </Trans>
      </p>
      <Field label={t`Show`} htmlFor={`${id}-outcome`} className="max-w-xs">
        <Select
          id={`${id}-outcome`}
          options={(["", "accepted", "refused", "ignored"] as const).map((value) => ({
            value,
            label: i18n._(filterLabels[value]),
          }))}
          value={filter}
          onChange={(event) => setFilter(event.target.value as InboundOutcomeFilter | "")}
        />
      </Field>
      <MessageList outcome={filter || undefined} />
    </div>
  );
}

function MessageList({ outcome }: { outcome: InboundOutcomeFilter | undefined }) {
  const { t, i18n } = useLingui();
  const query = useInfiniteQuery(inboundMessagesQuery(outcome));
  const messages = query.data?.pages.flatMap((page) => page.items) ?? [];

  if (query.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label={t`Loading received e-mail`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        message={t`The received e-mail could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (messages.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        <Trans>No e-mail received yet.</Trans>
      </p>
    );
  }
  return (
    <>
      <ol className="flex flex-col divide-y divide-slate-100" aria-label={t`Received e-mail`}>
        {messages.map((message) => (
          <li key={message.id} className="py-3 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <Badge tone={outcomeTones[message.outcome]}>{i18n._(outcomeLabels[message.outcome])}</Badge>
              <span className="min-w-0 break-words font-medium text-slate-900">
                {message.subject || t`(no subject)`}
              </span>
              {message.ticketId ? (
                <Link
                  to={`/tickets/${encodeURIComponent(message.ticketId)}`}
                  className="font-mono text-xs text-indigo-700 underline-offset-2 hover:underline"
                >
                  {message.ticketId}
                </Link>
              ) : null}
            </p>
            <p className="mt-0.5 text-xs text-slate-600 [overflow-wrap:anywhere]">
              <Trans>
                From {message.fromAddress} to {message.toAddress}
              </Trans>{" "}
              ·{" "}
              <time dateTime={message.receivedAt} className="whitespace-nowrap">
                {formatDateTime(message.receivedAt)}
              </time>
            </p>
            {message.detail ? (
              <p
                className={`mt-0.5 break-words text-xs ${message.outcome === "refused" ? "text-red-700" : "text-slate-700"}`}
              >
                {message.detail}
              </p>
            ) : null}
            {message.refusedInAnswer ? (
              <p className="mt-0.5 text-xs text-slate-600">
                <Trans>
                  Told in the SMTP answer: the sending server may deliver it again, and it is judged again.
                </Trans>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <LoadMore query={query} showsLoading={false} className="mt-3 flex justify-center" />
    </>
  );
}
