import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Siren } from "lucide-react";
import { ticketIncidentQuery } from "#client/features/ticket-links/major-incident.api.ts";
import { statusNames } from "#client/features/ticket-links/ticket-link-labels.ts";
import { i18n } from "#client/lib/i18n.ts";
import { Link } from "#client/lib/router/links.tsx";

/**
 * An affected ticket's banner (decision 077), for everyone who may see the ticket, its requester too: the
 * major incident's public headline and status, linked to its public face (/known-issues/:ticketId), never
 * to the incident's ticket.
 */
export function IncidentBanner({ ticketId }: { ticketId: string }) {
  const { t } = useLingui();
  const incident = useQuery(ticketIncidentQuery(ticketId));
  const affectedBy = incident.data?.affectedBy;
  if (!affectedBy) return null;
  const status = i18n._(statusNames[affectedBy.status]);
  const headline = affectedBy.headline;
  return (
    <section
      aria-label={t`Major incident`}
      className="flex gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
    >
      <Siren aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0 break-words">
        <Trans>
          Affected by a major incident:{" "}
          <Link
            to={`/known-issues/${affectedBy.ticketId}`}
            className="font-medium underline hover:no-underline"
          >
            {headline}
          </Link>{" "}
          — {status}
        </Trans>
      </p>
    </section>
  );
}
