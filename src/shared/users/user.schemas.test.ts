import { describe, expect, it } from "vitest";
import { homePathFor } from "./roles.ts";
import { signUpInputSchema } from "./user.schemas.ts";

describe("homePathFor", () => {
  it("sends each role to its home and a person without a role to role selection", () => {
    expect(homePathFor("technician")).toBe("/technician-home");
    expect(homePathFor("admin")).toBe("/admin-home");
    expect(homePathFor("user")).toBe("/user-home");
    expect(homePathFor(undefined)).toBe("/user-home");
    expect(homePathFor(null)).toBe("/role-selection");
  });
});

describe("signUpInputSchema", () => {
  const base = { name: "Ann", email: "ann@example.com", password: "long enough" };

  it("defaults the role to user and allows technician", () => {
    expect(signUpInputSchema.parse(base).role).toBe("user");
    expect(signUpInputSchema.parse({ ...base, role: "technician" }).role).toBe("technician");
  });

  it("refuses the admin role and unknown roles", () => {
    expect(signUpInputSchema.safeParse({ ...base, role: "admin" }).success).toBe(false);
    expect(signUpInputSchema.safeParse({ ...base, role: "root" }).success).toBe(false);
  });

  it("requires 8 to 128 characters of password", () => {
    expect(signUpInputSchema.safeParse({ ...base, password: "short" }).success).toBe(false);
    expect(signUpInputSchema.safeParse({ ...base, password: "x".repeat(129) }).success).toBe(false);
    expect(signUpInputSchema.safeParse({ ...base, password: "x".repeat(128) }).success).toBe(true);
  });
});
