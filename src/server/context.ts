import type { Actor } from "#shared/permissions.ts";
import type { Db } from "./db/client.ts";
import type { Dispatcher } from "./events/dispatcher.ts";

/** What every service receives: the database and who is acting. Services never see Fastify. */
export interface ServiceContext {
  db: Db;
  actor: Actor;
  /** Told after each commit what it recorded (push, later mail and webhooks). Bare service tests omit it. */
  dispatcher?: Dispatcher;
}
