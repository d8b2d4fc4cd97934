import { describe, expect, it } from "vitest";
import type { Role } from "#shared/users/roles.ts";
import { pageAccessOf, redirectFor } from "./page-access.ts";

const as = (role: Role | null, mustSetUpTwoFactor = false) => ({ role, mustSetUpTwoFactor });

describe("where the server sends a request for a page", () => {
  it.each([
    ["/tickets", "/sign-in?next=%2Ftickets"],
    ["/tickets/TKT-1?tab=activity", "/sign-in?next=%2Ftickets%2FTKT-1%3Ftab%3Dactivity"],
    ["/user-home", "/sign-in?next=%2Fuser-home"],
    ["/admin/settings", "/sign-in?next=%2Fadmin%2Fsettings"],
    ["/kb/new", "/sign-in?next=%2Fkb%2Fnew"],
    ["/kb/printer-setup", "/sign-in?next=%2Fkb%2Fprinter-setup"],
    // Role selection is not a page to come back to; it says "Please sign in first".
    ["/role-selection", "/sign-in?notice=sign-in-first"],
  ])("signed out, %s goes to sign in: %s", (url, target) => {
    expect(redirectFor(url, null)).toBe(target);
  });

  it.each([
    "/",
    "/sign-in",
    "/sign-up",
    "/forgot-password",
    "/reset-password",
    "/admin-signup",
    "/Knowledge-base",
    "/unsubscribe",
    "/no-such-page",
  ])("signed out, %s is open", (url) => {
    expect(redirectFor(url, null)).toBeNull();
  });

  it.each([
    ["user", "/technician-home", "/user-home"],
    ["user", "/admin-home", "/user-home"],
    ["user", "/reports", "/user-home"],
    ["technician", "/user-home", "/technician-home"],
    ["technician", "/admin/settings", "/technician-home"],
    ["admin", "/technician-home", "/admin-home"],
  ] as const)("a %s opening %s goes to their own home, %s", (role, url, home) => {
    expect(redirectFor(url, as(role))).toBe(home);
  });

  it.each([
    ["user", "/user-home"],
    ["admin", "/user-home"],
    ["technician", "/technician-home"],
    ["technician", "/kb/new"],
    ["user", "/tickets/TKT-1"],
    ["user", "/admin/user-management"],
  ] as const)("a %s may open %s", (role, url) => {
    expect(redirectFor(url, as(role))).toBeNull();
  });

  it("sends a signed-in person from the sign-in page back where they came from, or home", () => {
    expect(redirectFor("/sign-in?next=%2Ftickets%2FTKT-1", as("user"))).toBe("/tickets/TKT-1");
    expect(redirectFor("/sign-in", as("technician"))).toBe("/technician-home");
    expect(redirectFor("/", as("admin"))).toBe("/admin-home");
    // Never off the site.
    expect(redirectFor("/sign-in?next=%2F%2Fevil.example", as("user"))).toBe("/user-home");
  });

  it("sends a person without a role to choose one, and lets them choose", () => {
    expect(redirectFor("/tickets", as(null))).toBe("/role-selection");
    expect(redirectFor("/sign-in", as(null))).toBe("/role-selection");
    expect(redirectFor("/role-selection", as(null))).toBeNull();
    // Chosen once: the page sends anyone with a role home, and so does the server.
    expect(redirectFor("/role-selection", as("technician"))).toBe("/technician-home");
  });

  it("sends staff who must set up two-factor sign-in to its setup first", () => {
    expect(redirectFor("/technician-home", as("technician", true))).toBe("/two-factor-setup");
    expect(redirectFor("/sign-in", as("technician", true))).toBe("/two-factor-setup");
    expect(redirectFor("/two-factor-setup", as("technician", true))).toBeNull();
  });

  it("matches a literal segment before a parameter", () => {
    expect(pageAccessOf("/kb/new")).toEqual({ signedIn: true, roles: ["technician", "admin"] });
    expect(pageAccessOf("/kb/printer-setup")).toEqual({ signedIn: true });
    expect(pageAccessOf("/tickets/TKT-1/extra")).toBeNull();
  });
});
