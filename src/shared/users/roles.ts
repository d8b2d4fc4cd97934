// Zod-free on purpose: the header and route guards need these on first paint, before any form loads zod.

export const roles = ["user", "technician", "admin"] as const;
export type Role = (typeof roles)[number];

/** A role read from storage (text), or null for a person without one. */
export const roleOf = (value: string | null | undefined): Role | null =>
  roles.find((role) => role === value) ?? null;

/** Public sign-up offers only these; admins come only through /admin-signup. */
export const signUpRoles = ["user", "technician"] as const;
export type SignUpRole = (typeof signUpRoles)[number];

export const userStatuses = ["Active", "Inactive"] as const;
export type UserStatus = (typeof userStatuses)[number];

/** Homes: technician → /technician-home, admin → /admin-home, no role → /role-selection, else /user-home. */
export function homePathFor(role: Role | null | undefined): string {
  if (role === null) return "/role-selection";
  if (role === "technician") return "/technician-home";
  if (role === "admin") return "/admin-home";
  return "/user-home";
}
