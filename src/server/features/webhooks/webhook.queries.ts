import { and, arrayContains, asc, count, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema/index.ts";
import type { WebhookEventType } from "#shared/webhooks/webhook.schemas.ts";

export function findEndpoints(db: Db) {
  return db
    .select()
    .from(webhookEndpoints)
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function findEndpointById(db: Db, id: string) {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

/** The endpoint under a row lock, so two admins editing at once write two honest history entries. */
export async function lockEndpoint(tx: Db, id: string) {
  const [row] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for("update");
  return row;
}

export async function countEndpoints(db: Db) {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints);
  return row?.n ?? 0;
}

export async function insertEndpoint(db: Db, values: typeof webhookEndpoints.$inferInsert) {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function updateEndpoint(
  db: Db,
  id: string,
  values: Partial<Omit<typeof webhookEndpoints.$inferInsert, "id">>,
) {
  const [row] = await db.update(webhookEndpoints).set(values).where(eq(webhookEndpoints.id, id)).returning();
  return row;
}

export async function deleteEndpoint(db: Db, id: string) {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/** Active endpoints subscribed to an event type: the write path queues one delivery for each. */
export function findSubscribedEndpoints(db: Db, type: WebhookEventType) {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.active, true), arrayContains(webhookEndpoints.events, [type])));
}

export async function insertDeliveries(db: Db, rows: Array<typeof webhookDeliveries.$inferInsert>) {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

export async function findDelivery(db: Db, endpointId: string, id: string) {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
  return row;
}

export function findDeliveriesOf(
  db: Db,
  endpointId: string,
  { after, limit }: { after?: { createdAt: Date; id: string }; limit: number },
) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        after
          ? sql`(${webhookDeliveries.createdAt}, ${webhookDeliveries.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * Claims due deliveries for this instance, oldest first, at most `slots(endpoint)` for each endpoint (its free
 * places: decision 050), so that one endpoint's backlog never fills the sender. The attempt is counted and
 * next_attempt_at moves to the end of a lease, in one statement over rows locked with FOR UPDATE SKIP
 * LOCKED, so concurrent instances claim disjoint rows and no transaction stays open while the receiver is
 * called. Deliveries of a paused endpoint are left waiting. A sender that dies mid-attempt leaves the row to
 * be claimed again once its lease has passed, or as soon as the other instances find it dead (claimedBy,
 * decision 041). Returns each claimed delivery with its endpoint's URL and current secret.
 */
export async function claimDueDeliveries(
  db: Db,
  {
    now,
    leaseUntil,
    perEndpoint,
    underWay,
    claimedBy,
  }: {
    now: Date;
    leaseUntil: Date;
    /** Attempts an endpoint may have under way on this instance. */
    perEndpoint: number;
    /** Attempts under way on this instance, by endpoint id (those endpoints get fewer, or none). */
    underWay: ReadonlyMap<string, number>;
    claimedBy: string | null;
  },
) {
  const busy = JSON.stringify(Object.fromEntries(underWay));
  // Per active endpoint, its oldest due deliveries up to its free places (webhook_deliveries_pending_idx).
  const due = sql`
    select d.id
      from ${webhookEndpoints} e
      cross join lateral (
        select w.id
          from ${webhookDeliveries} w
         where w.endpoint_id = e.id and w.status = 'pending' and w.next_attempt_at <= ${now.toISOString()}::timestamptz
         order by w.next_attempt_at, w.id
         limit greatest(${perEndpoint}::int - coalesce((${busy}::jsonb ->> e.id)::int, 0), 0)
         for update of w skip locked
      ) d
     where e.active`;
  const claimed = await db
    .update(webhookDeliveries)
    // The last attempt's outcome is cleared: the log shows this attempt as under way until it is recorded.
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      nextAttemptAt: leaseUntil,
      claimedBy,
      responseStatus: null,
      responseBody: null,
      lastError: null,
    })
    // = any(array(…)): the claim runs once, as an InitPlan. As `in (…)` PostgreSQL may run it again for
    // each row it updates, and each run skips the rows the statement has just updated: it claimed them all.
    .where(and(sql`${webhookDeliveries.id} = any(array(${due}))`, eq(webhookDeliveries.status, "pending")))
    .returning();
  if (claimed.length === 0) return [];
  const endpoints = await db
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
    .from(webhookEndpoints)
    .where(
      inArray(
        webhookEndpoints.id,
        claimed.map((d) => d.endpointId),
      ),
    );
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  // Oldest first: each endpoint's attempts start in the order its events happened.
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  return claimed.flatMap((delivery) => {
    const endpoint = byId.get(delivery.endpointId);
    return endpoint ? [{ delivery, endpoint }] : [];
  });
}

/**
 * When the next pending delivery of an active endpoint falls due after `after` (a retry, or a claim whose
 * lease ends), or null: the sender sets its timer for it (decision 056). Due rows are not asked for: those
 * it could not claim wait for a place its own attempts free, or are being claimed by another instance.
 * Ordered on webhook_deliveries_due_idx, so it stops at the first row of an active endpoint.
 */
export async function findNextAttemptAt(db: Db, after: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.status, "pending"),
        gt(webhookDeliveries.nextAttemptAt, after),
        eq(webhookEndpoints.active, true),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(1);
  return row?.at ?? null;
}

/** Gives a claimed delivery back unattempted (due at `now`), if this instance still holds the claim. */
export async function releaseDeliveryClaim(
  db: Db,
  id: string,
  { instanceId, now }: { instanceId: string; now: Date },
) {
  await db
    .update(webhookDeliveries)
    .set({
      claimedBy: null,
      nextAttemptAt: now,
      attempts: sql`greatest(${webhookDeliveries.attempts} - 1, 0)`,
    })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        eq(webhookDeliveries.status, "pending"),
        eq(webhookDeliveries.claimedBy, instanceId),
      ),
    );
}

export async function recordAttempt(
  db: Db,
  id: string,
  values: {
    status: "pending" | "delivered" | "failed";
    responseStatus: number | null;
    responseBody: string | null;
    lastError: string | null;
    nextAttemptAt?: Date;
    at: Date;
  },
) {
  const { at, ...rest } = values;
  await db
    .update(webhookDeliveries)
    .set({
      ...rest,
      claimedBy: null,
      deliveredAt: values.status === "delivered" ? at : null,
      finishedAt: values.status === "pending" ? null : at,
    })
    .where(eq(webhookDeliveries.id, id));
}

/** Retention: finished deliveries (delivered or failed) older than `before`. */
export async function deleteFinishedDeliveries(db: Db, before: Date) {
  const deleted = await db
    .delete(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ["delivered", "failed"]),
        lt(webhookDeliveries.finishedAt, before),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}
