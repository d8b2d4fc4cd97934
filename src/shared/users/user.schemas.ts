import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";
import { roles, signUpRoles, userStatuses } from "./roles.ts";

export const defaultDepartment = "General";
export const passwordMinLength = 8;
export const passwordMaxLength = 128;

export const emailSchema = z.email("Enter a valid e-mail address").max(254, "E-mail is too long");
export const passwordSchema = z
  .string({ error: "Password is required" })
  .min(passwordMinLength, `Password must be at least ${passwordMinLength} characters`)
  .max(passwordMaxLength, `Password must be at most ${passwordMaxLength} characters`);
export const personNameSchema = storableText(
  z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be at most 100 characters"),
  "Name",
);

// better-auth makes people's ids (and Google sign-ins their own), so any text; but one with a NUL would
// reach PostgreSQL as a query parameter and fail there (a 500).
/** A person's id as a caller sends it, in a path or a body. */
export const personIdSchema = (label: string, error = `${label} must be a person's id`) =>
  storableText(z.string({ error }).min(1, error).max(200, error), label);

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

/** The colour theme a person chose: "system" follows the device's light/dark setting. */
export const themes = ["system", "light", "dark"] as const;
export type Theme = (typeof themes)[number];
export const themeSchema = z.enum(themes, { error: "Theme must be system, light or dark" });

export const updateThemeInputSchema = z.object({ theme: themeSchema });
export type UpdateThemeInput = z.infer<typeof updateThemeInputSchema>;

/**
 * The interface language a person chose: "browser" follows the browser's preferred languages (German for
 * de*, English otherwise); "en" or "de" is their own choice (decision 038).
 */
export const localeChoices = ["browser", "en", "de"] as const;
export type LocaleChoice = (typeof localeChoices)[number];
export const localeChoiceSchema = z.enum(localeChoices, { error: "Language must be browser, en or de" });

export const updateLocaleInputSchema = z.object({ locale: localeChoiceSchema });
export type UpdateLocaleInput = z.infer<typeof updateLocaleInputSchema>;

/** The signed-in person as the API describes them. */
export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(roles).nullable(),
  department: z.string(),
  status: z.enum(userStatuses),
  theme: themeSchema,
  locale: localeChoiceSchema,
  /** Signs in with a code from an authenticator app after the password (decision 046). */
  twoFactorEnabled: z.boolean(),
  /** An administrator requires two-factor sign-in and this person has not set it up: nothing else works yet. */
  mustSetUpTwoFactor: z.boolean(),
  /** A technician marked away since then (decision 073): their teams give them no new tickets; else null. */
  awaySince: z.iso.datetime().nullable(),
});
export type Me = z.infer<typeof meSchema>;

export const adminSignUpInputSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: passwordSchema,
  adminKey: storableText(
    z.string({ error: "Admin secret key is required" }).min(1, "Admin secret key is required").max(200),
    "Admin secret key",
  ),
});
export type AdminSignUpInput = z.infer<typeof adminSignUpInputSchema>;

export const chooseRoleInputSchema = z.object({
  role: z.enum(signUpRoles, { error: "Role must be user or technician" }),
});
export type ChooseRoleInput = z.infer<typeof chooseRoleInputSchema>;

export const updateProfileInputSchema = z.object({ name: personNameSchema });
export type UpdateProfileInput = z.infer<typeof updateProfileInputSchema>;

export const forgotPasswordInputSchema = z.object({ email: emailSchema });
export const resetPasswordInputSchema = z.object({ newPassword: passwordSchema });
/**
 * The reset page's form: the password rules are the server's (above); typing it twice only guards against
 * a typo. `mismatch` is the app's words for one, in its language.
 */
export const resetPasswordFormSchema = (mismatch = "Passwords do not match") =>
  resetPasswordInputSchema
    .extend({ confirmPassword: z.string() })
    .refine((input) => input.newPassword === input.confirmPassword, {
      path: ["confirmPassword"],
      message: mismatch,
    });

/** Which sign-in methods this server offers, so the client can say when one is not configured. */
export const authProvidersSchema = z.object({
  google: z.boolean(),
  oidc: z.object({ label: z.string() }).nullable(),
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;
