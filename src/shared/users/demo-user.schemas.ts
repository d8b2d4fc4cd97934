import type { z } from "zod";
import { emailSchema } from "./user.schemas.ts";
import { editUserInputSchema } from "./user-management.schemas.ts";

/**
 * The add/edit modal of /demo/user-management: full name, email, role, department and status,
 * all required, the email an email — the real edit form's rules plus the e-mail. The demo keeps its users
 * in the browser; nothing reaches the server.
 */
export const demoUserInputSchema = editUserInputSchema.extend({ email: emailSchema });
export type DemoUserInput = z.infer<typeof demoUserInputSchema>;
