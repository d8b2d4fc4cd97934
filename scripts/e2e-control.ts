// What the e2e control port (scripts/e2e-server.ts) asks the app process (scripts/e2e-app.ts) over IPC.

/** A target's warning and due time, in milliseconds from the server's clock now. */
export interface DueIn {
  warnInMs?: number;
  dueInMs?: number;
}

export type AppControlRequest =
  | { op: "advance-clock"; ms: number }
  | { op: "run-due-jobs" }
  | { op: "set-due-times"; ticketId: string; firstResponse?: DueIn; resolution?: DueIn };

export type AppControlReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };

/** POST path on the control port → the request it becomes (the JSON body adds the fields). */
export const appControlRoutes: Record<string, AppControlRequest["op"]> = {
  "/clock/advance": "advance-clock",
  "/jobs/tick": "run-due-jobs",
  "/tickets/due-times": "set-due-times",
};
