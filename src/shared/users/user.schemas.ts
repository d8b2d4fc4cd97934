import { z } from "zod";

export const roles = ["user", "technician", "admin"] as const;
export type Role = (typeof roles)[number];

/** Public sign-up offers only these; admins come only through /admin-signup. */
export const signUpRoles = ["user", "technician"] as const;
export type SignUpRole = (typeof signUpRoles)[number];

export const userStatuses = ["Active", "Inactive"] as const;
export type UserStatus = (typeof userStatuses)[number];

export const defaultDepartment = "General";
export const passwordMinLength = 8;
export const passwordMaxLength = 128;

export const emailSchema = z.email("Enter a valid e-mail address").max(254, "E-mail is too long");
export const passwordSchema = z
  .string({ error: "Password is required" })
  .min(passwordMinLength, `Password must be at least ${passwordMinLength} characters`)
  .max(passwordMaxLength, `Password must be at most ${passwordMaxLength} characters`);
export const personNameSchema = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(100, "Name must be at most 100 characters");

export const signUpInputSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: z.enum(signUpRoles, { error: "Role must be user or technician" }).default("user"),
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

export const signInInputSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Password is required").max(passwordMaxLength),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

/** The signed-in person as the API describes them. */
export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(roles).nullable(),
  department: z.string(),
  status: z.enum(userStatuses),
});
export type Me = z.infer<typeof meSchema>;

/** Spec §2: technician → /technician-home, admin → /admin-home, no role → /role-selection, else /user-home. */
export function homePathFor(role: Role | null | undefined): string {
  if (role === null) return "/role-selection";
  if (role === "technician") return "/technician-home";
  if (role === "admin") return "/admin-home";
  return "/user-home";
}
