import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { hashPassword } from "#server/auth/password.ts";
import type { Db } from "#server/db/client.ts";
import { accounts, type TicketRow, tickets, type UserRow, users } from "#server/db/schema/index.ts";
import { newTicketId } from "#server/ids.ts";
import type { Role } from "#shared/users/roles.ts";
import { request } from "./test-app.ts";

let sequence = 0;
const unique = () =>
  `${Date.now().toString(36)}${(sequence++).toString(36)}${randomBytes(2).toString("hex")}`;

export const testPassword = "correct horse battery";
let cachedHash: Promise<string> | undefined;

/** Writes a user (and a password account) straight to the database. */
export async function insertUser(
  db: Db,
  values: Partial<typeof users.$inferInsert> & { role?: Role | null } = {},
): Promise<UserRow> {
  const id = values.id ?? `usr_${unique()}`;
  const [user] = await db
    .insert(users)
    .values({
      id,
      name: values.name ?? `Person ${id.slice(-6)}`,
      email: values.email ?? `${id}@example.test`,
      role: values.role === undefined ? "user" : values.role,
      ...values,
    })
    .returning();
  cachedHash ??= hashPassword(testPassword);
  await db.insert(accounts).values({
    id: `acc_${unique()}`,
    accountId: id,
    providerId: "credential",
    userId: id,
    password: await cachedHash,
  });
  return user!;
}

export async function insertTicket(
  db: Db,
  values: Partial<typeof tickets.$inferInsert> & { createdBy: string },
): Promise<TicketRow> {
  const createdAt = values.createdAt ?? new Date();
  const [ticket] = await db
    .insert(tickets)
    .values({
      id: newTicketId(createdAt.getTime()),
      title: "Printer on floor 2 jams",
      description: "It jams on every second page.",
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "2",
      officeNumber: "201",
      createdAt,
      updatedAt: createdAt,
      ...values,
    })
    .returning();
  return ticket!;
}

/** Signs in through the real /api/auth endpoint and returns the session cookie. */
export async function signIn(app: FastifyInstance, email: string, password = testPassword): Promise<string> {
  const response = await request(app, {
    method: "POST",
    url: "/api/auth/sign-in/email",
    payload: { email, password },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return sessionCookieOf(response.headers["set-cookie"]);
}

export function sessionCookieOf(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = all.find((c) => c.startsWith("better-auth.session_token="));
  if (!session) throw new Error("no session cookie in the response");
  return session.split(";")[0]!;
}

/** A person of the given role, signed in: their row and their cookie. */
export async function signedInAs(app: FastifyInstance, db: Db, role: Role | null = "user") {
  const user = await insertUser(db, { role });
  return { user, cookie: await signIn(app, user.email) };
}
