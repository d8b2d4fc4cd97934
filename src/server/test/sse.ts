export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Comment lines (": ping"). */
  comments: string[];
  /** The first event (seen already or still to come) that matches; rejects after timeoutMs. */
  waitFor(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  closed: Promise<void>;
  close(): void;
}

/** Opens a live stream over real HTTP and parses Server-Sent Events from the response body. */
export async function openStream(
  baseUrl: string,
  {
    cookie,
    lastEventId,
    path = "/api/notifications/stream",
  }: { cookie: string; lastEventId?: string; path?: string },
): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(new URL(path, baseUrl), {
    headers: { cookie, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of waiters) waiter();
  };
  const closed = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: "message", data: "" };
          let hasData = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line);
            else if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("event: ")) event.event = line.slice(7);
            else if (line.startsWith("data: ")) {
              event.data = line.slice(6);
              hasData = true;
            }
          }
          if (hasData) events.push(event);
          end = buffer.indexOf("\n\n");
        }
        notify();
      }
    } catch {
      // Aborted by the test.
    }
    notify();
  })();
  let isClosed = false;
  void closed.then(() => {
    isClosed = true;
    notify();
  });
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    closed,
    close: () => abort.abort(),
    waitFor(predicate, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            done();
            resolve(found);
          } else if (isClosed) {
            done();
            reject(new Error(`stream closed; events: ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching event in ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
