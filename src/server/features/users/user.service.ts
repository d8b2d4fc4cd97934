import type { Me } from "#shared/users/user.schemas.ts";
import type { ServiceContext } from "../../context.ts";
import { unauthenticated } from "../../errors.ts";
import { toMeDto } from "./user.presenter.ts";
import { findUserById } from "./user.queries.ts";

export async function getMe(ctx: ServiceContext): Promise<Me> {
  const row = await findUserById(ctx.db, ctx.actor.id);
  if (!row) throw unauthenticated();
  return toMeDto(row);
}
