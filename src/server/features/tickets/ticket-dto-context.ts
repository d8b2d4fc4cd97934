import { nowOf, type ServiceContext } from "../../context.ts";
import { readSetting } from "../settings/settings.service.ts";
import type { TicketDtoContext } from "./ticket.presenter.ts";

/** What every ticket DTO of one answer is computed with: the auto-close setting and the time, read once. */
export async function ticketDtoContext(ctx: Pick<ServiceContext, "db" | "clock">): Promise<TicketDtoContext> {
  return { autoClose: await readSetting(ctx.db, "auto-close"), now: nowOf(ctx) };
}
