import { z } from "zod";
import { roles, userStatuses } from "./roles.ts";
import { emailSchema, personNameSchema } from "./user.schemas.ts";

/**
 * The add/edit modal of /demo/user-management (spec §5): full name, email, role, department and status,
 * all required, the email an email. The demo keeps its users in the browser; nothing reaches the server.
 */
export const demoUserInputSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  role: z.enum(roles, { error: "Role must be user, technician or admin" }),
  department: z
    .string({ error: "Department is required" })
    .trim()
    .min(1, "Department is required")
    .max(100, "Department must be at most 100 characters"),
  status: z.enum(userStatuses, { error: "Status must be Active or Inactive" }),
});
export type DemoUserInput = z.infer<typeof demoUserInputSchema>;
