import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

// Property names are better-auth's field names (it reads them through its Drizzle adapter);
// column names are snake_case.
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    // Null right after a first Google/OIDC sign-in, until the person picks one on /role-selection.
    role: text("role"),
    department: text("department").notNull().default("General"),
    status: text("status").notNull().default("Active"),
    lastLogin: timestamp("last_login", { withTimezone: true }),
    // "system" follows the device's light/dark setting; "light" or "dark" is the person's own choice.
    theme: text("theme").notNull().default("system"),
    // "browser" follows the browser's preferred languages; "en" or "de" is the person's own choice (decision 038).
    locale: text("locale").notNull().default("browser"),
    // better-auth's two-factor plugin sets it once an authenticator app is confirmed (decision 046).
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    // A technician marked away (decision 069): team auto-assignment skips them until they are back.
    awaySince: timestamp("away_since", { withTimezone: true, precision: 3 }),
    // The identity provider's own id for a person it provisioned over SCIM (decision 081); null otherwise.
    externalId: text("external_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("users_role_check", sql`${t.role} is null or ${t.role} in ('user', 'technician', 'admin')`),
    check("users_status_check", sql`${t.status} in ('Active', 'Inactive')`),
    check("users_theme_check", sql`${t.theme} in ('system', 'light', 'dark')`),
    check("users_locale_check", sql`${t.locale} in ('browser', 'en', 'de')`),
    index("users_created_at_idx").on(t.createdAt.desc()),
    // User management's keysets, scanned backwards for "newest first" (docs/decisions/004).
    index("users_created_id_idx").on(t.createdAt, t.id),
    index("users_role_created_id_idx").on(t.role, t.createdAt, t.id),
    index("users_lower_name_id_idx").on(sql`lower(${t.name})`, t.id),
    uniqueIndex("users_external_id_idx").on(t.externalId).where(sql`${t.externalId} is not null`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("accounts_user_id_idx").on(t.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verifications_identifier_idx").on(t.identifier)],
);

// better-auth's two-factor plugin (decision 046): one row per person who set up an authenticator app.
// The TOTP secret and the recovery codes are stored encrypted with the app's secret (BETTER_AUTH_SECRET).
export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // False between "enable" and the first correct code: the secret is not used for sign-in until then.
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factors_user_id_idx").on(t.userId)],
);

// Rate-limit counters live in the database so that every app instance shares them.
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

export type UserRow = typeof users.$inferSelect;
