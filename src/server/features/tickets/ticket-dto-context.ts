import { nowOf, type ServiceContext } from "#server/context.ts";
import type { SlaView } from "#server/features/service-levels/ticket-sla.service.ts";
import { readSettings } from "#server/features/settings/settings.service.ts";
import { can } from "#shared/permissions.ts";
import type { TicketDtoContext } from "./ticket.presenter.ts";

/** What every ticket DTO of one answer is computed with: the auto-close setting and the time, read once. */
export async function ticketDtoContext(ctx: Pick<ServiceContext, "db" | "clock">): Promise<TicketDtoContext> {
  const { "auto-close": autoClose } = await readSettings(ctx.db, ["auto-close"]);
  return { autoClose, now: nowOf(ctx) };
}

/** What an answer with tickets needs to present them (ticketDtoContext, slaViewFor), in one query. */
export interface TicketViewSettings {
  dto: TicketDtoContext;
  slaView: SlaView | null;
}

export async function ticketViewSettings(ctx: ServiceContext): Promise<TicketViewSettings> {
  const now = nowOf(ctx);
  if (!can.seeServiceLevels(ctx.actor)) return { dto: await ticketDtoContext(ctx), slaView: null };
  const settings = await readSettings(ctx.db, ["auto-close", "sla-policies"]);
  return {
    dto: { autoClose: settings["auto-close"], now },
    slaView: { now, dueSoonMinutes: settings["sla-policies"].dueSoonMinutes },
  };
}
