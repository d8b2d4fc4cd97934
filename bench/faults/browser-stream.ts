// The live stream as a signed-in browser tab keeps it: the EventSource of the HTML standard (reconnect after
// the `retry:` time on a network error or an ended stream, sending Last-Event-ID; give up on an answer that
// is not a 200 event stream) driven by the app's own logic in src/client/app/live-updates.tsx (after giving
// up, open a new EventSource 5 s later whose URL names the last id it kept). Mirror that file: when it
// changes, this must change with it.

// live-updates.tsx's streamPath and reopenDelayMs (that file needs the client's build to load).
const streamPath = "/api/notifications/stream";
const reopenDelayMs = 5_000;

/** Chrome's and Firefox's reconnection time until the server sends `retry:`. */
const defaultReconnectionMs = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BrowserStream {
  /** Every notification id received, with how many times (a replay may repeat one; the app ignores repeats). */
  received: Map<string, number>;
  /** The id the first `ready` named: notifications after it are this tab's to receive. */
  readonly baseline: number;
  /** When (performance.now()) each `ready` came: the first, and one after each reconnect. */
  readyAt: number[];
  /** Connections refused or cut before an answer (the browser retries them itself), by cause. */
  networkErrors: Map<string, number>;
  /** Answers other than a 200 event stream (the browser gives up; the app opens a new stream). */
  refusedAnswers: number;
  /** Resolves once the first stream said `ready`. */
  firstReady: Promise<void>;
  /** True when the stream is connected and said `ready`. */
  readonly isOpen: boolean;
  close(): void;
}

export function openBrowserStream(baseUrl: string, cookie: string): BrowserStream {
  const abort = new AbortController();
  let closed = false;
  let baseline = 0;
  let isOpen = false;
  let resolveFirstReady: () => void = () => {};
  const firstReady = new Promise<void>((resolve) => {
    resolveFirstReady = resolve;
  });
  const stream: BrowserStream = {
    received: new Map(),
    get baseline() {
      return baseline;
    },
    readyAt: [],
    networkErrors: new Map(),
    refusedAnswers: 0,
    firstReady,
    get isOpen() {
      return isOpen;
    },
    close() {
      closed = true;
      abort.abort();
    },
  };

  // live-updates.tsx's store: the last notification id the app saw, for the URL of a reopened stream.
  let storeLastEventId: string | null = null;
  let isFirstReady = true;

  const onEvent = (type: string, data: string, lastEventId: string) => {
    if (type === "notification") {
      const notification = JSON.parse(data) as { notificationId: string };
      storeLastEventId = lastEventId || notification.notificationId;
      stream.received.set(
        notification.notificationId,
        (stream.received.get(notification.notificationId) ?? 0) + 1,
      );
    } else if (type === "ready") {
      if (lastEventId) storeLastEventId = lastEventId;
      if (isFirstReady) {
        isFirstReady = false;
        baseline = Number((JSON.parse(data) as { lastEventId: string | null }).lastEventId ?? 0);
        resolveFirstReady();
      }
      stream.readyAt.push(performance.now());
      isOpen = true;
    }
  };

  /** One EventSource's life: connects and reconnects until the server's answer makes it give up. */
  async function eventSource(url: string) {
    let reconnectionMs = defaultReconnectionMs;
    let lastEventId = "";
    while (!closed) {
      let response: Response;
      try {
        response = await fetch(new URL(url, baseUrl), {
          headers: {
            cookie,
            accept: "text/event-stream",
            "cache-control": "no-cache",
            ...(lastEventId ? { "last-event-id": lastEventId } : {}),
          },
          signal: abort.signal,
        });
      } catch (error) {
        if (closed) return;
        const cause = String((error as { cause?: { code?: string; message?: string } }).cause?.code ?? error);
        stream.networkErrors.set(cause, (stream.networkErrors.get(cause) ?? 0) + 1);
        await sleep(reconnectionMs);
        continue;
      }
      if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
        await response.body?.cancel().catch(() => {});
        stream.refusedAnswers++;
        return;
      }
      // The standard's parser: fields up to each blank line; `id` persists across events until changed,
      // and (as Chromium and Firefox do) across this EventSource's connections.
      let idBuffer = lastEventId;
      let type = "";
      let data = "";
      let hasData = false;
      let buffer = "";
      const decoder = new TextDecoder();
      try {
        const reader = response.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          buffer += decoder.decode(read.value, { stream: true });
          let newline = buffer.indexOf("\n");
          while (newline >= 0) {
            const line = buffer.slice(0, newline);
            buffer = buffer.slice(newline + 1);
            newline = buffer.indexOf("\n");
            if (line === "") {
              lastEventId = idBuffer;
              if (hasData) onEvent(type || "message", data, lastEventId);
              type = "";
              data = "";
              hasData = false;
              continue;
            }
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "event") type = value;
            else if (field === "data") {
              data = hasData ? `${data}\n${value}` : value;
              hasData = true;
            } else if (field === "id" && !value.includes("\0")) idBuffer = value;
            else if (field === "retry" && /^\d+$/.test(value)) reconnectionMs = Number(value);
          }
        }
      } catch {
        // Reset or aborted: the browser reconnects (below) unless the tab closed.
      }
      if (closed) return;
      isOpen = false;
      await sleep(reconnectionMs);
    }
  }

  void (async () => {
    while (!closed) {
      const url = storeLastEventId
        ? `${streamPath}?lastEventId=${encodeURIComponent(storeLastEventId)}`
        : streamPath;
      await eventSource(url);
      if (closed) return;
      // The EventSource gave up (an error answer): the app opens a new one a little later.
      await sleep(reopenDelayMs);
    }
  })();
  return stream;
}
