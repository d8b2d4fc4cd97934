import { z } from "zod";
import type { Role } from "./roles.ts";

/** Admin settings › Sign-in security (decision 046). */
export const twoFactorSettingsSchema = z.object({
  requiredForStaff: z.boolean({ error: "Required for staff must be true or false" }),
});
export type TwoFactorSettings = z.infer<typeof twoFactorSettingsSchema>;

export const defaultTwoFactorSettings: TwoFactorSettings = { requiredForStaff: false };

export interface TwoFactorFacts {
  role: Role | null;
  twoFactorEnabled: boolean;
  /** Signs in with a password. Someone who signs in only through Google or the organisation's OIDC provider
   * does their second factor there, so the requirement does not reach them. */
  hasPassword: boolean;
}

/**
 * Whether this person must set up two-factor sign-in before using the app: when an administrator requires
 * it, a technician or admin who signs in with a password and has no authenticator app yet.
 */
export const mustSetUpTwoFactor = (person: TwoFactorFacts, settings: TwoFactorSettings) =>
  settings.requiredForStaff &&
  (person.role === "technician" || person.role === "admin") &&
  person.hasPassword &&
  !person.twoFactorEnabled;

export const setUpTwoFactorFirst =
  "Set up two-factor sign-in first: your administrator requires it for technicians and admins.";

/** A code from an authenticator app: 6 digits. */
export const totpCodePattern = /^\d{6}$/;
