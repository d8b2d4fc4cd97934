import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import {
  beat,
  deleteInstance,
  deleteInstances,
  deleteLongDeadInstances,
  findDeadInstanceIds,
  type ReleasedClaims,
  releaseClaimsOf,
} from "./instance.queries.ts";

export interface InstanceLivenessOptions {
  db: Db;
  /** Written into every claim this instance takes (a fresh UUID by default: a restart is a new instance). */
  id?: string;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  /** Where "due now" for given-back mail and deliveries is read (the clock the senders compare with). */
  clock?: Clock;
  /** How often the heartbeat is written (2 s). */
  heartbeatMs?: number;
  /** An instance whose heartbeat is older than this is dead and its claims are taken over (10 s). */
  deadAfterMs?: number;
  /** Told after the claims of dead instances were given back, so that the workers pick them up now. */
  onClaimsReleased?: (released: ReleasedClaims) => void;
  /** Told when a heartbeat got through again after this instance had lost its own liveness. */
  onAlive?: () => void;
  /**
   * The database is this instance's alone (embedded PGlite: one process per data directory). Then every
   * other instance in the table is a previous run of this one: their claims are taken over at start, and
   * no heartbeat is needed.
   */
  exclusive?: boolean;
}

export interface InstanceLiveness {
  readonly id: string;
  /** Writes the first heartbeat and starts the timer (unref'd). */
  start(): Promise<void>;
  /** One heartbeat, and the look for dead instances (the timer calls it; tests call it directly). */
  beat(): Promise<void>;
  /**
   * A mark to take before claiming work. stillHolds(mark) tells whether the claims taken after it are
   * still this instance's: its heartbeat has got through without a gap long enough for another instance
   * to have taken them over since. Checked before each mail or webhook goes out.
   */
  mark(): number;
  stillHolds(mark: number): boolean;
  /** True while the last heartbeat is recent enough that no other instance can take this one for dead. */
  isAlive(): boolean;
  /** Stops the heartbeat and removes this instance's row (after the workers have stopped). */
  stop(): Promise<void>;
}

const forgetAfterMs = 24 * 60 * 60_000;
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * This instance's heartbeat in app_instances, and the take-over of dead instances' claims (decision 041).
 *
 * Two rules keep a mail from going out twice while the instance that claimed it lives:
 * - an instance takes others for dead only after its own heartbeat has got through without a gap for
 *   deadAfterMs (after a database outage every heartbeat is old; nobody judges until everyone had time to
 *   beat again);
 * - an instance stops using its claims (isAlive, stillHolds) once its own heartbeat is half of deadAfterMs
 *   old, well before anyone else may take them.
 */
export function createInstanceLiveness({
  db,
  id = randomUUID(),
  log,
  clock = systemClock,
  heartbeatMs = 2_000,
  deadAfterMs = 10_000,
  onClaimsReleased = () => {},
  onAlive = () => {},
  exclusive = false,
}: InstanceLivenessOptions): InstanceLiveness {
  const graceMs = deadAfterMs / 2;
  // performance.now() of the last heartbeat that got through (taken when it was sent: the database
  // recorded a later time), and of the first one after the last gap.
  let lastBeatAt: number | undefined;
  let continuousSince = Number.POSITIVE_INFINITY;
  let knownDead = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | null = null;
  let beatsDone = 0;
  let stopped = false;

  const isAlive = () => exclusive || (lastBeatAt !== undefined && performance.now() - lastBeatAt < graceMs);

  async function takeOverFromDead({ notify }: { notify: boolean }) {
    // Exclusive: whoever else is in the table ran before this process started, whatever its heartbeat.
    const judgeAfterMs = exclusive ? 0 : deadAfterMs;
    const dead = await findDeadInstanceIds(db, { deadAfterMs: judgeAfterMs, forgetAfterMs, except: id });
    const newlyDead = dead.filter((deadId) => !knownDead.has(deadId));
    if (newlyDead.length > 0) {
      const released = await releaseClaimsOf(db, {
        ids: newlyDead,
        deadAfterMs: judgeAfterMs,
        now: clock.now(),
      });
      const total = Object.values(released).reduce((sum, n) => sum + n, 0);
      if (total > 0) {
        log.warn(
          { deadInstances: newlyDead, ...released },
          `Instance(s) ${newlyDead.join(", ")} stopped beating: took over ${released.mails} mails, ` +
            `${released.webhookDeliveries} webhook deliveries, ${released.jobs} jobs and ` +
            `${released.inboundMessages} inbound messages they had claimed`,
        );
        if (notify) onClaimsReleased(released);
      }
    }
    knownDead = new Set(dead);
    if (exclusive) await deleteInstances(db, dead);
    else if (beatsDone % 1_000 === 0) await deleteLongDeadInstances(db, forgetAfterMs);
  }

  async function beatOnce() {
    const sentAt = performance.now();
    const wasAlive = isAlive();
    try {
      await beat(db, id);
    } catch (error) {
      if (wasAlive && !isAlive())
        log.warn({ instance: id, err: error }, `Heartbeat failed: ${errorMessage(error)}`);
      return;
    }
    if (lastBeatAt === undefined || sentAt - lastBeatAt >= graceMs) continuousSince = sentAt;
    lastBeatAt = Math.max(lastBeatAt ?? sentAt, sentAt);
    beatsDone++;
    if (!wasAlive && beatsDone > 1) {
      log.info({ instance: id }, "Heartbeat got through again: this instance takes work again");
      onAlive();
    }
    if (isAlive() && performance.now() - continuousSince >= deadAfterMs) {
      try {
        await takeOverFromDead({ notify: true });
      } catch (error) {
        log.warn({ err: error }, `Looking for dead instances failed: ${errorMessage(error)}`);
      }
    }
  }

  const beatNow = () => {
    if (stopped) return Promise.resolve();
    beating ??= beatOnce().finally(() => {
      beating = null;
    });
    return beating;
  };

  return {
    id,
    async start() {
      if (exclusive) {
        await beat(db, id);
        // Before the workers start: they find what was given back when they first look.
        await takeOverFromDead({ notify: false });
        return;
      }
      timer ??= setInterval(() => void beatNow(), heartbeatMs);
      timer.unref();
      await beatNow();
    },
    beat: beatNow,
    mark: () => performance.now(),
    stillHolds: (mark) => exclusive || (isAlive() && continuousSince <= mark),
    isAlive,
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await beating;
      await deleteInstance(db, id).catch(() => {});
      lastBeatAt = undefined;
    },
  };
}
