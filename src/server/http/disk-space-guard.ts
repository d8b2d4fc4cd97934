import { statfs } from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { diskFull } from "#server/errors.ts";

/**
 * The embedded database must never meet a full disk: PGlite answers a data file it cannot extend with a
 * clean error, but once it cannot create its next 16 MB log segment it spins for good, holding the whole
 * process (docs/faults.md, "Full disk"). So changes stop while the reserve is all that is left; the
 * reserve covers a log segment, the largest attachments under way, and what sign-ins and jobs still write.
 */
export const defaultMinFreeBytes = 64 * 1024 * 1024;

export interface DiskSpaceOptions {
  /** The folder that holds the embedded database (DATA_DIR). */
  dir: string;
  /** Changes are refused while less than this is free (64 MB by default). */
  minFreeBytes?: number;
  /** What the filesystem has free for us, in bytes (tests give their own). */
  freeBytes?: (dir: string) => Promise<number>;
}

/** Free bytes for an unprivileged process on the filesystem that holds `dir`. */
export async function freeBytesOf(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses every change through the API (POST, PUT, PATCH, DELETE; not sign-in and sign-out, which write a
 * few hundred bytes) with 507 and a message that says what happened, before its body is read, while the
 * disk is below the reserve; reading goes on. Checked on each change (one statfs, microseconds), so the app
 * takes changes again as soon as space is freed, without a restart. Logs once each time space runs low.
 */
export function registerDiskSpaceGuard(
  app: FastifyInstance,
  { dir, minFreeBytes = defaultMinFreeBytes, freeBytes = freeBytesOf }: DiskSpaceOptions,
) {
  let isLow = false;
  app.addHook("onRequest", async (request) => {
    if (safeMethods.has(request.method) || !request.url.startsWith("/api/")) return;
    if (request.url.startsWith("/api/auth/")) return;
    const free = await freeBytes(dir).catch((error: unknown) => {
      // Not knowing is no reason to refuse: the database's own disk_full error still answers 507.
      request.log.warn({ err: error }, `could not read the free space of ${dir}`);
      return Number.POSITIVE_INFINITY;
    });
    if (free >= minFreeBytes) {
      if (isLow) app.log.info(`${dir} has ${mb(free)} free again: changes are accepted`);
      isLow = false;
      return;
    }
    if (!isLow) {
      app.log.error(
        `${dir} has only ${mb(free)} free (the reserve is ${mb(minFreeBytes)}): changes are refused until space is freed`,
      );
    }
    isLow = true;
    throw diskFull();
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
