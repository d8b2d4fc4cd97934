import { describe, expect, it } from "vitest";
import { defaultBusinessCalendar } from "#shared/service-levels/business-calendar.schemas.ts";
import { ruleConditionsSchemaFor } from "./rule-conditions.schemas.ts";
import { conditionsHold, type RuleContext, type RuleTicket } from "./rule-conditions.ts";

// Monday 2030-01-07 09:00 UTC: the default calendar's working hours are Monday to Friday, 09:00–17:00 UTC.
const monday9 = new Date("2030-01-07T09:00:00Z");
const hours = (n: number) => new Date(monday9.getTime() + n * 3_600_000);

const vpnTicket: RuleTicket = {
  title: "VPN down on floor 3",
  description: "The Wi-Fi works, the tunnel does not",
  status: "Open",
  priority: "High",
  category: "Network",
  teamId: null,
  assignedTo: null,
  tags: ["vpn", "Remote"],
  department: "Sales",
  customFields: { cf_0123456789abcdef: "laptop" },
  createdAt: monday9,
  updatedAt: monday9,
  onHoldSince: null,
};
const context: RuleContext = { changedBy: "requester", now: hours(1), calendar: defaultBusinessCalendar };

const holds = (conditions: unknown, ticket = vpnTicket, ctx = context, trigger = "changed" as const) =>
  conditionsHold(ruleConditionsSchemaFor(trigger).parse(conditions), ticket, ctx);

describe("a rule's conditions", () => {
  it("hold all at once, and a rule without any holds for every ticket", () => {
    expect(holds([])).toBe(true);
    expect(
      holds([
        { field: "status", op: "is", value: "Open" },
        { field: "category", op: "is", value: "Network" },
        { field: "assignee", op: "is", value: null },
      ]),
    ).toBe(true);
    expect(
      holds([
        { field: "status", op: "is", value: "Open" },
        { field: "priority", op: "is_not", value: "High" },
      ]),
    ).toBe(false);
  });

  it("read tags and departments whatever their case, and team and assignee with null as none", () => {
    expect(holds([{ field: "tag", op: "is", value: "remote" }])).toBe(true);
    expect(holds([{ field: "tag", op: "is_not", value: "printer" }])).toBe(true);
    expect(holds([{ field: "department", op: "is", value: " sales " }])).toBe(true);
    expect(holds([{ field: "team", op: "is", value: null }])).toBe(true);
    expect(holds([{ field: "team", op: "is_not", value: null }])).toBe(false);
  });

  it("find words as whole words in the title, or in the description too when asked", () => {
    expect(holds([{ field: "words", in: "title", value: ["vpn", "printer"] }])).toBe(true);
    expect(holds([{ field: "words", in: "title", value: ["wi-fi"] }])).toBe(false);
    expect(holds([{ field: "words", in: "title_or_description", value: ["wi-fi"] }])).toBe(true);
    expect(holds([{ field: "words", in: "title", value: ["flo"] }])).toBe(false);
  });

  it("compare a custom field's value and who made the change", () => {
    expect(
      holds([{ field: "custom_field", fieldId: "cf_0123456789abcdef", op: "is", value: "Laptop" }]),
    ).toBe(true);
    expect(holds([{ field: "changed_by", value: "staff" }])).toBe(false);
    expect(holds([{ field: "changed_by", value: "requester" }])).toBe(true);
  });

  it("count time since creation, the last activity or the hold, in business hours unless told otherwise", () => {
    const time = (conditions: unknown, ticket: RuleTicket, now: Date) =>
      conditionsHold(ruleConditionsSchemaFor("time").parse(conditions), ticket, { ...context, now });
    const twoBusinessHours = [{ field: "elapsed", since: "created", hours: 2 }];
    expect(time(twoBusinessHours, vpnTicket, hours(1.9))).toBe(false);
    expect(time(twoBusinessHours, vpnTicket, hours(2))).toBe(true);
    // Friday 16:00 → Monday 10:00 is two business hours, and 66 on the clock.
    const friday16 = new Date("2030-01-11T16:00:00Z");
    const monday10 = new Date("2030-01-14T10:00:00Z");
    const late = { ...vpnTicket, createdAt: friday16, updatedAt: friday16 };
    expect(time(twoBusinessHours, late, new Date("2030-01-14T09:59:00Z"))).toBe(false);
    expect(time(twoBusinessHours, late, monday10)).toBe(true);
    expect(time([{ field: "elapsed", since: "updated", hours: 66, business: false }], late, monday10)).toBe(
      true,
    );
    // A hold clock that is not running never holds.
    const onHold = [{ field: "elapsed", since: "on_hold", hours: 1, business: false }];
    expect(time(onHold, vpnTicket, hours(100))).toBe(false);
    expect(time(onHold, { ...vpnTicket, onHoldSince: monday9 }, hours(1))).toBe(true);
  });
});

describe("what a rule's conditions may say for its trigger", () => {
  const messages = (trigger: "created" | "changed" | "time", conditions: unknown) => {
    const result = ruleConditionsSchemaFor(trigger).safeParse(conditions);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it("refuses who changed it outside change rules, and a clock outside time-based rules", () => {
    expect(messages("created", [{ field: "changed_by", value: "staff" }])).toEqual([
      "Changed by applies only to rules run when a ticket changes",
    ]);
    expect(messages("changed", [{ field: "elapsed", since: "created", hours: 2 }])).toEqual([
      "Time since applies only to time-based rules",
    ]);
    expect(messages("time", [{ field: "status", op: "is", value: "Open" }])).toEqual([
      "A time-based rule needs a “time since” condition",
    ]);
  });

  it("names what is wrong with a condition", () => {
    expect(messages("changed", [{ field: "status", op: "is", value: "Done" }])).toEqual([
      "Status must be Open, In Progress, Resolved, Closed",
    ]);
    expect(messages("changed", [{ field: "words", in: "title", value: [] }])).toEqual([
      "Give at least one word or phrase",
    ]);
    expect(messages("time", [{ field: "elapsed", since: "created", hours: 0 }])).toEqual([
      "Hours must be more than 0",
    ]);
    expect(messages("changed", [{ field: "colour", value: "red" }])).toEqual(["Unknown condition"]);
  });
});
