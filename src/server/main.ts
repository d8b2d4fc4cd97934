import { startServer } from "./start-server.ts";

// Production start-up: the configuration from the environment, the system clock, no test hooks.
await startServer();
