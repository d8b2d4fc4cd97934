import type { Db } from "#server/db/client.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { autoCloseAtOf } from "#shared/service-levels/auto-close.schemas.ts";

/** "11 Mar 2030, 10:00 UTC": the help desk's own time zone (the business calendar's), named. */
function formatInZone(at: Date, timeZone: string) {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(at);
}

/**
 * What the creator reads when their ticket reaches Resolved at `at` (in the notification and its e-mail):
 * when it will close by itself (`closesAt`, which the app writes in the reader's format) and how to keep it
 * open (`text`, English, the date in the help desk's zone). Null while auto-close is off.
 */
export async function autoCloseNoticeFor(tx: Db, at: Date): Promise<{ closesAt: Date; text: string } | null> {
  const settings = await readSetting(tx, "auto-close");
  const closesAt = autoCloseAtOf({ status: "Resolved", lastActivityAt: at }, settings, at);
  if (!closesAt) return null;
  const { timeZone } = await readSetting(tx, "business-calendar");
  return {
    closesAt,
    text: `It will close automatically on ${formatInZone(closesAt, timeZone)} unless you reply or rate it.`,
  };
}
