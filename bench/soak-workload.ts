// The soak's mixed workload (bench/soak.ts): what seeded people of every role do in the app, by weight
// (per 100 requests: 85 reads, 15 writes), each request timed and its answer checked. Every request is
// expected to succeed: people only open tickets they have seen in their own lists, technicians take only
// tickets the soak created (so that no two take the same one, and no technician opens a ticket another has
// just taken), and each resolves only what they took.
import http from "node:http";
import { origin, type Role } from "./server-bench.ts";

export interface Person {
  role: Role;
  cookie: string;
}

interface TicketRef {
  ticketId: string;
  title?: string;
  status: string;
  assignedTo: string | null;
}

/** Where a person is in a list: its query, the next page's cursor, and how deep. */
interface ListPosition {
  query: string;
  cursor: string | null;
  depth: number;
}

interface Worker extends Person {
  /** Tickets from their latest pages: what they open and comment on. */
  seen: TicketRef[];
  list: ListPosition;
  /** A technician's tickets taken during the soak, to resolve. */
  taken: string[];
  unread: string[];
}

interface Operation {
  name: string;
  weight: number;
  write: boolean;
  run(): Promise<unknown>;
}

const requestTimeoutMs = 30_000;
const searchWords = ["printer", "vpn", "laptop", "outlook", "monitor", "payroll", "headset"];
const categories = ["Hardware", "Software", "Network", "Other"];
const priorities = ["Low", "Medium", "High"];
const departments = ["General", "IT", "HR", "Finance", "Sales", "Operations"];
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The p-th percentile (0–1) of some latencies, rounded to a millisecond. */
export function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);
}

export function createWorkload({
  baseUrl,
  agent,
  workers: people,
}: {
  baseUrl: string;
  agent: http.Agent;
  workers: Record<Role, Person[]>;
}) {
  const toWorker = (person: Person): Worker => ({
    ...person,
    seen: [],
    list: { query: "", cursor: null, depth: 0 },
    taken: [],
    unread: [],
  });
  const workers = {
    user: people.user.map(toWorker),
    technician: people.technician.map(toWorker),
    admin: people.admin.map(toWorker),
  };
  const everyone = [...workers.user, ...workers.technician, ...workers.admin];
  /** Tickets the soak created, not yet taken: what technicians take. */
  const openQueue: string[] = [];
  const soakTitle = "Soak:";

  const stats = new Map<string, { requests: number; errors: number; latencies: number[] }>();
  let window = { latencies: [] as number[], errors: 0 };
  let errorsByKind: Record<string, number> = {};
  let errorSamples: string[] = [];

  function recordError(kind: string, message: string) {
    errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
    window.errors++;
    if (errorSamples.length < 20) errorSamples.push(message);
  }

  function record(name: string, ms: number, error: { kind: string; message: string } | null) {
    const entry = stats.get(name) ?? { requests: 0, errors: 0, latencies: [] };
    stats.set(name, entry);
    entry.requests++;
    entry.latencies.push(ms);
    window.latencies.push(ms);
    if (error) {
      entry.errors++;
      recordError(error.kind, `${name}: ${error.message}`);
    }
  }

  /** One request; answers the parsed body of a 2xx/3xx answer, or null (recorded as an error). */
  function send(name: string, worker: Worker, method: string, path: string, body?: unknown) {
    const started = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<unknown>((resolve) => {
      let done = false;
      const settle = (error: { kind: string; message: string } | null, value: unknown = null) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        record(name, performance.now() - started, error);
        resolve(error ? null : value);
      };
      const request = http.request(
        new URL(path, baseUrl),
        {
          method,
          agent,
          headers: {
            cookie: worker.cookie,
            ...(method === "GET" ? {} : { origin }),
            ...(payload ? { "content-type": "application/json" } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString();
            if (status >= 200 && status < 400) settle(null, text ? JSON.parse(text) : null);
            else
              settle({ kind: String(status), message: `${method} ${path}: ${status} ${text.slice(0, 200)}` });
          });
          response.on("close", () => {
            if (!response.complete)
              settle({ kind: "socket", message: `${method} ${path}: connection closed mid-answer` });
          });
        },
      );
      const timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${requestTimeoutMs / 1000} s`)),
        requestTimeoutMs,
      );
      request.on("error", (error) =>
        settle({
          kind: error.message.startsWith("no answer") ? "timeout" : "socket",
          message: `${method} ${path}: ${error.message}`,
        }),
      );
      request.end(payload);
    });
  }

  function remember(worker: Worker, items: TicketRef[]) {
    for (const { ticketId, title, status, assignedTo } of items) {
      // An unassigned ticket of the soak's may be taken by another technician at any moment (even one
      // listed before its creator had the answer): technicians open only the seeded ones.
      if (worker.role === "technician" && assignedTo === null && title?.startsWith(soakTitle)) continue;
      worker.seen.push({ ticketId, status, assignedTo });
    }
    worker.seen.splice(0, Math.max(0, worker.seen.length - 50));
  }

  type Page = { items: TicketRef[]; nextCursor: string | null };
  const listQueries: Record<Role, string[]> = {
    user: [""],
    technician: ["", "?scope=mine", "?scope=unassigned"],
    admin: ["", "", "?sort=priority&dir=desc"],
  };
  async function firstPage(worker: Worker, query = pick(listQueries[worker.role])) {
    const page = (await send(`list page 1: ${worker.role}`, worker, "GET", `/api/tickets${query}`)) as Page;
    if (!page) return;
    remember(worker, page.items);
    worker.list = { query, cursor: page.nextCursor, depth: 1 };
  }
  // Deeper pages by cursor, up to page 40, then back to the first.
  async function nextPage(worker: Worker) {
    const list = worker.list;
    if (!list.cursor || list.depth >= 40) return firstPage(worker);
    const separator = list.query ? "&" : "?";
    const path = `/api/tickets${list.query}${separator}cursor=${encodeURIComponent(list.cursor)}`;
    const page = (await send("list next page (cursor)", worker, "GET", path)) as Page;
    if (!page) return;
    remember(worker, page.items);
    // Unless another request of theirs has moved them to another list meanwhile.
    if (worker.list === list)
      worker.list = { query: list.query, cursor: page.nextCursor, depth: list.depth + 1 };
  }
  async function openTicket(name: string, worker: Worker, suffix: string) {
    const ticket = worker.seen.length ? pick(worker.seen) : null;
    if (!ticket) return firstPage(worker);
    return send(name, worker, "GET", `/api/tickets/${ticket.ticketId}${suffix}`);
  }
  async function listNotifications(worker: Worker) {
    const filter = pick(["all", "unread"]);
    const page = (await send("notification list", worker, "GET", `/api/notifications?filter=${filter}`)) as {
      items: Array<{ notificationId: string; read: boolean }>;
    } | null;
    if (page) worker.unread = page.items.filter((n) => !n.read).map((n) => n.notificationId);
  }
  async function take() {
    const worker = pick(workers.technician);
    const ticketId = openQueue.shift();
    if (!ticketId) return firstPage(worker, "?scope=unassigned");
    if (await send("take (technician)", worker, "POST", `/api/tickets/${ticketId}/assign`)) {
      worker.taken.push(ticketId);
      worker.seen.push({ ticketId, status: "In Progress", assignedTo: "me" });
    }
  }

  const operations: Operation[] = [
    { name: "list page 1: user", weight: 10, write: false, run: () => firstPage(pick(workers.user)) },
    {
      name: "list page 1: technician",
      weight: 8,
      write: false,
      run: () => firstPage(pick(workers.technician)),
    },
    { name: "list page 1: admin", weight: 4, write: false, run: () => firstPage(pick(workers.admin)) },
    { name: "list next page (cursor)", weight: 8, write: false, run: () => nextPage(pick(everyone)) },
    {
      name: "ticket view",
      weight: 16,
      write: false,
      run: () => openTicket("ticket view", pick(everyone), ""),
    },
    {
      name: "ticket activity",
      weight: 10,
      write: false,
      run: () => openTicket("ticket activity", pick(everyone), "/activity"),
    },
    {
      name: "dashboard counts",
      weight: 9,
      write: false,
      run: () => {
        const role = pick([
          "user",
          "user",
          "user",
          "user",
          "technician",
          "technician",
          "technician",
        ] as const);
        const worker = Math.random() < 1 / 9 ? pick(workers.admin) : pick(workers[role]);
        const scope = worker.role === "user" ? "?scope=created" : "";
        return send("dashboard counts", worker, "GET", `/api/tickets/summary${scope}`);
      },
    },
    {
      name: "notification counts",
      weight: 6,
      write: false,
      run: () => send("notification counts", pick(everyone), "GET", "/api/notifications/counts"),
    },
    { name: "notification list", weight: 4, write: false, run: () => listNotifications(pick(everyone)) },
    {
      name: "search",
      weight: 5,
      write: false,
      run: () => {
        const word = pick(searchWords);
        const path = Math.random() < 0.6 ? `/api/search?q=${word}` : `/api/tickets?q=${word}`;
        return send("search", pick(everyone), "GET", path);
      },
    },
    { name: "me", weight: 5, write: false, run: () => send("me", pick(everyone), "GET", "/api/me") },
    {
      name: "create ticket (user)",
      weight: 4,
      write: true,
      run: async () => {
        const worker = pick(workers.user);
        const ticket = (await send("create ticket (user)", worker, "POST", "/api/tickets", {
          title: `${soakTitle} ${pick(searchWords)} problem`,
          description: "Created by bench:soak",
          category: pick(categories),
          priority: pick(priorities),
          department: pick(departments),
          floor: String(Math.floor(Math.random() * 7)),
          officeNumber: String(100 + Math.floor(Math.random() * 50)),
        })) as TicketRef | null;
        if (!ticket) return;
        openQueue.push(ticket.ticketId);
        worker.seen.push({ ticketId: ticket.ticketId, status: "Open", assignedTo: null });
      },
    },
    {
      name: "comment",
      weight: 5,
      write: true,
      run: async () => {
        const worker = Math.random() < 0.6 ? pick(workers.user) : pick(workers.technician);
        const ticketId = worker.taken.length ? pick(worker.taken) : pick(worker.seen)?.ticketId;
        if (!ticketId) return firstPage(worker);
        return send("comment", worker, "POST", `/api/tickets/${ticketId}/comments`, {
          message: `Soak comment at ${new Date().toISOString()}`,
        });
      },
    },
    { name: "take (technician)", weight: 2, write: true, run: take },
    {
      name: "resolve (technician)",
      weight: 2,
      write: true,
      run: async () => {
        const worker = workers.technician.find((w) => w.taken.length > 0);
        if (!worker) return take();
        const [ticketId] = worker.taken.splice(Math.floor(Math.random() * worker.taken.length), 1);
        return send("resolve (technician)", worker, "PATCH", `/api/tickets/${ticketId}/status`, {
          status: "Resolved",
        });
      },
    },
    {
      name: "mark notification read",
      weight: 2,
      write: true,
      run: () => {
        const worker = everyone.find((w) => w.unread.length > 0);
        if (!worker) return listNotifications(pick(everyone));
        return send(
          "mark notification read",
          worker,
          "POST",
          `/api/notifications/${worker.unread.pop()}/read`,
        );
      },
    },
  ];
  const totalWeight = operations.reduce((sum, op) => sum + op.weight, 0);
  const cumulative = operations.map((_, i) =>
    operations.slice(0, i + 1).reduce((sum, op) => sum + op.weight, 0),
  );

  return {
    /** One request of the mix, chosen by weight (some fall back to a read while they have nothing to act on). */
    async runOne() {
      const r = Math.random() * totalWeight;
      const operation = operations[cumulative.findIndex((upTo) => r < upTo)] ?? operations[0]!;
      try {
        await operation.run();
      } catch (error) {
        recordError("bench", `${operation.name}: ${String(error)}`);
      }
    },
    recordError,
    /** What happened since the last call (or reset): the sampler's window. */
    takeWindow() {
      const taken = window;
      window = { latencies: [], errors: 0 };
      return taken;
    },
    totals() {
      let requests = 0;
      for (const entry of stats.values()) requests += entry.requests;
      const errors = Object.values(errorsByKind).reduce((sum, n) => sum + n, 0);
      return { requests, errors, errorsByKind: { ...errorsByKind } };
    },
    byOperation() {
      return operations
        .filter((op) => stats.has(op.name))
        .map((op) => {
          const entry = stats.get(op.name)!;
          return {
            operation: op.name,
            requests: entry.requests,
            errors: entry.errors,
            "p50 ms": percentile(entry.latencies, 0.5),
            "p99 ms": percentile(entry.latencies, 0.99),
          };
        });
    },
    firstErrors: () => [...errorSamples],
    mix: () => operations.map(({ name, weight, write }) => ({ name, weight, write })),
    /** Forgets the figures so far (the calibration's), not what the people have seen. */
    reset() {
      stats.clear();
      window = { latencies: [], errors: 0 };
      errorsByKind = {};
      errorSamples = [];
    },
  };
}
