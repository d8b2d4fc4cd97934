import { randomBytes } from "node:crypto";
import { nowOf, type ServiceContext } from "#server/context.ts";
import { conflict, forbidden, notFound, validationFailed } from "#server/errors.ts";
import { insertAdminChange } from "#server/features/settings/settings.queries.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import { decodeHistoryCursor, encodeHistoryCursor } from "#server/http/history-cursor.ts";
import { can } from "#shared/permissions.ts";
import {
  type CreateWebhookInput,
  onlyAdminsManageWebhooks,
  type UpdateWebhookInput,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookList,
  type WebhookTestPayload,
  type WebhookTestResult,
  type WebhookWithSecret,
  webhookEndpointLimit,
  webhookTestEventType,
} from "#shared/webhooks/webhook.schemas.ts";
import { toWebhookDeliveryDto, toWebhookDto, toWebhookSnapshot } from "./webhook.presenter.ts";
import {
  countEndpoints,
  deleteEndpoint,
  findDeliveriesOf,
  findDelivery,
  findEndpointById,
  findEndpoints,
  insertDeliveries,
  insertEndpoint,
  lockEndpoint,
  updateEndpoint,
} from "./webhook.queries.ts";
import { failureOf, postWebhook } from "./webhook-post.ts";
import { newDeliveryId } from "./webhook-queue.ts";
import { checkWebhookTarget, type Resolve, WebhookTargetError } from "./webhook-target.ts";

/** How the server treats targets: WEBHOOKS_ALLOW_PRIVATE, and (tests) the resolver and one attempt's limit. */
export interface WebhookTargetPolicy {
  allowPrivate: boolean;
  resolve?: Resolve;
  timeoutMs?: number;
}

const deliveryPageSize = 25;
const area = "webhooks";

export function requireWebhookManager(ctx: ServiceContext) {
  if (!can.manageWebhooks(ctx.actor)) throw forbidden(onlyAdminsManageWebhooks);
}

const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

async function checkTarget(url: string, policy: WebhookTargetPolicy) {
  try {
    await checkWebhookTarget(url, policy);
  } catch (error) {
    if (error instanceof WebhookTargetError) throw validationFailed(`url: ${error.message}`);
    throw error;
  }
}

async function endpointOrNotFound(ctx: ServiceContext, id: string) {
  const row = await findEndpointById(ctx.db, id);
  if (!row) throw notFound("Webhook", id);
  return row;
}

export async function listWebhooks(ctx: ServiceContext): Promise<WebhookList> {
  requireWebhookManager(ctx);
  return { items: (await findEndpoints(ctx.db)).map(toWebhookDto) };
}

export async function getWebhook(ctx: ServiceContext, id: string): Promise<Webhook> {
  requireWebhookManager(ctx);
  return toWebhookDto(await endpointOrNotFound(ctx, id));
}

export async function createWebhook(
  ctx: ServiceContext,
  input: Required<CreateWebhookInput>,
  policy: WebhookTargetPolicy,
): Promise<WebhookWithSecret> {
  requireWebhookManager(ctx);
  await checkTarget(input.url, policy);
  if ((await countEndpoints(ctx.db)) >= webhookEndpointLimit) {
    throw conflict(`There are already ${webhookEndpointLimit} webhooks. Delete one you no longer use first.`);
  }
  const at = nowOf(ctx);
  const secret = newSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const created = await insertEndpoint(tx, {
      id: `whk_${randomBytes(8).toString("hex")}`,
      url: input.url,
      description: input.description,
      events: input.events,
      active: input.active,
      failureLimit: input.failureLimit,
      secret,
      createdBy: ctx.actor.id,
      createdAt: at,
      updatedAt: at,
    });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `Added the webhook ${created.url}`,
      before: null,
      after: toWebhookSnapshot(created),
      at,
    });
    return created;
  });
  return { webhook: toWebhookDto(row), secret };
}

export async function updateWebhook(
  ctx: ServiceContext,
  id: string,
  input: UpdateWebhookInput & { events?: Webhook["events"] },
  policy: WebhookTargetPolicy,
): Promise<Webhook> {
  requireWebhookManager(ctx);
  if (input.url !== undefined) await checkTarget(input.url, policy);
  const at = nowOf(ctx);
  const row = await ctx.db.transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    if (!before) throw notFound("Webhook", id);
    // Switched on again (decision 080): the run of failures and the reason it was switched off are over.
    const switchedOn =
      input.active === true && !before.active
        ? { consecutiveFailures: 0, disabledAt: null, disabledReason: null }
        : {};
    const after = await updateEndpoint(tx, id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(input.failureLimit !== undefined ? { failureLimit: input.failureLimit } : {}),
      ...switchedOn,
      updatedAt: at,
    });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `Changed the webhook ${after!.url}`,
      before: toWebhookSnapshot(before),
      after: toWebhookSnapshot(after!),
      at,
    });
    return after!;
  });
  return toWebhookDto(row);
}

export async function rotateWebhookSecret(ctx: ServiceContext, id: string): Promise<WebhookWithSecret> {
  requireWebhookManager(ctx);
  const at = nowOf(ctx);
  const secret = newSecret();
  const row = await ctx.db.transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    if (!before) throw notFound("Webhook", id);
    const after = await updateEndpoint(tx, id, { secret, updatedAt: at });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `Rotated the secret of the webhook ${before.url}`,
      before: toWebhookSnapshot(before),
      after: toWebhookSnapshot(after!),
      at,
    });
    return after!;
  });
  return { webhook: toWebhookDto(row), secret };
}

export async function removeWebhook(ctx: ServiceContext, id: string): Promise<void> {
  requireWebhookManager(ctx);
  const at = nowOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const before = await lockEndpoint(tx, id);
    if (!before) throw notFound("Webhook", id);
    // Its deliveries go with it (pending ones are never sent).
    await deleteEndpoint(tx, id);
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: `Deleted the webhook ${before.url}`,
      before: toWebhookSnapshot(before),
      after: null,
      at,
    });
  });
}

export async function listWebhookDeliveries(
  ctx: ServiceContext,
  id: string,
  query: { cursor?: string },
): Promise<WebhookDeliveryPage> {
  requireWebhookManager(ctx);
  await endpointOrNotFound(ctx, id);
  const after = query.cursor ? decodeHistoryCursor(query.cursor) : undefined;
  const rows = await findDeliveriesOf(ctx.db, id, { after, limit: deliveryPageSize + 1 });
  const page = rows.slice(0, deliveryPageSize);
  const last = page.at(-1);
  return {
    items: page.map(toWebhookDeliveryDto),
    nextCursor: rows.length > deliveryPageSize && last ? encodeHistoryCursor(last) : null,
  };
}

/**
 * "Redeliver": a new delivery (new id, attempts from zero) of the same body, sent at once. The body keeps
 * the event's id, so a receiver that already handled it can tell.
 */
export async function redeliverWebhook(
  ctx: ServiceContext,
  id: string,
  deliveryId: string,
  wake: () => void,
): Promise<WebhookDelivery> {
  requireWebhookManager(ctx);
  await endpointOrNotFound(ctx, id);
  const original = await findDelivery(ctx.db, id, deliveryId);
  if (!original) throw notFound("Delivery", deliveryId);
  const at = nowOf(ctx);
  const [row] = await insertDeliveries(ctx.db, [
    {
      id: newDeliveryId(),
      endpointId: id,
      eventId: original.eventId,
      eventType: original.eventType,
      body: original.body,
      redeliveryOf: original.id,
      createdAt: at,
      nextAttemptAt: at,
    },
  ]);
  wake();
  return toWebhookDeliveryDto(row!);
}

/**
 * "Send test" (decision 080): POSTs a signed `webhook.test` event to the endpoint now, whether it is on or
 * off, and answers how it went. Nothing is stored: it is not a delivery of the log, and it neither counts
 * as a failure nor ends a run of them.
 */
export async function sendTestWebhook(
  ctx: ServiceContext,
  id: string,
  policy: WebhookTargetPolicy,
): Promise<WebhookTestResult> {
  requireWebhookManager(ctx);
  const endpoint = await endpointOrNotFound(ctx, id);
  const at = nowOf(ctx);
  const actor = await findUserById(ctx.db, ctx.actor.id);
  const deliveryId = newDeliveryId();
  const payload: WebhookTestPayload = {
    id: deliveryId,
    type: webhookTestEventType,
    occurredAt: at.toISOString(),
    webhook: { id: endpoint.id, url: endpoint.url },
    actor: actor ? { id: actor.id, name: actor.name } : null,
  };
  const started = performance.now();
  const result = await postWebhook({
    url: endpoint.url,
    body: JSON.stringify(payload),
    secret: endpoint.secret,
    deliveryId,
    timestamp: Math.floor(at.getTime() / 1000),
    allowPrivate: policy.allowPrivate,
    timeoutMs: policy.timeoutMs,
  });
  const error = failureOf(result);
  return {
    delivered: error === null,
    responseStatus: result.kind === "response" ? result.status : null,
    responseBody: result.kind === "response" ? result.body : null,
    error,
    durationMs: Math.round(performance.now() - started),
    sentAt: at.toISOString(),
  };
}
