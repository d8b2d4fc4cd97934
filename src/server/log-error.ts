/** How code off the request path reports a failure it must not throw (after a commit, in a job, on the bus). */
export type LogError = (error: unknown, message: string) => void;

/** Services run without a dispatcher in some tests: failures are still reported, nothing is pushed. */
export const consoleLogError: LogError = (error, message) => console.error(message, error);
