export * from "./notifications.ts";
export * from "./ticket-activity.ts";
export * from "./tickets.ts";
export * from "./users.ts";
