import type { ServiceContext } from "#server/context.ts";
import type { InboundMailOutcome } from "#server/db/schema/index.ts";
import { forbidden } from "#server/errors.ts";
import { decodeHistoryCursor, encodeHistoryCursor } from "#server/http/history-cursor.ts";
import type {
  InboundMessagePage,
  InboundOutcomeFilter,
} from "#shared/inbound-mail/inbound-message.schemas.ts";
import { can } from "#shared/permissions.ts";
import { findInboundMessages } from "./inbound-mail.queries.ts";

const pageSize = 50;

const outcomesOf: Record<InboundOutcomeFilter, readonly InboundMailOutcome[]> = {
  accepted: ["ticket_created", "comment_added"],
  refused: ["refused"],
  ignored: ["ignored_auto_reply"],
};

/**
 * GET /api/admin/inbound-mail: what became of each received message, newest first (decision 083), for
 * administrators. Messages refused before their text was sent (an address that is not ours, a forged
 * reply address) never reach this list; the log tells of them.
 */
export async function listInboundMessages(
  ctx: ServiceContext,
  query: { outcome?: InboundOutcomeFilter; cursor?: string },
): Promise<InboundMessagePage> {
  if (!can.seeInboundMail(ctx.actor)) throw forbidden("Only administrators see the received e-mail");
  const after = query.cursor ? decodeHistoryCursor(query.cursor) : undefined;
  const rows = await findInboundMessages(ctx.db, {
    outcomes: query.outcome ? outcomesOf[query.outcome] : undefined,
    after,
    limit: pageSize + 1,
  });
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({
      id: String(row.id),
      receivedAt: row.receivedAt.toISOString(),
      fromAddress: row.fromAddress,
      toAddress: row.toAddress,
      subject: row.subject,
      outcome: row.outcome,
      detail: row.detail,
      refusedInAnswer: row.refusedInAnswer,
      ticketId: row.ticketId,
    })),
    nextCursor:
      rows.length > pageSize && last
        ? encodeHistoryCursor({ createdAt: last.receivedAt, id: String(last.id) })
        : null,
  };
}
