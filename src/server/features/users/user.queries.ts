import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type UserRow, users } from "../../db/schema/index.ts";

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}
