// The app as the browser journeys run it (scripts/e2e-server.ts spawns it): started like src/server/main.ts,
// but on a clock the journeys move (system time + an offset, so sessions and cookies still work) and with
// the job timer far off, so scheduled jobs run when a journey asks. The parent's control port passes the
// journeys' requests here over the IPC channel; nothing here listens on a port of its own. Never used in
// production: main.ts starts the server without any of this.
import { eq } from "drizzle-orm";
import { tickets } from "#server/db/schema/index.ts";
import { startServer } from "#server/start-server.ts";
import { createOffsetClock } from "#server/test/clock.ts";
import type { AppControlReply, AppControlRequest } from "./e2e-control.ts";

const hour = 60 * 60_000;
const clock = createOffsetClock();
const { app, database } = await startServer({ clock, jobs: { firstTickMs: hour, tickMs: hour } });

const inMs = (ms: number | undefined) =>
  ms === undefined ? undefined : new Date(clock.now().getTime() + ms);

async function handle(request: AppControlRequest): Promise<unknown> {
  switch (request.op) {
    case "advance-clock":
      // Forward only: a job that ran at a later time would not be due again until the clock caught up.
      if (typeof request.ms !== "number" || !Number.isFinite(request.ms) || request.ms < 0)
        throw new Error("ms must be a number of milliseconds, 0 or more");
      clock.advance(request.ms);
      return { now: clock.now().toISOString(), offsetMs: clock.offsetMs() };
    case "run-due-jobs":
      return { ran: await app.jobs.tick() };
    case "set-due-times": {
      // Due and warning times counted from the server's clock now, written straight to the ticket.
      const { ticketId, firstResponse, resolution } = request;
      const updated = await database.db
        .update(tickets)
        .set({
          firstResponseWarnAt: inMs(firstResponse?.warnInMs),
          firstResponseDueAt: inMs(firstResponse?.dueInMs),
          resolutionWarnAt: inMs(resolution?.warnInMs),
          resolutionDueAt: inMs(resolution?.dueInMs),
        })
        .where(eq(tickets.id, ticketId))
        .returning({ id: tickets.id });
      if (updated.length === 0) throw new Error(`no ticket ${ticketId}`);
      return { ticketId };
    }
  }
}

process.on("message", (message: AppControlRequest & { id: number }) => {
  handle(message).then(
    (result) => process.send?.({ id: message.id, ok: true, result } satisfies AppControlReply),
    (error: unknown) =>
      process.send?.({
        id: message.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      } satisfies AppControlReply),
  );
});
