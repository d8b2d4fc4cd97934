import type { PGlite } from "@electric-sql/pglite";

/**
 * Counts the statements and transactions under way on a PGlite instance (its `query`, `exec` and
 * `transaction`, and a transaction's own `query` and `exec`: what drizzle calls), tells when the next one
 * finishes without an error, and makes the top-level ones take turns with the rest of the process.
 *
 * Taking turns: a PGlite statement runs on this thread, and its promise chain never goes back to the event
 * loop, so operations queued in PGlite ran back to back while no connection was accepted, no request read
 * and no timer fired (after a restart under load, /readyz's connection waited 0.5-2 s for the first writes
 * of eight clients; one request's own queries, one after the other, did the same). Each top-level operation
 * now starts on a turn of the event loop of its own, after the one before it has finished: PGlite runs one at
 * a time anyway, and between two of them the process takes in what has arrived. Not before PGlite is ready:
 * its start runs a query of its own through `query`.
 */
export function watchStatements(client: PGlite) {
  let underWay = 0;
  let waiting: Array<() => void> = [];
  let takesTurns = false;
  let lastTurn: Promise<unknown> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  // From the first turn of the event loop after PGlite is ready: that turn waited 0.1-0.3 s (idle) right
  // after the start, and the start's own few queries would have paid it.
  void client.waitReady.then(nextTurn).then(
    () => {
      takesTurns = true;
    },
    () => {},
  );
  const inTurn = <R>(run: () => Promise<R>): Promise<R> => {
    if (!takesTurns) return run();
    const result = lastTurn.then(nextTurn).then(run);
    lastTurn = result.catch(() => {});
    return result;
  };
  const watch =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>, { topLevel }: { topLevel: boolean }) =>
    (...args: A): Promise<R> => {
      underWay++;
      const settled = (answered: boolean) => {
        underWay--;
        if (!answered) return;
        const resolvers = waiting;
        waiting = [];
        for (const resolve of resolvers) resolve();
      };
      return (topLevel ? inTurn(() => run(...args)) : run(...args)).then(
        (result) => {
          settled(true);
          return result;
        },
        (error: unknown) => {
          settled(false);
          throw error;
        },
      );
    };
  const watchQueries = (target: Pick<PGlite, "query" | "exec">, topLevel: boolean) => {
    target.query = watch(target.query.bind(target), { topLevel }) as typeof target.query;
    target.exec = watch(target.exec.bind(target), { topLevel }) as typeof target.exec;
  };
  watchQueries(client, true);
  const transaction = client.transaction.bind(client);
  client.transaction = watch(
    (callback: Parameters<typeof transaction>[0]) =>
      transaction((tx) => {
        watchQueries(tx, false);
        return callback(tx);
      }),
    { topLevel: true },
  ) as typeof client.transaction;
  return {
    underWay: () => underWay,
    nextAnswer: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
      }),
  };
}
