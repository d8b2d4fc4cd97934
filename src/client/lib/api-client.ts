import { apiErrorSchema } from "#shared/errors.ts";

/**
 * Every failed call to our API (and to better-auth's endpoints, which answer the same `{ code, message }`
 * shape). `code` is one of the shared error codes or better-auth's own (e.g. `account_inactive`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** status 0: the request never got an answer (offline, DNS, server down). */
export const networkErrorMessage = "Network connection error. Please check your internet connection.";

export const isApiError = (error: unknown, status?: number): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status);

interface ApiFetchOptions {
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
}

/** The one HTTP client: same-origin JSON in, JSON out, `ApiError` on any failure. */
export async function apiFetch<T>(path: string, { method = "GET", body, signal }: ApiFetchOptions = {}) {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      signal,
      credentials: "same-origin",
      headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
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

function toApiError(response: Response, payload: unknown): ApiError {
  const parsed = apiErrorSchema.safeParse(payload);
  if (parsed.success) return new ApiError(response.status, parsed.data.code, parsed.data.message);
  // better-auth uses its own codes (INVALID_EMAIL_OR_PASSWORD, account_inactive…) in the same shape.
  if (isObject(payload) && typeof payload.message === "string" && payload.message) {
    const code = typeof payload.code === "string" ? payload.code : "internal";
    return new ApiError(response.status, code, payload.message);
  }
  return new ApiError(
    response.status,
    response.status === 401 ? "unauthenticated" : "internal",
    response.statusText || `Request failed with status ${response.status}`,
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;
