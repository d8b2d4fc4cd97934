import type { Db } from "#server/db/client.ts";
import { deleteSessionsOf } from "#server/features/users/user.queries.ts";
import type { Dispatcher } from "./dispatcher.ts";

/**
 * Ends every session of a person (deactivation) and, once deleted, closes their live streams on every
 * instance. The one function to call when someone must be signed out everywhere.
 */
export async function endSessionsOf(ctx: { db: Db; dispatcher?: Dispatcher }, userId: string): Promise<void> {
  await deleteSessionsOf(ctx.db, userId);
  ctx.dispatcher?.dispatch([{ kind: "session-ended", userId }]);
}
