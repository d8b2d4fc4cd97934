import { describe, expect, it } from "vitest";
import { pathAfterSignIn, safeReturnPath, signInPathFrom } from "./return-path.ts";

describe("safeReturnPath", () => {
  it.each(["/tickets/TKT-20250101-ABC123", "/tickets?status=Open#top", "/admin/user-management"])(
    "accepts the page %s of this site",
    (path) => {
      expect(safeReturnPath(path)).toBe(path);
    },
  );

  it.each([
    "//evil.example/tickets",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "tickets",
    "/\t/evil.example",
    "",
    null,
    undefined,
  ])("refuses %j, which could leave the site", (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it.each(["/", "/sign-in?next=/tickets", "/sign-up", "/role-selection"])("does not return to %s", (path) => {
    expect(safeReturnPath(path)).toBeNull();
  });
});

describe("pathAfterSignIn", () => {
  it("goes back to the page, else home by role, and a person without a role chooses one first", () => {
    expect(pathAfterSignIn("user", "/tickets/TKT-1")).toBe("/tickets/TKT-1");
    expect(pathAfterSignIn("technician", null)).toBe("/technician-home");
    expect(pathAfterSignIn("admin", "//evil.example")).toBe("/admin-home");
    expect(pathAfterSignIn(null, "/tickets/TKT-1")).toBe("/role-selection");
  });
});

describe("signInPathFrom", () => {
  it("remembers a deep link, and nothing for the home page", () => {
    expect(signInPathFrom("/tickets/TKT-1?tab=comments")).toBe(
      "/sign-in?next=%2Ftickets%2FTKT-1%3Ftab%3Dcomments",
    );
    expect(signInPathFrom("/")).toBe("/sign-in");
  });
});
