export * from "./canned-responses.ts";
export * from "./notification-mail.ts";
export * from "./notifications.ts";
export * from "./ticket-activity.ts";
export * from "./tickets.ts";
export * from "./user-changes.ts";
export * from "./users.ts";
