import { describe, expect, it } from "vitest";
import { emailTypesAvailableTo } from "./notification-email.ts";

describe("emailTypesAvailableTo", () => {
  it("offers new-ticket e-mails to technicians only", () => {
    expect(emailTypesAvailableTo("technician")).toContain("new_ticket");
    for (const role of ["user", "admin", null] as const) {
      expect(emailTypesAvailableTo(role)).not.toContain("new_ticket");
      expect(emailTypesAvailableTo(role)).toContain("ticket_comment");
    }
  });

  it("offers mention e-mails to staff only, since only staff can be mentioned", () => {
    expect(emailTypesAvailableTo("technician")).toContain("mentioned");
    expect(emailTypesAvailableTo("admin")).toContain("mentioned");
    expect(emailTypesAvailableTo("user")).not.toContain("mentioned");
    expect(emailTypesAvailableTo(null)).not.toContain("mentioned");
  });
});
