import { nowOf, type ServiceContext } from "#server/context.ts";
import { readSetting, readSettings } from "#server/features/settings/settings.service.ts";
import { can } from "#shared/permissions.ts";
import { type TicketSla, ticketSlaOf } from "#shared/service-levels/ticket-sla.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { type TicketDtoContext, toTicketDto } from "./ticket.presenter.ts";
import { findTicketById, type TicketWithNames } from "./ticket.queries.ts";

// How the caller sees tickets: what their answer is computed with (read once), and the DTOs it makes.

/** How the caller sees service levels on tickets: null when they do not (decision 019). */
export interface SlaView {
  now: Date;
  dueSoonMinutes: number;
}

export async function slaViewFor(ctx: ServiceContext): Promise<SlaView | null> {
  if (!can.seeServiceLevels(ctx.actor)) return null;
  const policy = await readSetting(ctx.db, "sla-policies");
  return { now: nowOf(ctx), dueSoonMinutes: policy.dueSoonMinutes };
}

export function ticketSlaFor(view: SlaView | null, row: Parameters<typeof ticketSlaOf>[0]): TicketSla | null {
  return view && ticketSlaOf(row, view.now, view.dueSoonMinutes);
}

/**
 * The settings an answer with tickets is presented with, in one query: remembered until a setting or a ticket
 * changes (ctx.ticketReads, a few seconds at most; decision 066), otherwise read.
 */
function presentationSettings<const N extends "auto-close" | "sla-policies">(
  ctx: Pick<ServiceContext, "db" | "ticketReads">,
  areas: readonly N[],
) {
  const read = () => readSettings(ctx.db, areas);
  return ctx.ticketReads ? ctx.ticketReads.read(`settings|${areas.join(",")}`, read) : read();
}

/** What every ticket DTO of one answer is computed with: the auto-close setting and the time, read once. */
export async function ticketDtoContext(
  ctx: Pick<ServiceContext, "db" | "clock" | "ticketReads" | "actor">,
): Promise<TicketDtoContext> {
  const { "auto-close": autoClose } = await presentationSettings(ctx, ["auto-close"]);
  return {
    autoClose,
    now: nowOf(ctx),
    showsTeam: can.seeTeams(ctx.actor),
    showsTags: can.seeTags(ctx.actor),
  };
}

/** What an answer with tickets needs to present them (ticketDtoContext, slaViewFor), in one query. */
interface TicketViewSettings {
  dto: TicketDtoContext;
  slaView: SlaView | null;
}

export async function ticketViewSettings(ctx: ServiceContext): Promise<TicketViewSettings> {
  const now = nowOf(ctx);
  if (!can.seeServiceLevels(ctx.actor)) return { dto: await ticketDtoContext(ctx), slaView: null };
  const settings = await presentationSettings(ctx, ["auto-close", "sla-policies"]);
  return {
    dto: {
      autoClose: settings["auto-close"],
      now,
      showsTeam: can.seeTeams(ctx.actor),
      showsTags: can.seeTags(ctx.actor),
    },
    slaView: { now, dueSoonMinutes: settings["sla-policies"].dueSoonMinutes },
  };
}

/** Tickets as the caller sees them: service levels (staff) and the auto-close date at the server's clock. */
async function ticketDtosFor(ctx: ServiceContext, rows: TicketWithNames[]): Promise<Ticket[]> {
  const { slaView: view, dto } = await ticketViewSettings(ctx);
  return rows.map((row) => toTicketDto(row, dto, ticketSlaFor(view, row)));
}

export async function ticketDtoFor(ctx: ServiceContext, row: TicketWithNames): Promise<Ticket> {
  const [ticket] = await ticketDtosFor(ctx, [row]);
  return ticket!;
}

/** The ticket as the caller sees it now: what a change answers with, read after its commit. */
export async function currentTicketFor(ctx: ServiceContext, ticketId: string): Promise<Ticket> {
  return ticketDtoFor(ctx, (await findTicketById(ctx.db, ticketId))!);
}
