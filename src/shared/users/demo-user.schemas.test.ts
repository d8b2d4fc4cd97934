import { describe, expect, it } from "vitest";
import { demoUserInputSchema } from "./demo-user.schemas.ts";

const valid = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  role: "technician",
  department: "Engineering",
  status: "Active",
};

const messagesOf = (input: unknown) => {
  const result = demoUserInputSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path[0], i.message]));
};

describe("demoUserInputSchema", () => {
  it("accepts a complete person and trims the name and department", () => {
    expect(demoUserInputSchema.parse({ ...valid, name: "  Ada  ", department: " IT " })).toEqual({
      ...valid,
      name: "Ada",
      department: "IT",
    });
  });

  it("requires every field, with a message for each", () => {
    expect(messagesOf({})).toEqual({
      name: "Name is required",
      email: "Enter a valid e-mail address",
      role: "Role must be user, technician or admin",
      department: "Department is required",
      status: "Status must be Active or Inactive",
    });
  });

  it("refuses blank names and departments", () => {
    expect(messagesOf({ ...valid, name: "   ", department: "  " })).toEqual({
      name: "Name is required",
      department: "Department is required",
    });
  });

  it("refuses an email that is not an email", () => {
    expect(messagesOf({ ...valid, email: "ada.example.com" })).toEqual({
      email: "Enter a valid e-mail address",
    });
    expect(messagesOf({ ...valid, email: "" })).toEqual({ email: "Enter a valid e-mail address" });
  });

  it("refuses roles and statuses outside the spec's lists", () => {
    expect(messagesOf({ ...valid, role: "director", status: "Suspended" })).toEqual({
      role: "Role must be user, technician or admin",
      status: "Status must be Active or Inactive",
    });
  });
});
