import { describe, expect, it } from "vitest";
import { defaultDepartmentList, departmentKey, departmentListSchema } from "./department.schemas.ts";

function issuesOf(departments: unknown) {
  const result = departmentListSchema.safeParse({ departments });
  return result.success
    ? []
    : result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

describe("departmentListSchema", () => {
  it("keeps the admins' order and trims every name", () => {
    expect(departmentListSchema.parse({ departments: [" Finance ", "General", "IT"] })).toEqual({
      departments: ["Finance", "General", "IT"],
    });
  });

  it("starts with General alone", () => {
    expect(departmentListSchema.parse(defaultDepartmentList)).toEqual({ departments: ["General"] });
  });

  it("refuses a blank, a too long and an unstorable name at its position", () => {
    expect(issuesOf(["General", " ", "x".repeat(101), "A\u0007B"])).toEqual([
      { path: "departments.1", message: "Department name is required" },
      { path: "departments.2", message: "Department name must be at most 100 characters" },
      { path: "departments.3", message: "Department name must not contain control characters" },
    ]);
    expect(issuesOf(["General", "y".repeat(100)])).toEqual([]);
  });

  it("refuses the same department twice, whatever its case or spaces", () => {
    expect(issuesOf(["General", "Finance", " FINANCE"])).toEqual([
      { path: "departments.2", message: "FINANCE is listed twice" },
    ]);
    expect(departmentKey(" Finance ")).toBe(departmentKey("fINANCE"));
  });

  it("keeps General, the default department of new tickets and users", () => {
    expect(issuesOf(["Finance"])).toEqual([
      {
        path: "departments",
        message: "General must stay in the list (the default department of new tickets and users)",
      },
    ]);
    expect(issuesOf(["Finance", "general"]).map((issue) => issue.message)).toContain(
      "General must stay in the list (the default department of new tickets and users)",
    );
  });

  it("takes 1 to 200 departments", () => {
    expect(issuesOf([])[0]?.message).toBe("Departments must list at least General");
    const many = ["General", ...Array.from({ length: 199 }, (_, i) => `Department ${i}`)];
    expect(issuesOf(many)).toEqual([]);
    expect(issuesOf([...many, "One more"])).toEqual([
      { path: "departments", message: "At most 200 departments" },
    ]);
    expect(issuesOf("General")).toEqual([
      { path: "departments", message: "Departments must be a list of names" },
    ]);
  });
});
