import type { Actor } from "#shared/permissions.ts";
import type { Db } from "./db/client.ts";

/** What every service receives: the database and who is acting. Services never see Fastify. */
export interface ServiceContext {
  db: Db;
  actor: Actor;
}
