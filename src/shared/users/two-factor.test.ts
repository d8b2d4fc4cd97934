import { describe, expect, it } from "vitest";
import { roles } from "./roles.ts";
import { mustSetUpTwoFactor } from "./two-factor.ts";

describe("mustSetUpTwoFactor", () => {
  const required = { requiredForStaff: true };

  it("holds only technicians and admins with a password and no authenticator app, and only when required", () => {
    for (const role of [...roles, null]) {
      const isStaff = role === "technician" || role === "admin";
      const person = { role, twoFactorEnabled: false, hasPassword: true };
      expect(mustSetUpTwoFactor(person, required)).toBe(isStaff);
      expect(mustSetUpTwoFactor(person, { requiredForStaff: false })).toBe(false);
      expect(mustSetUpTwoFactor({ ...person, twoFactorEnabled: true }, required)).toBe(false);
      // Google/OIDC only: the identity provider does the second factor.
      expect(mustSetUpTwoFactor({ ...person, hasPassword: false }, required)).toBe(false);
    }
  });
});
