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

  it("offers e-mails of tickets moved to one's team to technicians only, who are the teams' members", () => {
    expect(emailTypesAvailableTo("technician")).toContain("ticket_team");
    for (const role of ["user", "admin", null] as const) {
      expect(emailTypesAvailableTo(role)).not.toContain("ticket_team");
    }
  });

  it("offers mention e-mails to staff only, since only staff can be mentioned", () => {
    expect(emailTypesAvailableTo("technician")).toContain("mentioned");
    expect(emailTypesAvailableTo("admin")).toContain("mentioned");
    expect(emailTypesAvailableTo("user")).not.toContain("mentioned");
    expect(emailTypesAvailableTo(null)).not.toContain("mentioned");
  });
});

describe("service-level e-mails", () => {
  it("are offered to staff only, since only staff hear of warnings and breaches", () => {
    for (const type of ["sla_warning", "sla_breached"] as const) {
      expect(emailTypesAvailableTo("technician")).toContain(type);
      expect(emailTypesAvailableTo("admin")).toContain(type);
      expect(emailTypesAvailableTo("user")).not.toContain(type);
      expect(emailTypesAvailableTo(null)).not.toContain(type);
    }
  });
});

describe("a webhook switched off", () => {
  it("is offered to administrators only, the only ones told of it (decision 080)", () => {
    expect(emailTypesAvailableTo("admin")).toContain("webhook_disabled");
    for (const role of ["technician", "user", null] as const) {
      expect(emailTypesAvailableTo(role)).not.toContain("webhook_disabled");
    }
  });
});
