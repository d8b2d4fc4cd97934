// What the OpenAPI document says of each operation that the routes' zod schemas do not: its operationId
// (derived from method and path, a few named by hand), its one-line summary, and the success answers that
// are not JSON (files, CSV, the event stream, redirects, 204). Decision 025; docs/api.md promises the ids
// stay stable.

const pascal = (segment: string) =>
  segment
    .split(/[-_.]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
const singular = (word: string) =>
  word.endsWith("ies") ? `${word.slice(0, -3)}y` : word.endsWith("s") ? word.slice(0, -1) : word;
const isParameter = (segment: string) => segment.startsWith("{");
const camel = (segment: string) => segment.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());

/** Where the rule below reads badly or two paths would get one id. Never change one: clients use them. */
const operationIdOverrides: Record<string, string> = {
  "GET /api/openapi.json": "getOpenApiDocument",
  "POST /api/me/role": "chooseMyRole",
  "POST /api/admin-signup": "signUpFirstAdmin",
  "POST /api/tickets/bulk": "changeTicketsInBulk",
  "POST /api/tickets/bulk/macro": "applyMacroToTickets",
  "POST /api/tickets/{ticketId}/assign": "assignTicketToMe",
  "PUT /api/tickets/{ticketId}/hold": "putTicketOnHold",
  "PATCH /api/tickets/{ticketId}/hold": "changeTicketHold",
  "DELETE /api/tickets/{ticketId}/hold": "takeTicketOffHold",
  "PATCH /api/tickets/{ticketId}/status": "changeTicketStatus",
  "PUT /api/tickets/{ticketId}/feedback": "giveTicketFeedback",
  "GET /api/tickets/export.csv": "exportTicketsCsv",
  "GET /api/admin/users/export.csv": "exportUsersCsv",
  "GET /api/search": "searchTickets",
  "GET /api/staff": "listStaff",
  "GET /api/tickets/{ticketId}/follow": "getTicketFollowing",
  "PUT /api/tickets/{ticketId}/follow": "followTicket",
  "DELETE /api/tickets/{ticketId}/follow": "unfollowTicket",
  "PUT /api/tickets/{ticketId}/presence": "reportTicketPresence",
  "DELETE /api/tickets/{ticketId}/presence": "leaveTicketPresence",
  "GET /api/articles/from-ticket/{ticketId}": "draftArticleFromTicket",
  "POST /api/articles/deflections": "recordArticleDeflection",
  "POST /api/articles/{articleId}/suggestion-opens": "recordArticleSuggestionOpen",
  "GET /api/articles/suggestions": "suggestArticles",
  "GET /api/articles/stats": "getArticleStats",
  "PUT /api/articles/{articleId}/vote": "voteOnArticle",
  "POST /api/me/sessions/revoke-others": "revokeMyOtherSessions",
  "GET /api/admin/settings/departments": "getDepartmentSettings",
  "PUT /api/admin/settings/departments": "setDepartmentSettings",
  "GET /api/admin/settings/tags": "getTagSettings",
  "PUT /api/admin/settings/tags": "setTagSettings",
  "GET /api/admin/settings/history": "getSettingsHistory",
  "GET /api/admin/settings/auto-close": "getAutoCloseSettings",
  "PUT /api/admin/settings/auto-close": "setAutoCloseSettings",
  "GET /api/admin/settings/on-hold": "getOnHoldSettings",
  "PUT /api/admin/settings/on-hold": "setOnHoldSettings",
  "GET /api/admin/settings/two-factor": "getTwoFactorSettings",
  "PUT /api/admin/settings/two-factor": "setTwoFactorSettings",
  "GET /api/admin/settings/ticket-intake": "getTicketIntakeSettings",
  "PUT /api/admin/settings/ticket-intake": "setTicketIntakeSettings",
  "GET /api/admin/settings/sso-roles": "getSsoRoleSettings",
  "PUT /api/admin/settings/sso-roles": "setSsoRoleSettings",
  "GET /api/admin/settings/custom-fields": "listCustomFieldDefinitions",
  "GET /api/tags": "suggestTags",
  "PUT /api/tickets/{ticketId}/major-incident": "declareMajorIncident",
  "DELETE /api/tickets/{ticketId}/major-incident": "endMajorIncident",
  "POST /api/tickets/{ticketId}/incident/affected": "addAffectedTickets",
  "DELETE /api/tickets/{ticketId}/incident/affected/{affectedId}": "removeAffectedTicket",
  "PUT /api/known-issues/{ticketId}/follow": "followKnownIssue",
  "DELETE /api/known-issues/{ticketId}/follow": "unfollowKnownIssue",
  "GET /api/notifications/stream": "streamNotifications",
  "GET /api/notifications/counts": "getNotificationCounts",
  "POST /api/notifications/read-all": "markAllNotificationsRead",
  "POST /api/notifications/{notificationId}/read": "markNotificationRead",
  "GET /api/attachments/{attachmentId}": "downloadAttachment",
  "GET /api/me/notification-settings": "getMyNotificationSettings",
  "POST /api/notifications/unsubscribe": "unsubscribe",
  "GET /api/notifications/unsubscribe": "openUnsubscribeLink",
  "POST /api/admin/users/{userId}/password-reset": "sendUserPasswordReset",
  "POST /api/admin/webhooks/{webhookId}/rotate-secret": "rotateWebhookSecret",
  "GET /api/admin/scim/tokens": "listScimTokens",
  "POST /api/admin/scim/tokens": "createScimToken",
  "DELETE /api/admin/scim/tokens/{scimTokenId}": "revokeScimToken",
  "GET /scim/v2/ServiceProviderConfig": "getScimServiceProviderConfig",
  "GET /scim/v2/ResourceTypes": "listScimResourceTypes",
  "GET /scim/v2/Schemas": "listScimSchemas",
  "GET /scim/v2/Users": "listScimUsers",
  "POST /scim/v2/Users": "createScimUser",
  "GET /scim/v2/Users/{id}": "getScimUser",
  "PUT /scim/v2/Users/{id}": "replaceScimUser",
  "PATCH /scim/v2/Users/{id}": "patchScimUser",
  "DELETE /scim/v2/Users/{id}": "deactivateScimUser",
  "GET /api/auth/providers": "listSignInProviders",
  "POST /api/auth/sign-up/email": "signUpWithEmail",
  "POST /api/auth/sign-in/email": "signInWithEmail",
  "POST /api/auth/sign-in/social": "signInWithProvider",
  "POST /api/auth/sign-out": "signOut",
  "GET /api/auth/get-session": "getSession",
  "POST /api/auth/request-password-reset": "requestPasswordReset",
  "GET /api/auth/reset-password/{token}": "openPasswordResetLink",
  "POST /api/auth/reset-password": "resetPassword",
  "GET /api/auth/callback/{provider}": "completeProviderSignIn",
  "POST /api/auth/callback/{provider}": "completeProviderSignInByForm",
  "GET /api/auth/error": "getSignInError",
  "POST /api/auth/two-factor/enable": "enableTwoFactor",
  "POST /api/auth/two-factor/verify-totp": "verifyTwoFactorCode",
  "POST /api/auth/two-factor/verify-backup-code": "verifyTwoFactorBackupCode",
  "POST /api/auth/two-factor/disable": "disableTwoFactor",
};

/**
 * A readable camelCase id from method and path (`GET /api/tickets` → listTickets, `GET
 * /api/tickets/{ticketId}` → getTicket, `POST /api/tickets/{ticketId}/comments` → addTicketComment,
 * `PUT /api/me/theme` → setMyTheme), or its override above.
 */
export function operationIdOf(method: string, path: string): string {
  const override = operationIdOverrides[`${method.toUpperCase()} ${path}`];
  if (override) return override;
  // "admin" and "settings" say who may call it, not what it is.
  const segments = path
    .replace(/^\/api\//, "")
    .split("/")
    .filter((segment) => segment !== "admin" && segment !== "settings");
  const words = segments.flatMap((segment, index) => {
    if (isParameter(segment)) return [];
    return [pascal(isParameter(segments[index + 1] ?? "") ? singular(segment) : segment)];
  });
  if (words[0] === "Me" && words.length > 1) words[0] = "My";
  const last = segments.at(-1) ?? "";
  const verb = method.toLowerCase();
  if (isParameter(last)) {
    const verbs: Record<string, string> = { get: "get", patch: "update", put: "update", delete: "delete" };
    return `${verbs[verb] ?? verb}${words.join("")}`;
  }
  const isCollection = last.endsWith("s");
  if (verb === "get") return `${isCollection ? "list" : "get"}${words.join("")}`;
  if (verb === "post" && isCollection) {
    const underAnItem = segments.slice(0, -1).some(isParameter);
    return `${underAnItem ? "add" : "create"}${words.slice(0, -1).join("")}${singular(words.at(-1) ?? "")}`;
  }
  // A POST to a verb (…/assign, …/merge, …/redeliver) does that to what the path names before it.
  if (verb === "post") return `${camel(last)}${words.slice(0, -1).join("")}`;
  return `${verb === "put" ? "set" : verb === "patch" ? "update" : verb}${words.join("")}`;
}

/** A success answer that is not the route's JSON schema: files, CSV, the event stream, redirects. */
const binaryFile = {
  description: "The file's bytes, with its own content type and a content-disposition naming the file",
  content: { "*/*": { schema: { type: "string", format: "binary" } } },
};

export const nonJsonSuccess: Record<string, Record<string, unknown>> = {
  "GET /api/openapi.json": {
    200: {
      description: "This document (OpenAPI 3.1)",
      content: { "application/json": { schema: { type: "object" } } },
    },
  },
  "GET /api/tickets/export.csv": {
    200: {
      description: "The tickets of the list's filters as CSV (UTF-8, a header row, one row per ticket)",
      content: { "text/csv": { schema: { type: "string" } } },
    },
  },
  "GET /api/admin/users/export.csv": {
    200: {
      description: "The accounts of the list's filters as CSV (UTF-8, a header row, one row per account)",
      content: { "text/csv": { schema: { type: "string" } } },
    },
  },
  "GET /api/attachments/{attachmentId}": { 200: binaryFile },
  "GET /api/attachments/{attachmentId}/preview": {
    200: { ...binaryFile, description: "The image's bytes, inline, with its own image content type" },
  },
  "GET /api/notifications/stream": {
    200: {
      description:
        "A Server-Sent Events stream for the web app; its event names may change in a minor version (docs/api.md)",
      content: { "text/event-stream": { schema: { type: "string" } } },
    },
  },
  "GET /api/notifications/unsubscribe": {
    303: {
      description: "Changes nothing: leads to the /unsubscribe page, which asks before it unsubscribes",
      headers: { Location: { schema: { type: "string" } } },
    },
  },
};

/** Deletes answer 204 with no body. */
export const noContent = { description: "Done; no content" };

/**
 * Decision 078's headers, as the document tells them: `Idempotency-Key` on every creating POST that takes
 * one, `If-Match` (and its 412) on the ticket edits that honour it, the ticket's `ETag` on its answers.
 */
const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Runs the request once: a retry with the same key and body within 24 hours gets the first answer again (Idempotent-Replayed: true); the same key with another body is 422 (docs/api.md, Retrying safely).",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
};
const ifMatch = {
  name: "If-Match",
  in: "header",
  required: false,
  description:
    "The ticket's ETag as it was read: the change is made only if the ticket has not changed since (else 412).",
  schema: { type: "string" },
};
const etag = {
  ETag: { description: "The ticket's version, for If-Match.", schema: { type: "string" } },
};
const versionedTicketOperations = [
  "PATCH /api/tickets/{ticketId}",
  "PATCH /api/tickets/{ticketId}/status",
  "PUT /api/tickets/{ticketId}/assignee",
  "PUT /api/tickets/{ticketId}/hold",
  "PATCH /api/tickets/{ticketId}/hold",
  "DELETE /api/tickets/{ticketId}/hold",
];

interface DocumentedOperation {
  parameters?: unknown[];
  responses: Record<string, { headers?: Record<string, unknown> } & Record<string, unknown>>;
}

export function addSafeRetryHeaders(
  method: string,
  path: string,
  operation: DocumentedOperation,
  refusedIdempotencyPaths: readonly string[],
) {
  const key = `${method.toUpperCase()} ${path}`;
  if (
    key.startsWith("POST /api/") &&
    !path.startsWith("/api/auth/") &&
    !refusedIdempotencyPaths.includes(path)
  ) {
    operation.parameters = [...(operation.parameters ?? []), idempotencyKey];
  }
  const answersTicketVersion =
    key === "GET /api/tickets/{ticketId}" || versionedTicketOperations.includes(key);
  if (answersTicketVersion && operation.responses[200]) {
    operation.responses[200] = {
      ...operation.responses[200],
      headers: { ...operation.responses[200].headers, ...etag },
    };
  }
  if (versionedTicketOperations.includes(key)) {
    operation.parameters = [...(operation.parameters ?? []), ifMatch];
    operation.responses[412] = {
      description: "The ticket changed since the ETag sent in If-Match was read: read it again.",
      content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
    };
  }
}
