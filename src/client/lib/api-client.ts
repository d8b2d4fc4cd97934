import type { ErrorCode } from "#shared/errors.ts";

/**
 * Every failed call to our API (and to better-auth's endpoints, which answer the same `{ code, message }`
 * shape). `code` is one of the shared error codes or better-auth's own (e.g. `account_inactive`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** One of our ErrorCode values, or better-auth's own (INVALID_EMAIL_OR_PASSWORD, account_inactive…). */
    readonly code: ErrorCode | (string & {}),
    message: string,
    /** validation_failed: one { path, message } per field the server refused (forms show each at its field). */
    readonly issues: readonly FieldIssue[] = [],
    /** The answer's `details` as sent (e.g. why a reply was refused as stale, decision 072). */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface FieldIssue {
  path: readonly string[];
  message: string;
}

/** status 0: the request never got an answer (offline, DNS, server down). */
export const networkErrorMessage = "Network connection error. Please check your internet connection.";

export const isApiError = (error: unknown, status?: number): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status);

interface ApiFetchOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: unknown;
  /** A file sent as the raw request body (attachments), instead of a JSON body. */
  file?: Blob;
  signal?: AbortSignal;
  /** Lets the request outlive the page (a report sent as the person leaves, e.g. a deflection). */
  keepalive?: boolean;
}

type Fetch = (path: string, init: RequestInit) => Promise<Response>;

/**
 * Where requests go: the browser's fetch, or, while the server draws a signed-in first screen
 * (src/client/server-rendering.tsx, decision 052), the server's own routes answering for the person it draws for.
 */
let send: Fetch | null = null;

/** Sends this process's requests through `fetch` instead of the global one; null puts the global back. */
export function setFetch(fetch: Fetch | null) {
  send = fetch;
}

/** The one HTTP client: same-origin JSON in, JSON out, `ApiError` on any failure. */
export async function apiFetch<T>(
  path: string,
  { method = "GET", body, file, signal, keepalive }: ApiFetchOptions = {},
) {
  let response: Response;
  try {
    response = await (send ?? fetch)(path, {
      method,
      signal,
      keepalive,
      credentials: "same-origin",
      headers: file
        ? { accept: "application/json", "content-type": file.type || "application/octet-stream" }
        : body === undefined
          ? { accept: "application/json" }
          : { "content-type": "application/json" },
      body: file ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, "network_error", networkErrorMessage);
  }

  const text = await response.text();
  const payload: unknown = text ? safeJsonParse(text) : undefined;
  if (!response.ok) throw toApiError(response, payload);
  return payload as T;
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// A plain shape check rather than the shared zod schema: it keeps zod out of the first download, and
// better-auth's answers carry codes outside our ErrorCode list anyway.
function toApiError(response: Response, payload: unknown): ApiError {
  const fallbackCode = response.status === 401 ? "unauthenticated" : "internal";
  if (isObject(payload) && typeof payload.message === "string" && payload.message) {
    const code = typeof payload.code === "string" && payload.code ? payload.code : fallbackCode;
    return new ApiError(
      response.status,
      code,
      payload.message,
      fieldIssuesOf(payload.details),
      payload.details,
    );
  }
  return new ApiError(
    response.status,
    fallbackCode,
    response.statusText || `Request failed with status ${response.status}`,
  );
}

function fieldIssuesOf(details: unknown): FieldIssue[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((issue: unknown) =>
    isObject(issue) && Array.isArray(issue.path) && typeof issue.message === "string"
      ? [{ path: issue.path.map(String), message: issue.message }]
      : [],
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;
