export * from "./tickets.ts";
export * from "./users.ts";
