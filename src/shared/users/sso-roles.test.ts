import { describe, expect, it } from "vitest";
import { claimValues, roleFromClaims, type SsoRoleSettings } from "./sso-roles.ts";

const mapping: SsoRoleSettings = {
  claim: "groups",
  rules: [
    { value: "helpdesk-techs", role: "technician" },
    { value: "helpdesk-admins", role: "admin" },
  ],
};

describe("the role a sign-in's claims give (decision 082)", () => {
  it("gives the highest role any rule gives, whatever the order of rules and values", () => {
    expect(roleFromClaims(mapping, { groups: ["helpdesk-admins", "helpdesk-techs"] })).toBe("admin");
    expect(
      roleFromClaims(
        { ...mapping, rules: [...mapping.rules].reverse() },
        { groups: ["helpdesk-techs", "helpdesk-admins"] },
      ),
    ).toBe("admin");
    expect(roleFromClaims(mapping, { groups: ["helpdesk-techs"] })).toBe("technician");
  });

  it("makes everyone else a user: no match, no claim, a claim of another shape, another case", () => {
    for (const claims of [
      { groups: ["all-staff"] },
      {},
      { groups: { "helpdesk-techs": true } },
      { groups: ["Helpdesk-Techs"] },
    ]) {
      expect(roleFromClaims(mapping, claims)).toBe("user");
    }
  });

  it("reads a single value, a number, and a nested claim by its dots", () => {
    expect(claimValues({ department: "IT" }, "department")).toEqual(["IT"]);
    expect(claimValues({ groups: [42, "x", null] }, "groups")).toEqual(["42", "x"]);
    expect(claimValues({ realm_access: { roles: ["helpdesk-admin"] } }, "realm_access.roles")).toEqual([
      "helpdesk-admin",
    ]);
    expect(claimValues({ "custom.groups": ["a"] }, "custom.groups")).toEqual(["a"]);
  });
});
