import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { hashPassword } from "#server/auth/password.ts";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import {
  accounts,
  type TeamRow,
  type TicketRow,
  teamMembers,
  teams,
  tickets,
  type UserRow,
  users,
} from "#server/db/schema/index.ts";
import { newTicketId } from "#server/ids.ts";
import type { Actor } from "#shared/permissions.ts";
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

/** The people the service tests act as, each always with the same name and role. */
const castMembers = {
  user: { role: "user", name: "Uma" },
  otherUser: { role: "user", name: "Otto" },
  tech: { role: "technician", name: "Theo" },
  tech2: { role: "technician", name: "Tara" },
  admin: { role: "admin", name: "Ada" },
  admin2: { role: "admin", name: "Abe" },
} as const satisfies Record<string, { role: Role; name: string }>;
export type CastMember = keyof typeof castMembers;

/** Writes the named members of the cast, in the order given, and returns them by name. */
export async function insertCast<const Member extends CastMember>(
  db: Db,
  members: readonly Member[],
): Promise<Record<Member, UserRow>> {
  const cast = {} as Record<Member, UserRow>;
  for (const member of members) cast[member] = await insertUser(db, castMembers[member]);
  return cast;
}

/** A service context acting as the given person (a row of users or a cast member). */
export function contextAs(
  db: Db,
  person: { id: string; role: string | null },
  more: Omit<Partial<ServiceContext>, "db" | "actor"> = {},
): ServiceContext {
  return { db, actor: { id: person.id, role: person.role as Actor["role"] }, ...more };
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

/** Writes a team (decision 069) with the given members straight to the database. */
export async function insertTeam(
  db: Db,
  values: Partial<typeof teams.$inferInsert> & { memberIds?: readonly string[] } = {},
): Promise<TeamRow> {
  const { memberIds = [], ...rest } = values;
  const id = rest.id ?? `team_${unique()}`;
  const [team] = await db
    .insert(teams)
    .values({ id, name: rest.name ?? `Team ${id.slice(-6)}`, ...rest })
    .returning();
  if (memberIds.length > 0) {
    await db.insert(teamMembers).values(memberIds.map((userId) => ({ teamId: id, userId })));
  }
  return team!;
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
