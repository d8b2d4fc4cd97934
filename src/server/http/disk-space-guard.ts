import { statfs } from "node:fs/promises";
import type { FastifyInstance, FastifyRequest } from "fastify";
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
 * A refused request's body is read (and dropped) up to this size before the answer, the largest an upload
 * may be with room to spare; past it, the answer goes at once and the connection closes.
 */
const drainUpToBytes = 32 * 1024 * 1024;

/**
 * Reads what is left of a refused request's body and throws it away, so the client has sent it all when it
 * hears the answer. Answering while a client is still sending is allowed, but clients take it badly: one
 * that is still writing a large upload may see its connection reset instead of the 507 (fetch "failed", a
 * browser's network error), and the person never reads why.
 */
async function drainBody(request: FastifyRequest) {
  const length = Number(request.headers["content-length"] ?? 0);
  const chunked = request.headers["transfer-encoding"] !== undefined;
  if ((length === 0 && !chunked) || length > drainUpToBytes) return;
  let read = 0;
  for await (const chunk of request.raw) {
    read += (chunk as Buffer).length;
    if (read > drainUpToBytes) return;
  }
}

/**
 * Refuses every change through the API (POST, PUT, PATCH, DELETE; not sign-in and sign-out, which write a
 * few hundred bytes) with 507 and a message that says what happened, without storing its body (which is
 * read and dropped), while the disk is below the reserve; reading goes on. Checked on each change (one statfs, microseconds), so the app
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
    await drainBody(request);
    throw diskFull();
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
