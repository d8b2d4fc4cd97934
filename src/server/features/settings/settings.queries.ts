import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type AdminChangeRow, adminChanges, appSettings, users } from "#server/db/schema/index.ts";
import { bound, runShaped } from "#server/db/statement-shapes.ts";

export async function findSettingRow(db: Db, area: string) {
  const [row] = await db
    .select({
      value: appSettings.value,
      updatedAt: appSettings.updatedAt,
      updatedByName: users.name,
    })
    .from(appSettings)
    .leftJoin(users, eq(users.id, appSettings.updatedBy))
    .where(eq(appSettings.area, area));
  return row;
}

/**
 * The stored values of several areas in one round trip (areas never saved are missing), through a statement
 * built once per number of areas (decision 066): every answer with tickets asks it.
 */
export async function findSettingValues(db: Db, areas: string[]): Promise<Map<string, unknown>> {
  const names = areas.map((_, i) => `area${i}`);
  const rows = await runShaped(
    db,
    `setting-values|${areas.length}`,
    () =>
      db
        .select({ area: appSettings.area, value: appSettings.value })
        .from(appSettings)
        .where(
          inArray(
            appSettings.area,
            names.map((name) => bound(name)),
          ),
        ),
    Object.fromEntries(names.map((name, i) => [name, areas[i]])),
  );
  return new Map(rows.map((row) => [row.area, row.value]));
}

/** The stored value under a row lock, so two admins saving at once write two honest history entries. */
export async function lockSettingValue(tx: Db, area: string): Promise<unknown> {
  const [row] = await tx
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.area, area))
    .for("update");
  return row?.value;
}

export async function upsertSetting(
  tx: Db,
  { area, value, actorId, at }: { area: string; value: unknown; actorId: string; at: Date },
) {
  await tx
    .insert(appSettings)
    .values({ area, value, updatedAt: at, updatedBy: actorId })
    .onConflictDoUpdate({ target: appSettings.area, set: { value, updatedAt: at, updatedBy: actorId } });
}

/** One line of the admin change history, in the caller's transaction. */
export async function insertAdminChange(
  tx: Db,
  /** actorId null: the app itself made the change (a webhook switched off after failures, decision 080). */
  change: {
    actorId: string | null;
    area: string;
    summary: string;
    before: unknown;
    after: unknown;
    at: Date;
  },
) {
  await tx.insert(adminChanges).values({
    id: `adc_${randomUUID()}`,
    actorId: change.actorId,
    area: change.area,
    summary: change.summary,
    before: change.before ?? null,
    after: change.after ?? null,
    createdAt: change.at,
  });
}

export async function findAdminChanges(
  db: Db,
  { area, after, limit }: { area?: string; after?: { createdAt: Date; id: string }; limit: number },
): Promise<Array<AdminChangeRow & { actorName: string | null }>> {
  const rows = await db
    .select({ change: adminChanges, actorName: users.name })
    .from(adminChanges)
    .leftJoin(users, eq(users.id, adminChanges.actorId))
    .where(
      and(
        area ? eq(adminChanges.area, area) : undefined,
        after
          ? sql`(${adminChanges.createdAt}, ${adminChanges.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(adminChanges.createdAt), desc(adminChanges.id))
    .limit(limit);
  return rows.map((row) => ({ ...row.change, actorName: row.actorName }));
}
