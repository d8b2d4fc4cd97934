import { isDeepStrictEqual } from "node:util";
import { sql } from "drizzle-orm";
import { nowOf, type ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { forbidden, validationFailed } from "#server/errors.ts";
import { decodeHistoryCursor, encodeHistoryCursor } from "#server/http/history-cursor.ts";
import { can } from "#shared/permissions.ts";
import {
  type AdminChangePage,
  type AdminChangeQuery,
  onlyAdminsConfigure,
  type SettingAreaName,
  type SettingEnvelope,
} from "#shared/settings/settings.schemas.ts";
import { type SettingArea, type SettingValue, settingAreas } from "./setting-areas.ts";
import {
  findAdminChanges,
  findSettingRow,
  findSettingValues,
  insertAdminChange,
  lockSettingValue,
  upsertSetting,
} from "./settings.queries.ts";

const historyPageSize = 50;

export function requireSettingsManager(ctx: ServiceContext) {
  if (!can.manageSettings(ctx.actor)) throw forbidden(onlyAdminsConfigure);
}

/** A stored value that no longer passes its schema (written by another version) reads as the default. */
function parsedOrDefault<N extends SettingAreaName>(area: N, stored: unknown): SettingValue<N> {
  if (stored === undefined) return settingAreas[area].defaultValue as SettingValue<N>;
  const parsed = settingAreas[area].schema.safeParse(stored);
  return (parsed.success ? parsed.data : settingAreas[area].defaultValue) as SettingValue<N>;
}

/**
 * The value the app works with (no permission check: services read it to compute due times, jobs to know
 * what is due). Pass the transaction when the caller is in one, so a change and its consequences agree.
 */
export async function readSetting<N extends SettingAreaName>(db: Db, area: N): Promise<SettingValue<N>> {
  const row = await findSettingRow(db, area);
  return parsedOrDefault(area, row?.value);
}

/** Several areas' values (readSetting's), read in one query: a hot path's settings cost one round trip. */
export async function readSettings<const N extends SettingAreaName>(
  db: Db,
  areas: readonly N[],
): Promise<{ [A in N]: SettingValue<A> }> {
  const stored = await findSettingValues(db, [...areas]);
  return Object.fromEntries(areas.map((area) => [area, parsedOrDefault(area, stored.get(area))])) as {
    [A in N]: SettingValue<A>;
  };
}

export async function getSetting<N extends SettingAreaName>(
  ctx: ServiceContext,
  area: N,
): Promise<SettingEnvelope<SettingValue<N>>> {
  requireSettingsManager(ctx);
  const row = await findSettingRow(ctx.db, area);
  return {
    value: parsedOrDefault(area, row?.value),
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedByName: row?.updatedByName ?? null,
  };
}

/**
 * Saves an area (already checked by its schema at the route) and writes the history line in the same
 * transaction. Saving the same value again changes nothing and records nothing.
 */
export async function updateSetting<N extends SettingAreaName>(
  ctx: ServiceContext,
  area: N,
  input: SettingValue<N>,
  options: { afterSave?: (tx: Db, value: SettingValue<N>) => Promise<void> } = {},
): Promise<SettingEnvelope<SettingValue<N>>> {
  requireSettingsManager(ctx);
  const parsed = settingAreas[area].schema.safeParse(input);
  if (!parsed.success) throw validationFailed(parsed.error.issues[0]?.message ?? "Invalid settings");
  const value = parsed.data as SettingValue<N>;
  const at = nowOf(ctx);
  const saved = await ctx.db.transaction(async (tx) => {
    const stored = await lockSettingValue(tx, area);
    const before = parsedOrDefault(area, stored);
    if (stored !== undefined && isDeepStrictEqual(before, value)) return false;
    // A new business time zone recounts the reports' daily rollups in this transaction (a trigger on
    // app_settings, decision 027): 5.8 s at 1M tickets, past the app's 5 s statement limit.
    if (area === "business-calendar") await tx.execute(sql`set local statement_timeout = '5min'`);
    await upsertSetting(tx, { area, value, actorId: ctx.actor.id, at });
    await insertAdminChange(tx, {
      actorId: ctx.actor.id,
      area,
      summary: settingAreas[area].summary,
      before,
      after: value,
      at,
    });
    await options.afterSave?.(tx, value);
    return true;
  });
  // After commit, like every announcement: what instances remember of the settings (and, for an area that
  // changes what a session may do, of the sessions) is read again (decision 066).
  if (saved) {
    ctx.dispatcher?.dispatch([
      { kind: "settings-changed" },
      ...((settingAreas[area] as SettingArea).changesSessions ? [{ kind: "sessions-changed" as const }] : []),
    ]);
  }
  return getSetting(ctx, area);
}

export async function listAdminChanges(
  ctx: ServiceContext,
  query: AdminChangeQuery,
): Promise<AdminChangePage> {
  requireSettingsManager(ctx);
  const after = query.cursor ? decodeHistoryCursor(query.cursor) : undefined;
  const rows = await findAdminChanges(ctx.db, { area: query.area, after, limit: historyPageSize + 1 });
  const page = rows.slice(0, historyPageSize);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({
      id: row.id,
      area: row.area,
      summary: row.summary,
      actorId: row.actorId,
      actorName: row.actorName,
      before: row.before,
      after: row.after,
      at: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > historyPageSize && last ? encodeHistoryCursor(last) : null,
  };
}
